"""pyroute2.netlink: constants, message base classes, exceptions."""

from .._codec import nla, nlmsg, nlmsg_base  # noqa: F401

# isinstance() targets callers use (e.g. Neutron's make_serializable):
# nested attribute values are `nla_base`; attribute cells are plain
# (name, value) tuples here, so nothing is an `nla_slot`.
nla_base = nla


class nla_slot(tuple):
    """Attribute cell type name; brisk.pyroute2 returns plain tuples."""

    __slots__ = ()

    def __new__(cls, name, value):
        return tuple.__new__(cls, (name, value))

    @property
    def name(self):
        return self[0]

    @property
    def value(self):
        return self[1]

from .exceptions import (NetlinkDecodeError, NetlinkDumpInterrupted,  # noqa
                         NetlinkError)

NETLINK_ROUTE = 0
NETLINK_GENERIC = 16

NLM_F_REQUEST = 1
NLM_F_MULTI = 2
NLM_F_ACK = 4
NLM_F_ECHO = 8
NLM_F_DUMP_INTR = 0x10
NLM_F_DUMP_FILTERED = 0x20
NLM_F_ROOT = 0x100
NLM_F_MATCH = 0x200
NLM_F_ATOMIC = 0x400
NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH
NLM_F_REPLACE = 0x100
NLM_F_EXCL = 0x200
NLM_F_CREATE = 0x400
NLM_F_APPEND = 0x800
NLM_F_CAPPED = 0x100
NLM_F_ACK_TLVS = 0x200

NLMSG_NOOP = 1
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLMSG_OVERRUN = 4
NLMSG_MIN_TYPE = 0x10

NLA_F_NESTED = 1 << 15
NLA_F_NET_BYTEORDER = 1 << 14
