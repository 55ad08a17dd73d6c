"""pyroute2.netlink.rtnl.rtmsg"""

from ..._codec import rtmsg  # noqa: F401

IP6_RT_PRIO_USER = 1024
IP6_RT_PRIO_ADDRCONF = 256
LWTUNNEL_ENCAP_NONE = 0
LWTUNNEL_ENCAP_MPLS = 1
