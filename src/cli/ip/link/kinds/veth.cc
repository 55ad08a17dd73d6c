// ip link's veth kind, as ip 6.1's link_veth.c: `type veth [ peer [ name ]
// NAME OPTIONS ]`, the peer taking what link add takes for any device. ip
// prints no details for a veth.
#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

// The peer's name and settings, to the end of the line.
Parsed<netlink::LinkKind> parse(KindArgs& args) {
  Cursor& c = args.c;
  IpCommand& cmd = args.cmd;
  netlink::VethOptions veth;
  if (!c.done() && c.peek() == "peer") {
    c.next();
    NewLinkName peer;
    while (!c.done()) {
      std::string key = c.next();
      bool ok = false;
      if (is(key, "name")) {
        TRY_SET(ok, peer.by_name(c, key));
      } else if (is(key, "netns")) {
        if (!cmd.peer_netns.empty()) return duplicate("netns", c.done() ? key : c.peek());
        TRY_SET(cmd.peer_netns, c.value(key));
      } else if (matches(key, "type")) {
        std::string second;
        TRY_SET(second, c.value(key));
        return duplicate("type", second);
      } else {
        TRY_SET(ok, parse_new_link_setting(key, c, veth.peer_common, cmd.vrfs, cmd.peer_link_netns));
        if (!ok) TRY_SET(ok, peer.by_dev(c, key));
      }
    }
    TRY_SET(veth.peer, peer.result());
    // The kernel ignores a peer's master and alias, as it does for ip.
    veth.peer_common.master.clear();
    veth.peer_common.alias.clear();
  }
  return netlink::LinkKind{veth};
}

std::string peer(const netlink::LinkKind& kind) {
  auto* veth = std::get_if<netlink::VethOptions>(&kind);
  return veth ? veth->peer : std::string();
}

constexpr LinkKindModule kVethKind{
    .name = "veth",
    .parse = parse,
    .synopsis = "[ peer [ name ] NAME [ netns NAME ] [ what link add takes for a device, but type ] ]",
    .second_device = peer};
BRISK_LINK_KIND(kVethKind);

}  // namespace
}  // namespace brisk::ipcli
