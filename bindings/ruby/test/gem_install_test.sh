#!/usr/bin/env bash
# The gem installs by itself. Built from this tree (gem build in a copy of
# bindings/ruby, so nothing is written into the checkout), it is installed
# into a clean GEM_HOME from a directory outside the checkout twice: once
# linking a libbrisk installed into a temporary prefix and found through
# PKG_CONFIG_PATH, once building the libbrisk sources the gem carries. Each
# time gem_smoke.rb runs against the installed gem. A third install, with
# no cmake on PATH, must fail naming the Debian package.
#
# usage: gem_install_test.sh SOURCE_TREE BUILD_DIR
set -euo pipefail
tree=$(realpath "$1")
build=$(realpath "$2")
work=$(mktemp -d /tmp/brisk-gem-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "gem_install_test: $*" >&2
  exit 1
}

cp -r "$tree/bindings/ruby" "$work/gem-src"
rm -rf "$work/gem-src/vendor" "$work/gem-src"/*.gem
(cd "$work/gem-src" && BRISK_ROOT="$tree" gem build brisk.gemspec --output "$work/brisk.gem" >"$work/build.log" 2>&1) ||
  { cat "$work/build.log" >&2; fail "gem build failed"; }
tar -xOf "$work/brisk.gem" data.tar.gz | tar -tz >"$work/contents"
grep -qx vendor/libbrisk/src/spawn/clone3_trampoline.S "$work/contents" || fail "the gem carries no libbrisk sources"
grep -qx lib/cheetah.rb "$work/contents" || fail "the gem lacks lib/cheetah.rb"

cmake --install "$build" --prefix "$work/prefix" >/dev/null
brisk_pc=$(find "$work/prefix" -name brisk.pc)
[[ -n "$brisk_pc" ]] || fail "make install wrote no brisk.pc"

# pkg-config's own search path holds libmnl.pc alone: no brisk.pc other
# than the one a case names can be found.
mkdir "$work/pc" "$work/elsewhere"
ln -s "$(pkg-config --variable=pcfiledir libmnl)/libmnl.pc" "$work/pc/"

# install_and_smoke NAME [VAR=value...]: prints gem_make.out's brisk: lines.
install_and_smoke() {
  local name=$1 home="$work/gems-$1"
  shift
  (cd "$work/elsewhere" &&
    env -u RUBYLIB -u RUBYOPT PKG_CONFIG_LIBDIR="$work/pc" "$@" GEM_HOME="$home" GEM_PATH="$home" \
      gem install --local --no-document "$work/brisk.gem" >"$work/install-$name.log" 2>&1) ||
    { cat "$work/install-$name.log" >&2; fail "$name: gem install failed"; }
  (cd "$work/elsewhere" &&
    env -u RUBYLIB -u RUBYOPT GEM_HOME="$home" GEM_PATH="$home" ruby "$tree/bindings/ruby/test/gem_smoke.rb") ||
    fail "$name: the smoke script failed"
  grep -h '^brisk: ' "$home"/extensions/*/*/brisk-*/gem_make.out
}

linked=$(install_and_smoke prefix PKG_CONFIG_PATH="$(dirname "$brisk_pc")")
echo "$linked"
[[ "$linked" == *"using the installed libbrisk"* ]] || fail "prefix: the installed libbrisk was not used"
[[ "$linked" != *"building libbrisk"* ]] || fail "prefix: libbrisk was built from sources"

built=$(install_and_smoke sources PKG_CONFIG_PATH=)
echo "$built"
[[ "$built" == *"building libbrisk from the sources in $work/gems-sources/gems/brisk-"*"/vendor/libbrisk"* ]] ||
  fail "sources: the packed libbrisk sources were not built"

# Every program of /usr/bin but cmake: the packed build cannot run.
mkdir "$work/no-cmake-bin"
for program in /usr/bin/*; do
  [[ "${program##*/}" == cmake ]] || ln -s "$program" "$work/no-cmake-bin/"
done
if (cd "$work/elsewhere" &&
  env -u RUBYLIB -u RUBYOPT PATH="$work/no-cmake-bin" PKG_CONFIG_LIBDIR="$work/pc" PKG_CONFIG_PATH= \
    GEM_HOME="$work/gems-no-cmake" GEM_PATH="$work/gems-no-cmake" \
    gem install --local --no-document "$work/brisk.gem" >"$work/install-no-cmake.log" 2>&1); then
  fail "no cmake: gem install succeeded"
fi
grep -q "install the Debian package cmake" "$work/install-no-cmake.log" ||
  { cat "$work/install-no-cmake.log" >&2; fail "no cmake: the error does not name the Debian package"; }
echo "no cmake: the install fails naming the Debian package cmake"
