#!/usr/bin/python3
"""brisk.run against subprocess.run, side by side in one process, at a large Python heap.

    PYTHONPATH=build/bindings/python:bindings/python bench/python/bench_spawn.py [--heap-mib 1024]
        [--n 300] [--repeat 5] [--json FILE] [--as-nobody]

Each case runs both ways in alternating rounds (the order flips every
round) and reports the median time per call of each and their ratio
(subprocess / brisk: above 1 means brisk is faster), with the ratio's
min-max over the rounds. The heap is a bytearray with every page touched,
so a fork must copy its page tables; Python 3.11's subprocess uses vfork
when it can, and forks when it cannot (preexec_fn, which chroot and
setns need). --as-nobody runs the same measurements as uid 65534.
"""

import argparse
import ctypes
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid

import brisk
from brisk import _brisk

CLONE_NEWNET = 0x40000000


def touch_heap(mib):
    heap = bytearray(mib << 20)
    for i in range(0, len(heap), 4096):
        heap[i] = 1
    return heap


def make_root(path):
    """A chroot with /bin/true and the libraries it needs."""
    true = os.path.realpath(shutil.which("true"))
    libs = subprocess.run(["ldd", true], capture_output=True, text=True, check=True).stdout
    for src in [true] + [w for w in libs.split() if w.startswith("/")]:
        dest = os.path.join(path, src.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(src, dest)
    os.makedirs(os.path.join(path, "bin"), exist_ok=True)
    if not os.path.exists(os.path.join(path, "bin/true")):
        shutil.copy2(true, os.path.join(path, "bin/true"))


def setns_preexec(path):
    libc = ctypes.CDLL(None, use_errno=True)

    def enter():
        fd = os.open(path, os.O_RDONLY)
        if libc.setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns")
        os.close(fd)
    return enter


def cases(root, netns):
    """(name, brisk call, subprocess call) for each case this user can run."""
    out = [
        ("true", lambda: brisk.run(["/bin/true"]), lambda: subprocess.run(["/bin/true"])),
        ("true, captured", lambda: brisk.run(["/bin/true"], capture_output=True),
         lambda: subprocess.run(["/bin/true"], capture_output=True)),
        ("true, check and env", lambda: brisk.run(["/bin/true"], check=True, env={"LANG": "C"}),
         lambda: subprocess.run(["/bin/true"], check=True, env={"LANG": "C"})),
    ]
    if root:
        out.append(("chroot", lambda: brisk.run(["/bin/true"], chroot=root),
                    lambda: subprocess.run(["/bin/true"], preexec_fn=lambda: (os.chroot(root), os.chdir("/")))))
    if netns:
        path = f"/run/netns/{netns}"
        enter = setns_preexec(path)
        out.append(("netns (setns only)", lambda: brisk.run(["/bin/true"], netns=netns, netns_view=False),
                    lambda: subprocess.run(["/bin/true"], preexec_fn=enter)))
        out.append(("netns as ip netns exec", lambda: brisk.run(["/bin/true"], netns=netns),
                    lambda: subprocess.run(["ip", "netns", "exec", netns, "/bin/true"])))
    return out


def per_call(fn, n):
    start = time.perf_counter_ns()
    for _ in range(n):
        fn()
    return (time.perf_counter_ns() - start) / n / 1000.0


def measure(n, repeat, root, netns):
    results = []
    for name, mine, theirs in cases(root, netns):
        mine(), theirs()  # warm: paths resolved, pages faulted
        b_times, s_times = [], []
        for r in range(repeat):
            order = [(mine, b_times), (theirs, s_times)]
            for fn, into in (order if r % 2 == 0 else order[::-1]):
                into.append(per_call(fn, n))
        ratios = [s / b for s, b in zip(s_times, b_times)]
        results.append({"case": name, "brisk_us": statistics.median(b_times),
                         "subprocess_us": statistics.median(s_times), "ratio": statistics.median(ratios),
                         "ratio_min": min(ratios), "ratio_max": max(ratios)})
    return results


def table(results, title):
    lines = [title, f"{'case':28} {'brisk µs':>10} {'subprocess µs':>14} {'ratio':>7}  [min-max]"]
    for r in results:
        lines.append(f"{r['case']:28} {r['brisk_us']:10.1f} {r['subprocess_us']:14.1f} {r['ratio']:6.2f}×"
                     f"  [{r['ratio_min']:.2f}-{r['ratio_max']:.2f}]")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--heap-mib", type=int, default=1024, help="Python heap to hold while spawning")
    ap.add_argument("--n", type=int, default=300, help="calls per method per round")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the order flips every round")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--as-nobody", action="store_true", help="also measure as uid 65534 (needs root)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    heap = touch_heap(args.heap_mib)
    root = netns = None
    cleanup = []
    if os.geteuid() == 0 and not args.child:
        root = f"/tmp/brisk-bench-root-{os.getpid()}"
        make_root(root)
        cleanup.append(lambda: shutil.rmtree(root))
        netns = f"brisk-bench-{uuid.uuid4().hex[:8]}"
        _brisk.create_netns(netns)
        cleanup.append(lambda: _brisk.delete_netns(netns))
    try:
        who = "root" if os.geteuid() == 0 else f"uid {os.geteuid()}"
        results = {"heap_mib": args.heap_mib, "n": args.n, "repeat": args.repeat, "python": sys.version.split()[0],
                   who: measure(args.n, args.repeat, root, netns)}
        if args.child:
            print(json.dumps(results[who]))
            return
        print(table(results[who], f"brisk.run vs subprocess.run, {args.heap_mib} MiB heap, as {who} "
                                  f"(median of {args.repeat} rounds of {args.n} calls)"))
        if args.as_nobody and os.geteuid() == 0:
            del heap  # the child holds its own
            child = brisk.run([sys.executable, os.path.abspath(__file__), "--child", "--heap-mib", str(args.heap_mib),
                               "--n", str(args.n), "--repeat", str(args.repeat)],
                              uid=65534, gid=65534, capture_output=True, text=True, check=True,
                              env=dict(os.environ, HOME="/"))
            results["nobody"] = json.loads(child.stdout)
            print()
            print(table(results["nobody"], f"the same as nobody (uid 65534)"))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=2)
    finally:
        for c in reversed(cleanup):
            c()


if __name__ == "__main__":
    main()
