"""pyroute2.nslink.nslink.NetNS: here an IPRoute whose socket lives in the
namespace (no helper process)."""

from ..iproute.linux import NetNS  # noqa: F401
