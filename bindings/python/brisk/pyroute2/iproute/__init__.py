"""pyroute2.iproute"""

from .linux import RTNL_API, Batch, IPRoute, NetNS  # noqa: F401

__all__ = ['IPRoute', 'NetNS', 'RTNL_API', 'Batch']
