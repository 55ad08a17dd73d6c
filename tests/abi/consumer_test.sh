#!/usr/bin/env bash
# Builds tests/abi/consumer.cc as a user would, against include/ and the
# shared libbrisk alone (not the static one, not src/), then runs it: as
# root in network and mount namespaces of its own, with a tmpfs on /run for
# its named namespace, so its netlink part changes nothing of the host's. A function the public headers declare but
# the library does not export fails the link with an undefined reference.
#
# usage: consumer_test.sh CXX LIBBRISK_SO INCLUDE_DIR
set -euo pipefail
cxx=$1
library=$(realpath "$2")
include_dir=$3
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cxx" -std=c++20 -Wall -Wextra -Werror -O1 -I"$include_dir" "$here/consumer.cc" -o "$work/consumer" \
  "$library" -Wl,-rpath,"$(dirname "$library")"
soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
readelf -d "$work/consumer" | grep -qF "(NEEDED)             Shared library: [$soname]" ||
  { echo "consumer does not load $soname" >&2; exit 1; }
if [[ $EUID -eq 0 ]] && command -v unshare >/dev/null; then
  unshare --net --mount sh -c 'mount -t tmpfs brisk-abi /run && exec "$0" --netlink' "$work/consumer"
else
  echo "not root: the netlink part is not run"
  "$work/consumer"
fi
