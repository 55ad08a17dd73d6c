#include "cli/ip/batch_rules.h"

#include <variant>

namespace brisk::ipcli {
namespace {

// The underlay a vxlan's options name (`dev DEV`), which ip looks up as it parses.
bool names_vxlan_dev(const netlink::LinkKind& kind) {
  auto* v = std::get_if<netlink::VxlanOptions>(&kind);
  return v && !v->dev.empty();
}

}  // namespace

bool names_device_ip_parses(const IpCommand& cmd) {
  bool route = cmd.verb == Verb::route_add || cmd.verb == Verb::route_replace || cmd.verb == Verb::route_change ||
               cmd.verb == Verb::route_prepend || cmd.verb == Verb::route_append || cmd.verb == Verb::route_del;
  return (cmd.verb == Verb::link_set && cmd.link_set().master && !cmd.link_set().master->empty()) ||
         (cmd.verb == Verb::link_set && cmd.link_set().kind && names_vxlan_dev(*cmd.link_set().kind)) ||
         (cmd.verb == Verb::link_add && !cmd.link_add().common.master.empty()) ||
         (cmd.verb == Verb::link_add && names_vxlan_dev(cmd.link_add().kind)) ||
         (route && !cmd.route().nexthops.empty());
}

bool exits_on_kernel_refusal(Verb verb) {
  return verb == Verb::neigh_add || verb == Verb::neigh_del || verb == Verb::neigh_replace ||
         verb == Verb::neigh_change;
}

bool may_end_batch(const IpCommand& cmd) { return names_device_ip_parses(cmd) || exits_on_kernel_refusal(cmd.verb); }

bool is_plain_change(const IpCommand& cmd) {
  return cmd.mutates() && cmd.verb != Verb::link_del && !may_end_batch(cmd);
}

}  // namespace brisk::ipcli
