"""Builds brisk._brisk for `pip install`. libbrisk comes from, in order:

1. an installed libbrisk that `pkg-config brisk` finds (`make install` writes
   brisk.pc; PKG_CONFIG_PATH points pkg-config at another prefix);
2. the sources of the checkout this directory sits in (or BRISK_ROOT), built
   with CMake as the library alone into setuptools' build directory, unless
   BRISK_BUILD (default: the checkout's build/) already holds a libbrisk.a.

A missing tool or library stops the build naming its Debian package.
"""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

try:
    from pybind11.setup_helpers import Pybind11Extension
except ImportError:
    sys.exit("brisk: pybind11 not found; install the Debian packages pybind11-dev and python3-pybind11")

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [os.path.join("src", f) for f in ("module.cc", "process.cc", "netlink.cc")]


def missing(what, package):
    sys.exit(f"brisk: {what} not found; install the Debian package {package} (apt-get install {package})")


def pkg_config(*query):
    """pkg-config's answer for libbrisk, or None when it has none."""
    if not shutil.which("pkg-config"):
        return None
    r = subprocess.run(["pkg-config", *query, "brisk"], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else None


def sources_root():
    given = os.environ.get("BRISK_ROOT")
    root = given or os.path.normpath(os.path.join(HERE, "..", ".."))
    if not os.path.exists(os.path.join(root, "include", "brisk", "command.h")):
        sys.exit(f"brisk: no libbrisk: pkg-config finds no brisk.pc and no sources are at {root}")
    return root


def build_libbrisk(root, build_temp):
    """libbrisk.a's path: BRISK_BUILD's (or the checkout's build/) if built, else built here with CMake."""
    existing = os.path.join(os.environ.get("BRISK_BUILD") or os.path.join(root, "build"), "src", "libbrisk.a")
    if os.path.exists(existing):
        return existing
    if not shutil.which("cmake"):
        missing("cmake", "cmake")
    build = os.path.join(os.path.abspath(build_temp), "libbrisk-build")
    print(f"brisk: building libbrisk from the sources in {root}", flush=True)
    for step in (["cmake", "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DBRISK_LIBRARY_ONLY=ON"],
                 ["cmake", "--build", build, "--target", "brisk", "-j", str(os.cpu_count() or 1)]):
        if subprocess.run(step).returncode != 0:
            sys.exit("brisk: building libbrisk with CMake failed (output above)")
    return os.path.join(build, "src", "libbrisk.a")


class BuildExt(build_ext):
    """Finds libbrisk when the extension is built, not when setup.py is read."""

    def build_extensions(self):
        ext = self.extensions[0]
        libs = pkg_config("--libs", "--static")
        if libs is not None:
            print(f"brisk: using the installed libbrisk {' '.join(pkg_config('--modversion'))} (pkg-config)",
                  flush=True)
            ext.extra_compile_args += pkg_config("--cflags")
            libdir = (pkg_config("--variable=libdir") or [""])[0]
            if libdir and any(f.startswith("libbrisk.so") for f in os.listdir(libdir) if os.path.isdir(libdir)):
                libs.append(f"-Wl,-rpath,{libdir}")  # a shared libbrisk outside the loader's path
            ext.extra_link_args += libs
        else:
            root = sources_root()
            ext.include_dirs.append(os.path.join(root, "include"))
            ext.extra_link_args += [build_libbrisk(root, self.build_temp), "-lmnl", "-pthread"]
        # A static libbrisk's exported API stays inside the extension, which exports PyInit__brisk alone.
        ext.extra_link_args.append("-Wl,--exclude-libs,libbrisk.a")
        super().build_extensions()


setup(
    ext_modules=[Pybind11Extension("brisk._brisk", SOURCES, cxx_std=20,
                                   extra_compile_args=["-Wall", "-Wextra", "-fvisibility=hidden"])],
    cmdclass={"build_ext": BuildExt},
)
