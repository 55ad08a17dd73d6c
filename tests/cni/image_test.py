#!/usr/bin/python3
"""The CNI image and the DaemonSet that runs it, end to end with no registry.

  image_test.py yaml   SOURCE_DIR BUILD_DIR   the manifest parses and says what it must
  image_test.py podman SOURCE_DIR BUILD_DIR   the archive loads into podman and installs
                                              the plugins the manifest's way
  image_test.py containerd SOURCE_DIR BUILD_DIR   the same archive through ctr

Everything (podman's and containerd's storage, the "node"'s directories)
lives in a temporary directory removed at the end.
"""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import yaml

GLIBC = {"libc.so.6", "ld-linux-x86-64.so.2", "libm.so.6"}


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def sh(*argv, ok=True, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, **kw)
    if ok and r.returncode != 0:
        raise AssertionError(f"{' '.join(argv)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    return r


def version(build):
    m = re.search(r"^CMAKE_PROJECT_VERSION:\w+=(\S+)$", open(os.path.join(build, "CMakeCache.txt")).read(), re.M)
    return m.group(1)


def manifest(source):
    docs = list(yaml.safe_load_all(open(os.path.join(source, "deploy/kubernetes/brisk-cni.yaml"))))
    return {d["kind"]: d for d in docs}


def daemonset_facts(source, build):
    """Checks the manifest; returns (ConfigMap data, init container, volumes by name)."""
    kinds = manifest(source)
    check(set(kinds) == {"ConfigMap", "DaemonSet"}, f"kinds: {list(kinds)}")
    ds, cm = kinds["DaemonSet"], kinds["ConfigMap"]
    check(ds["metadata"]["namespace"] == "kube-system" == cm["metadata"]["namespace"], "namespace")
    spec = ds["spec"]["template"]["spec"]
    check(spec["hostNetwork"] is True, "hostNetwork")
    check(spec["priorityClassName"] == "system-node-critical", "priorityClassName")
    check(spec["tolerations"] == [{"operator": "Exists"}], "tolerates every taint")
    check(ds["spec"]["selector"]["matchLabels"].items() <= ds["spec"]["template"]["metadata"]["labels"].items(),
          "selector matches the template")
    image = f"localhost/brisk-cni:{version(build)}"
    init, main = spec["initContainers"][0], spec["containers"][0]
    for c in (init, main):
        check(c["image"] == image, f"{c['name']}: image {c['image']}, the build makes {image}")
        check(c["imagePullPolicy"] == "Never", "no registry: never pull")
    check(main["args"] == ["sleep"], "the main container sleeps")
    volumes = {v["name"]: v for v in spec["volumes"]}
    mounts = {m["mountPath"]: volumes[m["name"]]["hostPath"]["path"]
              for m in init["volumeMounts"] if "hostPath" in volumes[m["name"]]}
    check(mounts == {"/host/opt/cni/bin": "/opt/cni/bin", "/host/etc/cni/net.d": "/etc/cni/net.d"}, f"mounts {mounts}")
    check(init["envFrom"][0]["configMapRef"]["name"] == cm["metadata"]["name"], "env from the ConfigMap")
    check(all(k.startswith("BRISK_") for k in cm["data"]), "ConfigMap keys are the installer's variables")
    # The per-node CIDRs: a ConfigMap volume, optional, where BRISK_POD_CIDR_DIR says,
    # read under the node's name.
    cidr_mount = [m for m in init["volumeMounts"] if "configMap" in volumes[m["name"]]]
    check(len(cidr_mount) == 1 and cidr_mount[0]["mountPath"] == cm["data"]["BRISK_POD_CIDR_DIR"],
          "the per-node CIDRs are mounted where BRISK_POD_CIDR_DIR says")
    check(volumes[cidr_mount[0]["name"]]["configMap"].get("optional") is True, "the per-node CIDRs are optional")
    node_env = [e for e in init["env"] if e["name"] == "BRISK_NODE_NAME"]
    check(node_env and node_env[0]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName", "BRISK_NODE_NAME")
    return cm["data"], init, mounts


def needed(path):
    out = sh("readelf", "-dW", path).stdout
    return set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", out))


def check_bundle(root):
    """Nothing but libc from the node: the installer static, the plugins and
    brisk-lib/ needing only each other and glibc."""
    bindir = os.path.join(root, "opt/brisk/bin")
    libs = set(os.listdir(os.path.join(bindir, "brisk-lib")))
    installer = os.path.join(bindir, "brisk-cni-install")
    check(needed(installer) == set() and "INTERP" not in sh("readelf", "-lW", installer).stdout,
          "brisk-cni-install is static")
    for name in os.listdir(bindir):
        path = os.path.join(bindir, name)
        if name.startswith("brisk-") and os.path.isfile(path) and name != "brisk-cni-install":
            check(needed(path) <= GLIBC | libs, f"{name} needs {needed(path) - GLIBC - libs}")
            check("$ORIGIN/brisk-lib" in sh("readelf", "-dW", path).stdout, f"{name} has no rpath to brisk-lib")
    for lib in libs:
        extra = needed(os.path.join(bindir, "brisk-lib", lib)) - GLIBC - libs
        check(not extra, f"brisk-lib/{lib} needs {extra}")


def build_archive(source, build, tmp):
    script = os.path.join(source, "scripts/build-cni-image")
    archive, again = os.path.join(tmp, "brisk-cni.oci.tar"), os.path.join(tmp, "again.oci.tar")
    sh(script, "--build-dir", build, "--out", archive, "--bundle", os.path.join(tmp, "bundle"))
    sh(script, "--build-dir", build, "--out", again)
    digest = [hashlib.sha256(open(p, "rb").read()).hexdigest() for p in (archive, again)]
    check(digest[0] == digest[1], "the archive is reproducible")
    check_bundle(os.path.join(tmp, "bundle"))
    return archive


def check_installed(tmp, node, cidrs, mtu):
    """The node's directories hold the bundle's plugins, byte for byte, and a conflist."""
    src = os.path.join(tmp, "bundle/opt/brisk/bin")
    bindir, netdir = node + "/opt/cni/bin", node + "/etc/cni/net.d"
    plugins = sorted(n for n in os.listdir(src) if n.startswith("brisk-") and n not in ("brisk-cni-install", "brisk-lib"))
    check(sorted(os.listdir(bindir)) == sorted(plugins + ["brisk-lib"]), f"bin: {os.listdir(bindir)}")
    for name in plugins + [f"brisk-lib/{n}" for n in os.listdir(os.path.join(src, "brisk-lib"))]:
        a, b = os.path.join(src, name), os.path.join(bindir, name)
        check(open(a, "rb").read() == open(b, "rb").read(), f"{name} differs from the build's")
        check(os.stat(a).st_mode & 0o777 == os.stat(b).st_mode & 0o777, f"{name}: mode")
    check(all(os.access(os.path.join(bindir, p), os.X_OK) for p in plugins), "plugins are executable")
    conf = json.load(open(os.path.join(netdir, "10-brisk.conflist")))
    bridge = conf["plugins"][0]
    check(bridge["type"] == "brisk-bridge" and bridge["ipam"]["type"] == "host-local", "types")
    check([r[0]["subnet"] for r in bridge["ipam"]["ranges"]] == cidrs, f"ranges {bridge['ipam']['ranges']}")
    check(bridge.get("mtu") == mtu, f"mtu {bridge.get('mtu')}")
    check(("brisk-portmap" in plugins) == any(p["type"] == "brisk-portmap" for p in conf["plugins"]),
          "the portmap entry is there exactly when brisk-portmap is")


def remove_cgroups(name):
    """Removes the cgroup /NAME and its empty children from every v1
    hierarchy: what runc, conmon and containerd leave once their containers
    are gone. Fails the test on one still in use."""
    left = []
    for hierarchy in os.listdir("/sys/fs/cgroup"):
        top = os.path.join("/sys/fs/cgroup", hierarchy, name)
        if not os.path.isdir(top) or os.path.islink(top):
            continue
        for parent, dirs, _ in sorted(os.walk(top), key=lambda w: -len(w[0])):
            try:
                os.rmdir(parent)
            except OSError as e:
                left.append(f"{parent}: {e.strerror}")
    check(not left, "cgroups still in use: " + "; ".join(left))


class Podman:
    def __init__(self, tmp):
        self.base = ["podman", "--root", tmp + "/podman/root", "--runroot", tmp + "/podman/run",
                     "--storage-driver", "vfs", "--runtime", "runc", "--cgroup-manager", "cgroupfs",
                     "--events-backend", "none"]
        # The containers' and conmon's cgroups under a name of the test's
        # own, removed at its end (podman's default parent is /libpod_parent).
        self.cgroup = f"brisk-image-test-{os.getpid()}"
        self.limits = ["--network", "none", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024",
                       "--cgroup-parent", "/" + self.cgroup]

    def __call__(self, *args, ok=True):
        return sh(*self.base, *args, ok=ok)

    def run(self, image, node, mounts, env, args, ok=True, extra=None):
        """mounts: the node's directories (under `node`); extra: other host paths."""
        argv = ["run", "--rm", *self.limits]
        for inside, host in mounts.items():
            os.makedirs(node + host, exist_ok=True)
            argv += ["-v", f"{node}{host}:{inside}"]
        for inside, path in (extra or {}).items():
            argv += ["-v", f"{path}:{inside}:ro"]
        for k, v in env.items():
            argv += ["-e", f"{k}={v}"]
        return self(*argv, image, *args, ok=ok)


def podman_test(source, build, tmp):
    cm, init, mounts = daemonset_facts(source, build)
    archive = build_archive(source, build, tmp)
    p = Podman(tmp)
    image = init["image"]
    check(image in p("load", "-i", archive).stdout, "podman load names the image")
    try:
        # The init container as the DaemonSet runs it, with this node's CIDRs.
        env = dict(cm, BRISK_POD_CIDR="10.244.7.0/24,fd00:7::/64", BRISK_MTU="1400")
        node = tmp + "/node"
        out = p.run(image, node, mounts, env, init["args"]).stdout
        check(out.count("installed ") >= 2, out)
        check_installed(tmp, node, ["10.244.7.0/24", "fd00:7::/64"], 1400)
        # Again: nothing rewritten.
        out = p.run(image, node, mounts, env, init["args"]).stdout
        check("installed " not in out and "unchanged " in out, out)
        # This node's own entry in the per-node ConfigMap wins over BRISK_POD_CIDR.
        cidrs = tmp + "/pod-cidrs"
        os.makedirs(cidrs)
        open(cidrs + "/node-7", "w").write("10.244.77.0/24")
        p.run(image, node, mounts, dict(env, BRISK_NODE_NAME="node-7"), init["args"],
              extra={cm["BRISK_POD_CIDR_DIR"]: cidrs})
        check_installed(tmp, node, ["10.244.77.0/24"], 1400)
        # A bad CIDR: a clear refusal, nothing written.
        fresh = tmp + "/fresh"
        r = p.run(image, fresh, mounts, dict(cm, BRISK_POD_CIDR="10.244.7.1/24"), init["args"], ok=False)
        check(r.returncode == 2 and "host bits" in r.stderr, f"bad CIDR: {r.returncode} {r.stderr}")
        check(not any(files for _, _, files in os.walk(fresh)), "nothing written on a bad CIDR")
        # The main container: PID 1 that leaves on SIGTERM, at once and with 0.
        p("run", "-d", "--name", "brisk-sleep", *p.limits, image, "sleep")
        started = time.monotonic()
        p("stop", "-t", "20", "brisk-sleep")
        took = time.monotonic() - started
        code = p("inspect", "--format", "{{.State.ExitCode}}", "brisk-sleep").stdout.strip()
        check(took < 10 and code == "0", f"sleep: stopped in {took:.1f} s with {code}")
    finally:
        p("rm", "-af", "-t", "0", ok=False)
        remove_cgroups(p.cgroup)


def containerd_test(source, build, tmp):
    """ctr image import of the same archive; the installer as a task, with the
    node's directories bind-mounted."""
    cm, init, mounts = daemonset_facts(source, build)
    archive = build_archive(source, build, tmp)
    root = tmp + "/containerd"
    sock = root + "/c.sock"
    os.makedirs(root)
    with open(root + "/config.toml", "w") as f:
        f.write(f"""version = 2
root = "{root}/root"
state = "{root}/state"
[grpc]
  address = "{sock}"
[ttrpc]
  address = "{sock}.ttrpc"
[debug]
  address = "{sock}.debug"
[plugins."io.containerd.internal.v1.opt"]
  path = "{root}/opt"
[plugins."io.containerd.grpc.v1.cri"]
  disable_apparmor = true
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "{root}/cni-bin"
    conf_dir = "{root}/cni-conf"
""")
    netns = f"brisk-imgtest-{os.getpid()}"
    sh("ip", "netns", "add", netns)
    log = open(root + "/containerd.log", "w")
    daemon = subprocess.Popen(["nsenter", f"--net=/run/netns/{netns}", "containerd", "--config", root + "/config.toml"],
                              stdout=log, stderr=subprocess.STDOUT)
    # ctr's namespace names the containers' cgroup (/NAMESPACE/ID): one of the test's own.
    ctr = ["ctr", "-a", sock, "-n", f"brisk-image-test-{os.getpid()}"]
    try:
        for _ in range(200):
            if sh(*ctr, "version", ok=False).returncode == 0:
                break
            time.sleep(0.05)
        image = init["image"]
        out = sh(*ctr, "image", "import", archive).stdout
        check(image in sh(*ctr, "image", "ls", "-q").stdout, f"ctr import names the image: {out}")
        node = tmp + "/node"
        argv = [*ctr, "run", "--rm"]
        for inside, host in mounts.items():
            os.makedirs(node + host, exist_ok=True)
            argv += ["--mount", f"type=bind,src={node}{host},dst={inside},options=rbind:rw"]
        for k, v in dict(cm, BRISK_POD_CIDR="10.244.9.0/24").items():
            argv += ["--env", f"{k}={v}"]
        argv += [image, "brisk-install-test", "/opt/brisk/bin/brisk-cni-install", *init["args"]]
        out = sh(*argv).stdout
        check("installed " in out, out)
        check_installed(tmp, node, ["10.244.9.0/24"], None)
    finally:
        sh(*ctr, "task", "kill", "-s", "SIGKILL", "brisk-install-test", ok=False)
        sh(*ctr, "container", "rm", "brisk-install-test", ok=False)
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=20)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        sh("ip", "netns", "delete", netns, ok=False)
        remove_cgroups(ctr[-1])
        # containerd's mounts under its root, if any are left.
        for line in reversed(open("/proc/self/mounts").read().splitlines()):
            target = line.split()[1]
            if target.startswith(root):
                sh("umount", "-l", target, ok=False)


def main():
    mode, source, build = sys.argv[1:4]
    if mode == "yaml":
        daemonset_facts(source, build)
        return
    tmp = tempfile.mkdtemp(prefix="brisk-image-test-")
    try:
        {"podman": podman_test, "containerd": containerd_test}[mode](source, build, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
