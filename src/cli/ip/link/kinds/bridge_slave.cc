// ip link's bridge_slave kind, as ip 6.1's iplink_bridge_slave.c: `link
// set DEV type bridge_slave OPTIONS` for a bridge's port, and the port's
// `-d` details (IFLA_INFO_SLAVE_DATA).
#include <linux/if_bridge.h>
#include <linux/if_link.h>

#include <algorithm>

#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

using netlink::Attributes;
using netlink::AttrKind;

// ip 6.1's bridge_slave usage (print_explain), printed after an unknown option.
constexpr std::string_view kBridgeSlaveUsage =
    "Usage: ... bridge_slave [ fdb_flush ]\n"
    "\t\t\t[ state STATE ]\n"
    "\t\t\t[ priority PRIO ]\n"
    "\t\t\t[ cost COST ]\n"
    "\t\t\t[ guard {on | off} ]\n"
    "\t\t\t[ hairpin {on | off} ]\n"
    "\t\t\t[ fastleave {on | off} ]\n"
    "\t\t\t[ root_block {on | off} ]\n"
    "\t\t\t[ learning {on | off} ]\n"
    "\t\t\t[ flood {on | off} ]\n"
    "\t\t\t[ proxy_arp {on | off} ]\n"
    "\t\t\t[ proxy_arp_wifi {on | off} ]\n"
    "\t\t\t[ mcast_router MULTICAST_ROUTER ]\n"
    "\t\t\t[ mcast_fast_leave {on | off} ]\n"
    "\t\t\t[ mcast_flood {on | off} ]\n"
    "\t\t\t[ bcast_flood {on | off} ]\n"
    "\t\t\t[ mcast_to_unicast {on | off} ]\n"
    "\t\t\t[ group_fwd_mask MASK ]\n"
    "\t\t\t[ neigh_suppress {on | off} ]\n"
    "\t\t\t[ vlan_tunnel {on | off} ]\n"
    "\t\t\t[ isolated {on | off} ]\n"
    "\t\t\t[ locked {on | off} ]\n"
    "\t\t\t[ backup_port DEVICE ] [ nobackup_port ]\n";

// ip's bridge_slave_parse_opt(): a port's options, its keywords matched in
// its order (so "p" is priority), to the end of the line.
Parsed<netlink::BridgePortOptions> parse_bridge_port(Cursor& c) {
  using P = netlink::BridgePortOptions;
  static constexpr std::pair<std::string_view, std::optional<bool> P::*> kSwitches[] = {
      {"hairpin", &P::hairpin},
      {"guard", &P::guard},
      {"root_block", &P::root_block},
      {"fastleave", &P::fast_leave},
      {"learning", &P::learning},
      {"flood", &P::flood},
      {"mcast_flood", &P::mcast_flood},
      {"bcast_flood", &P::bcast_flood},
      {"mcast_to_unicast", &P::mcast_to_unicast},
      {"proxy_arp", &P::proxy_arp},
      {"proxy_arp_wifi", &P::proxy_arp_wifi},
      {"mcast_router", nullptr},
      {"mcast_fast_leave", &P::fast_leave},
      {"neigh_suppress", &P::neigh_suppress},
      {"group_fwd_mask", nullptr},
      {"vlan_tunnel", &P::vlan_tunnel},
      {"isolated", &P::isolated},
      {"locked", &P::locked}};
  P port;
  auto value = [&c](const std::string& key, const std::string& what, auto max) -> Parsed<decltype(max)> {
    return c.read(key, [&what](const std::string& text) -> Parsed<decltype(max)> {
      if (auto n = number<decltype(max)>("", text)) return *n;
      return invarg(what, text);
    });
  };
  while (!c.done()) {
    std::string key = c.next();
    if (matches(key, "fdb_flush")) {
      port.fdb_flush = true;
    } else if (matches(key, "state")) {
      TRY_SET(port.state, value(key, "state is invalid", uint8_t{}));
    } else if (matches(key, "priority")) {
      TRY_SET(port.priority, value(key, "priority is invalid", uint16_t{}));
    } else if (matches(key, "cost")) {
      TRY_SET(port.cost, value(key, "cost is invalid", uint32_t{}));
    } else if (auto sw = std::find_if(std::begin(kSwitches), std::end(kSwitches),
                                      [&key](const auto& s) { return matches(key, s.first); });
               sw != std::end(kSwitches)) {
      if (sw->first == "mcast_router") {
        TRY_SET(port.mcast_router, value(key, "invalid mcast_router", uint8_t{}));
      } else if (sw->first == "group_fwd_mask") {
        TRY_SET(port.group_fwd_mask, value(key, "invalid group_fwd_mask", uint16_t{}));
      } else {
        // ip's parser exits(1) on a bad value here, batch or not.
        const std::string name(sw->first);
        TRY_SET(port.*(sw->second), c.read(key, [&name](const std::string& text) -> Parsed<bool> {
          auto on = one_of_off_on(name, text);
          if (!on) return fatal(on.error().message, 1);
          return *on;
        }));
      }
    } else if (matches(key, "backup_port")) {
      TRY_SET(port.backup_port, c.device(key));
    } else if (matches(key, "nobackup_port")) {
      port.backup_port = std::string();
    } else if (matches(key, "help")) {
      return fail(UsageError{.message = std::string(kBridgeSlaveUsage), .exact = true, .exit_code = 1});
    } else {
      return fail(UsageError{
          .message = "bridge_slave: unknown option \"" + key + "\"?\n" + std::string(kBridgeSlaveUsage),
          .exact = true,
          .exit_code = 1});
    }
  }
  return port;
}

Parsed<bool> parse_port(Cursor& c, netlink::LinkSet& set) {
  TRY_SET(set.bridge_port, parse_bridge_port(c));
  return true;
}

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

void print_bridge_port(const Attributes& a, DetailPrinter& out, const NameOf& name_of) {
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

constexpr LinkKindModule kBridgeSlaveKind{
    .name = "bridge_slave",
    .parse_port = parse_port,
    .data = {kBridgePort, print_bridge_port},
    .help = [](std::string_view) { return std::string(kBridgeSlaveUsage); },
};
BRISK_LINK_KIND(kBridgeSlaveKind);

}  // namespace
}  // namespace brisk::ipcli
