"""pyroute2.nslink (older callers: `from pyroute2.nslink import nslink`)."""

from .nslink import NetNS  # noqa: F401
