// portmap.h: brisk-portmap, the reference `portmap` plugin's port
// forwarding (containernetworking/plugins 1.1.1) in nftables, in-process.
//
// The rules live in one table per family, `ip brisk_portmap` and
// `ip6 brisk_portmap`. Configs that share their conditions and their way
// of marking share a group G of fixed chains and sets ("hostports" for no
// conditions and markMasqBit 13, else "hp_" and a hash of the two):
//   chain G_prerouting { type nat hook prerouting priority dstnat;
//     fib daddr type local <conditionsV4> jump G }
//   chain G_output { type nat hook output priority -100 (dstnat); the same }
//   chain G {
//     meta l4proto . th dport . ip saddr @G_mark_any <mark>
//     ip daddr . meta l4proto . th dport . ip saddr @G_mark_on <mark>
//     meta l4proto { tcp, udp, sctp } dnat ip to ip daddr . meta l4proto . th dport map @G_ports_on
//     meta l4proto { tcp, udp, sctp } dnat ip to meta l4proto . th dport map @G_ports_any }
//   map G_ports_any { proto . hostPort : pod . containerPort }        hostIP empty or 0.0.0.0
//   map G_ports_on  { hostIP . proto . hostPort : pod . containerPort }
//   set G_mark_any  { proto . hostPort . source range }  (interval)    who needs masquerading:
//   set G_mark_on   { hostIP . proto . hostPort . source range }       the pod's subnet (hairpin),
//                                                                      127.0.0.1, or any (masqAll)
//   chain masquerade_bitN { type nat hook postrouting priority 90 (srcnat - 10);
//     meta mark & 1<<N == 1<<N masquerade }
// <mark> is `meta mark set meta mark | 1<<N` (markMasqBit N, default 13),
// or `jump C` with externalSetMarkChain C, a chain the administrator
// keeps in the same table (an nftables table cannot jump to iptables').
// Every element is commented "<network> <containerID>", as the
// reference names its per-container chain, so an ADD or DEL is one
// transaction of element changes, whatever the number of pods.
// After ADD, the conntrack entries of UDP flows to the mapped UDP ports
// are deleted (conntrack.h), as the reference does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "brisk/cni/environment.h"
#include "brisk/cni/host_local.h"
#include "brisk/cni/result.h"
#include "brisk/cni/version.h"
#include "brisk/netlink/address.h"

namespace brisk::cni::detail {

struct PortMapping {
  int host_port = 0;
  int container_port = 0;
  std::string protocol{};  // "tcp", "udp" or "sctp" (lowercased)
  std::string host_ip{};   // empty: every local address
};

struct PortmapConfig {
  SpecVersion version{};
  std::string name{};                        // the network's name
  bool snat = true;                          // mark hairpin and localhost connections for masquerading
  bool masq_all = false;                     // mark every forwarded connection (as the reference after 1.1.1)
  std::vector<std::string> conditions_v4{};  // iptables match arguments for the IPv4 entry rule
  std::vector<std::string> conditions_v6{};
  int mark_masq_bit = 13;
  std::optional<std::string> external_set_mark_chain{};
  std::vector<PortMapping> mappings{};  // runtimeConfig.portMappings
  std::optional<Result> prev_result{};
  // The pod's first address of each family on CNI_IFNAME, with its subnet's length.
  std::optional<netlink::IpPrefix> pod_v4{};
  std::optional<netlink::IpPrefix> pod_v6{};
};

// Parses stdin as the reference does; its own errors are internal (999)
// with "failed to parse config: " before them when `wrap`.
PortmapConfig parse_portmap_config(const std::string& stdin_data, const Environment& env, bool wrap);

// iptables match arguments (conditionsV4/V6) as an nft match; throws
// unsupported_field for those brisk does not translate.
std::string translate_conditions(const std::vector<std::string>& args, int family);

// The rules of one pod address (AF_INET or AF_INET6 per the prefix).
void portmap_add(const PortmapConfig& c, const std::string& container_id, const netlink::IpPrefix& pod);
void portmap_check(const PortmapConfig& c, const std::string& container_id, const netlink::IpPrefix& pod);
// Removes every element of (network, container id), both families; none is not an error.
void portmap_del(const std::string& network, const std::string& container_id);
// Removes the elements of `network` whose container id is not kept.
void portmap_gc(const std::string& network, const std::vector<Attachment>& keep);

}  // namespace brisk::cni::detail
