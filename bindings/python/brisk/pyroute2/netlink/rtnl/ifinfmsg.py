"""pyroute2.netlink.rtnl.ifinfmsg: interface flags and operstates."""

from ..._codec import _OPERSTATES as states
from ..._codec import ifinfmsg  # noqa: F401
from ..._requests import IFF_NAMES as _IFF

IFF_UP = 0x1
IFF_BROADCAST = 0x2
IFF_DEBUG = 0x4
IFF_LOOPBACK = 0x8
IFF_POINTOPOINT = 0x10
IFF_NOTRAILERS = 0x20
IFF_RUNNING = 0x40
IFF_NOARP = 0x80
IFF_PROMISC = 0x100
IFF_ALLMULTI = 0x200
IFF_MASTER = 0x400
IFF_SLAVE = 0x800
IFF_MULTICAST = 0x1000
IFF_PORTSEL = 0x2000
IFF_AUTOMEDIA = 0x4000
IFF_DYNAMIC = 0x8000
IFF_LOWER_UP = 0x10000
IFF_DORMANT = 0x20000
IFF_ECHO = 0x40000

IFF_NAMES = dict(_IFF)
IFF_VALUES = {v: k for k, v in IFF_NAMES.items()}
IFF_MASK = (IFF_UP | IFF_DEBUG | IFF_NOTRAILERS | IFF_NOARP | IFF_PROMISC |
            IFF_ALLMULTI)
IFF_VOLATILE = (IFF_LOOPBACK | IFF_POINTOPOINT | IFF_BROADCAST | IFF_ECHO |
                IFF_MASTER | IFF_SLAVE | IFF_RUNNING | IFF_LOWER_UP |
                IFF_DORMANT)

state_by_name = {name: code for code, name in enumerate(states)}
state_by_code = dict(enumerate(states))
