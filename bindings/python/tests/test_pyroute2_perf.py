"""Speed targets against pyroute2 0.7.2 (opt-in: BRISK_PYROUTE2_PERF=1).

link_lookup with 10,000 links >= 3x, plain adds >= 5x, a Neutron-shaped
loop (nested NetNS opens, lookup, set) >= 20x.
"""

import os
import time

import pytest

pytestmark = pytest.mark.skipif(
    not os.environ.get('BRISK_PYROUTE2_PERF'),
    reason='timing test: set BRISK_PYROUTE2_PERF=1 to run')


def _per_call(fn, n):
    best = None
    for _ in range(3):
        t = time.perf_counter()
        fn()
        dt = (time.perf_counter() - t) / n
        best = dt if best is None else min(best, dt)
    return best


def test_speed(pair, pyroute2_real, brisk_pr2):
    real, ours, a, b = pair
    # 10,000 links in each namespace (5,000 veth pairs), made by batches
    for ns in (a, b):
        with brisk_pr2.NetNS(ns, flags=0) as ipr:
            for base in range(0, 5000, 500):
                with ipr.batch() as bt:
                    for i in range(base, base + 500):
                        bt.link('add', ifname='p%d' % i, kind='veth',
                                peer='q%d' % i)
    names = ['p%d' % i for i in range(0, 5000, 50)]
    r = _per_call(lambda: [real.link_lookup(ifname=x) for x in names],
                  len(names))
    o = _per_call(lambda: [ours.link_lookup(ifname=x) for x in names],
                  len(names))
    assert r / o >= 3, 'link_lookup only %.1fx' % (r / o)

    ir, io = real.link_lookup(ifname='p1')[0], ours.link_lookup(ifname='p1')[0]
    real.link('set', index=ir, state='up')
    ours.link('set', index=io, state='up')
    counter = iter(range(10 ** 6))

    def adds(ipr, idx, n=200):
        for _ in range(n):
            i = next(counter)
            ipr.addr('add', index=idx,
                     address='10.%d.%d.1' % (i // 250, i % 250), prefixlen=24)
    r = _per_call(lambda: adds(real, ir), 200)
    o = _per_call(lambda: adds(ours, io), 200)
    assert r / o >= 5, 'address adds only %.1fx' % (r / o)

    def neutron(lib, ns, n=20):
        for i in range(n):
            with lib.NetNS(ns, flags=0) as ip:
                with lib.NetNS(ns, flags=0) as ip2:
                    idx = ip2.link_lookup(ifname='q%d' % i)[0]
                ip.link('set', index=idx, mtu=1400 + i)
    r = _per_call(lambda: neutron(pyroute2_real, a), 20)
    o = _per_call(lambda: neutron(brisk_pr2, b), 20)
    assert r / o >= 20, 'neutron-shaped loop only %.1fx' % (r / o)
