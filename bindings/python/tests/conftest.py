"""Shared fixtures for the brisk.pyroute2 tests.

Every test works in throwaway named network namespaces (bpt-<pid>-<n>),
made and removed with `ip netns`, never touching the host's namespace.
Run as root with PYTHONPATH=<build>/bindings/python:<src>/bindings/python
(the real pyroute2 0.7.2, the oracle, comes from Debian's python3).
"""

import itertools
import os
import subprocess

import pytest

_counter = itertools.count()


def _need_root():
    if os.geteuid() != 0:
        pytest.skip('needs root (creates network namespaces)')


def _ns_name():
    return 'bpt-%d-%d' % (os.getpid(), next(_counter))


def _ns_delete(name):
    subprocess.run(['ip', 'netns', 'del', name], capture_output=True)


@pytest.fixture
def make_ns():
    """make_ns() -> name of a fresh namespace; all removed at teardown."""
    _need_root()
    made = []

    def make(create=True):
        name = _ns_name()
        made.append(name)
        if create:
            subprocess.run(['ip', 'netns', 'add', name], check=True)
        return name

    yield make
    for name in made:
        _ns_delete(name)


@pytest.fixture
def ns_name(make_ns):
    return make_ns()


@pytest.fixture
def pyroute2_real():
    """The real pyroute2 (the oracle)."""
    _need_root()
    import warnings
    warnings.simplefilter('ignore', DeprecationWarning)
    import pyroute2
    if 'brisk' in getattr(pyroute2, '__file__', '') or \
            getattr(pyroute2, '__name__', '') != 'pyroute2':
        pytest.skip('pyroute2 is aliased to brisk.pyroute2 here')
    return pyroute2


@pytest.fixture
def brisk_pr2():
    _need_root()
    import brisk.pyroute2 as bp
    return bp


@pytest.fixture
def pair(make_ns, pyroute2_real, brisk_pr2):
    """(real NetNS in namespace A, brisk NetNS in namespace B, A, B)."""
    a, b = make_ns(), make_ns()
    real = pyroute2_real.NetNS(a, flags=0)
    ours = brisk_pr2.NetNS(b, flags=0)
    try:
        yield real, ours, a, b
    finally:
        real.close()
        ours.close()
