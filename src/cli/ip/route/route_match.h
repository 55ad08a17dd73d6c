// cli/ip/route_match.h: route show/flush's address, metric, mark and tos
// selectors (RouteMatch), read and applied as ip 6.1's iproute.c does.
#pragma once

#include <string>

#include "brisk/netlink/route.h"
#include "cli/ip/ip.h"
#include "cli/ip/parse_util.h"

namespace brisk::ipcli {

// `text` as ip's get_prefix(text, family) reads it: an address (its
// host length, none given), ADDR/LEN, "default", "all" or "any".
Parsed<RouteMatch::Prefix> match_prefix(const std::string& text, int family);

// Whether a via or src selector names one host, which ip then leaves off the line.
bool names_host(const std::optional<RouteMatch::Prefix>& p);

// What route show, flush and save dump (IPv4 unless -6, both families for
// every table, as ip) and which of the dump's routes they keep.
struct RouteSelection {
  netlink::RouteFilter filter{};
  int oif = 0;  // dev DEV's index; 0: none named
  int iif = 0;  // iif DEV's index; 0: none named
  bool keeps(const IpCommand& cmd, const netlink::RouteInfo& r) const;
};
netlink::NlResult<RouteSelection> route_selection(netlink::Connection& c, const IpCommand& cmd);

// The table of the VRF device `name`; a device that is none is a missing
// Argument::vrf, which the runner turns into ip's argument error "Invalid VRF".
netlink::NlResult<uint32_t> vrf_table(netlink::Connection& c, const std::string& name, const char* op);

// Whether the route passes every selector; `iif` is the iif DEV's index (0: none named).
bool route_selected(const RouteMatch& m, const netlink::RouteInfo& r, int iif);

}  // namespace brisk::ipcli
