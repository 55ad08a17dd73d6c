#include "cli/ip/batch_rules.h"

#include <variant>

#include "cli/ip/link_kind.h"

namespace brisk::ipcli {
namespace {

// The device a kind's options name (a lower link, an underlay), which its
// own file says (cli/ip/kinds/); and whether ip looks it up as it parses.
std::string kind_device_name(const netlink::LinkKind& kind) { return kind_device(kind).name; }
bool names_device_when_parsed(const netlink::LinkKind& kind) {
  return kind_device(kind).resolved_when_parsed;
}

}  // namespace

std::vector<std::string> named_devices(const IpCommand& cmd) {
  std::vector<std::string> names;
  auto add = [&names](const std::string& name) {
    if (!name.empty()) names.push_back(name);
  };
  switch (cmd.verb) {
    case Verb::link_add:
      add(cmd.link_add().common.master);
      add(kind_device_name(cmd.link_add().kind));
      break;
    case Verb::link_set:
      add(cmd.link_set().name);
      if (cmd.link_set().master) add(*cmd.link_set().master);
      if (cmd.link_set().kind) add(kind_device_name(*cmd.link_set().kind));
      if (cmd.link_set().bridge_port && cmd.link_set().bridge_port->backup_port)
        add(*cmd.link_set().bridge_port->backup_port);
      break;
    case Verb::addr_add:
    case Verb::addr_replace:
    case Verb::addr_change:
    case Verb::addr_del:
      add(cmd.addr().dev);
      break;
    case Verb::route_add:
    case Verb::route_replace:
    case Verb::route_change:
    case Verb::route_prepend:
    case Verb::route_append:
    case Verb::route_del:
      add(cmd.route().dev);
      for (const auto& hop : cmd.route().nexthops) add(hop.dev);
      break;
    case Verb::neigh_add:
    case Verb::neigh_replace:
    case Verb::neigh_change:
    case Verb::neigh_del:
      add(cmd.neigh().dev);
      break;
    case Verb::fdb_add:
    case Verb::fdb_del:
      add(cmd.fdb().dev);
      break;
    case Verb::nexthop_add:
    case Verb::nexthop_replace:
    case Verb::nexthop_del:
      add(cmd.nexthop().dev);
      break;
    case Verb::addrlabel_add:
    case Verb::addrlabel_del:
      add(cmd.addrlabel().dev);
      break;
    default:
      break;
  }
  return names;
}

std::vector<std::string> created_devices(const IpCommand& cmd) {
  if (cmd.verb != Verb::link_add) return {};
  std::vector<std::string> names;
  if (cmd.add_netns.empty()) names.push_back(cmd.link_add().name);  // else made elsewhere
  // A second device (a veth's peer), unless made in another namespace.
  if (auto second = second_device(cmd.link_add().kind); !second.empty() && cmd.peer_netns.empty())
    names.push_back(second);
  return names;
}

bool is_route_change(Verb verb) {
  return verb == Verb::route_add || verb == Verb::route_replace || verb == Verb::route_change ||
         verb == Verb::route_prepend || verb == Verb::route_append || verb == Verb::route_del;
}

bool keeps_device_names(Verb verb) {
  if (is_route_change(verb)) return true;
  switch (verb) {
    case Verb::addr_add:
    case Verb::addr_del:
    case Verb::addr_replace:
    case Verb::addr_change:
    case Verb::rule_add:
    case Verb::rule_del:
    case Verb::neigh_add:
    case Verb::neigh_del:
    case Verb::neigh_replace:
    case Verb::neigh_change:
    case Verb::fdb_add:
    case Verb::fdb_del:
    case Verb::nexthop_add:
    case Verb::nexthop_replace:
    case Verb::nexthop_del:
    case Verb::addrlabel_add:
    case Verb::addrlabel_del:
      return true;
    default:
      return false;
  }
}

bool names_device_ip_parses(const IpCommand& cmd) {
  bool route = is_route_change(cmd.verb);
  bool backup_port = cmd.verb == Verb::link_set && cmd.link_set().bridge_port &&
                     cmd.link_set().bridge_port->backup_port &&
                     !cmd.link_set().bridge_port->backup_port->empty();
  bool nexthop =
      cmd.verb == Verb::nexthop_add || cmd.verb == Verb::nexthop_replace || cmd.verb == Verb::nexthop_del;
  bool addrlabel = cmd.verb == Verb::addrlabel_add || cmd.verb == Verb::addrlabel_del;
  return backup_port || !cmd.vrfs.empty() || !cmd.link_netns.empty() || !cmd.peer_link_netns.empty() ||
         (nexthop && !cmd.nexthop().dev.empty()) || (addrlabel && !cmd.addrlabel().dev.empty()) ||
         (cmd.verb == Verb::link_set && cmd.link_set().master && !cmd.link_set().master->empty()) ||
         (cmd.verb == Verb::link_set && cmd.link_set().kind &&
          names_device_when_parsed(*cmd.link_set().kind)) ||
         (cmd.verb == Verb::link_add && !cmd.link_add().common.master.empty()) ||
         // ip opens a named namespace as it parses: a missing one is an argument error
         (cmd.verb == Verb::link_add && (!cmd.add_netns.empty() || !cmd.peer_netns.empty())) ||
         (cmd.verb == Verb::link_set && !cmd.set_netns.empty() && !cmd.link_set().netns_pid) ||
         (cmd.verb == Verb::link_add && names_device_when_parsed(cmd.link_add().kind)) ||
         (route && !cmd.route().nexthops.empty());
}

bool exits_on_kernel_refusal(Verb verb) {
  return verb == Verb::neigh_add || verb == Verb::neigh_del || verb == Verb::neigh_replace ||
         verb == Verb::neigh_change || verb == Verb::ntable_change;
}

bool may_end_batch(const IpCommand& cmd) {
  return names_device_ip_parses(cmd) || exits_on_kernel_refusal(cmd.verb);
}

bool is_plain_change(const IpCommand& cmd) {
  return cmd.mutates() && cmd.verb != Verb::link_del && !may_end_batch(cmd);
}

}  // namespace brisk::ipcli
