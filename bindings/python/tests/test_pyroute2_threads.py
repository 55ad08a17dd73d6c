"""One IPRoute shared by threads, as Neutron's privsep daemon shares its
objects: every call gets its own answer, and threads wait for the kernel
without holding the GIL."""

import threading

THREADS = 8
ROUNDS = 60


def test_threads_sharing_one_netns_get_their_own_answers(ns_name, brisk_pr2):
    with brisk_pr2.NetNS(ns_name, flags=0) as ipr:
        for t in range(THREADS):
            ipr.link("add", ifname="th%d" % t, kind="veth", peer="th%dp" % t)
        index = {t: ipr.link_lookup(ifname="th%d" % t)[0] for t in range(THREADS)}
        errors = []
        start = threading.Barrier(THREADS)

        def work(t):
            try:
                start.wait()
                for i in range(ROUNDS):
                    address = "10.%d.%d.1" % (t, i)
                    assert ipr.link_lookup(ifname="th%d" % t) == [index[t]]
                    ipr.addr("add", index=index[t], address=address, prefixlen=24)
                    mine = [a.get_attr("IFA_ADDRESS") for a in ipr.get_addr(index=index[t], family=2)]
                    assert mine == [address], (t, i, mine)
                    ipr.addr("del", index=index[t], address=address, prefixlen=24)
                    (link,) = ipr.link("get", index=index[t])
                    assert link.get_attr("IFLA_IFNAME") == "th%d" % t
            except BaseException as e:  # noqa: B036 - reported by the main thread
                errors.append((t, e))

        # Daemons, joined with a limit: a reply taken by the wrong thread
        # leaves its owner waiting for ever, and that must fail, not hang.
        threads = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=60)
        assert not any(th.is_alive() for th in threads), "a thread never got its answer"
        assert errors == []
        assert all(not ipr.get_addr(index=index[t], family=2) for t in range(THREADS))
