"""Errors: the same exception type and code as pyroute2 0.7.2."""

import errno
import os

import pytest


def outcome(fn):
    try:
        fn()
    except Exception as e:   # noqa: B902 -- we compare whatever is raised
        return (type(e).__name__, getattr(e, 'code', None),
                getattr(e, 'errno', None))
    return None


def _both(pair, fn):
    real, ours, a, b = pair
    want = outcome(lambda: fn(real))
    got = outcome(lambda: fn(ours))
    assert got == want
    return got


def _setup(i):
    i.link('add', ifname='e0', kind='veth', peer='e0p')
    idx = i.link_lookup(ifname='e0')[0]
    i.addr('add', index=idx, address='10.0.0.1', prefixlen=24)
    return idx


CASES = {
    'missing device get': lambda i: i.link('get', index=4242),
    'missing device set': lambda i: i.link('set', index=4242, mtu=1400),
    'missing device del': lambda i: i.link('del', index=4242),
    'missing device by name': lambda i: i.link('get', ifname='nope0'),
    'addr on missing device': lambda i: i.addr('add', index=4242,
                                               address='10.9.0.1', mask=24),
    'existing link': lambda i: i.link('add', ifname='e0', kind='veth',
                                      peer='e0q'),
    'existing address': lambda i: i.addr('add', index=_idx(i),
                                         address='10.0.0.1', prefixlen=24),
    'missing address del': lambda i: i.addr('del', index=_idx(i),
                                            address='10.0.0.99',
                                            prefixlen=24),
    'missing route del': lambda i: i.route('del', dst='10.77.0.0/24',
                                           gateway='10.0.0.2'),
    'duplicate route': lambda i: [i.route('add', dst='10.78.0.0/24',
                                          gateway='10.0.0.2')
                                  for _ in range(2)],
    'unreachable route get': lambda i: i.route('get', dst='192.0.2.1'),
    'missing rule del': lambda i: i.rule('del', table=177, priority=177),
    'missing neigh del': lambda i: i.neigh('del', dst='10.0.0.55',
                                           ifindex=_idx(i)),
    'name too long': lambda i: i.link('add', ifname='x' * 20, kind='bridge'),
    'bad kind': lambda i: i.link('add', ifname='k0', kind='nosuchkind'),
    'bad mtu': lambda i: i.link('set', index=_idx(i), mtu=10),
    'bad argument (mac)': lambda i: i.link('set', index=_idx(i),
                                           address='zz:zz'),
    'bad argument (ip)': lambda i: i.addr('add', index=_idx(i),
                                          address='10.0.0.300'),
    'move to missing ns': lambda i: i.link('set', index=_idx(i),
                                           net_ns_fd='bpt-no-such-ns'),
    'peer in missing ns': lambda i: i.link(
        'add', ifname='p9', kind='veth',
        peer={'ifname': 'p9p', 'net_ns_fd': 'bpt-no-such-ns'}),
}


def _idx(i):
    return i.link_lookup(ifname='e0')[0]


@pytest.mark.parametrize('case', sorted(CASES))
def test_same_error(pair, case):
    real, ours, a, b = pair
    _setup(real)
    _setup(ours)
    got = _both(pair, CASES[case])
    assert got is not None, 'expected an error'


def test_netlink_error_shape(pair, pyroute2_real, brisk_pr2):
    real, ours, a, b = pair
    errs = []
    for i in (real, ours):
        try:
            i.link('get', index=4242)
        except Exception as e:   # noqa: B902
            errs.append(e)
    r, o = errs
    assert o.args == r.args == (errno.ENODEV, os.strerror(errno.ENODEV))
    assert str(o) == str(r)
    assert o.code == r.code == errno.ENODEV
    assert isinstance(o, brisk_pr2.NetlinkError)
    from brisk.pyroute2.netlink import exceptions
    assert isinstance(o, exceptions.NetlinkError)
    # the constructor round-trips like pyroute2's (privsep rebuilds it)
    again = type(o)(*o.args)
    assert again.args == o.args and again.code == o.code
    assert brisk_pr2.NetlinkError(errno.EEXIST).args == \
        pyroute2_real.NetlinkError(errno.EEXIST).args
    dump_intr = exceptions.NetlinkDumpInterrupted()
    assert isinstance(dump_intr, exceptions.NetlinkError)
    assert dump_intr.code == -1


def test_missing_namespace(make_ns, pyroute2_real, brisk_pr2):
    name = make_ns(create=False)
    results = []
    for lib in (pyroute2_real, brisk_pr2):
        try:
            lib.NetNS(name, flags=0)
        except OSError as e:
            results.append((type(e), e.errno))
        else:
            results.append(None)
    assert results[0] == results[1] == (FileNotFoundError, errno.ENOENT)
    assert name not in brisk_pr2.netns.listnetns()


def test_namespace_flags(make_ns, pyroute2_real, brisk_pr2):
    # default flags create a missing namespace
    name = make_ns(create=False)
    with brisk_pr2.NetNS(name) as ns:
        assert ns.netns == name
        assert ns.link_lookup(ifname='lo') == [1]
    assert name in brisk_pr2.netns.listnetns()
    # O_CREAT | O_EXCL refuses an existing one, as pyroute2 does
    excl = os.O_CREAT | os.O_EXCL
    got = []
    for lib in (pyroute2_real, brisk_pr2):
        try:
            lib.NetNS(name, flags=excl).close()
        except OSError as e:
            got.append((type(e).__name__, e.errno))
    assert got[0] == got[1] == ('FileExistsError', errno.EEXIST)


def test_netns_module_errors(make_ns, pyroute2_real, brisk_pr2):
    name = make_ns()
    missing = make_ns(create=False)
    for fn in (lambda lib: lib.netns.remove(missing),
               lambda lib: lib.netns._create(name)):
        want = outcome(lambda: fn(pyroute2_real))
        got = outcome(lambda: fn(brisk_pr2))
        if want and want[0] == 'FileExistsError':
            pass
        assert got[0] == want[0] and got[2] == want[2]
    assert brisk_pr2.netns.listnetns(nspath='/nonexistent') == []


def test_unsupported_is_loud(pair, brisk_pr2):
    real, ours, a, b = pair
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='vf'):
        ours.link('set', index=1, vf={'vf': 0, 'spoofchk': 1})
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='tuntap'):
        ours.link('add', ifname='t0', kind='tuntap', mode='tap')
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='bond_mode'):
        ours.link('add', ifname='b0', kind='bond', bond_mode=1)
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='bind'):
        ours.bind()
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='strict_check'):
        brisk_pr2.IPRoute(strict_check=True)
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='MPLS'):
        ours.route('add', dst='10.0.0.0/24', newdst=[16, 17])
    assert isinstance(brisk_pr2.UnsupportedArgument('x'), ValueError)
