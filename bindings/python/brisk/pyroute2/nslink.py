"""pyroute2.nslink: NetNS lives in iproute.linux here (no helper process)."""

from .iproute.linux import NetNS  # noqa: F401
