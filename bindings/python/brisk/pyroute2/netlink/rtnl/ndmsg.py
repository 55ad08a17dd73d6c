"""pyroute2.netlink.rtnl.ndmsg: neighbour states and flags."""

from ..._codec import ndmsg  # noqa: F401
from ..._requests import states_a2n  # noqa: F401

NTF_USE = 0x01
NTF_SELF = 0x02
NTF_MASTER = 0x04
NTF_PROXY = 0x08
NTF_EXT_LEARNED = 0x10
NTF_ROUTER = 0x80

NUD_INCOMPLETE = 0x01
NUD_REACHABLE = 0x02
NUD_STALE = 0x04
NUD_DELAY = 0x08
NUD_PROBE = 0x10
NUD_FAILED = 0x20
NUD_NOARP = 0x40
NUD_PERMANENT = 0x80
NUD_NONE = 0x00

NTF_NAMES = {k: v for k, v in globals().items() if k.startswith('NTF_')}
NTF_VALUES = {v: k for k, v in NTF_NAMES.items()}
NUD_NAMES = {k: v for k, v in globals().items() if k.startswith('NUD_')}
NUD_VALUES = {v: k for k, v in NUD_NAMES.items()}
flags = {k[4:].lower(): v for k, v in NTF_NAMES.items()}
states = {k[4:].lower(): v for k, v in NUD_NAMES.items()}
