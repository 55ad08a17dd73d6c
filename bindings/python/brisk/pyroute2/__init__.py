"""brisk.pyroute2 -- a drop-in for the pyroute2 0.7.2 RTNL API.

Pure Python request translation and message decoding over brisk's C++
netlink transport (``brisk._brisk.Netlink``).  ``NetNS`` needs no helper
process: its socket is created inside the namespace.

    import brisk.pyroute2
    brisk.pyroute2.install_as_pyroute2()   # now `import pyroute2` is this
    from pyroute2 import IPRoute, NetNS

Differences from pyroute2 0.7.2 are errors, never silent: anything not
covered raises ``brisk.pyroute2.UnsupportedArgument`` (a ValueError)
naming the argument.  One deliberate difference: ``msg.get('ifname')``
returns the attribute (pyroute2 0.7.2 documents this but, splitting the
string key into characters, returns None).  Attribute cells in
``msg['attrs']`` are plain ``(name, value)`` tuples (pyroute2's nla_slot
objects index and unpack the same way).
"""

import sys

from . import config, iproute, netlink, netns, nslink  # noqa: F401
from ._codec import UnsupportedArgument  # noqa: F401
from .iproute import IPRoute, NetNS  # noqa: F401
from .iproute.linux import Batch  # noqa: F401
from .netlink import exceptions  # noqa: F401
from .netlink import rtnl  # noqa: F401
from .netlink.exceptions import NetlinkError  # noqa: F401
from .netlink.rtnl import fibmsg, ifaddrmsg, ifinfmsg, ndmsg, rtmsg  # noqa

__version__ = '0.7.2'

_SUBMODULES = (
    'netlink', 'netlink.exceptions', 'netlink.rtnl', 'netlink.rtnl.ifinfmsg',
    'netlink.rtnl.ndmsg', 'netlink.rtnl.ifaddrmsg', 'netlink.rtnl.rtmsg',
    'netlink.rtnl.fibmsg', 'iproute', 'iproute.linux', 'netns', 'nslink',
    'nslink.nslink', 'config',
)


def install_as_pyroute2(name='pyroute2'):
    """Make ``import pyroute2`` (and its submodules) resolve to this package.

    Registers this package and every submodule under `name` in
    sys.modules; call it before anything imports the real pyroute2.
    """
    import importlib
    pkg = sys.modules[__name__]
    sys.modules[name] = pkg
    for sub in _SUBMODULES:
        mod = importlib.import_module('%s.%s' % (__name__, sub))
        sys.modules['%s.%s' % (name, sub)] = mod
    return pkg


__all__ = ['IPRoute', 'NetNS', 'NetlinkError', 'UnsupportedArgument',
           'netns', 'iproute', 'netlink', 'install_as_pyroute2']
