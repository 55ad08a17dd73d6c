#!/usr/bin/env python3
"""Captures real rtnetlink replies as seeds for the netlink_reply fuzz target.

Run inside a throwaway namespace, never the host's:
  unshare -Urn fuzz/capture_netlink_seeds.py fuzz/corpus/netlink_reply
It creates a few links, addresses, routes and neighbours there, then saves
each datagram the kernel sends for link/addr/route/neigh dumps, and the
ACKs and extended-ACK errors of good and bad requests, one file each.
"""
import os
import socket
import struct
import subprocess
import sys

NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE, NLM_F_DUMP = 1, 4, 0x200, 0x400, 0x300
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
RTM_NEWLINK, RTM_GETLINK, RTM_GETADDR, RTM_GETROUTE, RTM_GETNEIGH = 16, 18, 22, 26, 30
RTM_GETNEXTHOP = 106
IFLA_IFNAME, IFLA_MTU, IFLA_LINKINFO, IFLA_INFO_KIND, IFLA_STATS64 = 3, 4, 18, 1, 23
NLMSG_ERROR, NLMSG_DONE = 2, 3


def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack("HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)


def message(kind, flags, seq, body):
    return struct.pack("IHHII", 16 + len(body), kind, flags, seq, 0) + body


def setup():
    for cmd in ["ip link set lo up",
                "ip link add v0 type veth peer name v1",
                "ip link add br0 type bridge",
                "ip link set v1 master br0",
                "ip link set v0 up", "ip link set v1 up", "ip link set br0 up",
                "ip link set v0 alias first-pair",
                "ip addr add 10.0.0.1/24 brd 10.0.0.255 dev v0 label v0:one",
                "ip -6 addr add fd00::1/64 dev v0 nodad",
                "ip route add 10.9.0.0/16 via 10.0.0.2 metric 7",
                "ip route add blackhole 192.0.2.0/24",
                "ip -6 route add fd01::/64 via fd00::2",
                "ip neigh add 10.0.0.7 lladdr 02:00:00:00:00:07 dev v0",
                "ip neigh add fd00::9 lladdr 02:00:00:00:00:09 dev v0",
                "bridge fdb add 02:00:00:00:00:01 dev v1 master static",
                "ip nexthop add id 1 via 10.0.0.3 dev v0",
                "ip nexthop add id 2 via 10.0.0.4 dev v0 proto static",
                "ip nexthop add id 5 blackhole",
                "ip nexthop add id 3 group 1/2,4",
                "ip nexthop add id 4 group 1 type resilient buckets 8",
                "ip route add 10.8.0.0/16 nhid 3"]:
        subprocess.run(cmd.split(), check=True)


def receive_until_done(sock, seq, single):
    datagrams = []
    while True:
        data = sock.recv(65536)
        datagrams.append(data)
        if single:  # a GET without NLM_F_ACK: one reply, or its error
            return datagrams
        offset = 0
        while offset + 16 <= len(data):
            length, kind, _, got_seq, _ = struct.unpack_from("IHHII", data, offset)
            if got_seq == seq and kind in (NLMSG_DONE, NLMSG_ERROR):
                return datagrams
            offset += (length + 3) & ~3


def main(out):
    os.makedirs(out, exist_ok=True)
    setup()
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.bind((0, 0))
    seq = 0
    requests = {
        "link_dump": (RTM_GETLINK, NLM_F_DUMP, struct.pack("BxHiII", 0, 0, 0, 0, 0)),
        "addr_dump": (RTM_GETADDR, NLM_F_DUMP, struct.pack("BBBBI", 0, 0, 0, 0, 0)),
        "route_dump": (RTM_GETROUTE, NLM_F_DUMP, struct.pack("BBBBBBBBI", 0, 0, 0, 0, 0, 0, 0, 0, 0)),
        "neigh_dump": (RTM_GETNEIGH, NLM_F_DUMP, struct.pack("BxxxiHBB", 0, 0, 0, 0, 0)),
        "nexthop_dump": (RTM_GETNEXTHOP, NLM_F_DUMP, struct.pack("BBBBI", 0, 0, 0, 0, 0)),
        "fdb_dump": (RTM_GETNEIGH, NLM_F_DUMP, struct.pack("BxxxiHBB", socket.AF_BRIDGE, 0, 0, 0, 0)),
        "link_get_v0": (RTM_GETLINK, 0, struct.pack("BxHiII", 0, 0, 0, 0, 0) + attr(IFLA_IFNAME, b"v0\0")),
        "ack_ok": (RTM_NEWLINK, NLM_F_ACK, struct.pack("BxHiII", 0, 0, 0, 0, 0) + attr(IFLA_IFNAME, b"lo\0")),
        "error_unknown_kind": (RTM_NEWLINK, NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
                               struct.pack("BxHiII", 0, 0, 0, 0, 0) + attr(IFLA_IFNAME, b"x0\0") +
                               attr(IFLA_LINKINFO, attr(IFLA_INFO_KIND, b"nosuchkind\0"))),
        "error_bad_attr": (RTM_NEWLINK, NLM_F_ACK, struct.pack("BxHiII", 0, 0, 0, 0, 0) +
                           attr(IFLA_IFNAME, b"v0\0") + attr(IFLA_MTU, b"\x01\x00")),
        "error_no_device": (RTM_GETLINK, 0, struct.pack("BxHiII", 0, 0, 0, 0, 0) + attr(IFLA_IFNAME, b"nosuch\0")),
    }
    for name, (kind, flags, body) in requests.items():
        seq += 1
        sock.send(message(kind, NLM_F_REQUEST | flags, seq, body))
        for i, data in enumerate(receive_until_done(sock, seq, flags == 0)):
            with open(os.path.join(out, f"{name}_{i}"), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
