"""pyroute2.netlink.rtnl: RTM_* message types, RTMGRP_* groups and the
rt_type / rt_proto / rt_scope tables (both directions: name <-> number)."""

from ..._requests import RT_PROTOS as _PROTOS
from ..._requests import RT_SCOPES as _SCOPES
from ..._requests import RT_TYPES as _TYPES

RTMGRP_NONE = 0x0
RTMGRP_LINK = 0x1
RTMGRP_NOTIFY = 0x2
RTMGRP_NEIGH = 0x4
RTMGRP_TC = 0x8
RTMGRP_IPV4_IFADDR = 0x10
RTMGRP_IPV4_MROUTE = 0x20
RTMGRP_IPV4_ROUTE = 0x40
RTMGRP_IPV4_RULE = 0x80
RTMGRP_IPV6_IFADDR = 0x100
RTMGRP_IPV6_MROUTE = 0x200
RTMGRP_IPV6_ROUTE = 0x400
RTMGRP_IPV6_IFINFO = 0x800
RTMGRP_IPV6_PREFIX = 0x20000
RTMGRP_IPV6_RULE = 0x40000
RTMGRP_MPLS_ROUTE = 0x4000000

RTM_NEWLINK = 16
RTM_DELLINK = 17
RTM_GETLINK = 18
RTM_SETLINK = 19
RTM_NEWADDR = 20
RTM_DELADDR = 21
RTM_GETADDR = 22
RTM_NEWROUTE = 24
RTM_DELROUTE = 25
RTM_GETROUTE = 26
RTM_NEWNEIGH = 28
RTM_DELNEIGH = 29
RTM_GETNEIGH = 30
RTM_NEWRULE = 32
RTM_DELRULE = 33
RTM_GETRULE = 34
RTM_NEWQDISC = 36
RTM_DELQDISC = 37
RTM_GETQDISC = 38
RTM_NEWTCLASS = 40
RTM_DELTCLASS = 41
RTM_GETTCLASS = 42
RTM_NEWTFILTER = 44
RTM_DELTFILTER = 45
RTM_GETTFILTER = 46
RTM_NEWNEIGHTBL = 64
RTM_GETNEIGHTBL = 66
RTM_SETNEIGHTBL = 67
RTM_NEWNSID = 88
RTM_DELNSID = 89
RTM_GETNSID = 90
RTM_NEWSTATS = 92
RTM_GETSTATS = 94
RTM_NEWLINKPROP = 108
RTM_DELLINKPROP = 109
RTM_GETLINKPROP = 110
RTM_NEWNETNS = 500
RTM_DELNETNS = 501
RTM_GETNETNS = 502

RTM_NAMES = {k: v for k, v in globals().items() if k.startswith('RTM_')}
RTM_VALUES = {v: k for k, v in RTM_NAMES.items()}

TC_H_INGRESS = 0xFFFFFFF1
TC_H_CLSACT = TC_H_INGRESS
TC_H_ROOT = 0xFFFFFFFF

encap_type = {'unspec': 0, 'mpls': 1, 0: 'unspec', 1: 'mpls'}

rtypes = {'RTN_' + k.upper(): v for k, v in _TYPES.items()}
rtprotos = {'RTPROT_' + k.upper(): v for k, v in _PROTOS.items()}
rtscopes = {'RT_SCOPE_' + k.upper(): v for k, v in _SCOPES.items()}


def _both_ways(table):
    out = dict(table)
    out.update({v: k for k, v in table.items()})
    return out


rt_type = _both_ways(_TYPES)
rt_proto = _both_ways(_PROTOS)
rt_scope = _both_ways(_SCOPES)
