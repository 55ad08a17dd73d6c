// CHECK, as the reference's cmdCheck: IPAM first, then prevResult's
// bridge, the pod's interface and the host veth whose peer it is, then
// every address and route prevResult lists.
#include <fmt/format.h>
#include <linux/if.h>

#include "brisk/cni/error.h"
#include "brisk/netlink/addr.h"
#include "brisk/netlink/netns.h"
#include "brisk/netlink/route.h"
#include "cni/bridge_ops.h"
#include "cni/ip_math.h"
#include "cni/ipam.h"
#include "cni/netns_scope.h"

namespace brisk::cni::detail {
namespace {

[[noreturn]] void check_failed(std::string msg) { fail(ErrorCode::internal, std::move(msg)); }

void check_routes(netlink::Connection& pod, const Result& result) {
  for (const Route& r : result.routes) {
    auto routes =
        checked(netlink::list_routes(pod, {.family = r.dst.address.family, .table = RT_TABLE_UNSPEC}),
                "route table lookup error");
    bool is_default = r.dst.length == 0;
    bool found = false;
    for (const auto& have : routes) {
      if (have.dst.length != r.dst.length || !(network_of(have.dst) == network_of(r.dst))) continue;
      // A default route matches on its destination alone, as the reference filters it.
      if (!is_default && r.gw && !(have.gateway && *have.gateway == *r.gw)) continue;
      found = true;
      break;
    }
    if (!found)
      check_failed(fmt::format("Expected Route {{Dst:{} GW:{}}} not found in routing table",
                               r.dst.to_string(), r.gw ? r.gw->to_string() : "<nil>"));
  }
}

}  // namespace

void bridge_check(const Environment& env, const BridgeConfig& c, const std::string& stdin_data) {
  auto pod_ns = netlink::open_netns_path(env.netns);
  if (!pod_ns)
    fail(ErrorCode::invalid_environment,
         fmt::format("failed to open netns \"{}\": {}", env.netns, pod_ns.error().message()));
  if (same_netns(pod_ns->get(), current_netns().get()))
    fail(ErrorCode::invalid_environment,
         fmt::format("CNI_NETNS \"{}\" is the plugin's own network namespace, not a pod's", env.netns));
  IpamContext ipam{c, env, stdin_data};
  if (!c.ipam_type.empty()) ipam_check(ipam);
  if (!c.prev_result) check_failed("Required prevResult missing");
  const Result& prev = *c.prev_result;

  const Interface* br = nullptr;
  const Interface* cont = nullptr;
  for (const Interface& i : prev.interfaces) {
    if (i.name == c.bridge && !br)
      br = &i;
    else if (i.name == env.ifname && i.sandbox == env.netns && !cont)
      cont = &i;
  }
  netlink::Connection host = open_connection();
  if (!br) check_failed(fmt::format("CNI created bridge {} in host namespace was not found", c.bridge));
  if (!br->sandbox.empty()) check_failed(fmt::format("Interface {} should not be in sandbox", br->name));
  auto br_link = netlink::get_link(host, br->name);
  if (!br_link) check_failed(fmt::format("Interface name {} not found", br->name));
  if (br_link->kind != "bridge")
    check_failed(fmt::format("Interface {} does not have link type of bridge", br->name));
  if (!br->mac.empty() && (!br_link->address || br_link->address->to_string() != br->mac))
    check_failed(fmt::format("Bridge interface {} Mac doesn't match: {}", br->name, br->mac));
  bool promisc = (br_link->flags & IFF_PROMISC) != 0;
  if (promisc != c.promisc_mode)
    check_failed(
        fmt::format("Bridge interface {} configured Promisc Mode {} doesn't match current state: {} ",
                    br->name, c.promisc_mode, promisc));

  UniqueFd host_ns = current_netns();
  std::optional<netlink::Connection> pod;
  in_netns(pod_ns->get(), host_ns.get(), [&] { pod.emplace(open_connection()); });
  if (!cont) check_failed(fmt::format("CNI created interface in container {} not found", env.ifname));
  auto cont_link = netlink::get_link(*pod, cont->name);
  if (!cont_link) check_failed(fmt::format("Interface name {} not found", cont->name));
  if (cont_link->kind != "veth")
    check_failed(fmt::format("Error: Container interface {} not of type veth", cont->name));
  if (!cont->mac.empty() && (!cont_link->address || cont_link->address->to_string() != cont->mac))
    check_failed(fmt::format("Interface {} Mac {} doesn't match container Mac: {}", cont->name, cont->mac,
                             cont_link->address ? cont_link->address->to_string() : ""));

  bool veth_found = false;
  for (const Interface& i : prev.interfaces) {
    if (i.name == br->name || i.name == cont->name) continue;
    if (!i.sandbox.empty()) check_failed(fmt::format("Interface {} should not be in sandbox", i.name));
    auto link = netlink::get_link(host, i.name);
    if (!link) check_failed(fmt::format("Interface name {} not found", i.name));
    if (link->kind != "veth") continue;
    if (link->ifindex != cont_link->link || link->master != br_link->ifindex) continue;
    if (!i.mac.empty() && (!link->address || link->address->to_string() != i.mac))
      check_failed(fmt::format("Interface {} Mac doesn't match: {} not found", i.name, i.mac));
    veth_found = true;
    break;
  }
  if (!veth_found) check_failed(fmt::format("CNI veth created for bridge {} was not found", c.bridge));

  auto addrs = checked(netlink::list_addresses(*pod, {.dev = env.ifname}), "failed to get IP addresses");
  for (const IpConfig& ip : prev.ips) {
    if (!ip.interface) continue;
    bool found = false;
    for (const auto& a : addrs)
      if (a.prefix.address == ip.address.address && a.prefix.length == ip.address.length) found = true;
    if (!found)
      check_failed(
          fmt::format("Failed to match addr {} on interface {}", ip.address.to_string(), env.ifname));
  }
  check_routes(*pod, prev);
}

}  // namespace brisk::cni::detail
