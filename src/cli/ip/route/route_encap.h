// cli/ip/route_encap.h: a route's `encap TYPE ...` (ip's lwtunnel grammar)
// for the tunnels brisk encodes, ip, ip6 and mpls, and the text and JSON
// ip's print_encap writes for them.
#pragma once

#include "brisk/netlink/route.h"
#include "cli/ip/parse_util.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {

// What follows `encap`: the type, then its keywords until one that is not
// (the route's parser reads on from there).
Parsed<netlink::RouteEncap> parse_route_encap(Cursor& c);

// " encap TYPE FIELDS" as ip prints it after the destination (no trailing
// space: the next field brings its own), and the same keys into `j`.
std::string route_encap_text(const netlink::RouteEncap& e, Json& j);

}  // namespace brisk::ipcli
