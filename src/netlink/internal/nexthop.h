// netlink/internal/nexthop.h: nexthop objects (`ip nexthop`), the gateways,
// blackholes and groups that routes name by id (RouteSpec::nhid) instead of
// carrying their own paths; routing daemons such as FRR keep theirs so.
//
//   add_nexthop(conn, {.id = 1, .via = "10.0.0.1", .dev = "eth0"}).value();
//   add_nexthop(conn, {.id = 10, .group = {{.id = 1}, {.id = 2, .weight = 3}}}).value();
//   for (const auto& nh : list_nexthops(conn).value()) ...
//   auto group = get_nexthop(conn, 10).value();
#pragma once

#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "brisk/netlink/address.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"
#include "brisk/netlink/route.h"

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
  std::optional<RouteEncap>
      encap{};  // its lightweight tunnel (NHA_ENCAP); type alone for a kind brisk does not read
};

// A nexthop object to make, replace or delete (RTM_NEWNEXTHOP or
// RTM_DELNEXTHOP), field for field what `ip nexthop add` sends. The kernel
// checks the combination: a group takes no gateway or device, a
// blackhole no gateway, device or fdb, and a delete nothing but the id.
struct NexthopObjectSpec {
  std::optional<uint32_t> id{};  // NHA_ID; none (or 0) on an add: the kernel picks one
  int family =
      AF_UNSPEC;        // nhmsg's family: AF_INET or AF_INET6 for a gateway or device, AF_UNSPEC for a group
  std::string via{};    // the gateway (NHA_GATEWAY), of `family` when that is set
  std::string dev{};    // the output device (NHA_OIF), by name
  bool onlink = false;  // the gateway is reachable on `dev` without a route to it (RTNH_F_ONLINK)
  bool blackhole = false;                   // drops what is routed through it (NHA_BLACKHOLE)
  bool fdb = false;                         // for a bridge's fdb (vxlan), not for routes (NHA_FDB)
  std::vector<NexthopGroupMember> group{};  // a group's members, weights 1..256 (NHA_GROUP)
  std::optional<uint16_t> group_type{};     // NEXTHOP_GRP_TYPE_* (NHA_GROUP_TYPE); none: the kernel's mpath
  // A resilient group's table (NHA_RES_GROUP, sent with group_type
  // resilient); times in clock ticks (USER_HZ), none: the kernel's default.
  std::optional<uint16_t> buckets{};
  std::optional<uint32_t> idle_timer{};
  std::optional<uint32_t> unbalanced_timer{};
  uint8_t protocol = RTPROT_UNSPEC;   // RTPROT_* recorded as its maker (nh_protocol)
  std::optional<RouteEncap> encap{};  // a lightweight tunnel on its path (NHA_ENCAP), as a route's
};

// How a nexthop request meets an object with the same id.
enum class NexthopWrite {
  add,      // NLM_F_CREATE|NLM_F_EXCL: EEXIST if there is one
  replace,  // NLM_F_CREATE|NLM_F_REPLACE: made or changed in place (routes through it follow)
  del,      // RTM_DELNEXTHOP: routes through it go too
};

NlResult<void> add_nexthop(Connection& conn, const NexthopObjectSpec& spec);
NlResult<void> replace_nexthop(Connection& conn, const NexthopObjectSpec& spec);
// Deletes nexthop `id`; a group left without members goes with it.
NlResult<void> delete_nexthop(Connection& conn, uint32_t id);
// Queues one of the three on a batch; returns its result's index in flush()'s answer.
std::size_t put_nexthop(Batch& batch, NexthopObjectSpec spec, NexthopWrite write);
// A NexthopEntry from an RTM_NEWNEXTHOP (or RTM_DELNEXTHOP) message: a
// monitor's event, which MonitorEvent carries unparsed (`raw`).
NlResult<NexthopEntry> parse_nexthop(const nlmsghdr& message);

// Which nexthops a dump returns; the kernel filters (as `ip nexthop show`'s selectors ask it).
struct NexthopFilter {
  int family = AF_UNSPEC;  // AF_INET or AF_INET6: only that family's (groups are neither)
  int oif = 0;             // only those through this device (NHA_OIF)
  int master = 0;          // only those through a port of this master, a VRF (NHA_MASTER)
  bool groups = false;     // only groups (NHA_GROUPS)
  bool fdb = false;        // only fdb nexthops (NHA_FDB)
};

// One bucket of a resilient group's table (RTM_NEWNEXTHOPBUCKET).
struct NexthopBucket {
  uint32_t id = 0;         // the group's id
  uint32_t flags = 0;      // RTNH_F_* of the bucket's nexthop
  uint16_t index = 0;      // the bucket's place in the table
  uint64_t idle_time = 0;  // clock ticks since a packet last hashed to it
  uint32_t nhid = 0;       // the member nexthop it sends to
};

// Which buckets a dump returns (`ip nexthop bucket list`'s selectors).
struct NexthopBucketFilter {
  int family = AF_UNSPEC;
  int oif = 0;        // buckets whose nexthop goes through this device
  int master = 0;     // ... through a port of this master
  uint32_t id = 0;    // the buckets of this group; 0: of every resilient group
  uint32_t nhid = 0;  // the buckets sending to this nexthop; 0: any
};

NlResult<std::vector<NexthopBucket>> list_nexthop_buckets(Connection& conn,
                                                          const NexthopBucketFilter& filter = {});
// Bucket `index` of group `id`; past its table the kernel's ENOENT ("Bucket index out of bounds").
NlResult<NexthopBucket> get_nexthop_bucket(Connection& conn, uint32_t id, uint16_t index);

// Every nexthop object in the connection's namespace, in the kernel's order (by id).
NlResult<std::vector<NexthopEntry>> list_nexthops(Connection& conn, const NexthopFilter& filter = {});
// One by id; ENOENT when there is none.
NlResult<NexthopEntry> get_nexthop(Connection& conn, uint32_t id);

}  // namespace brisk::netlink
