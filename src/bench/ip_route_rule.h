// bench/ip_route_rule.h: the route add and rule add phases of `brisk bench
// ip`: each one's batch line, the floor's request for it, and the end state
// every method must reach.
//   route i: route add 10.(128 + i/256).(i%256).0/24 via 10.0.0.1 dev DEV onlink
//   rule i:  rule add pref 1000+i from 172.(16 + i/256).(i%256).0/24 lookup 100+i%64
// The bench's devices are up but without carrier and hold /32 addresses, so
// no prefix covers a gateway: `onlink` says it is on the link anyway.
#pragma once

#include <string>

#include "bench/link_raw.h"

namespace brisk::bench {

std::string route_line(int i, const std::string& dev);
// Queues (or sends) route i out of ifindex, as route_line(i, that device) does.
int route_floor(RawNetlink& floor, int i, int ifindex);

std::string rule_line(int i);
int rule_floor(RawNetlink& floor, int i);

// The bench's /24 routes in the main table of the namespace netns_fd; -1
// when it cannot be listed.
int count_bench_routes(int netns_fd);
// The IPv4 rules of the namespace other than its three defaults; -1 when
// they cannot be listed.
int count_bench_rules(int netns_fd);

}  // namespace brisk::bench
