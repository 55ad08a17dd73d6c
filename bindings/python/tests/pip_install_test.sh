#!/usr/bin/env bash
# The package installs by itself, the documented way: pip, no index, no build
# isolation, into a venv made with --system-site-packages (Debian's Python is
# externally managed). From a copy of bindings/python outside the checkout,
# so nothing is written into it, it is installed twice: once linking a
# libbrisk installed into a temporary prefix and found through
# PKG_CONFIG_PATH, once building libbrisk from the checkout's sources
# (BRISK_ROOT). Each time a smoke script runs against the installed package.
#
# usage: pip_install_test.sh SOURCE_TREE BUILD_DIR PYTHON
set -euo pipefail
tree=$(realpath "$1")
build=$(realpath "$2")
python=$3
work=$(mktemp -d /tmp/brisk-pip-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "pip_install_test: $*" >&2
  exit 1
}

cmake --install "$build" --prefix "$work/prefix" >/dev/null
brisk_pc=$(find "$work/prefix" -name brisk.pc)
[[ -n "$brisk_pc" ]] || fail "make install wrote no brisk.pc"
# pkg-config's search path holds libmnl.pc alone: no brisk.pc but the one a case names.
mkdir "$work/pc" "$work/elsewhere"
ln -s "$(pkg-config --variable=pcfiledir libmnl)/libmnl.pc" "$work/pc/"

smoke='
import brisk, brisk.pyroute2, os, sys
assert brisk.__file__.startswith(sys.prefix), brisk.__file__
r = brisk.run(["echo", "ok"], capture_output=True, text=True, check=True)
assert r.stdout == "ok\n", r
with brisk.pyroute2.IPRoute() as ipr:
    assert ipr.link_lookup(ifname="lo") == [1]
print("smoke ok")
'

# install_and_smoke NAME [VAR=value...]: prints the build's brisk: lines.
install_and_smoke() {
  local name=$1 venv="$work/venv-$1"
  shift
  rm -rf "$work/src" && cp -r "$tree/bindings/python" "$work/src" && rm -rf "$work/src/build" "$work/src"/*.egg-info
  "$python" -m venv --system-site-packages "$venv"
  (cd "$work/elsewhere" &&
    env -u PYTHONPATH PKG_CONFIG_LIBDIR="$work/pc" "$@" \
      "$venv/bin/pip" install -v --no-build-isolation --no-index "$work/src" >"$work/install-$name.log" 2>&1) ||
    { cat "$work/install-$name.log" >&2; fail "$name: pip install failed"; }
  (cd "$work/elsewhere" && env -u PYTHONPATH "$venv/bin/python" -c "$smoke") || fail "$name: the smoke script failed"
  grep -h '^ *brisk: ' "$work/install-$name.log" | sed 's/^ *//'
}

linked=$(install_and_smoke prefix PKG_CONFIG_PATH="$(dirname "$brisk_pc")")
echo "$linked"
[[ "$linked" == *"using the installed libbrisk"* ]] || fail "prefix: the installed libbrisk was not used"
[[ "$linked" != *"building libbrisk"* ]] || fail "prefix: libbrisk was built from sources"

built=$(install_and_smoke sources PKG_CONFIG_PATH= BRISK_ROOT="$tree" BRISK_BUILD="$work/no-build")
echo "$built"
[[ "$built" == *"building libbrisk from the sources in $tree"* ]] || fail "sources: libbrisk was not built"
echo "pip_install_test: ok"
