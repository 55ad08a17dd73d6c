"""Differential tests: the same call sequence through real pyroute2 0.7.2
(in namespace A) and brisk.pyroute2 (in namespace B) must leave the same
kernel state (read back through both libraries) and return the same
messages on the fields callers read."""

import socket


AF_INET, AF_INET6 = socket.AF_INET, socket.AF_INET6
VOLATILE_FLAGS = 0x40 | 0x10000 | 0x20000  # RUNNING, LOWER_UP, DORMANT


# ------------------------------------------------------------ normalisers

def _names(ipr):
    return {l['index']: l.get_attr('IFLA_IFNAME') for l in ipr.get_links()}


def link_view(msg, names, with_mac=()):
    li = msg.get_attr('IFLA_LINKINFO')
    kind = li.get_attr('IFLA_INFO_KIND') if li is not None else None
    name = msg.get_attr('IFLA_IFNAME')
    return {
        'ifname': name,
        'family': msg['family'],
        'flags': msg['flags'] & ~VOLATILE_FLAGS,
        'state': msg['state'],
        'mtu': msg.get_attr('IFLA_MTU'),
        'master': names.get(msg.get_attr('IFLA_MASTER')),
        'kind': kind,
        'address': msg.get_attr('IFLA_ADDRESS') if name in with_mac else None,
        'event': msg['event'],
    }


def links(ipr, with_mac=()):
    names = _names(ipr)
    return sorted((link_view(l, names, with_mac) for l in ipr.get_links()),
                  key=lambda v: v['ifname'])


def addr_view(msg, names):
    return (names.get(msg['index']), msg['family'], msg['prefixlen'],
            msg['scope'], msg.get_attr('IFA_ADDRESS'),
            msg.get_attr('IFA_LOCAL'), msg.get_attr('IFA_BROADCAST'),
            msg.get_attr('IFA_LABEL'),
            (msg.get_attr('IFA_FLAGS') or 0) & ~0x40, msg['event'])


def addrs(ipr):
    names = _names(ipr)
    return sorted((addr_view(a, names) for a in ipr.get_addr()
                   if not (a.get_attr('IFA_ADDRESS') or '')
                   .startswith('fe80')), key=repr)


def route_view(msg, names):
    mp = msg.get_attr('RTA_MULTIPATH')
    if mp:
        mp = tuple((names.get(h['oif']), h['hops'],
                    h.get_attr('RTA_GATEWAY')) for h in mp)
    return (msg['family'], msg.get_attr('RTA_DST'), msg['dst_len'],
            msg['table'], msg.get_attr('RTA_TABLE'),
            msg.get_attr('RTA_GATEWAY'), names.get(msg.get_attr('RTA_OIF')),
            msg.get_attr('RTA_PRIORITY'), msg['proto'], msg['scope'],
            msg['type'], mp, msg['event'])


def routes(ipr, **kw):
    names = _names(ipr)
    return sorted((route_view(r, names) for r in ipr.get_routes(**kw)
                   if not (r.get_attr('RTA_DST') or '').startswith('fe80')),
                  key=repr)


def neigh_view(msg, names):
    return (names.get(msg['ifindex']), msg['family'],
            msg.get_attr('NDA_DST'), msg.get_attr('NDA_LLADDR'),
            msg['state'], msg['event'])


def neighs(ipr):
    names = _names(ipr)
    # skip the kernel's NOARP entries
    return sorted((neigh_view(n, names) for n in ipr.get_neighbours()
                   if n['state'] != 0x40), key=repr)


def rule_view(msg):
    return (msg['family'], msg.get_attr('FRA_PRIORITY'),
            msg.get_attr('FRA_TABLE'), msg['table'], msg['action'],
            msg.get_attr('FRA_SRC'), msg['src_len'], msg.get_attr('FRA_DST'),
            msg['dst_len'], msg.get_attr('FRA_IIFNAME'), msg['event'])


def rules(ipr, family=AF_INET):
    return sorted((rule_view(r) for r in ipr.get_rules(family=family)),
                  key=repr)


def state(ipr, with_mac=()):
    return {'links': links(ipr, with_mac), 'addrs': addrs(ipr),
            'routes': routes(ipr), 'neighs': neighs(ipr),
            'rules4': rules(ipr, AF_INET), 'rules6': rules(ipr, AF_INET6)}


def shape(ret, ipr):
    """What a call returned, on the fields callers read."""
    if ret is None:
        return None
    names = _names(ipr)
    out = []
    for m in ret:
        ev = m['event']
        if ev == 'NLMSG_ERROR':
            out.append((ev, m['header']['type'], m['header']['error']))
        elif ev in ('RTM_NEWLINK', 'RTM_DELLINK'):
            out.append(tuple(sorted(link_view(m, names).items())))
        elif ev in ('RTM_NEWADDR', 'RTM_DELADDR'):
            out.append(addr_view(m, names))
        elif ev in ('RTM_NEWROUTE', 'RTM_DELROUTE'):
            out.append(route_view(m, names))
        elif ev in ('RTM_NEWNEIGH', 'RTM_DELNEIGH'):
            out.append(neigh_view(m, names))
        elif ev in ('RTM_NEWRULE', 'RTM_DELRULE'):
            out.append(rule_view(m))
        else:
            out.append(ev)
    # dump order is the kernel's hash order, which differs between
    # namespaces: compare as multisets
    return (type(ret).__name__, sorted(out, key=repr))


def run_both(real, ours, steps, with_mac=()):
    """Apply each step to both; compare returns, then kernel state."""
    for i, step in enumerate(steps):
        r_ret, o_ret = step(real), step(ours)
        assert shape(o_ret, ours) == shape(r_ret, real), 'step %d' % i
    # kernel state of A (real) vs B (ours), both read through real pyroute2
    assert state(ours, with_mac) == state(real, with_mac)


def read_both_ways(pyroute2_real, ns, with_mac=()):
    """Namespace `ns` read through real pyroute2 and through ours."""
    import brisk.pyroute2 as bp
    with pyroute2_real.NetNS(ns, flags=0) as r, bp.NetNS(ns, flags=0) as o:
        assert state(o, with_mac) == state(r, with_mac)


# ------------------------------------------------------------ scenarios

def _idx(ipr, name):
    return ipr.link_lookup(ifname=name)[0]


def test_links_veth_bridge_set_del(pair, pyroute2_real):
    real, ours, a, b = pair
    steps = [
        lambda i: i.link('add', ifname='v0', kind='veth', peer='v0p'),
        lambda i: i.link('add', ifname='br0', kind='bridge'),
        lambda i: i.link('set', index=_idx(i, 'v0'), mtu=1400),
        lambda i: i.link('set', index=_idx(i, 'v0'),
                         address='02:00:00:00:00:01'),
        lambda i: i.link('set', index=_idx(i, 'v0'), state='up'),
        lambda i: i.link('set', index=_idx(i, 'br0'), state='up'),
        lambda i: i.link('set', index=_idx(i, 'v0'),
                         master=_idx(i, 'br0')),
        lambda i: i.link('set', index=_idx(i, 'br0'), kind='bridge',
                         br_stp_state=1),
        lambda i: i.link('get', index=_idx(i, 'v0')),
        lambda i: i.link('get', ifname='br0'),
        lambda i: i.link('add', ifname='v1', kind='veth',
                         peer={'ifname': 'v1p', 'mtu': 1300}),
        lambda i: i.link('set', ifname='v1', IFLA_MTU=1280),
        lambda i: i.link('del', index=_idx(i, 'v1')),
        lambda i: i.link('set', index=_idx(i, 'v0'), master=0),
        lambda i: i.link('set', index=_idx(i, 'v0'), state='down'),
    ]
    run_both(real, ours, steps, with_mac=('v0',))
    read_both_ways(pyroute2_real, b, with_mac=('v0',))
    # bridge data decoded the same
    br = [l for l in ours.get_links() if l.get_attr('IFLA_IFNAME') == 'br0'][0]
    data = br.get_attr('IFLA_LINKINFO').get_attr('IFLA_INFO_DATA')
    assert data.get_attr('IFLA_BR_STP_STATE') == 1
    assert data.get_attr('IFLA_BR_FORWARD_DELAY') == 1500


def test_veth_peer_in_other_namespace(pair, make_ns, pyroute2_real):
    real, ours, a, b = pair
    a2, b2 = make_ns(), make_ns()
    real.link('add', ifname='vx', kind='veth',
              peer={'ifname': 'vxp', 'net_ns_fd': a2})
    ours.link('add', ifname='vx', kind='veth',
              peer={'ifname': 'vxp', 'net_ns_fd': b2})
    assert state(ours) == state(real)
    with pyroute2_real.NetNS(a2, flags=0) as r2, \
            pyroute2_real.NetNS(b2, flags=0) as o2:
        assert state(o2) == state(r2)
        assert o2.link_lookup(ifname='vxp')
    # move a link with net_ns_fd given as a name, and as an fd
    for ipr, target in ((real, a2), (ours, b2)):
        ipr.link('add', ifname='m0', kind='veth', peer='m0p')
        ipr.link('set', index=_idx(ipr, 'm0'), net_ns_fd=target)
        import os
        fd = os.open('/run/netns/' + target, os.O_RDONLY)
        try:
            ipr.link('set', index=_idx(ipr, 'm0p'), net_ns_fd=fd)
        finally:
            os.close(fd)
    assert state(ours) == state(real)
    with pyroute2_real.NetNS(a2, flags=0) as r2, \
            pyroute2_real.NetNS(b2, flags=0) as o2:
        assert state(o2) == state(r2)
    read_both_ways(pyroute2_real, b2)


def _addr_setup(i):
    i.link('add', ifname='d0', kind='veth', peer='d0p')
    i.link('set', index=_idx(i, 'd0'), state='up')


def test_addresses(pair, pyroute2_real):
    real, ours, a, b = pair
    idx = _idx
    steps = [
        _addr_setup,
        lambda i: i.addr('add', index=idx(i, 'd0'), address='10.0.0.1',
                         mask=24),
        lambda i: i.addr('add', index=idx(i, 'd0'), address='10.0.1.1',
                         prefixlen=24, broadcast='10.0.1.255'),
        lambda i: i.addr('add', index=idx(i, 'd0'), address='10.0.2.1/24',
                         broadcast=True),
        lambda i: i.addr('add', index=idx(i, 'd0'), address='10.0.3.1',
                         prefixlen=24, label='d0:x', scope=253),
        lambda i: i.addr('add', index=idx(i, 'd0'),
                         address='2001:db8:0:0::1', prefixlen=64),
        lambda i: i.addr('add', index=idx(i, 'd0'), address='fd00::5/64',
                         family=AF_INET6),
        lambda i: i.addr('replace', index=idx(i, 'd0'), address='10.0.0.1',
                         prefixlen=24, broadcast='10.0.0.255'),
        lambda i: i.get_addr(index=idx(i, 'd0'), family=AF_INET),
        lambda i: i.get_addr(address='10.0.1.1'),
        lambda i: i.get_addr(label='d0:x'),
        lambda i: i.get_addr(index=idx(i, 'd0'), address='10.0.0.1',
                             mask=24),          # mask never matches
        lambda i: i.addr('dump', match=lambda m: m['prefixlen'] == 64),
        lambda i: i.addr('del', index=idx(i, 'd0'), address='10.0.1.1',
                         prefixlen=24),
        lambda i: i.addr('delete', index=idx(i, 'd0'),
                         address='2001:db8::1', mask=64, family=AF_INET6),
    ]
    run_both(real, ours, steps)
    read_both_ways(pyroute2_real, b)
    # flush v4 on d0 only
    f_real = real.flush_addr(index=_idx(real, 'd0'), family=AF_INET)
    f_ours = ours.flush_addr(index=_idx(ours, 'd0'), family=AF_INET)
    assert sorted(addr_view(m, _names(ours)) for m in f_ours) == \
        sorted(addr_view(m, _names(real)) for m in f_real)
    assert state(ours) == state(real)
    assert [a for a in addrs(ours) if a[1] == AF_INET and a[0] == 'd0'] == []


def _route_setup(i):
    _addr_setup(i)
    i.addr('add', index=_idx(i, 'd0'), address='10.0.0.1', prefixlen=24)
    i.addr('add', index=_idx(i, 'd0'), address='fd00::1', prefixlen=64)
    i.link('set', index=_idx(i, 'd0p'), state='up')


def test_routes(pair, pyroute2_real):
    real, ours, a, b = pair
    steps = [
        _route_setup,
        lambda i: i.route('add', dst='10.1.0.0/24', gateway='10.0.0.2'),
        lambda i: i.route('add', dst='10.2.0.0', dst_len=16,
                          gateway='10.0.0.3', priority=50),
        lambda i: i.route('add', dst='default', gateway='10.0.0.254'),
        lambda i: i.route('add', dst='10.3.0.0/24', gateway='10.0.0.2',
                          table=100),
        lambda i: i.route('add', dst='10.4.0.0/24', oif=_idx(i, 'd0'),
                          table=1000, scope=253),
        lambda i: i.route('add', dst='0.0.0.0/0', gateway='10.0.0.9',
                          table=1000),
        lambda i: i.route('add', dst='fd01::/64', gateway='fd00::2'),
        lambda i: i.route('add', dst='::/0', gateway='fd00::fe',
                          table=100, family=AF_INET6),
        lambda i: i.route('replace', dst='10.1.0.0/24', gateway='10.0.0.3',
                          proto=4),
        lambda i: i.route('replace', dst='10.5.0.0/24',
                          multipath=[{'oif': _idx(i, 'd0'),
                                      'gateway': '10.0.0.2', 'hops': 1},
                                     {'oif': _idx(i, 'd0'),
                                      'gateway': '10.0.0.3', 'hops': 2}]),
        lambda i: i.route('change', dst='10.2.0.0/16', gateway='10.0.0.2',
                          priority=50),
        lambda i: i.route('get', dst='10.1.0.7'),
        lambda i: i.route('show', table=100),
        lambda i: i.route('dump', family=AF_INET, table=1000),
        lambda i: i.get_routes(family=AF_INET, table=254),
        lambda i: i.get_routes(oif=_idx(i, 'd0'), table=1000),
        lambda i: i.get_default_routes(family=AF_INET),
        lambda i: i.get_default_routes(table=1000),
        lambda i: i.route('del', dst='10.3.0.0/24', gateway='10.0.0.2',
                          table=100),
        lambda i: i.route('del', dst='fd01::/64', gateway='fd00::2',
                          family=AF_INET6),
    ]
    run_both(real, ours, steps)
    read_both_ways(pyroute2_real, b)
    assert routes(ours, table=1000) == routes(real, table=1000)


def test_neighbours(pair, pyroute2_real):
    real, ours, a, b = pair
    steps = [
        _route_setup,
        lambda i: i.neigh('add', dst='10.0.0.7', lladdr='02:00:00:00:00:07',
                          ifindex=_idx(i, 'd0'),
                          state=pyroute2_real.netlink.rtnl.ndmsg.states[
                              'permanent']),
        lambda i: i.neigh('add', dst='10.0.0.8', lladdr='02:00:00:00:00:08',
                          index=_idx(i, 'd0'), state='reachable'),
        lambda i: i.neigh('replace', dst='10.0.0.7',
                          lladdr='02:00:00:00:00:17', ifindex=_idx(i, 'd0'),
                          family=AF_INET, state=0x80),
        lambda i: i.neigh('replace', dst='fd00::9',
                          lladdr='02:00:00:00:00:09', ifindex=_idx(i, 'd0'),
                          family=AF_INET6, state=0x04),
        lambda i: i.neigh('dump', ifindex=_idx(i, 'd0'), family=AF_INET),
        lambda i: i.get_neighbours(dst='10.0.0.7'),
        lambda i: i.neigh('get', dst='10.0.0.7', ifindex=_idx(i, 'd0')),
        lambda i: i.neigh('del', dst='10.0.0.8', lladdr='02:00:00:00:00:08',
                          ifindex=_idx(i, 'd0')),
    ]
    run_both(real, ours, steps)
    read_both_ways(pyroute2_real, b)


def test_rules(pair, pyroute2_real):
    real, ours, a, b = pair
    steps = [
        lambda i: i.rule('add', table=100, priority=100),
        lambda i: i.rule('add', table=101, priority=101, src='10.9.0.0',
                         src_len=24, family=AF_INET),
        lambda i: i.rule('add', table=102, priority=102, dst='10.8.0.1'),
        lambda i: i.rule('add', table=1000, priority=103, iifname='lo'),
        lambda i: i.rule('add', table=103, priority=104, src='fd00::',
                         src_len=64, family=AF_INET6),
        lambda i: i.rule('add', priority=105, action='blackhole'),
        lambda i: i.rule('dump', priority=101),
        lambda i: i.get_rules(family=AF_INET, match={'table': 100}),
        lambda i: i.rule('del', table=100, priority=100),
    ]
    run_both(real, ours, steps)
    read_both_ways(pyroute2_real, b)


def test_lookup_and_get_links(pair, pyroute2_real):
    real, ours, a, b = pair
    for i in (real, ours):
        i.link('add', ifname='g0', kind='veth', peer='g0p')
        i.link('add', ifname='gb', kind='bridge')
        i.link('set', index=_idx(i, 'g0'), state='up')
    for kw in ({'ifname': 'nope'}, {'ifname': 'g0'}, {'index': 1},
               {'index': 9999}, {'ifname': 'x' * 40},
               {'operstate': 'DOWN'}, {'ifname': 'gb', 'index': 9999}):
        assert ours.link_lookup(**kw) == real.link_lookup(**kw), kw
    names = _names(ours)
    for args, kw in (((), {}), (('all',), {}), ((1,), {}),
                     ((), {'ifname': 'g0'}), ((), {'kind': 'bridge'}),
                     ((), {'state': 'up'}), ((), {'IFLA_IFNAME': 'gb'}),
                     (('all',), {'match': lambda m: m['index'] > 1})):
        got = sorted((tuple(sorted(link_view(m, names).items()))
                      for m in ours.get_links(*args, **kw)), key=repr)
        want = sorted((tuple(sorted(link_view(m, _names(real)).items()))
                       for m in real.get_links(*args, **kw)), key=repr)
        assert got == want, (args, kw)
    assert type(ours.get_links()) is list


VOLATILE_ATTRS = {'IFLA_STATS', 'IFLA_STATS64', 'IFLA_AF_SPEC',
                  'IFA_CACHEINFO', 'NDA_CACHEINFO', 'RTA_CACHEINFO',
                  'IFLA_CARRIER_CHANGES', 'IFLA_CARRIER_UP_COUNT',
                  'IFLA_CARRIER_DOWN_COUNT', 'IFLA_OPERSTATE',
                  'IFLA_CARRIER', 'NDA_PROBES'}


def plain(value):
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()
                if k not in ('header',)}
    if isinstance(value, (list, tuple)) and not hasattr(value, '_fields'):
        if len(value) == 2 and isinstance(value[0], str) and \
                value[0].isupper():
            if value[0] in VOLATILE_ATTRS:
                return None
            return [value[0], plain(value[1])]
        return [plain(v) for v in value]
    if hasattr(value, '__getitem__') and hasattr(value, 'cell'):
        return plain((value[0], value[1]))
    return value


def test_decoded_messages_match(pair, pyroute2_real, brisk_pr2):
    """dict(msg) of every dump, decoded by both, in the same namespace."""
    real, ours, a, b = pair
    ours.close()
    _route_setup(real)
    real.link('add', ifname='dbr', kind='bridge')
    real.link('add', ifname='dvx', kind='vxlan', vxlan_id=42,
              vxlan_group='239.1.1.1', vxlan_link=_idx(real, 'd0'),
              vxlan_port=4789)
    real.neigh('add', dst='10.0.0.7', lladdr='02:00:00:00:00:07',
               ifindex=_idx(real, 'd0'))
    real.rule('add', table=100, priority=100, src='10.9.0.0', src_len=24)
    real.route('add', dst='10.5.0.0/24',
               multipath=[{'oif': _idx(real, 'd0'), 'gateway': '10.0.0.2'},
                          {'oif': _idx(real, 'd0'), 'gateway': '10.0.0.3'}])
    with brisk_pr2.NetNS(a, flags=0) as o:
        for name, call in (('links', lambda i: i.get_links()),
                           ('addrs', lambda i: i.get_addr()),
                           ('routes', lambda i: i.get_routes()),
                           ('neighs', lambda i: i.get_neighbours()),
                           ('rules', lambda i: i.get_rules()),
                           ('get', lambda i: i.link('get', ifname='dvx'))):
            want = [plain(dict(m)) for m in call(real)]
            got = [plain(dict(m)) for m in call(o)]
            key = repr
            assert sorted(got, key=key) == sorted(want, key=key), name
        m = o.link('get', ifname='dvx')[0]
        assert m.get_nested('IFLA_LINKINFO', 'IFLA_INFO_KIND') == 'vxlan'
        assert m.get(('linkinfo', 'data', 'vxlan_id')) == 42
        assert m['header']['target'] == a


def test_get_netns_info(pair, pyroute2_real, brisk_pr2):
    real, ours, a, b = pair
    for ipr in (real, ours):
        ipr.link('add', ifname='ni0', kind='veth',
                 peer={'ifname': 'ni0p', 'net_ns_fd': a if ipr is ours
                       else b})

    def view(ipr):
        return sorted((i.get_attr('NSINFO_PATH'), i['netnsid'],
                       sorted(i.get_attrs('NSINFO_PEER')))
                      for i in ipr.get_netns_info()
                      if i.get_attr('NSINFO_PATH').rsplit('/', 1)[1]
                      in (a, b))
    got, want = view(ours), view(real)
    assert [g[0] for g in got] == [w[0] for w in want]
    # each side's namespace holds both libraries' veth ends whose peers
    # sit in the other namespace (one made there, one moved there):
    # the two views are mirror images
    g = {path.rsplit('/', 1)[1]: peers for path, _, peers in got}
    w = {path.rsplit('/', 1)[1]: peers for path, _, peers in want}
    assert g[a] == w[b] == ['ni0', 'ni0p'] and g[b] == w[a] == []


def test_iproute_reads_the_callers_namespace(pyroute2_real, brisk_pr2):
    """Read-only: the host namespace is never modified by these tests."""
    with pyroute2_real.IPRoute() as r, brisk_pr2.IPRoute() as o:
        assert o.link_lookup(ifname='lo') == r.link_lookup(ifname='lo')
        assert sorted(l['index'] for l in o.get_links()) == \
            sorted(l['index'] for l in r.get_links())
        assert o.get_links(1)[0]['header']['target'] == 'localhost'
