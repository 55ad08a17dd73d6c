#include "brisk/netlink/bridge_port.h"

#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "brisk/netlink/link.h"
#include "brisk/netlink/message.h"

namespace brisk::netlink {
namespace {

Message bridge_setlink(int ifindex) {
  Message m(RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK);
  auto& ifi = m.put_header<ifinfomsg>();
  ifi.ifi_family = AF_BRIDGE;
  ifi.ifi_index = ifindex;
  return m;
}

}  // namespace

NlResult<void> set_bridge_port(Connection& conn, const BridgePortSet& spec) {
  auto ifindex = resolve_link(conn, spec.dev);
  if (!ifindex) return ifindex.error();
  Message m = bridge_setlink(*ifindex);
  // Nested (libmnl sets NLA_F_NESTED): without the flag the kernel reads
  // IFLA_PROTINFO as the old one-byte port state.
  auto nest = m.begin_nest(IFLA_PROTINFO);
  if (spec.hairpin) m.put_u8(IFLA_BRPORT_MODE, *spec.hairpin ? 1 : 0);
  if (spec.learning) m.put_u8(IFLA_BRPORT_LEARNING, *spec.learning ? 1 : 0);
  if (spec.flood) m.put_u8(IFLA_BRPORT_UNICAST_FLOOD, *spec.flood ? 1 : 0);
  if (spec.isolated) m.put_u8(IFLA_BRPORT_ISOLATED, *spec.isolated ? 1 : 0);
  m.end_nest(nest);
  return conn.execute(Request{.message = std::move(m), .op = "bridge port set", .object = spec.dev});
}

NlResult<void> add_bridge_vlan(Connection& conn, const BridgeVlan& spec) {
  if (spec.vid < 1 || spec.vid > 4094)
    return invalid_argument("bridge vlan add", spec.dev, "vid must be 1..4094");
  auto ifindex = resolve_link(conn, spec.dev);
  if (!ifindex) return ifindex.error();
  Message m = bridge_setlink(*ifindex);
  auto nest = m.begin_nest(IFLA_AF_SPEC);
  m.put_u16(IFLA_BRIDGE_FLAGS, spec.self ? BRIDGE_FLAGS_SELF : BRIDGE_FLAGS_MASTER);
  bridge_vlan_info info{};
  info.vid = spec.vid;
  if (spec.pvid) info.flags |= BRIDGE_VLAN_INFO_PVID;
  if (spec.untagged) info.flags |= BRIDGE_VLAN_INFO_UNTAGGED;
  m.put_bytes(IFLA_BRIDGE_VLAN_INFO, {reinterpret_cast<const uint8_t*>(&info), sizeof info});
  m.end_nest(nest);
  // RTM_SETLINK on AF_BRIDGE adds VLANs (RTM_DELLINK removes them).
  return conn.execute(Request{.message = std::move(m), .op = "bridge vlan add", .object = spec.dev});
}

}  // namespace brisk::netlink
