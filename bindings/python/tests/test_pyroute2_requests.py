"""Request encoding without the kernel: the fast paths build exactly the
bytes the general translation builds, and fall back for every other shape."""

import pytest

from brisk.pyroute2 import _requests as R

FAST = [
    ("add", {"index": 5, "address": "10.1.2.3", "mask": 24}),
    ("add", {"index": 70000, "address": "192.0.2.1", "prefixlen": 32}),
    ("del", {"index": 1, "address": "10.0.0.1", "mask": 8}),
    ("del", {"index": 2, "address": "0.0.0.0", "prefixlen": 0}),
]


@pytest.mark.parametrize("command,kwarg", FAST)
def test_fast_addr_requests_are_the_general_ones(command, kwarg):
    fast = R._addr_fast(command, dict(kwarg))
    assert fast is not None
    general = R._addr_generic(command, dict(kwarg))
    assert fast[0].data == general[0].data
    assert (fast[0].mtype, fast[0].flags, fast[0].what) == \
        (general[0].mtype, general[0].flags, general[0].what)


NOT_FAST = [
    ("add", {"index": 5, "address": "fd00::1", "prefixlen": 64}),
    ("add", {"index": 5, "address": "10.1.2.3/24"}),
    ("add", {"index": 5, "address": "10.1.2.3", "mask": 24, "broadcast": True}),
    ("add", {"index": [5], "address": "10.1.2.3", "mask": 24}),
    ("add", {"index": True, "address": "10.1.2.3", "mask": 24}),
    ("replace", {"index": 5, "address": "10.1.2.3", "mask": 24}),
    ("add", {"index": 5, "address": "", "mask": 24}),
]


@pytest.mark.parametrize("command,kwarg", NOT_FAST)
def test_other_shapes_take_the_general_path(command, kwarg):
    assert R._addr_fast(command, dict(kwarg)) is None
    assert R.addr_request(command, dict(kwarg))[0].data == R._addr_generic(command, dict(kwarg))[0].data


@pytest.mark.parametrize("command,kwarg", FAST)
def test_a_batch_gets_the_general_undo(command, kwarg):
    fast = R._addr_fast(command, dict(kwarg), want_undo=True)[0]
    general = R._addr_generic(command, dict(kwarg), want_undo=True)[0]
    assert (fast.data, fast.undo) == (general.data, general.undo)
    assert (fast.undo is not None) == (command == "add")


@pytest.mark.parametrize("kwarg", [{"index": 5, "state": "up"}, {"index": 70000, "state": "down"},
                                   {"index": 0, "state": "up"}])
def test_fast_link_state_is_the_general_one(kwarg):
    fast = R._link_state_fast("set", dict(kwarg))
    assert fast is not None
    general = R._link_generic("set", dict(kwarg))
    assert fast[0].data == general[0].data and fast[0].what == general[0].what


@pytest.mark.parametrize("command,kwarg", [("set", {"index": 5, "state": "UP"}),
                                           ("set", {"index": 5, "mtu": 1400}),
                                           ("set", {"ifname": "x", "state": "up"}),
                                           ("add", {"index": 5, "state": "up"}),
                                           ("set", {"index": 5, "state": "up", "mtu": 1400})])
def test_other_link_shapes_take_the_general_path(command, kwarg):
    assert R._link_state_fast(command, dict(kwarg)) is None
