"""brisk: run programs and configure Linux networking at the speed the kernel allows.

- ``brisk.run``, ``brisk.pipeline`` and ``brisk.run_all``: ``subprocess.run``'s
  contract on brisk's spawn engine, plus chroot, network namespaces,
  credentials, resource limits and two-phase timeouts (docs/python.md).
- ``brisk.pyroute2``: a drop-in for the pyroute2 API that host-networking
  agents use, on brisk's netlink engine, without a helper process per
  namespace.
"""

from pkgutil import extend_path

# The extension (_brisk*.so) may sit in a build tree beside these sources.
__path__ = extend_path(__path__, __name__)

from ._run import (  # noqa: E402
    DEVNULL, PIPE, STDOUT, BadRoot, BadWorkingDirectory, CalledProcessError, CompletedPipeline, CompletedProcess,
    InvalidSpawnOptions, PermissionDenied, ProgramNotFound, ReadError, SpawnError, TimeoutExpired, pipeline, run,
    run_all)

__all__ = [
    "run", "pipeline", "run_all", "CompletedProcess", "CompletedPipeline", "CalledProcessError", "TimeoutExpired",
    "SpawnError", "ProgramNotFound", "PermissionDenied", "BadWorkingDirectory", "BadRoot", "InvalidSpawnOptions",
    "ReadError", "PIPE", "DEVNULL", "STDOUT",
]
