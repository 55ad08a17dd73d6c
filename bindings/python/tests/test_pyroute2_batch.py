"""ipr.batch(): one round trip, rollback of the succeeded requests."""

import errno

import pytest


class CountingTransport(object):
    """Wraps the real transport and counts its calls."""

    def __init__(self, inner):
        self.inner = inner
        self.batch_calls = []
        self.delete_calls = []
        self.request_calls = 0

    def batch(self, msgs):
        self.batch_calls.append(len(msgs))
        return self.inner.batch(msgs)

    def delete_links(self, targets):
        self.delete_calls.append(len(targets))
        return self.inner.delete_links(targets)

    def request(self, msg):
        self.request_calls += 1
        return self.inner.request(msg)

    def close(self):
        self.inner.close()

    def fileno(self):
        return self.inner.fileno()


def _kernel_state(ns, pyroute2_real):
    with pyroute2_real.NetNS(ns, flags=0) as r:
        links = sorted(l.get_attr('IFLA_IFNAME') for l in r.get_links())
        addrs = sorted((a['index'], a.get_attr('IFA_ADDRESS'), a['prefixlen'])
                       for a in r.get_addr()
                       if not a.get_attr('IFA_ADDRESS').startswith('fe80'))
        routes = sorted(repr((x.get_attr('RTA_DST'), x['dst_len'],
                              x.get_attr('RTA_TABLE')))
                        for x in r.get_routes())
        rules = sorted(repr((x.get_attr('FRA_PRIORITY'),
                             x.get_attr('FRA_TABLE')))
                       for x in r.get_rules())
        neighs = sorted(repr((n.get_attr('NDA_DST'), n['state']))
                        for n in r.get_neighbours() if n['state'] != 0x40)
    return links, addrs, routes, rules, neighs


@pytest.fixture
def ours(ns_name, brisk_pr2):
    ipr = brisk_pr2.NetNS(ns_name, flags=0)
    ipr.transport = CountingTransport(ipr.transport)
    try:
        yield ipr
    finally:
        ipr.close()


def test_batch_success_one_round_trip(ours, ns_name, pyroute2_real):
    t = ours.transport
    with ours.batch() as b:
        b.link('add', ifname='bv0', kind='veth', peer='bv0p', index=100)
        b.link('add', ifname='bbr', kind='bridge', index=101)
        b.addr('add', index=100, address='10.10.0.1', prefixlen=24)
        b.addr('add', index=100, address='fd10::1', prefixlen=64)
        b.rule('add', table=110, priority=110)
        b.neigh('add', dst='10.10.0.9', lladdr='02:00:00:00:00:09',
                ifindex=100)
    assert t.batch_calls == [6]
    assert t.request_calls == 0
    assert b.results == [(0, '')] * 6
    links, addrs, routes, rules, neighs = _kernel_state(ns_name,
                                                        pyroute2_real)
    assert {'bv0', 'bv0p', 'bbr'} <= set(links)
    assert (100, '10.10.0.1', 24) in addrs and (100, 'fd10::1', 64) in addrs
    assert repr((110, 110)) in rules
    assert repr(('10.10.0.9', 0x80)) in neighs


def test_batch_failure_rolls_back(ours, ns_name, pyroute2_real, brisk_pr2):
    ours.link('add', ifname='pre0', kind='veth', peer='pre0p', index=50)
    ours.addr('add', index=50, address='10.20.0.1', prefixlen=24)
    ours.link('set', index=50, state='up')
    before = _kernel_state(ns_name, pyroute2_real)
    t = ours.transport
    t.batch_calls.clear()
    with pytest.raises(brisk_pr2.NetlinkError) as info:
        with ours.batch() as b:
            b.link('add', ifname='rb0', kind='veth', peer='rb0p', index=60)
            b.addr('add', index=60, address='10.30.0.1', prefixlen=24)
            b.rule('add', table=120, priority=120)
            # fails: the address exists already
            b.addr('add', index=50, address='10.20.0.1', prefixlen=24)
            b.route('add', dst='10.40.0.0/24', oif=50, table=130)
            b.neigh('add', dst='10.20.0.7', lladdr='02:00:00:00:00:07',
                    ifindex=50)
    err = info.value
    assert err.code == errno.EEXIST
    assert '#3' in err.args[1]
    # one batch for the requests, one for the undo: no per-request trips
    assert t.batch_calls[0] == 6 and len(t.batch_calls) == 2
    assert [code for code, _ in b.results] == [0, 0, 0, errno.EEXIST, 0, 0]
    assert all(code == 0 for code, _ in b.rollback)
    assert _kernel_state(ns_name, pyroute2_real) == before


def test_batch_refuses_what_it_cannot_undo(ours, brisk_pr2):
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='set'):
        with ours.batch() as b:
            b.link('set', index=1, mtu=1400)
    with pytest.raises(brisk_pr2.UnsupportedArgument, match='replace'):
        with ours.batch() as b:
            b.route('replace', dst='10.0.0.0/24', oif=1)
    assert ours.transport.batch_calls == []


def test_batch_not_sent_on_exception(ours):
    with pytest.raises(RuntimeError):
        with ours.batch() as b:
            b.link('add', ifname='nx0', kind='bridge')
            raise RuntimeError('caller failed')
    assert ours.transport.batch_calls == []
    assert ours.link_lookup(ifname='nx0') == []


def test_batch_without_undo_sends_every_change_like_force_batch(
        ours, ns_name, pyroute2_real, brisk_pr2):
    ours.link('add', ifname='fu0', kind='veth', peer='fu0p', index=70)
    ours.link('add', ifname='fu1', kind='veth', peer='fu1p', index=71)
    t = ours.transport
    with pytest.raises(brisk_pr2.NetlinkError) as info:
        with ours.batch(undo=False) as b:
            b.link('set', index=70, state='up', mtu=1400)
            b.link('set', index=9999, state='up')  # fails: no such device
            b.addr('add', index=70, address='10.50.0.1', prefixlen=24)
            b.link('del', index=71)
    assert t.batch_calls == [4]
    assert info.value.code == errno.ENODEV and '#1' in info.value.args[1]
    assert [code for code, _ in b.results] == [0, errno.ENODEV, 0, 0]
    assert b.rollback is None
    links, addrs, _, _, _ = _kernel_state(ns_name, pyroute2_real)
    assert 'fu1' not in links and 'fu0' in links
    assert (70, '10.50.0.1', 24) in addrs
    with pyroute2_real.NetNS(ns_name, flags=0) as r:
        (link,) = r.link('get', index=70)
    assert link.get_attr('IFLA_MTU') == 1400 and link['flags'] & 1


def test_batch_refuses_reads_in_either_mode(ours, brisk_pr2):
    for undo in (True, False):
        with pytest.raises(brisk_pr2.UnsupportedArgument, match='reads nothing'):
            with ours.batch(undo=undo) as b:
                b.link('dump')
        with pytest.raises(brisk_pr2.UnsupportedArgument, match='reads nothing'):
            with ours.batch(undo=undo) as b:
                b.addr('flush', index=1)
    assert ours.transport.batch_calls == []


def test_batch_without_undo_coalesces_runs_of_link_deletes(
        ours, ns_name, pyroute2_real, brisk_pr2):
    for i in range(6):
        ours.link('add', ifname='cd%d' % i, kind='veth', peer='cd%dp' % i,
                  index=200 + i)
    t = ours.transport
    with pytest.raises(brisk_pr2.NetlinkError) as info:
        with ours.batch(undo=False) as b:
            b.link('set', index=200, mtu=1300)
            for i in range(5):
                b.link('del', index=200 + i)
            b.link('del', index=4242)  # no such device
            b.link('del', ifname='cd5')
    assert info.value.code == errno.ENODEV and '#6' in info.value.args[1]
    assert t.batch_calls == [1] and t.delete_calls == [7]
    assert [code for code, _ in b.results] == [0] * 6 + [errno.ENODEV, 0]
    links = _kernel_state(ns_name, pyroute2_real)[0]
    assert not any(name.startswith('cd') for name in links)


def test_short_runs_of_deletes_are_plain_requests(ours, brisk_pr2):
    ours.link('add', ifname='sd0', kind='bridge', index=300)
    t = ours.transport
    with ours.batch(undo=False) as b:
        b.link('del', index=300)
    assert t.delete_calls == [] and t.batch_calls == [1]
