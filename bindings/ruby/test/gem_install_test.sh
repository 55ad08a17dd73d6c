#!/usr/bin/env bash
# The gem installs by itself. Built from this tree (gem build in a copy of
# bindings/ruby, so nothing is written into the checkout), it is installed
# into a clean GEM_HOME from a directory outside the checkout twice: once
# linking a libbrisk installed into a temporary prefix and found through
# PKG_CONFIG_PATH, once building the libbrisk sources the gem carries. Each
# time gem_smoke.rb runs against the installed gem.
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
