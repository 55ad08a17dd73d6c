// masquerade.h: ipMasq, in-process through libnftables (never an
// iptables or nft process).
//
// The rules live in one table per family, `ip brisk_cni` and `ip6 brisk_cni`:
//   set pods   { type ipv4_addr; }                          a pod address, commented with its attachment
//   set local  { type ipv4_addr . ipv4_addr; flags interval; }   (pod address . its subnet)
//   chain postrouting { type nat hook postrouting priority srcnat;
//     ip saddr . ip daddr @local accept                    traffic inside the pod's subnet is left alone
//     ip saddr @pods ip daddr != 224.0.0.0/4 masquerade }  everything else but multicast is masqueraded
// (ff00::/8 for IPv6.) These are the reference's semantics (a chain per
// container with "-d subnet ACCEPT" and "! -d 224.0.0.0/4 MASQUERADE"),
// but an ADD or DEL adds or removes two set elements in one transaction
// instead of running nine iptables processes, and the cost does not grow
// with the number of pods.
#pragma once

#include <string>
#include <vector>

#include "brisk/cni/host_local.h"
#include "brisk/netlink/address.h"

namespace brisk::cni::detail {

struct MasqEntry {
  netlink::IpPrefix address{};  // the pod's address with its subnet's length
  std::string network{};        // the network's name
  std::string container_id{};
  std::string ifname{};
};

// One transaction; creates the tables on first use.
void masquerade_add(const std::vector<MasqEntry>& entries);
// Removes the entries' elements; ones already gone are not an error.
void masquerade_del(const std::vector<MasqEntry>& entries);
// Finds the entries of (network, container_id, ifname) by their comments
// (for a DEL that has no other way to know the addresses).
std::vector<MasqEntry> masquerade_find(const std::string& network, const std::string& container_id,
                                       const std::string& ifname);
// Removes the entries of `network` whose attachment is not in keep.
void masquerade_gc(const std::string& network, const std::vector<Attachment>& keep);
// The element comment that names an attachment (at most 128 bytes).
std::string masquerade_comment(const std::string& network, const std::string& container_id,
                               const std::string& ifname);

}  // namespace brisk::cni::detail
