// brisk/netlink/rule.h: policy routing rules (`ip rule`), IPv4 and IPv6.
//
//   add_rule(conn, {.priority = 100, .from = "10.1.0.0/16", .table = 100}).value();
//   add_rule(conn, {.family = AF_INET6, .priority = 200, .fwmark = 1, .action = FR_ACT_BLACKHOLE}).value();
//
// Defaults follow `ip rule add`: a rule without an action looks up a table,
// the main table unless one is named; without a priority the kernel gives it
// one just below the first rule with a priority other than 0. A delete
// removes the first rule that matches every field it sets.
#pragma once

#include <linux/fib_rules.h>
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

struct PortRange {
  uint16_t start = 0;  // first port
  uint16_t end = 0;    // last port, inclusive; equal to start for one port
  bool operator==(const PortRange&) const = default;
};

struct UidRange {
  uint32_t start = 0;  // first uid
  uint32_t end = 0;    // last uid, inclusive
  bool operator==(const UidRange&) const = default;
};

struct RuleSpec {
  int family = AF_INET;                // AF_INET or AF_INET6; the kernel checks the prefixes against it
  std::optional<uint32_t> priority{};  // FRA_PRIORITY; unset: the kernel picks one (add), any (delete)
  bool invert = false;                 // `not`: the rule matches what the selector does not
  std::string from{};                  // source prefix ("10.0.0.0/8"; an address alone is a host); empty: all
  std::string to{};                    // destination prefix; empty: all
  uint8_t tos = 0;                     // TOS / DS field to match; 0: any
  std::optional<uint32_t> fwmark{};    // firewall mark to match
  std::optional<uint32_t> fwmask{};    // bits of the mark compared; unset: all of them
  std::string iif{};                   // incoming device name (need not exist yet)
  std::string oif{};                   // outgoing device name, for locally sent packets
  bool l3mdev = false;                 // look up the table of the packet's L3 master device (VRF)
  std::optional<UidRange> uid_range{};  // socket owner uids to match
  std::optional<uint8_t> ip_proto{};    // IP protocol to match (IPPROTO_TCP, ...)
  std::optional<PortRange> sport{};     // source ports to match
  std::optional<PortRange> dport{};     // destination ports to match
  std::optional<uint64_t> tun_id{};     // tunnel id to match (host order)
  std::optional<uint32_t> table{};      // table to look up; unset: main for an add with no action
  std::optional<uint8_t> protocol{};    // who made the rule (RTPROT_*); unset: unspec (add), any (delete)
  std::optional<uint32_t> realms{};     // FRA_FLOW: source realm << 16 | destination realm
  std::optional<int32_t> suppress_prefixlength{};  // ignore a table's answer of this prefix length or shorter
  std::optional<uint32_t> suppress_ifgroup{};      // ignore a table's answer through a device of this group
  uint8_t action = FR_ACT_UNSPEC;                  // FR_ACT_*; unspec: look up `table` (add), any (delete)
  std::optional<uint32_t> goto_target{};           // FR_ACT_GOTO: the priority to continue at
  std::string nat_gateway{};                       // RTN_NAT's map-to address (obsolete; IPv4)
};

struct BRISK_EXPORT RuleInfo {
  int family = AF_INET;
  uint32_t priority = 0;           // 0 when the kernel reports none (the local rule)
  uint32_t flags = 0;              // FIB_RULE_* (invert, iif/oif detached, unresolved)
  std::optional<IpAddress> src{};  // FRA_SRC
  uint8_t src_len = 0;             // source prefix length; 0: all
  std::optional<IpAddress> dst{};  // FRA_DST
  uint8_t dst_len = 0;
  uint8_t tos = 0;
  std::optional<uint32_t> fwmark{};
  std::optional<uint32_t> fwmask{};
  std::string iif{};
  std::string oif{};
  bool l3mdev = false;
  std::optional<UidRange> uid_range{};
  std::optional<uint8_t> ip_proto{};
  std::optional<PortRange> sport{};
  std::optional<PortRange> dport{};
  std::optional<uint64_t> tun_id{};                // host order
  uint32_t table = 0;                              // FRA_TABLE, else the header's; 0: none
  std::optional<int32_t> suppress_prefixlength{};  // -1 as the kernel reports "none"
  std::optional<uint32_t> suppress_ifgroup{};      // 0xffffffff as the kernel reports "none"
  std::optional<uint32_t> realms{};                // FRA_FLOW
  uint8_t action = 0;                              // FR_ACT_* (or RTN_NAT)
  std::optional<uint32_t> goto_target{};           // FRA_GOTO
  std::optional<IpAddress> nat_gateway{};          // RTA_GATEWAY of an RTN_NAT rule
  std::optional<uint8_t> protocol{};               // FRA_PROTOCOL, as the kernel reports it

  // The spec that names exactly this rule, to delete it.
  RuleSpec spec() const;
};

struct RuleFilter {
  int family = AF_INET;  // AF_INET, AF_INET6, or AF_UNSPEC for both
};

BRISK_EXPORT NlResult<void> add_rule(Connection& conn, const RuleSpec& spec);
BRISK_EXPORT NlResult<void> delete_rule(Connection& conn, const RuleSpec& spec);
// Every rule of the family, in the kernel's order (by priority).
BRISK_EXPORT NlResult<std::vector<RuleInfo>> list_rules(Connection& conn, const RuleFilter& filter = {});

}  // namespace brisk::netlink
