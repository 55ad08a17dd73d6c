// netlink/route_multipath.h: RTA_MULTIPATH, a multipath route's paths: a
// run of struct rtnexthop, each followed by its own attributes (RTA_GATEWAY).
#pragma once

#include <span>
#include <vector>

#include "brisk/netlink/route.h"

namespace brisk::netlink::detail {

// One path, resolved: its gateway (if any) and output ifindex (0: none).
struct Nexthop {
  std::optional<IpAddress> via;
  int ifindex = 0;
  uint16_t weight = 1;
  bool onlink = false;
  std::optional<uint32_t> realms;
};

// RTA_MULTIPATH's payload for `paths`.
std::vector<uint8_t> encode_multipath(const std::vector<Nexthop>& paths);
// The paths in an RTA_MULTIPATH payload; a truncated entry is an error.
NlResult<std::vector<NexthopInfo>> decode_multipath(std::span<const uint8_t> payload);

}  // namespace brisk::netlink::detail
