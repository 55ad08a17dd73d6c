// cli/ip/route_metrics.h: a route's RTA_METRICS in ip's words: `mtu [lock]
// N`, `advmss N`, `rtt TIME`, ... read into netlink::RouteMetrics, and
// printed after the route's flags as ip prints them.
#pragma once

#include <string>

#include "brisk/netlink/route.h"
#include "cli/ip/parse_util.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {

// The RTAX_* a keyword sets (mtu, window, rtt, advmss, initcwnd, initrwnd,
// quickack, features, congctl, ...), found as ip finds it (some by prefix),
// or 0 for a keyword that is no metric. fastopen_no_cookie is not among
// them: ip tries it after its other route keywords.
uint16_t route_metric_of(std::string_view key);
// Reads the value of metric `type` (after an optional "lock") into `metrics`.
Parsed<bool> read_route_metric(uint16_t type, Cursor& c, netlink::RouteMetrics& metrics);
// " mtu 1400 rtt 100ms ..." and ip -j's "metrics": [{...}], when there are any.
void print_route_metrics(const netlink::RouteMetrics& metrics, Json& j, std::string& text);

}  // namespace brisk::ipcli
