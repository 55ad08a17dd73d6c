// netlink/internal/netconf.h: a family's per-device settings as rtnetlink
// reports them (RTM_GETNETCONF, `ip netconf`): forwarding, rp_filter and
// the like, for each device, for "all" and for new devices ("default").
//
//   for (const auto& c : list_netconf(conn, AF_INET).value()) ...
#pragma once

#include <linux/netlink.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// One RTM_NEWNETCONF (or RTM_DELNETCONF): each setting the kernel sent.
struct NetconfInfo {
  int family = AF_UNSPEC;                                 // ncm_family: AF_INET, AF_INET6 or AF_MPLS
  std::optional<int> ifindex{};                           // a device, or NETCONFA_IFINDEX_ALL / _DEFAULT
  std::optional<uint32_t> forwarding{};                   // NETCONFA_FORWARDING
  std::optional<uint32_t> rp_filter{};                    // NETCONFA_RP_FILTER: 0 off, 1 strict, 2 loose
  std::optional<uint32_t> mc_forwarding{};                // NETCONFA_MC_FORWARDING
  std::optional<uint32_t> proxy_neigh{};                  // NETCONFA_PROXY_NEIGH
  std::optional<uint32_t> ignore_routes_with_linkdown{};  // NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN
  std::optional<uint32_t> input{};                        // NETCONFA_INPUT (MPLS)
};

NlResult<NetconfInfo> parse_netconf(const nlmsghdr& message);
// Every device's settings, then all's and default's, of `family`
// (AF_UNSPEC: every family's).
NlResult<std::vector<NetconfInfo>> list_netconf(Connection& conn, int family = AF_UNSPEC);
// One device's (or NETCONFA_IFINDEX_ALL's, _DEFAULT's) settings in `family`.
NlResult<NetconfInfo> get_netconf(Connection& conn, int family, int ifindex);

}  // namespace brisk::netlink
