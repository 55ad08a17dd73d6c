// brisk/netlink/neighbour.h: neighbour (ARP/NDP) entries and bridge fdb.
//
// Every call addresses its device by name through the connection's cache:
// unlike `ip neigh` and `bridge fdb`, nothing here dumps per operation.
//
//   add_neighbour(conn, {.dev = "eth0", .address = "10.0.0.2", .lladdr = "02:00:00:00:00:02"}).value();
//   add_fdb(conn, {.dev = "vxlan0", .lladdr = "00:00:00:00:00:00", .dst = "192.0.2.1", .self =
//   true}).value();
#pragma once

#include <linux/neighbour.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/address.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

struct NeighbourSpec {
  std::string dev{};               // device the neighbour is on
  std::string address{};           // its IPv4 or IPv6 address
  std::string lladdr{};            // its MAC; empty: none (a proxy entry, a change keeping it)
  uint16_t state = NUD_PERMANENT;  // NUD_* (permanent, noarp, reachable, stale, none, ...)
  uint8_t flags = 0;     // NTF_PROXY (a proxy entry, no lladdr), NTF_ROUTER, NTF_USE, NTF_EXT_LEARNED
  bool managed = false;  // NTF_EXT_MANAGED: the kernel resolves and keeps the entry
  uint8_t protocol = 0;  // NDA_PROTOCOL: who made the entry (RTPROT_*); 0: not said
};

struct NeighbourInfo {
  int ifindex = 0;
  IpAddress address{};
  std::optional<MacAddress> lladdr{};
  uint16_t state = 0;    // NUD_*
  uint8_t flags = 0;     // NTF_*
  bool managed = false;  // NTF_EXT_MANAGED in NDA_FLAGS_EXT
  uint8_t protocol = 0;  // NDA_PROTOCOL; 0: none given
  uint32_t refcnt = 0;   // NDA_CACHEINFO's ndm_refcnt: the entry's users (0 is ip's "unused")
  // NDA_CACHEINFO's ages, in clock ticks (sysconf(_SC_CLK_TCK)) since the
  // entry was last used, confirmed reachable, and changed.
  uint32_t used = 0;
  uint32_t confirmed = 0;
  uint32_t updated = 0;
  std::optional<uint32_t> probes{};  // NDA_PROBES: solicitations sent in this round
};

struct NeighbourFilter {
  std::string dev{};       // only this device (filtered by the kernel); empty: all
  int family = AF_UNSPEC;  // AF_INET, AF_INET6 or both
  bool proxy = false;      // the proxy entries (NTF_PROXY) instead of the cache
  std::string master{};    // only entries on this device's ports (NDA_MASTER, kernel-side); empty: all
  bool no_master = false;  // only entries on devices without a master (NDA_MASTER of -1)
};

BRISK_EXPORT NlResult<void> add_neighbour(Connection& conn, const NeighbourSpec& spec);
BRISK_EXPORT NlResult<void> replace_neighbour(Connection& conn, const NeighbourSpec& spec);
// Changes an existing entry (NLM_F_REPLACE without NLM_F_CREATE): ENOENT when there is none.
BRISK_EXPORT NlResult<void> change_neighbour(Connection& conn, const NeighbourSpec& spec);
BRISK_EXPORT NlResult<void> delete_neighbour(Connection& conn, const NeighbourSpec& spec);
BRISK_EXPORT NlResult<std::vector<NeighbourInfo>> list_neighbours(Connection& conn,
                                                                  const NeighbourFilter& filter = {});
// One entry, asked of the kernel (RTM_GETNEIGH), as `ip neigh get`: `address`
// on `dev`, or the proxy entry for it (`dev` may then be empty: the entry for
// every device). ENOENT, with the kernel's text, when there is none.
BRISK_EXPORT NlResult<NeighbourInfo> get_neighbour(Connection& conn, const std::string& dev,
                                                   const std::string& address, bool proxy = false);

struct FdbSpec {
  std::string dev{};               // the bridge port (or vxlan device)
  std::string lladdr{};            // MAC of the entry
  bool master = true;              // in the master bridge's table (NTF_MASTER)
  bool self = false;               // in the device's own table (NTF_SELF)
  uint16_t state = NUD_NOARP;      // NUD_NOARP (static), NUD_PERMANENT (local), NUD_REACHABLE (dynamic)
  std::optional<uint16_t> vlan{};  // VLAN id
  std::string dst{};               // remote IP for vxlan entries
};

struct FdbInfo {
  int ifindex = 0;  // the port
  MacAddress lladdr{};
  uint16_t state = 0;
  uint8_t flags = 0;  // NTF_MASTER, NTF_SELF, ...
  std::optional<uint16_t> vlan{};
  int master = 0;  // the bridge's ifindex; 0: none reported
};

BRISK_EXPORT NlResult<void> add_fdb(Connection& conn, const FdbSpec& spec);
BRISK_EXPORT NlResult<void> delete_fdb(Connection& conn, const FdbSpec& spec);
// The fdb of one bridge (filtered by the kernel with NDA_MASTER).
BRISK_EXPORT NlResult<std::vector<FdbInfo>> list_fdb(Connection& conn, const std::string& bridge);

}  // namespace brisk::netlink
