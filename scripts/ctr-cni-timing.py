#!/usr/bin/python3
"""Pod start and stop through containerd 1.6's `ctr run --cni`: brisk-bridge
against the reference `bridge` + `host-local` (containernetworking-plugins,
/usr/lib/cni), side by side in one run, interleaved, ipMasq on and off.

    sudo scripts/ctr-cni-timing.py [--brisk-bridge build/brisk-bridge] [--repeats 10]

start: from launching `ctr run --rm --cni IMAGE ID sh -c 'echo up; sleep ...'`
to the container's "up" on stdout (containerd creates the task, ctr runs ADD,
then starts it). stop: from `ctr task kill -s KILL` to the end of that
`ctr run`, which waits for the exit, runs DEL and removes the container.
"of which ADD/DEL": the plugin's own wall time inside those. Prints the
median and the range of each, in ms.

Everything lives in a temporary directory, a throwaway network namespace
(brisk-ctrtiming-PID) that containerd and ctr enter with setns only, and a
private mount namespace in which that directory's parts are bound over
/etc/cni/net.d and /opt/cni/bin (ctr 1.6 reads those two, fixed) and over
/var/lib/cni, /var/lib/containers and /run/libpod; the containers' cgroups
go away with them. Needs root, containerd,
runc, podman (to build the image) and busybox-static.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60
IMAGE = "localhost/brisk-busybox:1"


def run(argv, **kw):
    return subprocess.run(argv, check=True, timeout=TIMEOUT, capture_output=True, text=True, **kw)


def conflist(plugin, name, subnet, ip_masq, lease_dir):
    ipam = {"type": "host-local", "routes": [{"dst": "0.0.0.0/0"}],
            "ranges": [[{"subnet": subnet}]], "dataDir": lease_dir}
    return json.dumps({"cniVersion": "0.4.0", "name": name, "plugins": [
        {"type": plugin, "bridge": name + "0", "isGateway": True, "ipMasq": ip_masq, "ipam": ipam}]})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brisk-bridge", default="build/brisk-bridge")
    ap.add_argument("--repeats", type=int, default=10)
    args = ap.parse_args()
    if os.environ.get("BRISK_TIMING_PRIVATE") != "1":
        # Into a private mount namespace first: the binds below die with it.
        env = dict(os.environ, BRISK_TIMING_PRIVATE="1")
        os.execvpe("unshare", ["unshare", "--mount", "--propagation", "private", sys.executable] + sys.argv, env)
    brisk = os.path.abspath(args.brisk_bridge)
    tmp = tempfile.mkdtemp(prefix="brisk-ctrtiming-")
    node = "brisk-ctrtiming-%d" % os.getpid()
    # The containerd namespace is the node's name too: ctr puts each task's
    # cgroup at /NAMESPACE/ID, and the parent is removed at the end.
    ctr = ["ctr", "--address", tmp + "/containerd.sock", "--namespace", node]
    in_node = ["nsenter", "--net=/run/netns/" + node]
    daemon = None
    try:
        # A /run/netns of this mount namespace's own: the node's name never reaches the host's.
        os.makedirs("/run/netns", exist_ok=True)
        run(["mount", "-t", "tmpfs", "-o", "mode=0755", "brisk-ctrtiming", "/run/netns"])
        run(["ip", "netns", "add", node])
        if not os.path.exists("/opt/cni/bin"):
            run(["mount", "-t", "tmpfs", "tmpfs", "/opt"])
            os.makedirs("/opt/cni/bin")
        for i, fixed in enumerate(["/etc/cni/net.d", "/opt/cni/bin", "/var/lib/cni", "/var/lib/containers", "/run/libpod"]):
            own = "%s/fixed%d" % (tmp, i)
            os.makedirs(own)
            if os.path.exists(fixed):
                run(["mount", "--bind", own, fixed])
        # Each bridge plugin behind a wrapper that logs its own wall time per
        # command (the two `date` calls cost both the same); the reference's
        # host-local, which it execs, is inside its time.
        os.symlink("/usr/lib/cni/host-local", "/opt/cni/bin/host-local")
        for plugin, path in [("brisk-bridge", brisk), ("bridge", "/usr/lib/cni/bridge")]:
            with open("/opt/cni/bin/" + plugin, "w") as f:
                f.write('#!/bin/sh\nt0=$(date +%%s%%N)\n%s "$@"\nrc=$?\n'
                        'echo "$CNI_COMMAND $(( $(date +%%s%%N) - t0 ))" >> %s/plugin-times\nexit $rc\n' % (path, tmp))
            os.chmod("/opt/cni/bin/" + plugin, 0o755)

        # The image: static busybox, podman import, podman save, ctr import.
        root = tmp + "/root-fs"
        os.makedirs(root + "/bin")
        shutil.copy("/bin/busybox", root + "/bin/busybox")
        for applet in ["sh", "sleep", "echo"]:
            os.symlink("busybox", root + "/bin/" + applet)
        for d in ["proc", "sys", "dev", "etc", "tmp"]:
            os.makedirs(root + "/" + d)
        run(["tar", "-C", root, "-cf", tmp + "/root.tar", "."])
        podman = ["podman", "--root", tmp + "/podman", "--runroot", tmp + "/podman-run", "--storage-driver", "vfs",
                  "--tmpdir", tmp + "/podman-tmp", "--events-backend", "file"]
        run(podman + ["import", tmp + "/root.tar", IMAGE])
        run(podman + ["save", "--format", "oci-archive", "--output", tmp + "/image.tar", IMAGE])

        with open(tmp + "/config.toml", "w") as f:
            f.write('version = 2\nroot = "%s/croot"\nstate = "%s/cstate"\n'
                    'disabled_plugins = ["io.containerd.grpc.v1.cri"]\n'
                    '[grpc]\n  address = "%s/containerd.sock"\n[ttrpc]\n  address = "%s/containerd.sock.ttrpc"\n'
                    '[debug]\n  address = "%s/debug.sock"\n'
                    '[plugins."io.containerd.internal.v1.opt"]\n  path = "%s/opt"\n' % ((tmp,) * 6))
        log = open(tmp + "/containerd.log", "w")
        daemon = subprocess.Popen(in_node + ["containerd", "--config", tmp + "/config.toml"], stdout=log, stderr=log)
        deadline = time.monotonic() + 20
        while not os.path.exists(tmp + "/containerd.sock"):
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("containerd did not start; its log: " + tmp + "/containerd.log")
            time.sleep(0.02)
        run(ctr + ["image", "import", "--base-name", IMAGE.rsplit(":", 1)[0], tmp + "/image.tar"])

        variants = [(plugin, masq) for masq in (False, True) for plugin in ("brisk-bridge", "bridge")]
        times = {v: {"start": [], "ADD": [], "stop": [], "DEL": []} for v in variants}
        for rep in range(args.repeats + 1):  # the first round warms caches and is not counted
            for n, (plugin, masq) in enumerate(variants if rep % 2 else reversed(variants)):
                for old in os.listdir("/etc/cni/net.d"):
                    os.unlink("/etc/cni/net.d/" + old)
                name = "brisk" if plugin == "brisk-bridge" else "ref"
                with open("/etc/cni/net.d/10-%s.conflist" % name, "w") as f:
                    f.write(conflist(plugin, name, "10.9%d.0.0/24" % (plugin == "bridge"), masq, tmp + "/leases"))
                cid = "p%d-%d" % (rep, n)
                t0 = time.monotonic()
                proc = subprocess.Popen(in_node + ctr + ["run", "--rm", "--cni", IMAGE, cid, "sh", "-c",
                                                         "echo up; exec sleep 100000"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                try:
                    line = proc.stdout.readline()
                    t1 = time.monotonic()
                    if line.strip() != "up":
                        proc.kill()
                        sys.exit("ctr run %s (%s) failed: %s%s" % (cid, plugin, line, proc.stderr.read()))
                    run(ctr + ["task", "kill", "--signal", "SIGKILL", cid])
                    proc.wait(timeout=TIMEOUT)
                    t2 = time.monotonic()
                finally:
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
                leases = [f for f in os.listdir(tmp + "/leases/" + name) if f[0].isdigit()]
                if leases:
                    sys.exit("DEL through %s left leases %s" % (plugin, leases))
                with open(tmp + "/plugin-times") as f:
                    plugin_ms = dict((cmd, int(ns) / 1e6) for cmd, ns in (line.split() for line in f))
                os.unlink(tmp + "/plugin-times")
                if rep:
                    times[(plugin, masq)]["start"].append((t1 - t0) * 1000)
                    times[(plugin, masq)]["stop"].append((t2 - t1) * 1000)
                    times[(plugin, masq)]["ADD"].append(plugin_ms["ADD"])
                    times[(plugin, masq)]["DEL"].append(plugin_ms["DEL"])

        print("ctr run --cni, %d runs each, interleaved; ms: median (min-max)" % args.repeats)
        row = "%-13s %-7s" + " %-20s" * 4
        print(row % ("plugin", "ipMasq", "start (to 'up')", "of which ADD", "stop (kill to exit)", "of which DEL"))
        for plugin, masq in variants:
            cells = []
            for what in ("start", "ADD", "stop", "DEL"):
                xs = times[(plugin, masq)][what]
                cells.append("%.1f (%.1f-%.1f)" % (statistics.median(xs), min(xs), max(xs)))
            print(row % tuple([plugin, "on" if masq else "off"] + cells))
        # What DEL left behind: ctr runs it with an empty CNI_NETNS.
        nat = subprocess.run(in_node + ["iptables", "-t", "nat", "-S"], capture_output=True, text=True,
                             timeout=TIMEOUT).stdout
        pods = subprocess.run(in_node + ["nft", "list", "set", "ip", "brisk_cni", "pods"], capture_output=True,
                              text=True, timeout=TIMEOUT).stdout
        print("left after every DEL: %d iptables nat chains CNI-* (bridge), %d brisk_cni pods elements (brisk-bridge)"
              % (sum(1 for r in nat.splitlines() if r.startswith("-N CNI-")), pods.count(" comment ")))
    finally:
        if daemon:
            tasks = subprocess.run(ctr + ["task", "list", "--quiet"], capture_output=True, text=True, timeout=TIMEOUT)
            for task in tasks.stdout.split():
                subprocess.run(ctr + ["task", "kill", "--signal", "SIGKILL", task], timeout=TIMEOUT)
            daemon.terminate()
            try:
                daemon.wait(timeout=20)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        for hierarchy in os.listdir("/sys/fs/cgroup"):
            if os.path.isdir("/sys/fs/cgroup/%s/%s" % (hierarchy, node)):
                os.rmdir("/sys/fs/cgroup/%s/%s" % (hierarchy, node))
        subprocess.run(["ip", "netns", "del", node], stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
