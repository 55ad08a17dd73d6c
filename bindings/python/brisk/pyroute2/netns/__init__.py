"""pyroute2.netns: named network namespaces under /var/run/netns.

create/remove go through brisk's transport module (``brisk._brisk``'s
``create_netns``/``delete_netns``); setns/pushns/popns switch the calling
thread's namespace with setns(2), as pyroute2 does.
"""

import ctypes
import ctypes.util
import errno
import os

from .. import _transport
from .._codec import UnsupportedArgument

CLONE_NEWNET = 0x40000000
NETNS_RUN_DIR = '/var/run/netns'
_RUN_DIRS = ('/var/run/netns', '/run/netns')

__saved_ns = []
__libc = None


def _get_netnspath(name):
    path = name
    if not os.path.dirname(name):
        path = '%s/%s' % (NETNS_RUN_DIR, name)
    if hasattr(path, 'encode'):
        path = path.encode('ascii')
    return path


def _get_libc(libc=None):
    global __libc
    if libc is not None:
        return libc
    if __libc is None:
        __libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)
    return __libc


def _plain_name(netns, what):
    if isinstance(netns, bytes):
        netns = netns.decode('utf-8')
    d = os.path.dirname(netns)
    if d and d.rstrip('/') not in _RUN_DIRS:
        raise UnsupportedArgument(
            'brisk.pyroute2 netns.%s(): only namespaces under %s are '
            'supported, not %r' % (what, NETNS_RUN_DIR, netns))
    return os.path.basename(netns)


def listnetns(nspath=None):
    """List available network namespaces."""
    try:
        return os.listdir(nspath or NETNS_RUN_DIR)
    except OSError as e:
        if e.errno == errno.ENOENT:
            return []
        raise


def create(netns, libc=None):
    """Create a network namespace (like `ip netns add`)."""
    _transport.create_netns(_plain_name(netns, 'create'))


def _create(netns, libc=None, pid=None):
    if pid is not None:
        raise UnsupportedArgument(
            'brisk.pyroute2 netns._create(): pid= is not supported')
    create(netns, libc)


def attach(netns, pid, libc=None):
    raise UnsupportedArgument(
        'brisk.pyroute2 netns.attach() is not supported')


def remove(netns, libc=None):
    """Remove a network namespace (like `ip netns del`)."""
    _transport.delete_netns(_plain_name(netns, 'remove'))


def _get_ns_by_inode(nspath=NETNS_RUN_DIR):
    out = {}
    for name in listnetns(nspath=nspath):
        st = os.stat(os.path.join(nspath, name))
        out.setdefault(st.st_dev, {})[st.st_ino] = name
    return out


def ns_pids(nspath=NETNS_RUN_DIR):
    """{namespace name: [pids]} for the pids found in named namespaces."""
    result = {}
    by_inode = _get_ns_by_inode(nspath)
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            st = os.stat(os.path.join('/proc', pid, 'ns', 'net'))
        except OSError as e:
            if e.errno in (errno.EACCES, errno.ENOENT):
                continue
            raise
        try:
            name = by_inode[st.st_dev][st.st_ino]
        except KeyError:
            continue
        result.setdefault(name, []).append(int(pid))
    return result


def pid_to_ns(pid=1, nspath=NETNS_RUN_DIR):
    try:
        st = os.stat(os.path.join('/proc', str(pid), 'ns', 'net'))
        return _get_ns_by_inode(nspath)[st.st_dev][st.st_ino]
    except OSError as e:
        if e.errno in (errno.EACCES, errno.ENOENT):
            return None
        raise
    except KeyError:
        return None


def setns(netns, flags=os.O_CREAT, libc=None):
    """Move the calling thread into `netns` (a name, path or open fd)."""
    libc = _get_libc(libc)
    newfd = False
    if isinstance(netns, str):
        path = _get_netnspath(netns)
        if os.path.basename(netns) in listnetns(os.path.dirname(netns) or
                                                None):
            if flags & (os.O_CREAT | os.O_EXCL) == (os.O_CREAT | os.O_EXCL):
                raise OSError(errno.EEXIST, 'netns exists', netns)
        elif flags & os.O_CREAT:
            create(netns, libc=libc)
        nsfd = os.open(path, os.O_RDONLY)
        newfd = True
    elif isinstance(netns, int):
        nsfd = netns
    elif hasattr(netns, 'fileno'):
        nsfd = netns.fileno()
    else:
        raise RuntimeError('netns should be a string or an open fd')
    error = libc.setns(nsfd, CLONE_NEWNET)
    if newfd:
        os.close(nsfd)
    if error != 0:
        raise OSError(ctypes.get_errno(), 'failed to open netns', netns)


def pushns(newns=None, libc=None):
    """Save the current namespace; switch to `newns` if given."""
    __saved_ns.append(os.open('/proc/self/ns/net', os.O_RDONLY))
    if newns is not None:
        setns(newns, libc=libc)


def popns(libc=None):
    """Return to the namespace saved by the last pushns()."""
    fd = __saved_ns.pop()
    try:
        setns(fd, libc=libc)
    except Exception:
        __saved_ns.append(fd)
        raise
    os.close(fd)


def dropns(libc=None):
    """Forget the namespace saved by the last pushns()."""
    fd = __saved_ns.pop()
    try:
        os.close(fd)
    except Exception:
        pass
