"""pyroute2.config: the constants callers read."""

import socket

AF_BRIDGE = getattr(socket, 'AF_BRIDGE', 7)
AF_NETLINK = getattr(socket, 'AF_NETLINK', 16)
netns_path = ['/var/run/netns', '/var/run/docker/netns']
