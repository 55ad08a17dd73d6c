// cli/ip/monitor_raw.h: the monitor events the engine hands on unparsed
// (MonitorEvent::raw), printed as ip 6.1 prints them: IPv6 prefixes from
// router advertisements, multicast routes and hardware-stats changes.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/monitor.h"
#include "cli/ip/ip.h"

namespace brisk::ipcli {

// A device's name by its index, from the monitor's link cache.
using NameOf = std::function<std::string(int)>;

// The attributes of `e`'s message after a family header of `header` bytes;
// nullopt when it does not parse.
std::optional<netlink::Attributes> attributes_of(const netlink::MonitorEvent& e, std::size_t header,
                                                 netlink::Schema schema);

// An RTM_NEWPREFIX: "prefix ADDR/LEN..." (ip's print_prefix).
std::string prefix_text(const netlink::MonitorEvent& e, const NameOf& name);

// Whether an RTM_NEWROUTE/DELROUTE is a multicast route (ipmr's family).
bool is_mroute(const netlink::MonitorEvent& e);
// A multicast route: "(SRC,GROUP) Iif: DEV Oifs: ... State: resolved"
// (ip's print_mroute); empty when `dev` is set and is not its input device.
std::string mroute_text(const netlink::MonitorEvent& e, const NameOf& name, int dev, const Globals& g);

// An RTM_NEWSTATS: "INDEX: NAME:" and the hardware l3_stats state (ip's ipstats_print).
std::string stats_text(const netlink::MonitorEvent& e, const NameOf& name);

}  // namespace brisk::ipcli
