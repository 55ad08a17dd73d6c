// ip link's verbs: how each runs, and what a batch needs to know of it.
#include "cli/ip/link/link_verbs.h"

#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "cli/ip/link/link_kind.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {
namespace {

using netlink::NlResult;

// The device a kind's options name (a lower link, an underlay), as its
// own file says (cli/ip/link/kinds/), and whether ip looks it up as it parses.
std::string kind_device_name(const netlink::LinkKind& kind) { return kind_device(kind).name; }
bool names_device_when_parsed(const netlink::LinkKind& kind) {
  return kind_device(kind).resolved_when_parsed;
}

// The `vrf NAME`s of a link add or set, as ip's name_is_vrf() checks them
// while parsing: each a device of kind vrf, else the argument error.
NlResult<void> check_link_vrfs(Runner& r, const IpCommand& cmd) {
  if (cmd.vrfs.empty()) return {};
  auto* c = BRISK_TRY(r.conn());
  for (const auto& name : cmd.vrfs) {
    auto link = netlink::get_link(*c, name);
    if (!link || link->kind != "vrf")
      return netlink::missing_argument("link set", name, netlink::Argument::vrf, name);
  }
  return {};
}

NlResult<std::size_t> queue_link_add(Runner& r, netlink::Batch& batch, IpCommand& cmd) {
  BRISK_TRY(check_link_vrfs(r, cmd));
  netlink::LinkAdd spec = std::move(cmd.link_add());
  if (!cmd.add_netns.empty()) spec.netns_fd = BRISK_TRY(r.held_netns(cmd.add_netns, "link add"));
  if (!cmd.link_netns.empty()) spec.common.tuning.link_netnsid = BRISK_TRY(r.link_netnsid(cmd.link_netns));
  if (auto* veth = std::get_if<netlink::VethOptions>(&spec.kind)) {
    if (!cmd.peer_netns.empty()) veth->peer_netns_fd = BRISK_TRY(r.held_netns(cmd.peer_netns, "link add"));
    if (!cmd.peer_link_netns.empty())
      veth->peer_common.tuning.link_netnsid = BRISK_TRY(r.link_netnsid(cmd.peer_link_netns));
  }
  return batch.add_link(std::move(spec));
}

NlResult<std::size_t> queue_link_set(Runner& r, netlink::Batch& batch, IpCommand& cmd) {
  BRISK_TRY(check_link_vrfs(r, cmd));
  netlink::LinkSet spec = std::move(cmd.link_set());
  if (!cmd.link_netns.empty()) spec.tuning.link_netnsid = BRISK_TRY(r.link_netnsid(cmd.link_netns));
  // `netns NAME`; the parser has already read a PID into netns_pid.
  if (!cmd.set_netns.empty() && !spec.netns_pid)
    spec.netns_fd = BRISK_TRY(r.held_netns(cmd.set_netns, "link set"));
  return batch.set_link(std::move(spec));
}

std::vector<std::string> named_if_given(std::initializer_list<std::string> names) {
  std::vector<std::string> out;
  for (const auto& name : names)
    if (!name.empty()) out.push_back(name);
  return out;
}

std::vector<std::string> link_add_devices(const IpCommand& cmd) {
  return named_if_given({cmd.link_add().common.master, kind_device_name(cmd.link_add().kind)});
}

std::vector<std::string> link_set_devices(const IpCommand& cmd) {
  const netlink::LinkSet& set = cmd.link_set();
  const auto& port = set.bridge_port;
  return named_if_given({set.name, set.master.value_or(""), set.kind ? kind_device_name(*set.kind) : "",
                         port && port->backup_port ? *port->backup_port : ""});
}

std::vector<std::string> link_add_creates(const IpCommand& cmd) {
  std::vector<std::string> names;
  if (cmd.add_netns.empty()) names.push_back(cmd.link_add().name);  // else made elsewhere
  // A second device (a veth's peer), unless made in another namespace.
  if (auto second = second_device(cmd.link_add().kind); !second.empty() && cmd.peer_netns.empty())
    names.push_back(second);
  return names;
}

// A master, a vxlan's dev, or a namespace to make the device in.
bool link_add_resolves(const IpCommand& cmd) {
  const netlink::LinkAdd& add = cmd.link_add();
  return !add.common.master.empty() || !cmd.add_netns.empty() || !cmd.peer_netns.empty() ||
         names_device_when_parsed(add.kind);
}

// A master, a vxlan's dev, a bridge port's backup_port, or `netns NAME`.
bool link_set_resolves(const IpCommand& cmd) {
  const netlink::LinkSet& set = cmd.link_set();
  bool backup_port =
      set.bridge_port && set.bridge_port->backup_port && !set.bridge_port->backup_port->empty();
  return backup_port || (set.master && !set.master->empty()) ||
         (set.kind && names_device_when_parsed(*set.kind)) || (!cmd.set_netns.empty() && !set.netns_pid);
}

}  // namespace

const Verb kLinkAdd{.name = "link add",
                    .queue = queue_link_add,
                    .named_devices = link_add_devices,
                    .created_devices = link_add_creates,
                    .resolves_while_parsing = link_add_resolves};
const Verb kLinkSet{.name = "link set",
                    .queue = queue_link_set,
                    .named_devices = link_set_devices,
                    .resolves_while_parsing = link_set_resolves};
const Verb kLinkDel{.name = "link del",
                    .queue = [](Runner&, netlink::Batch& batch, IpCommand& cmd) -> NlResult<std::size_t> {
                      return batch.delete_link(cmd.name);
                    },
                    .predicted_delete = true};
const Verb kLinkDelGroup{
    .name = "link del group",
    .queue = [](Runner&, netlink::Batch& batch, IpCommand& cmd) -> NlResult<std::size_t> {
      return batch.delete_link_group(cmd.group);
    }};
const Verb kLinkShow{.name = "link show", .run = show_links, .looks_up_devices = true};
const Verb kLinkPropAdd{.name = "link prop add", .queue = queue_spec<&netlink::Batch::add_altnames>};
const Verb kLinkPropDel{.name = "link prop del", .queue = queue_spec<&netlink::Batch::delete_altnames>};

}  // namespace brisk::ipcli
