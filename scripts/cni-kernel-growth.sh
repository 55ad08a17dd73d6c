#!/bin/bash
# Per-pod cost of the kernel work of a CNI ADD, done by iproute2 (whose own
# code is the same at any pod count), at 0 pods and at 800 pods on one bridge.
# Needs root and perf (Debian: linux-perf); run by hand, not by make test.
set -e
H=gh  # the simulated host namespace (never the initial one)
cleanup() { for n in $(ip netns list | awk '{print $1}' | grep -E '^(gh|gp[0-9]+)$'); do ip netns del $n; done; }
cleanup
ip netns add $H
ip -n $H link add br0 type bridge; ip -n $H link set br0 up
ip netns exec $H sysctl -qw net.ipv6.conf.all.disable_ipv6=1
pod() { # $1 index
  ip netns add gp$1
  ip netns exec gp$1 sysctl -qw net.ipv6.conf.all.disable_ipv6=1
  ip -n $H link add v$1 type veth peer name eth0 netns gp$1
  ip -n $H link set v$1 master br0 up
  ip -n gp$1 link set eth0 up
  ip -n gp$1 addr add 10.$(( $1 / 250 )).$(( $1 % 250 + 1 )).2/8 dev eth0
  ip -n gp$1 route add default via 10.0.0.1 dev eth0 onlink
}
measure() { # label first count
  perf stat -x, -e task-clock,user_time,system_time -- bash -c "$(declare -f pod); H=$H; for i in \$(seq $2 $(( $2 + $3 - 1 ))); do pod \$i; done" 2>&1 | awk -F, -v l="$1" -v n=$3 '{v[$3]=$1} END {printf "%s: per pod task-clock %.2f ms, user %.2f ms, sys %.2f ms\n", l, v["task-clock"]/n, v["user_time"]/1e6/n, v["system_time"]/1e6/n}'
}
measure "at 0 pods" 5000 20
for i in $(seq 1 800); do pod $i; done
measure "at 800 pods" 6000 20
cleanup
