// The kind lines of `ip -d link show`: each kind's IFLA_INFO_DATA (and a
// bridge port's IFLA_INFO_SLAVE_DATA) printed in ip 6.1's order, words and
// JSON keys. Each kind's attributes are read through a schema, so a short
// or truncated attribute is refused rather than read past.
#include <arpa/inet.h>
#include <grp.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <pwd.h>

#include <array>
#include <cstring>
#include <vector>

#include "brisk/netlink/attributes.h"
#include "cli/ip/detail_printer.h"

namespace brisk::ipcli {
namespace {

using netlink::Attributes;
using netlink::AttrKind;
using netlink::AttrPolicy;

template <std::size_t N>
using Policies = std::array<AttrPolicy, N>;

// struct ifla_bridge_id as ip prints it: priority in hex, then the MAC as
// ether_ntoa writes it (no zero padding), e.g. "8000.2:0:0:0:0:1".
std::string bridge_id_text(std::span<const uint8_t> id) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.2x%.2x.%x:%x:%x:%x:%x:%x", id[0], id[1], id[2], id[3], id[4], id[5],
                id[6], id[7]);
  return buffer;
}

std::string mac_text(std::span<const uint8_t> mac) {
  std::string out;
  char byte[4];
  for (std::size_t i = 0; i < mac.size(); ++i) {
    std::snprintf(byte, sizeof byte, i ? ":%02x" : "%02x", mac[i]);
    out += byte;
  }
  return out;
}

std::string address_text(int family, std::span<const uint8_t> raw) {
  char buffer[INET6_ADDRSTRLEN];
  return ::inet_ntop(family, raw.data(), buffer, sizeof buffer) ? buffer : "";
}

// ---- bridge ----

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

// One field per kind of value, each printed only when the kernel sent it.
struct Fields {
  const Attributes& a;
  DetailPrinter& out;
  void u8(int type, const char* key, const char* word) {
    if (auto v = a.u8(static_cast<uint16_t>(type))) out.field(key, word, *v);
  }
  void u16(int type, const char* key, const char* word) {
    if (auto v = a.u16(static_cast<uint16_t>(type))) out.field(key, word, *v);
  }
  void u32(int type, const char* key, const char* word) {
    if (auto v = a.u32(static_cast<uint16_t>(type))) out.field(key, word, *v);
  }
  void u64(int type, const char* key, const char* word) {
    if (auto v = a.u64(static_cast<uint16_t>(type))) out.field(key, word, *v);
  }
  void on_off(int type, const char* key) {
    if (auto v = a.u8(static_cast<uint16_t>(type))) out.on_off(key, key, *v != 0);
  }
  void timer(int type, const char* key) {
    if (auto v = a.u64(static_cast<uint16_t>(type))) out.timer(key, *v);
  }
  void bridge_id(int type, const char* key, const char* word) {
    if (auto v = a.bytes(static_cast<uint16_t>(type))) out.field(key, word, bridge_id_text(*v));
  }
};

void print_bridge(const Attributes& a, DetailPrinter& out) {
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

// ---- bridge port ----

constexpr auto kBridgePort = [] {
  Policies<IFLA_BRPORT_MAX + 1> p{};
  for (int t :
       {IFLA_BRPORT_STATE, IFLA_BRPORT_MODE, IFLA_BRPORT_GUARD, IFLA_BRPORT_PROTECT, IFLA_BRPORT_FAST_LEAVE,
        IFLA_BRPORT_LEARNING, IFLA_BRPORT_UNICAST_FLOOD, IFLA_BRPORT_PROXYARP, IFLA_BRPORT_PROXYARP_WIFI,
        IFLA_BRPORT_TOPOLOGY_CHANGE_ACK, IFLA_BRPORT_CONFIG_PENDING, IFLA_BRPORT_MULTICAST_ROUTER,
        IFLA_BRPORT_MCAST_FLOOD, IFLA_BRPORT_BCAST_FLOOD, IFLA_BRPORT_MCAST_TO_UCAST,
        IFLA_BRPORT_NEIGH_SUPPRESS, IFLA_BRPORT_VLAN_TUNNEL, IFLA_BRPORT_ISOLATED, IFLA_BRPORT_LOCKED})
    p[t] = {AttrKind::u8};
  for (int t : {IFLA_BRPORT_PRIORITY, IFLA_BRPORT_ID, IFLA_BRPORT_NO, IFLA_BRPORT_DESIGNATED_PORT,
                IFLA_BRPORT_DESIGNATED_COST, IFLA_BRPORT_GROUP_FWD_MASK})
    p[t] = {AttrKind::u16};
  p[IFLA_BRPORT_COST] = {AttrKind::u32};
  p[IFLA_BRPORT_BACKUP_PORT] = {AttrKind::u32};
  for (int t : {IFLA_BRPORT_MESSAGE_AGE_TIMER, IFLA_BRPORT_FORWARD_DELAY_TIMER, IFLA_BRPORT_HOLD_TIMER})
    p[t] = {AttrKind::u64};
  p[IFLA_BRPORT_ROOT_ID] = {AttrKind::binary, 0, sizeof(ifla_bridge_id)};
  p[IFLA_BRPORT_BRIDGE_ID] = {AttrKind::binary, 0, sizeof(ifla_bridge_id)};
  return p;
}();

// "stp,lacp,0x2,..." for a port's group_fwd_mask, as ip spells the bits.
std::string fwd_mask_words(uint16_t mask) {
  std::string out;
  for (int bit = 0; bit < 16; ++bit) {
    if (!(mask & (1u << bit))) continue;
    if (!out.empty()) out += ",";
    if (bit == 0)
      out += "stp";
    else if (bit == 2)
      out += "lacp";
    else if (bit == 14)
      out += "lldp";
    else
      out += DetailPrinter::hex_text(1u << bit);
  }
  return out.empty() ? "0x0" : out;
}

void print_bridge_port(const Attributes& a, DetailPrinter& out,
                       const std::function<std::string(int)>& name_of) {
  Fields f{a, out};
  if (auto state = a.u8(IFLA_BRPORT_STATE)) {
    static const char* const kStates[] = {"disabled", "listening", "learning", "forwarding", "blocking"};
    if (*state < std::size(kStates)) {
      out.field("state", "state", std::string(kStates[*state]));
    } else {
      out.json("state_index", *state);
      out.text("state (" + std::to_string(*state) + ") ");
    }
  }
  f.u16(IFLA_BRPORT_PRIORITY, "priority", "priority");
  f.u32(IFLA_BRPORT_COST, "cost", "cost");
  if (auto v = a.u8(IFLA_BRPORT_MODE)) out.on_off("hairpin", "hairpin", *v);
  f.on_off(IFLA_BRPORT_GUARD, "guard");
  if (auto v = a.u8(IFLA_BRPORT_PROTECT)) out.on_off("root_block", "root_block", *v);
  f.on_off(IFLA_BRPORT_FAST_LEAVE, "fastleave");
  f.on_off(IFLA_BRPORT_LEARNING, "learning");
  if (auto v = a.u8(IFLA_BRPORT_UNICAST_FLOOD)) out.on_off("flood", "flood", *v);
  if (auto v = a.u16(IFLA_BRPORT_ID)) out.hex("id", "port_id", *v);
  if (auto v = a.u16(IFLA_BRPORT_NO)) out.hex("no", "port_no", *v);
  f.u16(IFLA_BRPORT_DESIGNATED_PORT, "designated_port", "designated_port");
  f.u16(IFLA_BRPORT_DESIGNATED_COST, "designated_cost", "designated_cost");
  f.bridge_id(IFLA_BRPORT_BRIDGE_ID, "bridge_id", "designated_bridge");
  f.bridge_id(IFLA_BRPORT_ROOT_ID, "root_id", "designated_root");
  f.timer(IFLA_BRPORT_HOLD_TIMER, "hold_timer");
  f.timer(IFLA_BRPORT_MESSAGE_AGE_TIMER, "message_age_timer");
  f.timer(IFLA_BRPORT_FORWARD_DELAY_TIMER, "forward_delay_timer");
  f.u8(IFLA_BRPORT_TOPOLOGY_CHANGE_ACK, "topology_change_ack", "topology_change_ack");
  f.u8(IFLA_BRPORT_CONFIG_PENDING, "config_pending", "config_pending");
  if (auto v = a.u8(IFLA_BRPORT_PROXYARP)) out.on_off("proxy_arp", "proxy_arp", *v);
  if (auto v = a.u8(IFLA_BRPORT_PROXYARP_WIFI)) out.on_off("proxy_arp_wifi", "proxy_arp_wifi", *v);
  f.u8(IFLA_BRPORT_MULTICAST_ROUTER, "multicast_router", "mcast_router");
  // ip repeats fast leave under its multicast name, in the text only.
  if (auto v = a.u8(IFLA_BRPORT_FAST_LEAVE))
    out.text(std::string("mcast_fast_leave ") + (*v ? "on " : "off "));
  f.on_off(IFLA_BRPORT_MCAST_FLOOD, "mcast_flood");
  f.on_off(IFLA_BRPORT_BCAST_FLOOD, "bcast_flood");
  if (auto v = a.u8(IFLA_BRPORT_MCAST_TO_UCAST)) out.on_off("mcast_to_unicast", "mcast_to_unicast", *v);
  f.on_off(IFLA_BRPORT_NEIGH_SUPPRESS, "neigh_suppress");
  if (auto mask = a.u16(IFLA_BRPORT_GROUP_FWD_MASK)) {
    out.hex("group_fwd_mask", "group_fwd_mask", *mask);
    out.field("group_fwd_mask_str", "group_fwd_mask_str", fwd_mask_words(*mask));
  }
  f.on_off(IFLA_BRPORT_VLAN_TUNNEL, "vlan_tunnel");
  f.on_off(IFLA_BRPORT_ISOLATED, "isolated");
  f.on_off(IFLA_BRPORT_LOCKED, "locked");
  if (auto port = a.u32(IFLA_BRPORT_BACKUP_PORT))
    out.field("backup_port", "backup_port", name_of(static_cast<int>(*port)));
}

// ---- macvlan / macvtap ----

constexpr auto kMacvlan = [] {
  Policies<IFLA_MACVLAN_MAX + 1> p{};
  p[IFLA_MACVLAN_MODE] = {AttrKind::u32};
  p[IFLA_MACVLAN_FLAGS] = {AttrKind::u16};
  p[IFLA_MACVLAN_MACADDR_COUNT] = {AttrKind::u32};
  p[IFLA_MACVLAN_BC_QUEUE_LEN] = {AttrKind::u32};
  p[IFLA_MACVLAN_BC_QUEUE_LEN_USED] = {AttrKind::u32};
  p[IFLA_MACVLAN_MACADDR_DATA] = {AttrKind::binary};  // repeated IFLA_MACVLAN_MACADDR: walked below
  return p;
}();

// The source MACs of a source-mode macvlan: a nest of IFLA_MACVLAN_MACADDR
// attributes, all of the same type, so walked here rather than indexed.
// A truncated attribute ends the walk.
std::vector<std::string> source_macs(std::span<const uint8_t> nest) {
  std::vector<std::string> macs;
  std::size_t at = 0;
  while (nest.size() - at >= sizeof(nlattr)) {
    nlattr attr;
    std::memcpy(&attr, nest.data() + at, sizeof attr);
    if (attr.nla_len < sizeof(nlattr) || attr.nla_len > nest.size() - at) break;
    std::size_t payload = attr.nla_len - sizeof(nlattr);
    if ((attr.nla_type & NLA_TYPE_MASK) == IFLA_MACVLAN_MACADDR && payload == 6)
      macs.push_back(mac_text(nest.subspan(at + sizeof(nlattr), 6)));
    at += NLA_ALIGN(attr.nla_len);
    if (at > nest.size()) break;
  }
  return macs;
}

void print_macvlan(const Attributes& a, DetailPrinter& out) {
  auto mode = a.u32(IFLA_MACVLAN_MODE);
  if (mode) {
    const char* name = *mode == MACVLAN_MODE_PRIVATE    ? "private"
                       : *mode == MACVLAN_MODE_VEPA     ? "vepa"
                       : *mode == MACVLAN_MODE_BRIDGE   ? "bridge"
                       : *mode == MACVLAN_MODE_PASSTHRU ? "passthru"
                       : *mode == MACVLAN_MODE_SOURCE   ? "source"
                                                        : "unknown";
    out.field("mode", "mode", std::string(name));
  }
  auto flags = a.u16(IFLA_MACVLAN_FLAGS).value_or(0);
  // Printed whatever the mode, as ip 6.1 does (the kernel keeps nodst in any).
  if (flags & MACVLAN_FLAG_NOPROMISC) {
    out.json("nopromisc", true);
    out.text("nopromisc ");
  }
  if (flags & MACVLAN_FLAG_NODST) {
    out.json("nodst", true);
    out.text("nodst ");
  }
  Fields f{a, out};
  f.u32(IFLA_MACVLAN_BC_QUEUE_LEN, "bcqueuelen", "bcqueuelen");
  f.u32(IFLA_MACVLAN_BC_QUEUE_LEN_USED, "usedbcqueuelen", "usedbcqueuelen");
  if (mode == MACVLAN_MODE_SOURCE) {
    if (auto count = a.u32(IFLA_MACVLAN_MACADDR_COUNT)) {
      out.json("macaddr_count", *count);
      out.text("remotes (" + std::to_string(*count) + ") ");
    }
    if (auto nest = a.bytes(IFLA_MACVLAN_MACADDR_DATA)) {
      auto macs = source_macs(*nest);
      out.json("macaddr_data", macs);
      for (const auto& mac : macs) out.text(mac + " ");
    }
  }
}

// ---- vxlan ----

constexpr auto kVxlan = [] {
  Policies<IFLA_VXLAN_MAX + 1> p{};
  for (int t : {IFLA_VXLAN_ID, IFLA_VXLAN_LINK, IFLA_VXLAN_AGEING, IFLA_VXLAN_LIMIT, IFLA_VXLAN_LABEL})
    p[t] = {AttrKind::u32};
  for (int t : {IFLA_VXLAN_TTL, IFLA_VXLAN_TOS, IFLA_VXLAN_LEARNING, IFLA_VXLAN_PROXY, IFLA_VXLAN_RSC,
                IFLA_VXLAN_L2MISS, IFLA_VXLAN_L3MISS, IFLA_VXLAN_UDP_CSUM, IFLA_VXLAN_UDP_ZERO_CSUM6_TX,
                IFLA_VXLAN_UDP_ZERO_CSUM6_RX, IFLA_VXLAN_REMCSUM_TX, IFLA_VXLAN_REMCSUM_RX,
                IFLA_VXLAN_COLLECT_METADATA, IFLA_VXLAN_TTL_INHERIT, IFLA_VXLAN_DF, IFLA_VXLAN_VNIFILTER})
    p[t] = {AttrKind::u8};
  p[IFLA_VXLAN_PORT] = {AttrKind::u16};
  p[IFLA_VXLAN_GROUP] = {AttrKind::binary, 0, 4};
  p[IFLA_VXLAN_LOCAL] = {AttrKind::binary, 0, 4};
  p[IFLA_VXLAN_GROUP6] = {AttrKind::binary, 0, 16};
  p[IFLA_VXLAN_LOCAL6] = {AttrKind::binary, 0, 16};
  p[IFLA_VXLAN_PORT_RANGE] = {AttrKind::binary, 0, sizeof(ifla_vxlan_port_range)};
  p[IFLA_VXLAN_GBP] = {AttrKind::flag};
  p[IFLA_VXLAN_GPE] = {AttrKind::flag};
  return p;
}();

bool all_zero(std::span<const uint8_t> raw) {
  for (auto b : raw)
    if (b) return false;
  return true;
}

void print_vxlan(const Attributes& a, DetailPrinter& out, const std::function<std::string(int)>& name_of) {
  if (a.u8(IFLA_VXLAN_COLLECT_METADATA).value_or(0)) {
    out.json("external", true);
    out.text("external ");
  }
  if (a.u8(IFLA_VXLAN_VNIFILTER).value_or(0)) {
    out.json("vnifilter", true);
    out.text("vnifilter");  // ip 6.1 prints no space after it
  }
  auto id = a.u32(IFLA_VXLAN_ID);
  if (!id) return;
  out.field("id", "id", *id);
  // A multicast destination is a group, a unicast one the remote.
  if (auto v4 = a.bytes(IFLA_VXLAN_GROUP)) {
    if (!all_zero(*v4)) {
      bool multicast = ((*v4)[0] & 0xf0) == 0xe0;
      out.field(multicast ? "group" : "remote", multicast ? "group" : "remote", address_text(AF_INET, *v4));
    }
  } else if (auto v6 = a.bytes(IFLA_VXLAN_GROUP6)) {
    if (!all_zero(*v6)) {
      bool multicast = (*v6)[0] == 0xff;
      out.field(multicast ? "group6" : "remote6", multicast ? "group" : "remote",
                address_text(AF_INET6, *v6));
    }
  }
  if (auto v4 = a.bytes(IFLA_VXLAN_LOCAL)) {
    if (!all_zero(*v4)) out.field("local", "local", address_text(AF_INET, *v4));
  } else if (auto v6 = a.bytes(IFLA_VXLAN_LOCAL6)) {
    if (!all_zero(*v6)) out.field("local6", "local", address_text(AF_INET6, *v6));
  }
  if (auto link = a.u32(IFLA_VXLAN_LINK); link && *link)
    out.field("link", "dev", name_of(static_cast<int>(*link)));
  if (auto raw = a.bytes(IFLA_VXLAN_PORT_RANGE)) {
    ifla_vxlan_port_range range;
    std::memcpy(&range, raw->data(), sizeof range);
    out.json("port_range", DetailPrinter::Json{{"low", ntohs(range.low)}, {"high", ntohs(range.high)}});
    out.text("srcport " + std::to_string(ntohs(range.low)) + " " + std::to_string(ntohs(range.high)) + " ");
  }
  if (auto port = a.u16(IFLA_VXLAN_PORT)) out.field("port", "dstport", ntohs(*port));
  if (auto learning = a.u8(IFLA_VXLAN_LEARNING)) {
    out.json("learning", *learning != 0);
    if (!*learning) out.text("nolearning ");
  }
  // Flags ip shows only when set.
  auto flag = [&](int type, const char* key, const char* word) {
    if (a.u8(static_cast<uint16_t>(type)).value_or(0)) {
      out.json(key, true);
      out.text(std::string(word) + " ");
    }
  };
  flag(IFLA_VXLAN_PROXY, "proxy", "proxy");
  flag(IFLA_VXLAN_RSC, "rsc", "rsc");
  flag(IFLA_VXLAN_L2MISS, "l2miss", "l2miss");
  flag(IFLA_VXLAN_L3MISS, "l3miss", "l3miss");
  if (auto tos = a.u8(IFLA_VXLAN_TOS); tos && *tos) {
    // tos 1 means "inherit"; ip's JSON keeps the number.
    out.json("tos", DetailPrinter::hex_text(*tos));
    out.text(*tos == 1 ? std::string("tos inherit ") : "tos " + DetailPrinter::hex_text(*tos) + " ");
  }
  if (a.u8(IFLA_VXLAN_TTL_INHERIT).value_or(0)) {
    out.text("ttl inherit ");
  } else if (auto ttl = a.u8(IFLA_VXLAN_TTL)) {
    out.json("ttl", *ttl);
    out.text(*ttl ? "ttl " + std::to_string(*ttl) + " " : std::string("ttl auto "));
  }
  if (auto df = a.u8(IFLA_VXLAN_DF)) {
    if (*df == VXLAN_DF_UNSET)
      out.json("df", "unset");
    else if (*df == VXLAN_DF_SET)
      out.field("df", "df", std::string("set"));
    else if (*df == VXLAN_DF_INHERIT)
      out.field("df", "df", std::string("inherit"));
  }
  if (auto label = a.u32(IFLA_VXLAN_LABEL); label && *label) out.hex("label", "flowlabel", ntohl(*label));
  if (auto age = a.u32(IFLA_VXLAN_AGEING)) {
    out.json("ageing", *age);
    out.text(*age ? "ageing " + std::to_string(*age) + " " : std::string("ageing none "));
  }
  if (auto limit = a.u32(IFLA_VXLAN_LIMIT); limit && *limit) out.field("limit", "maxaddr", *limit);
  // Checksum switches: "[no]word " in the text, a boolean in JSON.
  auto csum = [&](int type, const char* key, const char* word) {
    if (auto v = a.u8(static_cast<uint16_t>(type))) {
      out.json(key, *v != 0);
      out.text(std::string(*v ? "" : "no") + word + " ");
    }
  };
  csum(IFLA_VXLAN_UDP_CSUM, "udp_csum", "udpcsum");
  csum(IFLA_VXLAN_UDP_ZERO_CSUM6_TX, "udp_zero_csum6_tx", "udp6zerocsumtx");
  csum(IFLA_VXLAN_UDP_ZERO_CSUM6_RX, "udp_zero_csum6_rx", "udp6zerocsumrx");
  flag(IFLA_VXLAN_REMCSUM_TX, "remcsum_tx", "remcsumtx");
  flag(IFLA_VXLAN_REMCSUM_RX, "remcsum_rx", "remcsumrx");
  if (a.has(IFLA_VXLAN_GBP)) {
    out.json("gbp", true);
    out.text("gbp ");
  }
  if (a.has(IFLA_VXLAN_GPE)) {
    out.json("gpe", true);
    out.text("gpe ");
  }
}

// ---- tun / tap ----

constexpr auto kTun = [] {
  Policies<IFLA_TUN_MAX + 1> p{};
  for (int t : {IFLA_TUN_TYPE, IFLA_TUN_PI, IFLA_TUN_VNET_HDR, IFLA_TUN_PERSIST, IFLA_TUN_MULTI_QUEUE})
    p[t] = {AttrKind::u8};
  for (int t : {IFLA_TUN_OWNER, IFLA_TUN_GROUP, IFLA_TUN_NUM_QUEUES, IFLA_TUN_NUM_DISABLED_QUEUES})
    p[t] = {AttrKind::u32};
  return p;
}();

// A user or group by name when the system knows it, else by number.
void owner_field(DetailPrinter& out, const char* word, const char* name, uint32_t id) {
  if (name)
    out.field(word, word, std::string(name));
  else
    out.field(word, word, id);
}

void print_tun(const Attributes& a, DetailPrinter& out) {
  if (auto type = a.u8(IFLA_TUN_TYPE)) {
    std::string name = *type == IFF_TUN   ? "tun"
                       : *type == IFF_TAP ? "tap"
                                          : "UNKNOWN:" + std::to_string(*type);
    out.field("type", "type", name);
  }
  Fields f{a, out};
  f.on_off(IFLA_TUN_PI, "pi");
  f.on_off(IFLA_TUN_VNET_HDR, "vnet_hdr");
  if (auto mq = a.u8(IFLA_TUN_MULTI_QUEUE)) {
    out.json("multi_queue", *mq != 0);
    if (*mq) {
      out.text("multi_queue ");
      f.u32(IFLA_TUN_NUM_QUEUES, "numqueues", "numqueues");
      f.u32(IFLA_TUN_NUM_DISABLED_QUEUES, "numdisabled", "numdisabled");
    }
  }
  f.on_off(IFLA_TUN_PERSIST, "persist");
  if (auto uid = a.u32(IFLA_TUN_OWNER)) {
    const passwd* pw = ::getpwuid(*uid);
    owner_field(out, "user", pw ? pw->pw_name : nullptr, *uid);
  }
  if (auto gid = a.u32(IFLA_TUN_GROUP)) {
    const group* gr = ::getgrgid(*gid);
    owner_field(out, "group", gr ? gr->gr_name : nullptr, *gid);
  }
}

}  // namespace

bool print_kind_data(const std::string& kind, std::span<const char> data, DetailPrinter& out,
                     const std::function<std::string(int)>& name_of) {
  // A stream the schema refuses prints as no attributes: ip would print
  // garbage there, brisk prints nothing rather than guess.
  auto parse = [&](netlink::Schema schema) -> std::optional<Attributes> {
    auto attrs = Attributes::parse(data, schema);
    if (!attrs) return std::nullopt;
    return std::move(*attrs);
  };
  std::optional<Attributes> a;
  if (kind == "bridge") {
    if ((a = parse(kBridge))) print_bridge(*a, out);
  } else if (kind == "bridge_slave") {
    if ((a = parse(kBridgePort))) print_bridge_port(*a, out, name_of);
  } else if (kind == "macvlan" || kind == "macvtap") {
    if ((a = parse(kMacvlan))) print_macvlan(*a, out);
  } else if (kind == "vxlan") {
    if ((a = parse(kVxlan))) print_vxlan(*a, out, name_of);
  } else if (kind == "tun") {
    if ((a = parse(kTun))) print_tun(*a, out);
  } else {
    return false;
  }
  return true;
}

}  // namespace brisk::ipcli
