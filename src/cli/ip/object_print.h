// cli/ip/object_print.h: one record of an object as ip prints it, shared
// by that object's show and by `monitor` (each printer stays in its
// object's file). Each returns the text, newline included, and fills in
// the record's JSON keys.
#pragma once

#include <linux/netlink.h>

#include <string>

#include "cli/ip/runner.h"

namespace brisk::ipcli {

// An address's two lines ("    inet ...", "       valid_lft ...") under its link.
std::string address_record(const netlink::AddressInfo& a, Json& ai);

// What a route line leaves out because the listing fixes it.
struct RouteView {
  const Globals& globals;       // -d spells out the implicit type, protocol, scope and table
  const Links& all;             // names the devices
  bool every_table = true;      // no table filter: "table" printed for all but main
  bool dev_fixed = false;       // a dev filter: no "dev"
  bool protocol_fixed = false;  // a proto filter: no "proto"
  bool scope_fixed = false;     // a scope filter: no "scope"
};
std::string route_record(const netlink::RouteInfo& r, const RouteView& view, Json& j);

// A neighbour line; with_dev: " dev NAME" (no dev filter).
std::string neigh_record(const netlink::NeighbourInfo& n, const Links& all, bool with_dev, Json& j);

// A rule's line as ip rule show prints it, "Deleted " first for a removal.
std::string rule_record(const netlink::RuleInfo& rule, bool deleted, const Globals& g, Json& j);

}  // namespace brisk::ipcli
