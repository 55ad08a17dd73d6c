"""brisk.run, brisk.pipeline and brisk.run_all: subprocess.run's contract on brisk's spawn engine.

Code written for ``subprocess.run`` runs unchanged: the same arguments, the
same ``CompletedProcess``, the same ``CalledProcessError`` and
``TimeoutExpired`` with the same fields, and start failures that are the
``OSError`` subclasses subprocess raises (``FileNotFoundError`` for a missing
program, ``PermissionError``, ``NotADirectoryError`` for a bad cwd). They are
also brisk's typed errors, which name the step that failed.

What subprocess cannot do without ``preexec_fn`` and a fork, brisk does
without either: ``chroot=``, ``netns=``, ``uid=``/``gid=``, ``rlimits=`` and a
two-phase timeout (``kill_after=``). The child is started with vfork-style
CLONE_VM, so its cost does not grow with the Python heap.

This module only checks and translates arguments; the run happens in
``brisk._brisk`` without the GIL.
"""

import errno as _errno
import grp
import locale
import os
import pwd
import resource as _resource
import subprocess
from subprocess import DEVNULL, PIPE, STDOUT, CalledProcessError, CompletedProcess, TimeoutExpired

from . import _brisk

__all__ = [
    "run", "pipeline", "run_all", "CompletedPipeline",
    "SpawnError", "ProgramNotFound", "PermissionDenied", "BadWorkingDirectory", "BadRoot",
    "InvalidSpawnOptions", "ReadError",
    "PIPE", "DEVNULL", "STDOUT", "CalledProcessError", "TimeoutExpired", "CompletedProcess",
]

# Stream modes, as src/process.cc's Stream enum numbers them.
_INHERIT, _NULL, _CAPTURE, _FD, _MERGE, _DATA = range(6)


class SpawnError(OSError):
    """The program could not be started. ``step`` names what failed ("exec",
    "chdir", "chroot", "setns", ...), ``errno`` and ``filename`` say why and
    on what, ``program`` is the program as given. Also the ``OSError``
    subclass subprocess raises for that errno, so ``except FileNotFoundError``
    keeps working."""

    def __init__(self, code, strerror, filename, *, step="", program="", object="", message=""):
        super().__init__(code, strerror, filename)
        self.step = step
        self.program = program
        self.object = object
        self.message = message

    def __str__(self):
        # OSError's own words, as subprocess's errors read, and the step.
        return f"{super().__str__()} (step: {self.step})" if self.step else super().__str__()


class ProgramNotFound(SpawnError):
    """The program does not exist (or no PATH entry has it)."""


class PermissionDenied(SpawnError):
    """The program exists but may not be executed."""


class BadWorkingDirectory(SpawnError):
    """cwd is missing, not a directory or not enterable."""


class BadRoot(SpawnError):
    """chroot's directory is missing or cannot be entered."""


class InvalidSpawnOptions(SpawnError):
    """brisk refused the options before anything ran (a bad namespace name, say)."""


class ReadError(SpawnError):
    """Reading the child's captured output failed; what was read is in ``stdout``/``stderr``."""


class CompletedPipeline(CompletedProcess):
    """A finished pipeline: ``returncode`` decides (the last member's, or with
    pipefail the first failing one's), ``returncodes`` has every member's."""

    def __init__(self, args, returncode, stdout=None, stderr=None, returncodes=()):
        super().__init__(args, returncode, stdout, stderr)
        self.returncodes = list(returncodes)

    def __repr__(self):
        return super().__repr__()[:-1] + f", returncodes={self.returncodes!r})"


_KINDS = {
    "program_not_found": ProgramNotFound,
    "permission_denied": PermissionDenied,
    "bad_cwd": BadWorkingDirectory,
    "bad_chroot": BadRoot,
    "invalid_argument": InvalidSpawnOptions,
}
# The builtin OSError subclass subprocess would raise for an errno.
_BUILTIN = {
    _errno.ENOENT: FileNotFoundError,
    _errno.EACCES: PermissionError,
    _errno.EPERM: PermissionError,
    _errno.ENOTDIR: NotADirectoryError,
    _errno.EISDIR: IsADirectoryError,
}
_classes = {}


def _error_class(kind_class, code):
    builtin = _BUILTIN.get(code)
    if builtin is None:
        return kind_class
    key = (kind_class, builtin)
    cls = _classes.get(key)
    if cls is None:
        cls = type(kind_class.__name__, (kind_class, builtin), {"__module__": __name__, "__doc__": kind_class.__doc__})
        _classes[key] = cls
    return cls


def _spawn_error(info, argv0, cwd):
    kind, step, code, program, obj, message = info
    cls = _error_class(_KINDS.get(kind, SpawnError), code)
    # subprocess names the program for exec failures and cwd for chdir's.
    if kind == "bad_cwd":
        filename = cwd
    elif kind in ("program_not_found", "permission_denied"):
        filename = program or argv0
    else:
        filename = obj or program
    return cls(code, os.strerror(code), filename, step=step, program=program, object=obj, message=message)


def _fs(value, what):
    """bytes for a path or argument, as subprocess accepts them (str, bytes, PathLike)."""
    try:
        b = os.fsencode(value)
    except TypeError:
        raise TypeError(f"{what} must be str, bytes or os.PathLike, not {type(value).__name__}") from None
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def _fd_of(value, what):
    if isinstance(value, bool):
        raise TypeError(f"{what} must be None, PIPE, DEVNULL, a descriptor or a file object, not bool")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"{what}: bad file descriptor {value}")
        return value
    fileno = getattr(value, "fileno", None)
    if fileno is None:
        raise TypeError(f"{what} must be None, PIPE, DEVNULL, a descriptor or a file object, "
                        f"not {type(value).__name__}")
    if hasattr(value, "flush"):
        value.flush()  # as Popen does: what Python buffered goes before the child's output
    return fileno()


def _set_stream(spec, name, value):
    """Sets spec.<name>_mode and _fd from subprocess's stdin/stdout/stderr values."""
    if value is None:
        mode, fd = _INHERIT, -1
    elif value == PIPE and isinstance(value, int):
        mode, fd = _CAPTURE, -1
    elif value == DEVNULL and isinstance(value, int):
        mode, fd = _NULL, -1
    elif value == STDOUT and isinstance(value, int):
        if name != "stderr":
            raise ValueError(f"STDOUT is only valid for stderr, not {name}")
        mode, fd = _MERGE, -1
    else:
        mode, fd = _FD, _fd_of(value, name)
    if name == "stdin" and mode == _CAPTURE:
        # run() closes a piped stdin at once, as subprocess.run's communicate() does.
        spec.stdin_mode, spec.input = _DATA, b""
        return
    setattr(spec, name + "_mode", mode)
    setattr(spec, name + "_fd", fd)


def _argv(args, shell, executable):
    if isinstance(args, (str, bytes, os.PathLike)):
        args = [args]
    else:
        try:
            args = list(args)
        except TypeError:
            raise TypeError(f"args must be a sequence or a string, not {type(args).__name__}") from None
    if shell:
        args = ["/bin/sh", "-c"] + args
        if executable is not None:
            args[0] = executable
            executable = None
    if not args:
        raise ValueError("args is empty: there is no program to run")
    return [_fs(a, "each argument") for a in args], executable


def _env(env):
    if env is None:
        return None
    try:
        items = env.items()
    except AttributeError:
        raise TypeError(f"env must be a mapping, not {type(env).__name__}") from None
    out = []
    for k, v in items:
        kb, vb = _fs(k, "an environment name"), _fs(v, "an environment value")
        if b"=" in kb or not kb:
            raise ValueError("illegal environment variable name")
        out.append((kb, vb))
    return out


def _id(value, lookup, what):
    """A uid or gid from a number or a name, as subprocess's user= and group=."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int or a str, not bool")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"{what} must not be negative: {value}")
        return value
    if isinstance(value, str):
        try:
            return lookup(value)
        except KeyError:
            raise ValueError(f"no {what} named {value!r}") from None
    raise TypeError(f"{what} must be an int or a str, not {type(value).__name__}")


_RLIM_INFINITY = (1 << 64) - 1  # rlim_t's RLIM_INFINITY; Python's resource module says -1


def _rlimits(rlimits):
    """[(resource, soft, hard)] from a mapping or pairs of resource -> limit or (soft, hard)."""
    if rlimits is None:
        return []
    items = rlimits.items() if hasattr(rlimits, "items") else rlimits
    out = []
    for item in items:
        try:
            res, limits = item
            soft, hard = (limits, limits) if isinstance(limits, int) else limits
        except (TypeError, ValueError):
            raise TypeError("rlimits maps a resource (resource.RLIMIT_*) to a limit or (soft, hard)") from None
        for n in (res, soft, hard):
            if not isinstance(n, int) or isinstance(n, bool):
                raise TypeError(f"rlimits: {n!r} is not an int")
        soft, hard = (_RLIM_INFINITY if x == _resource.RLIM_INFINITY else x for x in (soft, hard))
        if soft < 0 or hard < 0:
            raise ValueError(f"rlimits: negative limit for resource {res}")
        if soft > hard:
            raise ValueError(f"rlimits: soft limit above the hard limit for resource {res}")
        out.append((res, soft, hard))
    return out


def _seconds(value, what):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} must be a number of seconds, not {type(value).__name__}")
    if value != value or value < 0:
        raise ValueError(f"{what} must be a non-negative number of seconds, not {value}")
    return float(value)


# Popen arguments brisk cannot honour, and why.
_REFUSED = {
    "preexec_fn": "Python code cannot run in brisk's child (it is not forked): use chroot=, netns=, "
                  "uid=, gid=, rlimits=, umask= or cwd= instead",
    "startupinfo": "Windows only",
    "creationflags": "Windows only",
    "pipesize": "brisk reads pipes itself; their size is not settable",
}


def _process_options(spec, *, executable, cwd, env, chroot, netns, netns_view, uid, gid, user, group,
                     extra_groups, rlimits, umask, start_new_session, pass_fds, close_fds, restore_signals,
                     process_group, **rest):
    for name, value in rest.items():
        if name in _REFUSED:
            if value is not None:
                raise ValueError(f"brisk.run does not take {name}=: {_REFUSED[name]}")
        else:
            raise TypeError(f"brisk.run() got an unexpected keyword argument '{name}'")
    if close_fds is False:
        raise ValueError("brisk.run always closes descriptors other than 0-2: pass the ones the child "
                         "needs in pass_fds=")
    if restore_signals is False:
        raise ValueError("brisk.run always resets SIGPIPE, SIGXFZ and SIGXFSZ, as restore_signals=True does")
    if process_group is not None:
        raise ValueError("brisk.run does not take process_group=: use start_new_session=True")
    if executable is not None:
        spec.executable = _fs(executable, "executable")
    if cwd is not None:
        spec.cwd = _fs(cwd, "cwd")
    spec.env = _env(env)
    if chroot is not None:
        spec.chroot = _fs(chroot, "chroot")
    if netns is not None:
        spec.netns = _fs(netns, "netns")
        spec.netns_view = bool(netns_view)
    if uid is not None and user is not None:
        raise ValueError("give uid= or user=, not both")
    if gid is not None and group is not None:
        raise ValueError("give gid= or group=, not both")
    spec.uid = _id(uid if uid is not None else user, lambda n: pwd.getpwnam(n).pw_uid, "user")
    spec.gid = _id(gid if gid is not None else group, lambda n: grp.getgrnam(n).gr_gid, "group")
    if extra_groups is not None:
        spec.groups = [_id(g, lambda n: grp.getgrnam(n).gr_gid, "group") for g in extra_groups]
    spec.rlimits = _rlimits(rlimits)
    if umask is not None and umask != -1:
        if not isinstance(umask, int) or isinstance(umask, bool) or not 0 <= umask <= 0o777:
            raise ValueError(f"umask must be an int from 0 to 0o777, not {umask!r}")
        spec.umask = umask
    spec.new_session = bool(start_new_session)
    if pass_fds:
        spec.pass_fds = sorted({_fd_of(fd, "pass_fds") for fd in pass_fds})


def _text_options(text, universal_newlines, encoding, errors):
    if universal_newlines is not None and text is not None and bool(universal_newlines) != bool(text):
        raise subprocess.SubprocessError("Cannot disambiguate when both text and universal_newlines are "
                                         "supplied but different. Pass one or the other.")
    if encoding or errors or text or universal_newlines:
        return encoding or locale.getpreferredencoding(False), errors or "strict"
    return None


def _decode(data, text):
    if data is None or text is None:
        return data
    s = data.decode(*text)
    return s.replace("\r\n", "\n").replace("\r", "\n") if "\r" in s else s


def _io_spec(*, stdin, stdout, stderr, input, capture_output, timeout, kill_after, text):
    """A Spec with the streams and timeout of a run: what run, pipeline and run_all share."""
    spec = _brisk.Spec()
    if input is not None:
        if stdin is not None:
            raise ValueError("stdin and input arguments may not both be used.")
        if text is not None and isinstance(input, str):
            input = input.encode(*text)
        try:
            spec.input = bytes(memoryview(input))
        except TypeError:
            raise TypeError(f"input must be {'str' if text else 'bytes-like'}, not {type(input).__name__}") from None
        spec.stdin_mode = _DATA
    else:
        _set_stream(spec, "stdin", stdin)
    if capture_output:
        if stdout is not None or stderr is not None:
            raise ValueError("stdout and stderr arguments may not be used with capture_output.")
        stdout = stderr = PIPE
    _set_stream(spec, "stdout", stdout)
    _set_stream(spec, "stderr", stderr)
    spec.timeout = _seconds(timeout, "timeout")
    spec.kill_after = _seconds(kill_after, "kill_after")
    if spec.kill_after is not None and spec.timeout is None:
        raise ValueError("kill_after= is the grace after timeout=: give a timeout too")
    return spec


def _outcome(result, args, argv0, cwd, text, timeout, check, completed=CompletedProcess):
    """The CompletedProcess of a RunResult, or the exception subprocess would raise."""
    if result.spawn_error is not None:
        return _spawn_error(result.spawn_error, argv0, cwd)
    if result.timed_out:
        # As subprocess.run: the raw bytes read before the kill, None when nothing was.
        return TimeoutExpired(args, timeout, output=result.stdout or None, stderr=result.stderr or None)
    out, err = _decode(result.stdout, text), _decode(result.stderr, text)
    if result.read_error:
        e = ReadError(_errno.EIO, os.strerror(_errno.EIO), "", step="read", message=result.read_error)
        e.stdout, e.stderr = out, err
        return e
    if check and result.returncode != 0:
        return CalledProcessError(result.returncode, args, output=out, stderr=err)
    if completed is CompletedPipeline:
        return CompletedPipeline(args, result.returncode, out, err, result.returncodes)
    return CompletedProcess(args, result.returncode, out, err)


def _raise_or_return(outcome):
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def _command(args, *, shell, io, options):
    """(the Spec, its program as text for errors)."""
    argv, executable = _argv(args, shell, options.pop("executable"))
    spec = io
    spec.argv = argv
    _process_options(spec, executable=executable, **options)
    return spec, os.fsdecode(argv[0])


def run(args, *, input=None, capture_output=False, stdout=None, stderr=None, stdin=None, timeout=None,
        check=False, env=None, cwd=None, text=None, encoding=None, errors=None, universal_newlines=None,
        shell=False, executable=None, chroot=None, netns=None, netns_view=True, uid=None, gid=None,
        user=None, group=None, extra_groups=None, rlimits=None, umask=-1, kill_after=None,
        start_new_session=False, pass_fds=(), close_fds=True, restore_signals=True, process_group=None,
        bufsize=-1, **refused):
    """Runs a command and waits for it, as subprocess.run does.

    Beyond subprocess: ``chroot=`` (a directory to chroot into before cwd),
    ``netns=`` (a name under /run/netns or a path, entered as ``ip netns exec``
    does; ``netns_view=False`` for setns alone), ``uid=``/``gid=`` (or
    subprocess's ``user=``/``group=``/``extra_groups=``), ``rlimits=`` (a
    mapping of ``resource.RLIMIT_*`` to a limit or ``(soft, hard)``) and
    ``kill_after=`` (SIGTERM at ``timeout``, SIGKILL this many seconds later;
    without it SIGKILL at ``timeout``, as subprocess).
    """
    del bufsize  # brisk reads the pipes itself; buffering is not the caller's to set
    text_mode = _text_options(text, universal_newlines, encoding, errors)
    io = _io_spec(stdin=stdin, stdout=stdout, stderr=stderr, input=input, capture_output=capture_output,
                  timeout=timeout, kill_after=kill_after, text=text_mode)
    spec, argv0 = _command(args, shell=shell, io=io, options=dict(
        executable=executable, cwd=cwd, env=env, chroot=chroot, netns=netns, netns_view=netns_view, uid=uid,
        gid=gid, user=user, group=group, extra_groups=extra_groups, rlimits=rlimits, umask=umask,
        start_new_session=start_new_session, pass_fds=pass_fds, close_fds=close_fds,
        restore_signals=restore_signals, process_group=process_group, **refused))
    result = _brisk.run(spec)
    return _raise_or_return(_outcome(result, args, argv0, cwd, text_mode, timeout, check))


def pipeline(commands, *, pipefail=False, input=None, capture_output=False, stdout=None, stderr=None,
             stdin=None, timeout=None, check=False, text=None, encoding=None, errors=None,
             universal_newlines=None, kill_after=None, **options):
    """Runs commands with each one's stdout feeding the next one's stdin, as
    a shell's ``a | b | c``, without a shell. The streams and timeout are the
    pipeline's; every other option (env, cwd, chroot, netns, uid, ...) applies
    to each member. Returns a ``CompletedPipeline``; ``check=True`` raises
    ``CalledProcessError`` for the deciding status (the last member's, or with
    ``pipefail=True`` the first failing one's)."""
    commands = list(commands)
    if not commands:
        raise ValueError("a pipeline needs at least one command")
    text_mode = _text_options(text, universal_newlines, encoding, errors)
    io = _io_spec(stdin=stdin, stdout=stdout, stderr=stderr, input=input, capture_output=capture_output,
                  timeout=timeout, kill_after=kill_after, text=text_mode)
    members = [_member(c, options) for c in commands]
    result = _brisk.run_pipeline([m for m, _ in members], io, bool(pipefail))
    # A start failure names its program; spawn_error's program is the failing member's.
    argv0 = result.spawn_error[3] if result.spawn_error else members[-1][1]
    return _raise_or_return(_outcome(result, commands, argv0, options.get("cwd"), text_mode, timeout, check,
                                     CompletedPipeline))


def _member(args, options):
    opts = dict(_MEMBER_DEFAULTS)
    opts.update(options)
    shell = opts.pop("shell")
    return _command(args, shell=shell, io=_brisk.Spec(), options=opts)


_MEMBER_DEFAULTS = dict(shell=False, executable=None, cwd=None, env=None, chroot=None, netns=None, netns_view=True,
                        uid=None, gid=None, user=None, group=None, extra_groups=None, rlimits=None, umask=-1,
                        start_new_session=False, pass_fds=(), close_fds=True, restore_signals=True,
                        process_group=None)


def run_all(commands, *, jobs=4, return_exceptions=False, input=None, capture_output=False, stdout=None,
            stderr=None, stdin=None, timeout=None, check=False, text=None, encoding=None, errors=None,
            universal_newlines=None, kill_after=None, **options):
    """Runs many commands, ``jobs`` at a time, and returns one
    ``CompletedProcess`` per command, in order. The other arguments are
    ``run``'s and apply to each command (``timeout`` to each on its own).

    As ``asyncio.gather``: a failure (a start failure, or with ``check=True``
    a non-zero status or a timeout) is raised once every command has ended,
    the first in the commands' order; ``return_exceptions=True`` puts each
    failure in the list in its command's place instead."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive int, not {jobs!r}")
    commands = list(commands)
    text_mode = _text_options(text, universal_newlines, encoding, errors)
    specs = []
    for c in commands:
        io = _io_spec(stdin=stdin, stdout=stdout, stderr=stderr, input=input, capture_output=capture_output,
                      timeout=timeout, kill_after=kill_after, text=text_mode)
        opts = dict(_MEMBER_DEFAULTS)
        opts.update(options)
        specs.append(_command(c, shell=opts.pop("shell"), io=io, options=opts))
    results = _brisk.run_all([s for s, _ in specs], jobs)
    outcomes = [_outcome(r, c, argv0, options.get("cwd"), text_mode, timeout, check)
                for c, (_, argv0), r in zip(commands, specs, results)]
    if not return_exceptions:
        for o in outcomes:
            if isinstance(o, BaseException):
                raise o
    return outcomes
