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

import importlib
import importlib.abc
import importlib.util
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


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


class _AliasFinder(importlib.abc.MetaPathFinder):
    """`sys.modules['pyroute2'] = brisk.pyroute2` alone must be enough:
    then `import pyroute2.netlink.exceptions` resolves to the (one and
    only) brisk.pyroute2.netlink.exceptions, not to a second copy loaded
    from the same files under another name (whose NetlinkError would be
    a different class)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        for alias, pkg in tuple(_ALIASES.items()):
            if not fullname.startswith(alias + '.'):
                continue
            if sys.modules.get(alias) is not pkg:
                continue
            real = __name__ + fullname[len(alias):]
            try:
                module = importlib.import_module(real)
            except ImportError:
                return None
            return importlib.util.spec_from_loader(fullname,
                                                   _AliasLoader(module))
        return None


_ALIASES = {'pyroute2': sys.modules[__name__]}
if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _AliasFinder())


def install_as_pyroute2(name='pyroute2'):
    """Make ``import pyroute2`` (and its submodules) resolve to this package.

    Registers this package and every submodule under `name` in
    sys.modules; call it before anything imports the real pyroute2.
    """
    pkg = sys.modules[__name__]
    _ALIASES[name] = pkg
    sys.modules[name] = pkg
    for sub in _SUBMODULES:
        mod = importlib.import_module('%s.%s' % (__name__, sub))
        sys.modules['%s.%s' % (name, sub)] = mod
    return pkg


__all__ = ['IPRoute', 'NetNS', 'NetlinkError', 'UnsupportedArgument',
           'netns', 'iproute', 'netlink', 'install_as_pyroute2']
