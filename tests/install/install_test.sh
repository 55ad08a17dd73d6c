#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds a consumer against
# it twice: with find_package(brisk) and with pkg-config. Fails on any error.
set -euo pipefail
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
# The installed brisk hands `brisk bench` over to $prefix/libexec/brisk/brisk-bench.
test -x "$work/prefix/libexec/brisk/brisk-bench"
test ! -e "$work/prefix/bin/brisk-bench"
"$work/prefix/bin/brisk" bench --help > "$work/bench-help.txt"
grep -q startup "$work/bench-help.txt"
# Programs are installed stripped, each with its debug info beside it under
# lib/debug at its own path, linked by .gnu_debuglink, and still run.
for program in bin/brisk libexec/brisk/brisk-bench lib/cni/brisk-bridge lib/cni/brisk-portmap lib/cni/brisk-cni-install; do
  installed=$work/prefix/$program
  debug=$work/prefix/lib/debug$work/prefix/$program.debug
  if readelf -S "$installed" | grep -q '\.debug_'; then echo "$program: installed with debug info" >&2; exit 1; fi
  if ! readelf -S "$debug" | grep -q '\.debug_line'; then echo "$program: no line tables in $debug" >&2; exit 1; fi
  if ! readelf --string-dump=.gnu_debuglink "$installed" | grep -q "$(basename "$program").debug"; then
    echo "$program: no .gnu_debuglink to its debug file" >&2; exit 1
  fi
done
"$work/prefix/bin/brisk" -V | grep -q brisk
CNI_COMMAND=VERSION "$work/prefix/lib/cni/brisk-bridge" </dev/null | grep -q supportedVersions
CNI_COMMAND=VERSION "$work/prefix/lib/cni/brisk-portmap" </dev/null | grep -q supportedVersions
"$work/prefix/lib/cni/brisk-cni-install" --help | grep -q cni-bin-dir
mkdir "$work/consumer"
cat > "$work/consumer/main.cc" <<'CC'
#include <brisk/spawn.h>
int main() {
  auto child = brisk::spawn({.argv = {"/bin/true"}});
  return child && child->wait()->success() ? 0 : 1;
}
CC
cat > "$work/consumer/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(consumer CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(brisk REQUIRED)
add_executable(consumer main.cc)
target_link_libraries(consumer brisk::brisk)
CM
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer/build" >/dev/null
"$work/consumer/build/consumer"
pc_dir=$(dirname "$(find "$work/prefix" -name brisk.pc)")
# shellcheck disable=SC2046
g++ -std=c++20 "$work/consumer/main.cc" -o "$work/pc-consumer" $(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs --static brisk)
"$work/pc-consumer"
# The installed headers are the public tier alone (docs/api.md): each
# compiles on its own from the install tree, and the internal tier's and
# brisk-bridge's are not there.
headers=$(cd "$work/prefix/include" && find brisk -name '*.h' | sort)
for header in $headers; do
  echo "#include <$header>" | g++ -std=c++20 -fsyntax-only -I"$work/prefix/include" -x c++ - ||
    { echo "$header does not compile from the install tree alone" >&2; exit 1; }
done
for absent in brisk/netlink/nexthop.h brisk/netlink/internal brisk/cni; do
  if [[ -e "$work/prefix/include/$absent" ]]; then echo "$absent is installed" >&2; exit 1; fi
done
echo "programs stripped with debug info in lib/debug; brisk bench handed over; find_package and pkg-config consumers built and ran;" \
  "$(wc -w <<<"$headers") headers installed, each compiling alone"
