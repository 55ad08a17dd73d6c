"""Where the netlink transport comes from: ``brisk._brisk`` (C++).

``Netlink`` (one NETLINK_ROUTE socket made inside a namespace, pipelined
requests, coalesced link deletes), ``create_netns``, ``delete_netns`` and
``list_netns``. There is no pure-Python fallback: without the extension
the package does not import, rather than run slower and differently.
"""

from .._brisk import Netlink, create_netns, delete_netns, list_netns  # noqa: F401

NATIVE = True
