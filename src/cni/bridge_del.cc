// DEL: succeeds when there is nothing left to remove (a second DEL, a
// netns that is gone, an empty CNI_NETNS), and the IPAM release always
// runs. Unlike the reference, the masquerade elements are removed in every
// one of those cases too (plugins#810): from the pod's addresses when the
// pod is there, else from prevResult, else from the leases released, else
// by their comments.
#include <fmt/format.h>
#include <linux/rtnetlink.h>

#include "brisk/cni/error.h"
#include "brisk/netlink/addr.h"
#include "brisk/netlink/netns.h"
#include "cni/bridge_ops.h"
#include "cni/ipam.h"
#include "cni/masquerade.h"
#include "cni/netns_scope.h"
#include "cni/spoof_check.h"

namespace brisk::cni::detail {
namespace {

struct PodSide {
  std::vector<netlink::IpPrefix> addresses{};  // global addresses the pod's interface had
  std::string host_veth{};                     // its peer's name on the host
  std::string mac{};
};

// Deletes the pod's end of the veth (the host end goes with it).
PodSide delete_pod_interface(const Environment& env, int pod_ns) {
  UniqueFd host_ns = current_netns();
  std::optional<netlink::Connection> pod;
  in_netns(pod_ns, host_ns.get(), [&] { pod.emplace(open_connection()); });
  PodSide side;
  auto link = netlink::get_link(*pod, env.ifname);
  if (!link) {
    if (link.error().code == ENODEV) return side;  // gone already
    fail(ErrorCode::internal, fmt::format("failed to lookup \"{}\": {}", env.ifname, link.error().message()));
  }
  if (link->address) side.mac = link->address->to_string();
  auto addrs = checked(netlink::list_addresses(*pod, {.dev = env.ifname}), "failed to get IP addresses");
  for (const auto& a : addrs)
    if (a.scope == RT_SCOPE_UNIVERSE) side.addresses.push_back(a.prefix);
  if (link->link > 0) {
    netlink::Connection host = open_connection();
    if (auto peer = netlink::get_link(host, link->link)) side.host_veth = peer->name;
  }
  auto deleted = netlink::delete_link(*pod, env.ifname);
  if (!deleted && deleted.error().code != ENODEV)
    fail(ErrorCode::internal,
         fmt::format("failed to delete \"{}\": {}", env.ifname, deleted.error().message()));
  return side;
}

}  // namespace

void bridge_del(const Environment& env, const BridgeConfig& c, const std::string& stdin_data) {
  PodSide side;
  // No pod side to remove: no namespace was given; or CNI_IFNAME is a name
  // no interface can have (CNI's own check lets control characters
  // through), so nothing is looked up and the lease is still released.
  bool pod_side = !env.netns.empty() && netlink::validate_link_name(env.ifname, "cni del").ok();
  if (pod_side) {
    auto pod_ns = netlink::open_netns_path(env.netns);
    if (pod_ns && same_netns(pod_ns->get(), current_netns().get())) {
      // The plugin's own namespace is no pod's: deleting CNI_IFNAME there
      // would delete a host interface (the bridge, say). ADD refuses such a
      // namespace, so nothing of this attachment is there to remove.
    } else if (pod_ns) {
      side = delete_pod_interface(env, pod_ns->get());
    } else if (int e = pod_ns.error().code; e != ENOENT && e != EINVAL && e != ENOTTY) {
      // (ENOENT: the namespace is gone. EINVAL, ENOTTY: the path is no
      // namespace any more, a file left where one was mounted. Either way
      // no pod side is left to remove, and DEL goes on to release.)
      fail(ErrorCode::internal,
           fmt::format("failed to open netns \"{}\": {}", env.netns, pod_ns.error().message()));
    }
  }
  IpamContext ipam{c, env, stdin_data};
  std::vector<netlink::IpAddress> released;
  if (!c.ipam_type.empty()) released = ipam_del(ipam);

  if (c.mac_spoof_check && !side.host_veth.empty() && !side.mac.empty())
    spoof_check_del(side.host_veth, side.mac);

  if (!c.ipam_type.empty() && c.ip_masq) {
    std::vector<MasqEntry> entries;
    auto add = [&](const netlink::IpPrefix& p) {
      entries.push_back({p, c.name, env.container_id, env.ifname});
    };
    if (!side.addresses.empty()) {
      for (const auto& p : side.addresses) add(p);
    } else if (c.prev_result && !c.prev_result->ips.empty()) {
      for (const auto& ip : c.prev_result->ips) add(ip.address);
    } else {
      for (const auto& a : released)
        if (auto p = ipam_subnet_of(ipam, a)) add(*p);
      if (entries.empty()) entries = masquerade_find(c.name, env.container_id, env.ifname);
    }
    masquerade_del(entries);
  }
}

}  // namespace brisk::cni::detail
