// brisk/netlink/bridge_port.h: settings of a device enslaved to a bridge,
// as `bridge link set` and `bridge vlan add` make them (AF_BRIDGE requests).
//
//   set_bridge_port(conn, {.dev = "veth1234", .hairpin = true}).value();
//   add_bridge_vlan(conn, {.dev = "veth1234", .vid = 100, .pvid = true, .untagged = true}).value();
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "brisk/export.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

struct BridgePortSet {
  std::string dev{};               // the port; it must have a bridge master
  std::optional<bool> hairpin{};   // IFLA_BRPORT_MODE: frames may leave by the port they came in on
  std::optional<bool> learning{};  // IFLA_BRPORT_LEARNING: learn source MACs seen on the port
  std::optional<bool> flood{};     // IFLA_BRPORT_UNICAST_FLOOD: flood unknown unicast to the port
  std::optional<bool> isolated{};  // IFLA_BRPORT_ISOLATED: no traffic to other isolated ports
};

struct BridgeVlan {
  std::string dev{};      // the port (or the bridge itself, with self)
  uint16_t vid = 1;       // 1..4094
  bool pvid = false;      // untagged ingress frames get this VLAN
  bool untagged = false;  // egress frames leave untagged
  bool self = false;      // on the bridge device itself instead of a port
};

BRISK_EXPORT NlResult<void> set_bridge_port(Connection& conn, const BridgePortSet& spec);
// Needs vlan_filtering on the bridge; EOPNOTSUPP where the kernel lacks it.
BRISK_EXPORT NlResult<void> add_bridge_vlan(Connection& conn, const BridgeVlan& spec);

}  // namespace brisk::netlink
