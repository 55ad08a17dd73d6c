#!/bin/sh
# Runs docs/examples/netns_fleet in a throwaway mount and network namespace
# (its own /run, so /run/netns too): every container is set up, and the
# teardown leaves no namespace and no link but lo behind.
# Usage: netns_fleet_test.sh EXAMPLE
set -u
example=$1
if [ "$(id -u)" != 0 ]; then
  echo "skipped: needs root to make network namespaces"
  exit 77
fi
exec unshare --mount --net --propagation private sh -c '
  set -eu
  mount -t tmpfs none /run
  out=$("$1" 150 t)
  echo "$out"
  [ "$out" = "150 containers set up, 0 failed" ] || { echo "FAIL: unexpected summary"; exit 1; }
  left=$(ls /run/netns | wc -l)
  [ "$left" -eq 0 ] || { echo "FAIL: $left namespaces left"; exit 1; }
  links=$(ip -o link show | grep -vc " lo:" || true)
  [ "$links" -eq 0 ] || { echo "FAIL: $links links left"; ip -br link; exit 1; }
  echo "ok: set up and torn down"
' sh "$example"
