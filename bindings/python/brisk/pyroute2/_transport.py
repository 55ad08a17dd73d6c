"""Where the netlink transport comes from.

The package is built on ``brisk._brisk`` (C++): ``Netlink``,
``create_netns``, ``delete_netns``, ``list_netns``.  The pure-Python
``_pytransport`` is a development fallback only, used when the extension
is not importable (e.g. before it is built); set BRISK_PYROUTE2_REQUIRE_NATIVE=1
to refuse the fallback.
"""

import os

try:
    from .. import _brisk as _native
    Netlink = _native.Netlink
    create_netns = _native.create_netns
    delete_netns = _native.delete_netns
    list_netns = _native.list_netns
    NATIVE = True
except ImportError:
    if os.environ.get('BRISK_PYROUTE2_REQUIRE_NATIVE'):
        raise
    from ._pytransport import (Netlink, create_netns,  # noqa: F401
                               delete_netns, list_netns)
    NATIVE = False
