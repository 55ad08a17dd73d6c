// brisk/netlink/nexthop.h: nexthop objects (`ip nexthop`), the gateways,
// blackholes and groups that routes name by id (RouteSpec::nhid) instead of
// carrying their own paths; routing daemons such as FRR keep theirs so.
//
//   for (const auto& nh : list_nexthops(conn).value()) ...
//   auto group = get_nexthop(conn, 10).value();
#pragma once

#include <linux/nexthop.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/address.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// A member of a nexthop group (NHA_GROUP's struct nexthop_grp).
struct NexthopGroupMember {
  uint32_t id = 0;      // the member nexthop's id
  uint16_t weight = 1;  // 1..256: the kernel's weight + 1, as ip prints it
  bool operator==(const NexthopGroupMember&) const = default;
};

// A resilient group's table (NHA_RES_GROUP); the times in clock ticks
// (USER_HZ), as the kernel reports them.
struct ResilientGroup {
  uint16_t buckets = 0;           // hash buckets the members share
  uint32_t idle_timer = 0;        // a bucket idle this long may move to another member
  uint32_t unbalanced_timer = 0;  // longest a group may stay unbalanced before buckets move anyway
  uint64_t unbalanced_time = 0;   // how long it has been unbalanced
  bool operator==(const ResilientGroup&) const = default;
};

// A nexthop object as the kernel reports it (RTM_NEWNEXTHOP).
struct NexthopEntry {
  uint32_t id = 0;
  int family = AF_UNSPEC;  // AF_INET or AF_INET6 for a gateway or device; AF_UNSPEC for a group or blackhole
  uint8_t scope = 0;       // RT_SCOPE_*
  uint8_t protocol = 0;    // RTPROT_* of whoever made it
  uint32_t flags = 0;      // RTNH_F_* (onlink, dead, linkdown)
  int oif = 0;             // output ifindex; 0: none
  std::optional<IpAddress> gateway{};
  bool blackhole = false;                        // drops what is routed through it
  bool fdb = false;                              // used by a bridge's fdb (vxlan), not by routes
  std::vector<NexthopGroupMember> group{};       // a group's members; empty: not a group
  uint16_t group_type = NEXTHOP_GRP_TYPE_MPATH;  // NEXTHOP_GRP_TYPE_*
  std::optional<ResilientGroup> resilient{};     // a resilient group's table
  bool encap = false;  // carries a lightweight-tunnel encapsulation (NHA_ENCAP), which brisk does not read
};

// Every nexthop object in the connection's namespace, in the kernel's order (by id).
BRISK_EXPORT NlResult<std::vector<NexthopEntry>> list_nexthops(Connection& conn);
// One by id; ENOENT when there is none.
BRISK_EXPORT NlResult<NexthopEntry> get_nexthop(Connection& conn, uint32_t id);

}  // namespace brisk::netlink
