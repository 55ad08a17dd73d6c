// netlink/internal/neigh_table.h: the kernel's neighbour tables (RTM_GETNEIGHTBL,
// `ip ntable`): arp_cache and ndisc_cache, their garbage-collection
// thresholds, and the parameters each device has in each; and a change of
// those (RTM_SETNEIGHTBL).
//
//   for (const auto& t : list_neigh_tables(conn, AF_INET).value()) ...
//   change_neigh_table(conn, {.name = "arp_cache", .thresh1 = 256});
#pragma once

#include <linux/neighbour.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// NDTA_PARMS: a table's defaults, or one device's values in it. Times in ms.
struct NeighTableParms {
  std::optional<int> ifindex{};                   // NDTPA_IFINDEX: absent for the table's defaults
  std::optional<uint32_t> refcnt{};               // NDTPA_REFCNT
  std::optional<uint64_t> reachable_time{};       // NDTPA_REACHABLE_TIME: the randomised one in use
  std::optional<uint64_t> base_reachable_time{};  // NDTPA_BASE_REACHABLE_TIME
  std::optional<uint64_t> retrans_time{};         // NDTPA_RETRANS_TIME
  std::optional<uint64_t> gc_staletime{};         // NDTPA_GC_STALETIME
  std::optional<uint64_t> delay_probe_time{};     // NDTPA_DELAY_PROBE_TIME
  std::optional<uint32_t> queue_len{};            // NDTPA_QUEUE_LEN: packets queued per unresolved entry
  std::optional<uint32_t> app_probes{};           // NDTPA_APP_PROBES
  std::optional<uint32_t> ucast_probes{};         // NDTPA_UCAST_PROBES
  std::optional<uint32_t> mcast_probes{};         // NDTPA_MCAST_PROBES
  std::optional<uint64_t> anycast_delay{};        // NDTPA_ANYCAST_DELAY
  std::optional<uint64_t> proxy_delay{};          // NDTPA_PROXY_DELAY
  std::optional<uint32_t> proxy_qlen{};           // NDTPA_PROXY_QLEN
  std::optional<uint64_t> locktime{};             // NDTPA_LOCKTIME
};

// One RTM_NEWNEIGHTBL: a table (thresholds, config and stats set) or one of
// its devices (name and parms alone).
struct NeighTableInfo {
  int family = AF_UNSPEC;                  // ndtm_family: AF_INET (arp_cache), AF_INET6 (ndisc_cache)
  std::string name{};                      // NDTA_NAME
  std::optional<uint32_t> thresh1{};       // NDTA_THRESH1: entries below which gc never runs
  std::optional<uint32_t> thresh2{};       // NDTA_THRESH2: the soft maximum
  std::optional<uint32_t> thresh3{};       // NDTA_THRESH3: the hard maximum
  std::optional<uint64_t> gc_interval{};   // NDTA_GC_INTERVAL, ms
  std::optional<ndt_config> config{};      // NDTA_CONFIG
  std::optional<NeighTableParms> parms{};  // NDTA_PARMS
  std::optional<ndt_stats> stats{};        // NDTA_STATS
};

// What RTM_SETNEIGHTBL changes: the table `name` (of `family`, or the first
// of that name), and either its defaults or, with `ifindex`, one device's
// parameters. Only the fields set are sent.
struct NeighTableChange {
  int family = AF_UNSPEC;                         // ndtm_family; AF_UNSPEC: the table by name alone
  std::string name{};                             // NDTA_NAME: arp_cache, ndisc_cache
  std::optional<int> ifindex{};                   // NDTPA_IFINDEX: that device's parameters
  std::optional<uint32_t> thresh1{};              // NDTA_THRESH1
  std::optional<uint32_t> thresh2{};              // NDTA_THRESH2
  std::optional<uint32_t> thresh3{};              // NDTA_THRESH3
  std::optional<uint64_t> gc_interval{};          // NDTA_GC_INTERVAL, ms
  std::optional<uint64_t> base_reachable_time{};  // NDTPA_BASE_REACHABLE_TIME, ms
  std::optional<uint64_t> retrans_time{};         // NDTPA_RETRANS_TIME, ms
  std::optional<uint64_t> gc_staletime{};         // NDTPA_GC_STALETIME, ms
  std::optional<uint64_t> delay_probe_time{};     // NDTPA_DELAY_PROBE_TIME, ms
  std::optional<uint32_t> queue_len{};            // NDTPA_QUEUE_LEN, packets
  std::optional<uint32_t> app_probes{};           // NDTPA_APP_PROBES
  std::optional<uint32_t> ucast_probes{};         // NDTPA_UCAST_PROBES
  std::optional<uint32_t> mcast_probes{};         // NDTPA_MCAST_PROBES
  std::optional<uint64_t> anycast_delay{};        // NDTPA_ANYCAST_DELAY, ms
  std::optional<uint64_t> proxy_delay{};          // NDTPA_PROXY_DELAY, ms
  std::optional<uint32_t> proxy_qlen{};           // NDTPA_PROXY_QLEN, packets
  std::optional<uint64_t> locktime{};             // NDTPA_LOCKTIME, ms
};

NlResult<NeighTableInfo> parse_neigh_table(const nlmsghdr& message);
// Every table of `family` (AF_UNSPEC: all), each followed by its devices.
NlResult<std::vector<NeighTableInfo>> list_neigh_tables(Connection& conn, int family = AF_UNSPEC);
// The RTM_SETNEIGHTBL request of `change` (NLM_F_REPLACE), as sent.
Message neigh_table_change_message(const NeighTableChange& change);
// Sends it; the kernel refuses an unknown table (ENOENT) or device.
NlResult<void> change_neigh_table(Connection& conn, const NeighTableChange& change);

}  // namespace brisk::netlink
