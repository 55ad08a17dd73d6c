// ip link's bridge kind, as ip 6.1's iplink_bridge.c: `type bridge
// OPTIONS` for a new bridge or a change of one, and its `-d` details.
#include <arpa/inet.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>

#include <cstring>

#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

using netlink::Attributes;
using netlink::AttrKind;

// ip's reply to an option its bridge parser lacks: its text and usage, status 1.
Failure<UsageError> bridge_unknown(const std::string& key) {
  return fail(
      UsageError{.message = "bridge: unknown command \"" + key + "\"?\n" + std::string(bridge_usage()),
                 .exact = true,
                 .exit_code = 1});
}

// One bridge option: how ip finds its keyword (most by abbreviation, two
// only whole), and where its value goes.
struct BridgeOption {
  const char* key;
  bool whole_word;
  // Reads the value after the keyword into the options; a bad one is ip's "invalid KEY".
  Parsed<bool> (*read)(netlink::BridgeOptions&, Cursor&, const std::string& key);
};

template <class T>
Parsed<T> bridge_number(Cursor& c, const std::string& key, const char* name) {
  std::string v;
  TRY_SET(v, c.value(key));
  auto n = number<T>(key, v);
  if (!n) return invarg(std::string("invalid ") + name, v);
  return *n;
}

// The field an option sets, by pointer to member, read as ip reads it: a
// number of the field's width (get_u8/u16/u32/u64), or for a flag one of
// `Width` (its value on when not 0, as the kernel takes it).
template <auto Field, const char* Name, class Width>
Parsed<bool> bridge_field(netlink::BridgeOptions& br, Cursor& c, const std::string& key) {
  using Stored = typename std::remove_reference_t<decltype(br.*Field)>::value_type;
  Width n{};
  TRY_SET(n, bridge_number<Width>(c, key, Name));
  if constexpr (std::is_same_v<Stored, bool>)
    br.*Field = n != 0;
  else
    br.*Field = n;
  return true;
}

// KEY sets FIELD, read as a WIDTH; ip matches KEY abbreviated unless WHOLE.
#define BRISK_BRIDGE_OPTION_AS(key, field, width, whole)                                \
  BridgeOption {                                                                        \
#key, whole, [](netlink::BridgeOptions& br, Cursor& c, const std::string& word) {     \
      static constexpr char kName[] = #key;                                               \
      return bridge_field<&netlink::BridgeOptions::field, kName, width>(br, c, word);     \
    } \
  }
#define BRISK_BRIDGE_OPTION(name, width) BRISK_BRIDGE_OPTION_AS(name, name, width, false)

// In ip 6.1's order (bridge_parse_opt), which decides what an abbreviation means.
const BridgeOption kBridgeOptions[] = {
    BRISK_BRIDGE_OPTION(forward_delay, uint32_t),
    BRISK_BRIDGE_OPTION(hello_time, uint32_t),
    BRISK_BRIDGE_OPTION(max_age, uint32_t),
    BRISK_BRIDGE_OPTION(ageing_time, uint32_t),
    BRISK_BRIDGE_OPTION_AS(stp_state, stp, uint32_t, false),
    BRISK_BRIDGE_OPTION(priority, uint16_t),
    BRISK_BRIDGE_OPTION(vlan_filtering, uint8_t),
    {"vlan_protocol", false,
     [](netlink::BridgeOptions& br, Cursor& c, const std::string& key) -> Parsed<bool> {
       std::string v;
       TRY_SET(v, c.value(key));
       // ll_proto_a2n: a name (any case), else a number.
       auto lower = v;
       for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
       if (lower == "802.1q")
         br.vlan_protocol = 0x8100;
       else if (lower == "802.1ad")
         br.vlan_protocol = 0x88a8;
       else if (auto n = number<uint16_t>(key, v))
         br.vlan_protocol = *n;
       else
         return invarg("invalid vlan_protocol", v);
       return true;
     }},
    BRISK_BRIDGE_OPTION(group_fwd_mask, uint16_t),
    {"group_address", false,
     [](netlink::BridgeOptions& br, Cursor& c, const std::string& key) -> Parsed<bool> {
       TRY_SET(br.group_address, c.ll_address(key));
       return true;
     }},
    BRISK_BRIDGE_OPTION_AS(no_linklocal_learn, no_linklocal_learn, uint8_t, true),
    {"fdb_flush", false,
     [](netlink::BridgeOptions& br, Cursor&, const std::string&) -> Parsed<bool> {
       br.fdb_flush = true;
       return true;
     }},
    BRISK_BRIDGE_OPTION(vlan_default_pvid, uint16_t),
    BRISK_BRIDGE_OPTION(vlan_stats_enabled, uint8_t),
    BRISK_BRIDGE_OPTION(vlan_stats_per_port, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_router, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_snooping, uint8_t),
    BRISK_BRIDGE_OPTION_AS(mcast_vlan_snooping, mcast_vlan_snooping, uint8_t, true),
    BRISK_BRIDGE_OPTION(mcast_query_use_ifaddr, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_querier, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_hash_elasticity, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_hash_max, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_last_member_count, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_startup_query_count, uint32_t),
    BRISK_BRIDGE_OPTION(mcast_last_member_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_membership_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_querier_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_query_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_query_response_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_startup_query_interval, uint64_t),
    BRISK_BRIDGE_OPTION(mcast_stats_enabled, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_igmp_version, uint8_t),
    BRISK_BRIDGE_OPTION(mcast_mld_version, uint8_t),
    BRISK_BRIDGE_OPTION(nf_call_iptables, uint8_t),
    BRISK_BRIDGE_OPTION(nf_call_ip6tables, uint8_t),
    BRISK_BRIDGE_OPTION(nf_call_arptables, uint8_t),
};
#undef BRISK_BRIDGE_OPTION
#undef BRISK_BRIDGE_OPTION_AS

// The bridge options from here to the end of the line (a `link add` or a
// `link set ... type bridge`).
Parsed<netlink::BridgeOptions> parse_bridge_options(Cursor& c) {
  netlink::BridgeOptions br;
  while (!c.done()) {
    std::string key = c.next();
    const BridgeOption* found = nullptr;
    for (const auto& option : kBridgeOptions) {
      if (option.whole_word ? is(key, option.key) : matches(key, option.key)) {
        found = &option;
        break;
      }
    }
    if (!found) {
      if (matches(key, "help")) return fail(UsageError{.message = std::string(bridge_usage()), .help = true});
      return bridge_unknown(key);
    }
    auto read = found->read(br, c, key);
    if (!read) return std::move(read).error();
  }
  return br;
}

Parsed<netlink::LinkKind> parse(KindArgs& args) {
  netlink::BridgeOptions br;
  TRY_SET(br, parse_bridge_options(args.c));
  return netlink::LinkKind{std::move(br)};
}

constexpr auto kBridge = [] {
  Policies<IFLA_BR_MAX + 1> p{};
  for (int t : {IFLA_BR_FORWARD_DELAY, IFLA_BR_HELLO_TIME, IFLA_BR_MAX_AGE, IFLA_BR_AGEING_TIME,
                IFLA_BR_STP_STATE, IFLA_BR_ROOT_PATH_COST, IFLA_BR_MCAST_HASH_ELASTICITY,
                IFLA_BR_MCAST_HASH_MAX, IFLA_BR_MCAST_LAST_MEMBER_CNT, IFLA_BR_MCAST_STARTUP_QUERY_CNT})
    p[t] = {AttrKind::u32};
  for (int t : {IFLA_BR_PRIORITY, IFLA_BR_VLAN_PROTOCOL, IFLA_BR_GROUP_FWD_MASK, IFLA_BR_ROOT_PORT,
                IFLA_BR_VLAN_DEFAULT_PVID})
    p[t] = {AttrKind::u16};
  for (int t : {IFLA_BR_VLAN_FILTERING, IFLA_BR_TOPOLOGY_CHANGE, IFLA_BR_TOPOLOGY_CHANGE_DETECTED,
                IFLA_BR_MCAST_ROUTER, IFLA_BR_MCAST_SNOOPING, IFLA_BR_MCAST_QUERY_USE_IFADDR,
                IFLA_BR_MCAST_QUERIER, IFLA_BR_NF_CALL_IPTABLES, IFLA_BR_NF_CALL_IP6TABLES,
                IFLA_BR_NF_CALL_ARPTABLES, IFLA_BR_VLAN_STATS_ENABLED, IFLA_BR_MCAST_STATS_ENABLED,
                IFLA_BR_MCAST_IGMP_VERSION, IFLA_BR_MCAST_MLD_VERSION, IFLA_BR_VLAN_STATS_PER_PORT})
    p[t] = {AttrKind::u8};
  for (int t :
       {IFLA_BR_HELLO_TIMER, IFLA_BR_TCN_TIMER, IFLA_BR_TOPOLOGY_CHANGE_TIMER, IFLA_BR_GC_TIMER,
        IFLA_BR_MCAST_LAST_MEMBER_INTVL, IFLA_BR_MCAST_MEMBERSHIP_INTVL, IFLA_BR_MCAST_QUERIER_INTVL,
        IFLA_BR_MCAST_QUERY_INTVL, IFLA_BR_MCAST_QUERY_RESPONSE_INTVL, IFLA_BR_MCAST_STARTUP_QUERY_INTVL})
    p[t] = {AttrKind::u64};
  p[IFLA_BR_ROOT_ID] = {AttrKind::binary, 0, sizeof(ifla_bridge_id)};
  p[IFLA_BR_BRIDGE_ID] = {AttrKind::binary, 0, sizeof(ifla_bridge_id)};
  p[IFLA_BR_GROUP_ADDR] = {AttrKind::binary, 0, 6};
  p[IFLA_BR_MULTI_BOOLOPT] = {AttrKind::binary, 0, sizeof(br_boolopt_multi)};
  return p;
}();

void print_bridge(const Attributes& a, DetailPrinter& out, const NameOf&) {
  Fields f{a, out};
  f.u32(IFLA_BR_FORWARD_DELAY, "forward_delay", "forward_delay");
  f.u32(IFLA_BR_HELLO_TIME, "hello_time", "hello_time");
  f.u32(IFLA_BR_MAX_AGE, "max_age", "max_age");
  f.u32(IFLA_BR_AGEING_TIME, "ageing_time", "ageing_time");
  f.u32(IFLA_BR_STP_STATE, "stp_state", "stp_state");
  f.u16(IFLA_BR_PRIORITY, "priority", "priority");
  f.u8(IFLA_BR_VLAN_FILTERING, "vlan_filtering", "vlan_filtering");
  if (auto proto = a.u16(IFLA_BR_VLAN_PROTOCOL)) {
    uint16_t host = ntohs(*proto);
    out.field("vlan_protocol", "vlan_protocol",
              host == 0x8100   ? std::string("802.1Q")
              : host == 0x88a8 ? std::string("802.1ad")
                               : DetailPrinter::hex_text(host));
  }
  f.bridge_id(IFLA_BR_BRIDGE_ID, "bridge_id", "bridge_id");
  f.bridge_id(IFLA_BR_ROOT_ID, "root_id", "designated_root");
  f.u16(IFLA_BR_ROOT_PORT, "root_port", "root_port");
  f.u32(IFLA_BR_ROOT_PATH_COST, "root_path_cost", "root_path_cost");
  f.u8(IFLA_BR_TOPOLOGY_CHANGE, "topology_change", "topology_change");
  f.u8(IFLA_BR_TOPOLOGY_CHANGE_DETECTED, "topology_change_detected", "topology_change_detected");
  f.timer(IFLA_BR_HELLO_TIMER, "hello_timer");
  f.timer(IFLA_BR_TCN_TIMER, "tcn_timer");
  f.timer(IFLA_BR_TOPOLOGY_CHANGE_TIMER, "topology_change_timer");
  f.timer(IFLA_BR_GC_TIMER, "gc_timer");
  f.u16(IFLA_BR_VLAN_DEFAULT_PVID, "vlan_default_pvid", "vlan_default_pvid");
  f.u8(IFLA_BR_VLAN_STATS_ENABLED, "vlan_stats_enabled", "vlan_stats_enabled");
  f.u8(IFLA_BR_VLAN_STATS_PER_PORT, "vlan_stats_per_port", "vlan_stats_per_port");
  if (auto mask = a.u16(IFLA_BR_GROUP_FWD_MASK)) out.hex("group_fwd_mask", "group_fwd_mask", *mask);
  if (auto group = a.bytes(IFLA_BR_GROUP_ADDR)) out.field("group_addr", "group_address", mac_text(*group));
  f.u8(IFLA_BR_MCAST_SNOOPING, "mcast_snooping", "mcast_snooping");
  if (auto raw = a.bytes(IFLA_BR_MULTI_BOOLOPT)) {
    br_boolopt_multi bools;
    std::memcpy(&bools, raw->data(), sizeof bools);
    auto flag = [&](int bit, const char* key) {
      if (bools.optmask & (1u << bit)) out.field(key, key, (bools.optval >> bit) & 1u);
    };
    flag(BR_BOOLOPT_NO_LL_LEARN, "no_linklocal_learn");
    flag(BR_BOOLOPT_MCAST_VLAN_SNOOPING, "mcast_vlan_snooping");
  }
  f.u8(IFLA_BR_MCAST_ROUTER, "mcast_router", "mcast_router");
  f.u8(IFLA_BR_MCAST_QUERY_USE_IFADDR, "mcast_query_use_ifaddr", "mcast_query_use_ifaddr");
  f.u8(IFLA_BR_MCAST_QUERIER, "mcast_querier", "mcast_querier");
  f.u32(IFLA_BR_MCAST_HASH_ELASTICITY, "mcast_hash_elasticity", "mcast_hash_elasticity");
  f.u32(IFLA_BR_MCAST_HASH_MAX, "mcast_hash_max", "mcast_hash_max");
  f.u32(IFLA_BR_MCAST_LAST_MEMBER_CNT, "mcast_last_member_cnt", "mcast_last_member_count");
  f.u32(IFLA_BR_MCAST_STARTUP_QUERY_CNT, "mcast_startup_query_cnt", "mcast_startup_query_count");
  f.u64(IFLA_BR_MCAST_LAST_MEMBER_INTVL, "mcast_last_member_intvl", "mcast_last_member_interval");
  f.u64(IFLA_BR_MCAST_MEMBERSHIP_INTVL, "mcast_membership_intvl", "mcast_membership_interval");
  f.u64(IFLA_BR_MCAST_QUERIER_INTVL, "mcast_querier_intvl", "mcast_querier_interval");
  f.u64(IFLA_BR_MCAST_QUERY_INTVL, "mcast_query_intvl", "mcast_query_interval");
  f.u64(IFLA_BR_MCAST_QUERY_RESPONSE_INTVL, "mcast_query_response_intvl", "mcast_query_response_interval");
  f.u64(IFLA_BR_MCAST_STARTUP_QUERY_INTVL, "mcast_startup_query_intvl", "mcast_startup_query_interval");
  f.u8(IFLA_BR_MCAST_STATS_ENABLED, "mcast_stats_enabled", "mcast_stats_enabled");
  f.u8(IFLA_BR_MCAST_IGMP_VERSION, "mcast_igmp_version", "mcast_igmp_version");
  f.u8(IFLA_BR_MCAST_MLD_VERSION, "mcast_mld_version", "mcast_mld_version");
  f.u8(IFLA_BR_NF_CALL_IPTABLES, "nf_call_iptables", "nf_call_iptables");
  f.u8(IFLA_BR_NF_CALL_IP6TABLES, "nf_call_ip6tables", "nf_call_ip6tables");
  f.u8(IFLA_BR_NF_CALL_ARPTABLES, "nf_call_arptables", "nf_call_arptables");
}

constexpr LinkKindModule kBridgeKind{
    .name = "bridge",
    .parse = parse,
    .changes = true,
    .data = {kBridge, print_bridge},
    .help = [](std::string_view) { return std::string(bridge_usage()); },
    .synopsis = "BRIDGE_OPTION...",
    .glossary = bridge_usage,
};
BRISK_LINK_KIND(kBridgeKind);

}  // namespace

// Also the tail of `brisk link help`.
std::string_view bridge_usage() {
  return R"(BRIDGE_OPTION := { fdb_flush | forward_delay FORWARD_DELAY | hello_time HELLO_TIME |
                   max_age MAX_AGE | ageing_time AGEING_TIME | stp_state STP_STATE |
                   priority PRIORITY | group_fwd_mask MASK | group_address ADDRESS |
                   no_linklocal_learn NO_LINKLOCAL_LEARN | vlan_filtering VLAN_FILTERING |
                   vlan_protocol VLAN_PROTOCOL | vlan_default_pvid VLAN_DEFAULT_PVID |
                   vlan_stats_enabled VLAN_STATS_ENABLED | vlan_stats_per_port VLAN_STATS_PER_PORT |
                   mcast_snooping MULTICAST_SNOOPING | mcast_vlan_snooping MULTICAST_VLAN_SNOOPING |
                   mcast_router MULTICAST_ROUTER | mcast_query_use_ifaddr MCAST_QUERY_USE_IFADDR |
                   mcast_querier MULTICAST_QUERIER | mcast_hash_elasticity HASH_ELASTICITY |
                   mcast_hash_max HASH_MAX | mcast_last_member_count LAST_MEMBER_COUNT |
                   mcast_startup_query_count STARTUP_QUERY_COUNT |
                   mcast_last_member_interval LAST_MEMBER_INTERVAL |
                   mcast_membership_interval MEMBERSHIP_INTERVAL |
                   mcast_querier_interval QUERIER_INTERVAL | mcast_query_interval QUERY_INTERVAL |
                   mcast_query_response_interval QUERY_RESPONSE_INTERVAL |
                   mcast_startup_query_interval STARTUP_QUERY_INTERVAL |
                   mcast_stats_enabled MCAST_STATS_ENABLED | mcast_igmp_version IGMP_VERSION |
                   mcast_mld_version MLD_VERSION | nf_call_iptables NF_CALL_IPTABLES |
                   nf_call_ip6tables NF_CALL_IP6TABLES | nf_call_arptables NF_CALL_ARPTABLES }
VLAN_PROTOCOL := { 802.1Q | 802.1ad })";
}

}  // namespace brisk::ipcli
