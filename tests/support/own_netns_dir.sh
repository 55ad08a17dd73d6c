#!/bin/sh
# ctest runs each test binary through this (CROSSCOMPILING_EMULATOR): as
# root, in a mount namespace of its own with an empty tmpfs on /run/netns.
# A test's named namespaces are then its own: one that lists /run/netns
# (netns list, monitor's nsid names, a peer's link-netnsid) never meets
# another test's, nor one half made (`ip netns add` creates the file before
# it mounts the namespace on it), however many tests run at once. Without
# the privilege for it the test runs as it is.
if [ "$(id -u)" = 0 ] && mkdir -p /run/netns 2>/dev/null &&
   unshare --mount --propagation private true 2>/dev/null; then
  exec unshare --mount --propagation private \
    sh -c 'mount -t tmpfs -o mode=0755 brisk-test /run/netns && exec "$@"' sh "$@"
fi
exec "$@"
