// brisk/cni/host_local.h: the `host-local` IPAM plugin, in-process.
//
// The on-disk store is the reference plugin's, byte for byte, so that the
// reference host-local and brisk can share a network and a node can switch
// in either direction without losing a lease:
//   <dataDir>/<network>/<ip>                 "<container id>\r\n<ifname>"
//   <dataDir>/<network>/last_reserved_ip.<N> the last address given out from range set N
//   <dataDir>/<network>/lock                 empty; flock(LOCK_EX) around every change
//
// Unlike the reference, an ADD or DEL does not read every lease file. brisk
// keeps an index beside the store (<dataDir>/.brisk-index/<network>/, a
// name no network can have) with one file per attachment naming its
// addresses, and a stamp of the store directory as brisk last left it.
// When the stamp does not match (the reference plugin, or an ADD killed
// half-way, changed the store since), the index is rebuilt from the lease
// files before it is trusted. A lease file is made whole and then linked
// into place, so none is ever seen half-written.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "brisk/cni/result.h"
#include "brisk/cni/version.h"
#include "brisk/netlink/address.h"

namespace brisk::cni {

struct AddressRange {
  netlink::IpPrefix subnet{};                              // network address with its length (no host bits)
  netlink::IpAddress range_start{};                        // first address handed out (inclusive)
  netlink::IpAddress range_end{};                          // last address handed out (inclusive)
  netlink::IpAddress gateway{};                            // never handed out
  bool contains(const netlink::IpAddress& address) const;  // within start..end
};

// One address per set, from whichever of its ranges has one free.
using RangeSet = std::vector<AddressRange>;

struct HostLocalConfig {
  std::string network{};           // the network's name
  SpecVersion version{};           // the config's cniVersion
  std::vector<RangeSet> ranges{};  // one address from each set
  std::vector<Route> routes{};     // returned as they are
  std::string data_dir = "/var/lib/cni/networks";
  std::string resolv_conf{};                    // a resolv.conf to return as dns; empty: none
  std::vector<netlink::IpAddress> requested{};  // CNI_ARGS IP, args.cni.ips, runtimeConfig.ips
};

// Reads the "ipam" object (and the runtimeConfig/args that feed it) of a
// network config; throws CniException (invalid_config) as the reference
// rejects: no ranges, a subnet too small (/31, /32, /127, /128), host
// bits set, a start or end outside the subnet, mixed families in a set,
// overlapping sets or ranges.
HostLocalConfig parse_host_local_config(const nlohmann::json& config, const std::string& cni_args);

// ADD: one address per range set for (container_id, ifname), round-robin
// from the set's last reservation. Fails (and keeps nothing) on a
// duplicate pair, a requested address that is taken or outside every
// set, or an exhausted set.
Result host_local_add(const HostLocalConfig& config, const std::string& container_id,
                      const std::string& ifname);
// DEL: releases every lease of (container_id, ifname); none is success.
// Returns the addresses released.
std::vector<netlink::IpAddress> host_local_del(const HostLocalConfig& config, const std::string& container_id,
                                               const std::string& ifname);
// CHECK: throws unless (container_id, ifname) holds a lease.
void host_local_check(const HostLocalConfig& config, const std::string& container_id,
                      const std::string& ifname);

struct Attachment {
  std::string container_id{};
  std::string ifname{};
  bool operator==(const Attachment&) const = default;
};
// GC: releases the leases of every attachment not in `keep`. Returns the
// addresses released.
std::vector<netlink::IpAddress> host_local_gc(const HostLocalConfig& config,
                                              const std::vector<Attachment>& keep);

}  // namespace brisk::cni
