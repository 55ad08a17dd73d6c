// cli/ip/object_print.h: one record of an object as ip prints it, shared
// by that object's show and by `monitor` (each printer stays in its
// object's file). Each returns the text, newline included, and fills in
// the record's JSON keys.
#pragma once

#include <linux/netlink.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/ip/runner.h"
#include "netlink/internal/netconf.h"
#include "netlink/internal/nexthop.h"

namespace brisk::ipcli {

// An address's two lines ("    inet ...", "       valid_lft ...") under its link.
std::string address_record(const netlink::AddressInfo& a, Json& ai);
// Its first words, which -br prints alone: "LOCAL[ peer PEER]/LEN [metric M ]".
std::string address_head(const netlink::AddressInfo& a, Json& ai);

// What a route line leaves out because the listing fixes it.
struct RouteView {
  const Globals& globals;       // -d spells out the implicit type, protocol, scope and table
  const Links& all;             // names the devices
  bool every_table = true;      // no table filter: "table" printed for all but main
  bool dev_fixed = false;       // a dev filter: no "dev"
  bool protocol_fixed = false;  // a proto filter: no "proto"
  bool scope_fixed = false;     // a scope filter: no "scope"
  bool tos_fixed = false;       // a tos filter: no "tos"
  bool via_fixed = false;       // a via filter naming one host: no "via"
  bool prefsrc_fixed = false;   // a src filter naming one host: no "src"
  bool metric_fixed = false;    // a metric filter: no "metric"
  bool realms_fixed = false;    // a realms filter naming both halves: no "realm(s)"
  // -d: the nexthop objects by id, for the nh_info of a route naming one; null: none shown.
  const std::map<uint32_t, netlink::NexthopEntry>* nexthops = nullptr;
};
std::string route_record(const netlink::RouteInfo& r, const RouteView& view, Json& j);

// ip's names for a route's or a nexthop's flags (RTNH_F_* and RTM_F_*), in its order.
std::vector<std::string> route_flags(uint32_t bits);

// How a nexthop object's line is printed.
struct NexthopView {
  const Links& all;      // names the devices
  bool details = false;  // -d: scope and proto even when they are the defaults
  bool deleted = false;  // "Deleted " first: a removal
};
// A nexthop object's line as ip nexthop prints it.
std::string nexthop_record(const netlink::NexthopEntry& nh, const NexthopView& view, Json& j);

// A family's settings on a device (or all, default) as ip netconf and
// ip monitor netconf print them, "Deleted " first for a removal; `name`
// names a device by its ifindex.
std::string netconf_record(const netlink::NetconfInfo& c, bool deleted,
                           const std::function<std::string(int)>& name, Json& j);

// An address label's line as ip addrlabel prints it.
std::string addrlabel_record(const netlink::AddrLabelInfo& l, const Links& all, Json& j);

// A neighbour line; with_dev: " dev NAME" (no dev filter).
// ip's neighbour line; `stats` (-s) adds the cache's ages and probes.
std::string neigh_record(const netlink::NeighbourInfo& n, const Links& all, bool with_dev, Json& j,
                         bool stats = false);

// A rule's line as ip rule show prints it, "Deleted " first for a removal.
std::string rule_record(const netlink::RuleInfo& rule, bool deleted, const Globals& g, Json& j);

}  // namespace brisk::ipcli
