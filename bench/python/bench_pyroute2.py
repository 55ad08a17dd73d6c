#!/usr/bin/python3
"""brisk.pyroute2 against pyroute2 (Debian's 0.7.2), side by side in one run.

    PYTHONPATH=build/bindings/python:bindings/python bench/python/bench_pyroute2.py \
        [--pairs 2000] [--links 10000] [--loop 200] [--repeat 3] [--json FILE]

Three measurements, each method in fresh namespaces of its own, the
methods' order flipped from one repeat to the next, medians reported:

- lookup: link_lookup(ifname=...) with --links interfaces in the namespace
  (both ask the kernel for the one link).
- ops: per operation at --pairs veth pairs: add, set up, addr add, route
  add, delete; brisk plain and brisk with batch(). Each method runs in a
  worker process started inside its namespace (brisk.run(netns=...)), using
  IPRoute() there, so neither pays for entering it.
- neutron: --loop iterations of what Neutron's privileged ip_lib does per
  call: open NetNS(name), look the device up, add an address, list the
  addresses, delete the address, close; across 20 namespaces.

Ratios are pyroute2's time over brisk's: above 1 means brisk is faster.
"""

import argparse
import importlib
import json
import os
import statistics
import sys
import time
import uuid

import brisk
from brisk import _brisk

HERE = os.path.abspath(__file__)


def lib(name):
    """The module a method uses: real pyroute2, or brisk's drop-in."""
    return importlib.import_module("pyroute2" if name == "pyroute2" else "brisk.pyroute2")


class Namespaces:
    """Named namespaces made for one measurement, deleted however it ends."""

    def __init__(self, count, tag):
        self.names = [f"bpb-{tag}-{uuid.uuid4().hex[:6]}-{i}" for i in range(count)]
        self.made = []

    def __enter__(self):
        for n in self.names:
            _brisk.create_netns(n)
            self.made.append(n)
        return self.names

    def __exit__(self, *exc):
        for n in self.made:
            _brisk.delete_netns(n)


def timed(fn):
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1000.0


# --- per-operation, in a worker inside its own namespace ---------------------------------

# The phases: (name, kind, command, kwargs of pair i, whether a batch can undo it).
def phases(idx):
    return [
        ("add", "link", "add", lambda i: dict(ifname=f"h{i}", kind="veth", peer=f"c{i}"), True),
        ("set up", "link", "set", lambda i: dict(index=idx[i], state="up"), False),
        ("addr add", "addr", "add", lambda i: dict(index=idx[i], address=f"10.{i >> 8 & 255}.{i & 255}.1",
                                                   mask=32), True),
        ("route add", "route", "add", lambda i: dict(dst=f"172.{16 + (i >> 16 & 15)}.{i >> 8 & 255}.{i & 255}/32",
                                                     oif=idx[i]), True),
        ("delete", "link", "del", lambda i: dict(index=idx[i]), False),
    ]


def worker_ops(method, pairs):
    """Runs inside the namespace: times each phase over `pairs` veth pairs, µs per operation.

    pyroute2, brisk and brisk-batch make the calls. The floors send the same
    requests, built beforehand, through brisk's transport: floor one at a
    time (what a plain call cannot beat), floor-batch all at once (what a
    batch cannot beat; deletes coalesced as brisk-batch does)."""
    pr = lib("pyroute2" if method == "pyroute2" else "brisk")
    from brisk.pyroute2 import _requests as R
    builders = {"link": R.link_request, "addr": R.addr_request, "route": R.route_request}
    out = {}
    idx = {}
    with pr.IPRoute() as ipr:
        for name, kind, command, kw, undo in phases(idx):
            if method in ("pyroute2", "brisk"):
                call = getattr(ipr, kind)

                def run():
                    for i in range(pairs):
                        call(command, **kw(i))
            elif method == "brisk-batch":
                def run():
                    # A set or a delete cannot be undone from the request
                    # alone: those batches run as `ip -force -batch` does.
                    with ipr.batch(undo=undo) as b:
                        call = getattr(b, kind)
                        for i in range(pairs):
                            call(command, **kw(i))
            else:
                t = ipr.transport
                msgs = [builders[kind](command, kw(i))[0].data for i in range(pairs)]

                def run():
                    if method == "floor":
                        codes = [t.request(m)[0] for m in msgs]
                    elif command == "del":
                        codes = [c for c, _ in t.delete_links([idx[i] for i in range(pairs)])]
                    else:
                        codes = [c for c, _ in t.batch(msgs)]
                    assert not any(codes), f"{name}: {sorted(set(codes))}"
            out[name] = timed(run) / pairs
            if name == "add":
                idx.update((i, ipr.link_lookup(ifname=f"h{i}")[0]) for i in range(pairs))
    return out


def measure_ops(pairs, repeat):
    methods = ["pyroute2", "brisk", "brisk-batch", "floor", "floor-batch"]
    runs = {m: [] for m in methods}
    for r in range(repeat):
        order = methods[r % len(methods):] + methods[:r % len(methods)]
        for m in order:
            with Namespaces(1, "ops") as (ns,):
                child = brisk.run([sys.executable, HERE, "--worker", m, "--pairs", str(pairs)], netns=ns,
                                  capture_output=True, text=True)
                if child.returncode != 0:
                    sys.exit(f"bench_pyroute2: the {m} worker failed:\n{child.stderr}")
                runs[m].append(json.loads(child.stdout))
    phases = list(runs["pyroute2"][0])
    result = {}
    for p in phases:
        med = {m: statistics.median(run[p] for run in runs[m]) for m in methods}
        result[p] = {"us": med, "ratio": med["pyroute2"] / med["brisk"],
                     "ratio_batch": med["pyroute2"] / med["brisk-batch"],
                     "ceiling": med["pyroute2"] / med["floor"],
                     "ceiling_batch": med["pyroute2"] / med["floor-batch"]}
    return result


# --- link_lookup at many links -------------------------------------------------------------

def measure_lookup(links, repeat, calls=2000):
    with Namespaces(1, "lookup") as (ns,):
        bp = lib("brisk")
        with bp.NetNS(ns) as ipr:
            with ipr.batch() as b:
                for i in range(links // 2):
                    b.link("add", ifname=f"l{i}", kind="veth", peer=f"m{i}")
        child = brisk.run([sys.executable, HERE, "--lookup-worker", "--calls", str(calls), "--repeat", str(repeat),
                           "--links", str(links)], netns=ns, capture_output=True, text=True, check=True)
        return json.loads(child.stdout)


def worker_lookup(links, calls, repeat):
    found = {}
    times = {"pyroute2": [], "brisk": []}
    targets = [f"l{(i * 7919) % (links // 2)}" for i in range(calls)]
    for r in range(repeat):
        for m in (["pyroute2", "brisk"] if r % 2 == 0 else ["brisk", "pyroute2"]):
            with lib(m).IPRoute() as ipr:
                ipr.link_lookup(ifname=targets[0])
                start = time.perf_counter_ns()
                got = [ipr.link_lookup(ifname=t) for t in targets]
                times[m].append((time.perf_counter_ns() - start) / calls / 1000.0)
                found[m] = got
    assert found["pyroute2"] == found["brisk"], "the two disagree on an ifindex"
    med = {m: statistics.median(v) for m, v in times.items()}
    return {"links": links, "us": med, "ratio": med["pyroute2"] / med["brisk"]}


# --- the Neutron-shaped loop ---------------------------------------------------------------

def measure_neutron(loop, repeat, count=20):
    per_iter = {"pyroute2": [], "brisk": []}
    for r in range(repeat):
        for m in (["pyroute2", "brisk"] if r % 2 == 0 else ["brisk", "pyroute2"]):
            with Namespaces(count, "neutron") as names:
                bp = lib("brisk")
                for n in names:
                    with bp.NetNS(n, flags=0) as ipr:
                        ipr.link("add", ifname="qr-dev", kind="veth", peer="qr-peer")
                pr = lib(m)

                def run():
                    for i in range(loop):
                        ns = names[i % count]
                        with pr.NetNS(ns, flags=0) as ipr:
                            idx = ipr.link_lookup(ifname="qr-dev")[0]
                            ipr.addr("add", index=idx, address=f"192.0.2.{i % 250 + 1}", mask=24)
                            addrs = ipr.get_addr(index=idx, family=2)
                            assert any(a.get_attr("IFA_ADDRESS") == f"192.0.2.{i % 250 + 1}" for a in addrs)
                            ipr.addr("del", index=idx, address=f"192.0.2.{i % 250 + 1}", mask=24)
                per_iter[m].append(timed(run) / loop)
    med = {m: statistics.median(v) for m, v in per_iter.items()}
    return {"iterations": loop, "namespaces": count, "us": med, "ratio": med["pyroute2"] / med["brisk"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--links", type=int, default=10000)
    ap.add_argument("--loop", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["lookup", "ops", "neutron"], action="append")
    ap.add_argument("--json")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--lookup-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--calls", type=int, default=2000, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker_ops(args.worker, args.pairs)))
        return
    if args.lookup_worker:
        print(json.dumps(worker_lookup(args.links, args.calls, args.repeat)))
        return
    if os.geteuid() != 0:
        sys.exit("bench_pyroute2: needs root (it makes network namespaces)")
    only = set(args.only or ["lookup", "ops", "neutron"])
    results = {"repeat": args.repeat}
    if "lookup" in only:
        lk = results["lookup"] = measure_lookup(args.links, args.repeat)
        print(f"link_lookup(ifname=) at {lk['links']} links: pyroute2 {lk['us']['pyroute2']:.1f} µs, "
              f"brisk {lk['us']['brisk']:.1f} µs: {lk['ratio']:.1f}×  (target ≥ 3×)")
    if "ops" in only:
        ops = results["ops"] = measure_ops(args.pairs, args.repeat)
        results["pairs"] = args.pairs
        print(f"\nper operation at {args.pairs} veth pairs, µs (median of {args.repeat}); "
              "targets: ≥ 5× plain, ≥ 10× batch")
        print("floor: the same requests built beforehand, sent one at a time (plain) or at once (batch);")
        print("ceiling: pyroute2 / floor, the most any binding could reach")
        print(f"{'phase':10} {'pyroute2':>9} {'brisk':>8} {'floor':>8} {'batch':>8} {'floor':>8} "
              f"{'ratio':>7} {'ceiling':>8} {'batch':>7} {'ceiling':>8}")
        for p, r in ops.items():
            u = r["us"]
            print(f"{p:10} {u['pyroute2']:9.1f} {u['brisk']:8.1f} {u['floor']:8.1f} {u['brisk-batch']:8.1f} "
                  f"{u['floor-batch']:8.1f} {r['ratio']:6.1f}× {r['ceiling']:7.1f}× {r['ratio_batch']:6.1f}× "
                  f"{r['ceiling_batch']:7.1f}×")
    if "neutron" in only:
        nt = results["neutron"] = measure_neutron(args.loop, args.repeat)
        print(f"\nNeutron-shaped loop ({nt['iterations']} iterations over {nt['namespaces']} namespaces): "
              f"pyroute2 NetNS {nt['us']['pyroute2'] / 1000:.2f} ms, brisk {nt['us']['brisk'] / 1000:.3f} ms "
              f"per iteration: {nt['ratio']:.1f}×  (target ≥ 20×)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
