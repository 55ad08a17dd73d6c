"""brisk.run against subprocess.run: the same calls give the same results and
the same exceptions; then what only brisk does (chroot, netns, credentials,
limits, two-phase timeouts), and what neither may do (leak fds or zombies,
break under threads)."""

import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import pytest

import brisk
from brisk import _brisk

ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="needs root (chroot, setuid, network namespaces)")

# (args, kwargs) run through both; every field of the result must agree.
PARITY = [
    (["true"], {}),
    (["false"], {}),
    (["sh", "-c", "exit 7"], {}),
    (["sh", "-c", "kill -9 $$"], {}),
    (["echo", "out"], {"capture_output": True}),
    (["sh", "-c", "echo out; echo err >&2"], {"capture_output": True}),
    (["sh", "-c", "echo out; echo err >&2"], {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}),
    (["sh", "-c", "echo out; echo err >&2"], {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}),
    (["cat"], {"input": b"bytes in\n", "capture_output": True}),
    (["cat"], {"input": "text in\n", "capture_output": True, "text": True}),
    (["printf", "a\\r\\nb\\rc\\n"], {"capture_output": True, "text": True}),
    (["printf", "a\\r\\nb"], {"capture_output": True}),
    (["printf", "\\377"], {"capture_output": True, "encoding": "utf-8", "errors": "replace"}),
    (["cat"], {"stdin": subprocess.DEVNULL, "capture_output": True}),
    (["cat"], {"stdin": subprocess.PIPE, "capture_output": True}),
    (["sh", "-c", "echo $BRISK_T; echo ${HOME:-unset}"], {"env": {"BRISK_T": "x y"}, "capture_output": True}),
    (["pwd"], {"cwd": "/usr", "capture_output": True}),
    ("echo $((6*7))", {"shell": True, "capture_output": True, "text": True}),
    (["ignored-name", "-c", "echo $0"], {"executable": "/bin/sh", "capture_output": True}),
    (["sh", "-c", "exit 3"], {"universal_newlines": True, "capture_output": True}),
    (["head", "-c", "3000000", "/dev/zero"], {"capture_output": True}),
]


def fields(result):
    return (type(result).__name__ if isinstance(result, BaseException) else "CompletedProcess",
            result.args, result.returncode, result.stdout, result.stderr)


@pytest.mark.parametrize("args,kwargs", PARITY, ids=[str(i) for i in range(len(PARITY))])
def test_same_result_as_subprocess(args, kwargs):
    assert fields(brisk.run(args, **kwargs)) == fields(subprocess.run(args, **kwargs))


def test_large_input_and_both_outputs_do_not_deadlock():
    data = os.urandom(8 << 20)
    script = "cat; head -c 4000000 /dev/zero >&2"
    got = brisk.run(["sh", "-c", script], input=data, capture_output=True)
    assert got.stdout == data and got.stderr == b"\0" * 4000000


def raised(call):
    try:
        call()
    except BaseException as e:  # noqa: B036 - the exception itself is the result here
        return e
    raise AssertionError("no exception")


ERRORS = [
    (["/nonexistent/program"], {}, FileNotFoundError),
    (["brisk-no-such-program-anywhere"], {}, FileNotFoundError),
    (["/etc/passwd"], {}, PermissionError),
    (["true"], {"cwd": "/nonexistent-dir"}, FileNotFoundError),
    (["true"], {"cwd": "/etc/passwd"}, NotADirectoryError),
]


@pytest.mark.parametrize("args,kwargs,expected", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_start_failures_are_subprocesss_oserrors(args, kwargs, expected):
    mine = raised(lambda: brisk.run(args, **kwargs))
    theirs = raised(lambda: subprocess.run(args, **kwargs))
    assert isinstance(theirs, expected) and isinstance(mine, expected)
    assert isinstance(mine, brisk.SpawnError) and mine.step
    assert (mine.errno, mine.strerror, mine.filename) == (theirs.errno, theirs.strerror, theirs.filename)


def test_start_failure_names_the_step():
    e = raised(lambda: brisk.run(["true"], cwd="/nonexistent-dir"))
    assert isinstance(e, brisk.BadWorkingDirectory) and e.step == "chdir"
    e = raised(lambda: brisk.run(["/nonexistent/program"]))
    assert isinstance(e, brisk.ProgramNotFound) and e.step in ("exec", "resolve_program")
    assert "step" in str(e) and "No such file or directory" in str(e)


def test_check_raises_calledprocesserror_with_every_field():
    kwargs = dict(capture_output=True, text=True, check=True)
    script = ["sh", "-c", "echo o; echo e >&2; exit 4"]
    mine, theirs = raised(lambda: brisk.run(script, **kwargs)), raised(lambda: subprocess.run(script, **kwargs))
    assert type(mine) is subprocess.CalledProcessError
    assert (mine.returncode, mine.cmd, mine.output, mine.stderr) == \
        (theirs.returncode, theirs.cmd, theirs.output, theirs.stderr)
    assert str(mine) == str(theirs)


def test_timeout_raises_timeoutexpired_with_partial_output():
    script = ["sh", "-c", "echo early; exec sleep 5"]
    for kwargs in ({"capture_output": True}, {}):
        mine = raised(lambda: brisk.run(script, timeout=0.3, **kwargs))
        theirs = raised(lambda: subprocess.run(script, timeout=0.3, **kwargs))
        assert type(mine) is subprocess.TimeoutExpired
        assert (mine.cmd, mine.output, mine.stderr) == (theirs.cmd, theirs.output, theirs.stderr)
        # subprocess reports the time left of its last wait, a hair under the timeout given.
        assert mine.timeout == 0.3 and theirs.timeout == pytest.approx(0.3, abs=0.01)


def test_kill_after_reaches_a_child_that_ignores_sigterm():
    # The child traps TERM and goes on; kill_after's SIGKILL ends it.
    script = ["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"]
    start = time.monotonic()
    e = raised(lambda: brisk.run(script, timeout=0.2, kill_after=0.3, capture_output=True,
                                 start_new_session=True))
    elapsed = time.monotonic() - start
    assert type(e) is subprocess.TimeoutExpired and e.output == b"ready\n"
    assert 0.45 <= elapsed < 3, elapsed


def test_timeout_without_kill_after_kills_at_once():
    script = ["sh", "-c", "trap '' TERM; exec sleep 5"]
    start = time.monotonic()
    assert type(raised(lambda: brisk.run(script, timeout=0.2))) is subprocess.TimeoutExpired
    assert time.monotonic() - start < 2


BAD_ARGUMENTS = [
    (lambda: brisk.run(123), TypeError),
    (lambda: brisk.run([]), ValueError),
    (lambda: brisk.run(["true", None]), TypeError),
    (lambda: brisk.run(["tr\0ue"]), ValueError),
    (lambda: brisk.run(["true"], timeout="1"), TypeError),
    (lambda: brisk.run(["true"], timeout=-1), ValueError),
    (lambda: brisk.run(["true"], kill_after=1), ValueError),
    (lambda: brisk.run(["true"], env={"A=B": "c"}), ValueError),
    (lambda: brisk.run(["true"], env=["A"]), TypeError),
    (lambda: brisk.run(["true"], input=b"x", stdin=subprocess.DEVNULL), ValueError),
    (lambda: brisk.run(["true"], capture_output=True, stdout=subprocess.PIPE), ValueError),
    (lambda: brisk.run(["true"], stdout="file.txt"), TypeError),
    (lambda: brisk.run(["true"], stdin=subprocess.STDOUT), ValueError),
    (lambda: brisk.run(["true"], preexec_fn=os.getpid), ValueError),
    (lambda: brisk.run(["true"], close_fds=False), ValueError),
    (lambda: brisk.run(["true"], no_such_option=1), TypeError),
    (lambda: brisk.run(["true"], rlimits={resource.RLIMIT_NOFILE: (10, 5)}), ValueError),
    (lambda: brisk.run(["true"], rlimits={resource.RLIMIT_NOFILE: "x"}), TypeError),
    (lambda: brisk.run(["true"], user="brisk-no-such-user"), ValueError),
    (lambda: brisk.run(["true"], umask=0o1777), ValueError),
    (lambda: brisk.run_all([["true"]], jobs=0), ValueError),
    (lambda: brisk.pipeline([]), ValueError),
]


@pytest.mark.parametrize("call,expected", BAD_ARGUMENTS, ids=[str(i) for i in range(len(BAD_ARGUMENTS))])
def test_bad_arguments_raise_before_anything_runs(call, expected, tmp_path):
    marker = tmp_path / "ran"
    os.environ["BRISK_TEST_MARKER"] = str(marker)
    try:
        assert isinstance(raised(call), expected)
    finally:
        del os.environ["BRISK_TEST_MARKER"]
    assert not marker.exists()


def test_a_bad_netns_name_is_a_typed_refusal():
    e = raised(lambda: brisk.run(["true"], netns="../../etc"))
    assert isinstance(e, brisk.SpawnError)


def test_output_to_a_file_object_and_a_descriptor(tmp_path):
    path = tmp_path / "out"
    with open(path, "wb") as f:
        f.write(b"before\n")
        brisk.run(["echo", "child"], stdout=f)
        r, w = os.pipe()
        brisk.run(["sh", "-c", "echo via-fd >&2"], stderr=w)
        os.close(w)
        assert os.read(r, 100) == b"via-fd\n"
        os.close(r)
    assert path.read_bytes() == b"before\nchild\n"


def test_pipeline_and_pipefail():
    p = brisk.pipeline([["printf", "a\\nb\\nc\\n"], ["grep", "b"], ["wc", "-l"]], capture_output=True, text=True)
    assert p.stdout.strip() == "1" and p.returncodes == [0, 0, 0]
    assert brisk.pipeline([["false"], ["cat"]]).returncode == 0
    failed = brisk.pipeline([["sh", "-c", "exit 3"], ["cat"]], pipefail=True)
    assert failed.returncode == 3 and failed.returncodes == [3, 0]
    e = raised(lambda: brisk.pipeline([["false"], ["cat"]], pipefail=True, check=True))
    assert type(e) is subprocess.CalledProcessError and e.returncode == 1
    e = raised(lambda: brisk.pipeline([["true"], ["/nonexistent/x"]]))
    assert isinstance(e, FileNotFoundError) and e.filename == "/nonexistent/x"


def test_run_all_keeps_order_and_gathers_failures():
    got = brisk.run_all([["sh", "-c", f"sleep 0.0{9 - i}; echo {i}"] for i in range(8)], jobs=4,
                        capture_output=True, text=True)
    assert [r.stdout for r in got] == [f"{i}\n" for i in range(8)]
    mixed = brisk.run_all([["true"], ["false"], ["/nonexistent/y"]], check=True, return_exceptions=True)
    assert isinstance(mixed[0], subprocess.CompletedProcess)
    assert type(mixed[1]) is subprocess.CalledProcessError
    assert isinstance(mixed[2], FileNotFoundError)
    assert type(raised(lambda: brisk.run_all([["true"], ["false"]], check=True))) is subprocess.CalledProcessError


def open_fds():
    return set(int(n) for n in os.listdir("/proc/self/fd"))


def children():
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            return f.read().split()
    except FileNotFoundError:
        return []


def test_no_descriptor_reaches_the_child_and_none_leaks():
    inheritable = os.open("/dev/null", os.O_RDONLY)
    os.set_inheritable(inheritable, True)
    try:
        before = open_fds()
        for _ in range(50):
            brisk.run(["true"], capture_output=True, input=b"x")
        seen = brisk.run(["ls", "/proc/self/fd"], capture_output=True, text=True).stdout.split()
        passed = brisk.run(["ls", "/proc/self/fd"], capture_output=True, text=True, pass_fds=[inheritable])
        assert open_fds() == before
    finally:
        os.close(inheritable)
    assert sorted(int(n) for n in seen) == [0, 1, 2, 3]  # 3: ls's own listing of the directory
    assert str(inheritable) in passed.stdout.split()


def test_no_zombies_after_runs_timeouts_and_failures():
    brisk.run(["true"])
    raised(lambda: brisk.run(["sleep", "5"], timeout=0.05))
    raised(lambda: brisk.run(["/nonexistent/z"]))
    brisk.run_all([["true"]] * 10, jobs=5)
    assert children() == []
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_eight_threads_spawning_at_once():
    errors, per_thread = [], 40

    def work(t):
        try:
            for i in range(per_thread):
                r = brisk.run(["echo", f"{t}-{i}"], capture_output=True, text=True)
                if r.stdout != f"{t}-{i}\n":
                    errors.append((t, i, r.stdout))
        except BaseException as e:  # noqa: B036 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert children() == []


def test_the_gil_is_released_while_a_child_runs():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    try:
        brisk.run(["sleep", "0.3"])
    finally:
        stop.set()
        t.join()
    assert len(ticks) >= 10


def test_ctrl_c_stops_a_run_and_kills_its_child():
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        brisk.run(["sleep", "10"])
    assert time.monotonic() - start < 2
    assert children() == []


@needs_root
def test_uid_gid_and_groups():
    out = brisk.run(["id"], uid=65534, gid=65534, capture_output=True, text=True).stdout
    assert out.startswith("uid=65534") and "gid=65534" in out
    assert brisk.run(["id", "-G"], user="nobody", group="nogroup", extra_groups=[4],
                     capture_output=True, text=True).stdout.split() == ["65534", "4"]


def test_rlimits_and_umask():
    out = brisk.run(["sh", "-c", "ulimit -n; ulimit -Hn; umask"], capture_output=True, text=True,
                    rlimits={resource.RLIMIT_NOFILE: (77, 99)}, umask=0o027).stdout.split()
    assert out == ["77", "99", "0027"]


def make_root(tmp):
    """A root directory with /bin/sh and the libraries it needs."""
    sh = os.path.realpath(shutil.which("sh"))
    libs = subprocess.run(["ldd", sh], capture_output=True, text=True, check=True).stdout
    for path in [sh] + [w for w in libs.split() if w.startswith("/")]:
        dest = os.path.join(tmp, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(path, dest)
    os.makedirs(os.path.join(tmp, "bin"), exist_ok=True)
    if not os.path.exists(os.path.join(tmp, "bin/sh")):
        shutil.copy2(sh, os.path.join(tmp, "bin/sh"))
    os.makedirs(os.path.join(tmp, "srv"))
    with open(os.path.join(tmp, "marker"), "w") as f:
        f.write("inside\n")


@needs_root
def test_chroot_then_cwd_inside_it(tmp_path):
    make_root(str(tmp_path))
    out = brisk.run(["/bin/sh", "-c", "read m < /marker; echo $m; pwd"], chroot=tmp_path, cwd="/srv",
                    capture_output=True, text=True)
    assert out.stdout == "inside\n/srv\n"
    e = raised(lambda: brisk.run(["/bin/sh"], chroot=tmp_path / "missing"))
    assert isinstance(e, brisk.BadRoot) and e.step == "chroot"


@pytest.fixture
def netns():
    if not ROOT:
        pytest.skip("needs root to make a network namespace")
    name = f"brisk-py-{uuid.uuid4().hex[:10]}"
    _brisk.create_netns(name)
    try:
        yield name
    finally:
        _brisk.delete_netns(name)


def test_netns_by_name_as_ip_netns_exec(netns):
    inode = os.stat(f"/run/netns/{netns}").st_ino
    out = brisk.run(["sh", "-c", "stat -L -c %i /proc/self/ns/net; ls /sys/class/net"], netns=netns,
                    capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(inode), "lo"]
    assert int(brisk.run(["stat", "-L", "-c", "%i", "/proc/self/ns/net"], capture_output=True,
                         text=True).stdout) != inode
    e = raised(lambda: brisk.run(["true"], netns="brisk-py-no-such-ns"))
    assert isinstance(e, brisk.SpawnError) and e.errno == 2


def test_netns_names_create_list_delete(netns):
    assert netns in _brisk.list_netns()
    e = raised(lambda: _brisk.create_netns(netns))
    assert isinstance(e, FileExistsError) and e.filename == netns


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
