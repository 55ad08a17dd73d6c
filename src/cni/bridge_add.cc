// ADD, in the reference's order: bridge, veth (made from inside the pod,
// its host end created directly in the host namespace), port settings,
// IPAM, the pod's sysctls, addresses and routes, the gateway on the
// bridge, masquerading. Unlike the reference it waits for nothing (no
// port-state polling), and a failure undoes what was done, newest first.
#include <fmt/format.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <sys/random.h>

#include <nlohmann/json.hpp>

#include "brisk/cni/error.h"
#include "brisk/netlink/addr.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/bridge_port.h"
#include "brisk/netlink/netns.h"
#include "brisk/netlink/route.h"
#include "cni/bridge_ops.h"
#include "cni/files.h"
#include "cni/ip_math.h"
#include "cni/ipam.h"
#include "cni/masquerade.h"
#include "cni/netns_scope.h"
#include "cni/spoof_check.h"

namespace brisk::cni::detail {
namespace {

using netlink::Connection;
using netlink::IpAddress;
using netlink::IpPrefix;

// Undo steps, run newest first unless the ADD completes.
class Rollback {
 public:
  void push(std::function<void()> step) { steps_.push_back(std::move(step)); }
  void commit() { steps_.clear(); }
  ~Rollback() {
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
      try {
        (*it)();
      } catch (...) {
        // Best effort: what cannot be undone, the runtime's DEL removes.
      }
    }
  }

 private:
  std::vector<std::function<void()>> steps_;
};

std::string random_veth_name() {
  uint32_t r = 0;
  if (::getrandom(&r, sizeof r, 0) != sizeof r) fail(ErrorCode::internal, "getrandom failed");
  return fmt::format("veth{:08x}", r);
}

std::string mac_of(const netlink::LinkInfo& link) { return link.address ? link.address->to_string() : ""; }

struct BridgeState {
  netlink::LinkInfo link{};
  std::string mac_before_ports{};  // what the reference pins the bridge's MAC to
};

BridgeState ensure_bridge(Connection& host, const BridgeConfig& c) {
  netlink::LinkAdd add{.name = c.bridge, .kind = netlink::BridgeOptions{}};
  if (c.vlan != 0) std::get<netlink::BridgeOptions>(add.kind).vlan_filtering = true;
  if (c.mtu > 0) add.common.mtu = static_cast<uint32_t>(c.mtu);
  auto added = netlink::add_link(host, add);
  if (!added && added.error().code != EEXIST)
    fail(ErrorCode::internal, fmt::format("failed to create bridge \"{}\": could not add \"{}\": {}",
                                          c.bridge, c.bridge, added.error().message()));
  if (c.promisc_mode)
    checked(netlink::set_link(host, {.name = c.bridge, .tuning = {.promisc = true}}),
            fmt::format("could not set promiscuous mode on \"{}\"", c.bridge));
  auto link = netlink::get_link(host, c.bridge);
  if (!link)
    fail(ErrorCode::internal, fmt::format("failed to create bridge \"{}\": could not lookup \"{}\": {}",
                                          c.bridge, c.bridge, link.error().message()));
  if (link->kind != "bridge")
    fail(ErrorCode::internal,
         fmt::format("failed to create bridge \"{}\": \"{}\" already exists but is not a bridge", c.bridge,
                     c.bridge));
  write_sysctl(fmt::format("net/ipv6/conf/{}/accept_ra", c.bridge), "0");
  if (!link->up())
    checked(netlink::set_link(host, {.name = c.bridge, .up = true}), "failed to set bridge up");
  return {*link, mac_of(*link)};
}

struct Veth {
  std::string host_name{};
  std::string host_mac{};
  std::string pod_mac{};
};

Veth make_veth(Connection& pod, int host_ns, const Environment& env, const BridgeConfig& c) {
  if (netlink::resolve_link(pod, env.ifname))
    fail(ErrorCode::internal, fmt::format("container veth name provided ({}) already exists", env.ifname));
  for (int attempt = 0;; ++attempt) {
    std::string peer = random_veth_name();
    netlink::VethOptions veth{.peer = peer, .peer_netns_fd = host_ns};
    netlink::LinkAdd add{.name = env.ifname, .kind = veth};
    if (c.mtu > 0) {
      add.common.mtu = static_cast<uint32_t>(c.mtu);
      std::get<netlink::VethOptions>(add.kind).peer_common.mtu = static_cast<uint32_t>(c.mtu);
    }
    add.common.address = c.mac;
    auto made = netlink::add_link(pod, add);
    if (made) return {.host_name = peer};
    if (made.error().code == EEXIST && netlink::resolve_link(pod, env.ifname))
      fail(ErrorCode::internal, fmt::format("container veth name provided ({}) already exists", env.ifname));
    if (made.error().code != EEXIST || attempt == 9)
      fail(ErrorCode::internal, fmt::format("failed to make veth pair: {}", made.error().message()));
  }
}

// The reference's calcGateways: every IP is on interface 2 (the pod's),
// a missing gateway is the subnet's first address when isGateway, and
// isDefaultGateway adds a default route per family unless one with a
// gateway is there already.
struct Gateways {
  std::vector<IpPrefix> v4{}, v6{};
};

Gateways calc_gateways(Result& result, const BridgeConfig& c) {
  Gateways gws;
  bool default_found[2] = {false, false};
  for (IpConfig& ip : result.ips) {
    int fam = ip.address.address.family == AF_INET ? 0 : 1;
    ip.interface = 2;
    if (!ip.gateway && c.is_gateway) ip.gateway = next(network_of(ip.address));
    if (c.is_default_gateway && !default_found[fam]) {
      IpPrefix any{IpAddress{.family = ip.address.address.family}, 0};
      for (const Route& r : result.routes)
        if (r.gw && r.dst.length == 0 && r.dst.address.family == any.address.family)
          default_found[fam] = true;
      if (!default_found[fam]) {
        result.routes.push_back(Route{.dst = any, .gw = ip.gateway});
        default_found[fam] = true;
      }
    }
    if (c.is_gateway && ip.gateway)
      (fam == 0 ? gws.v4 : gws.v6).push_back(IpPrefix{*ip.gateway, ip.address.length});
  }
  return gws;
}

void configure_pod(Connection& pod, int pod_ns, int host_ns, const Environment& env, const BridgeConfig& c,
                   const Result& result) {
  // Sysctls first, from inside the pod (they belong to the opener's namespace).
  bool any_v6 = false;
  for (const IpConfig& ip : result.ips) any_v6 |= ip.address.address.family == AF_INET6;
  in_netns(pod_ns, host_ns, [&] {
    if (c.enable_dad) {
      write_sysctl(fmt::format("net/ipv6/conf/{}/enhanced_dad", env.ifname), "1");
      write_sysctl(fmt::format("net/ipv6/conf/{}/accept_dad", env.ifname), "1");
    } else {
      write_sysctl(fmt::format("net/ipv6/conf/{}/accept_dad", env.ifname), "0");
    }
    write_sysctl(fmt::format("net/ipv4/conf/{}/arp_notify", env.ifname), "1");
    if (any_v6)
      for (const std::string& dev : {std::string("lo"), env.ifname}) {
        std::string name = fmt::format("net/ipv6/conf/{}/disable_ipv6", dev);
        if (read_sysctl(name).value_or("0") != "0") write_sysctl(name, "0");
      }
  });

  std::optional<IpAddress> gw4, gw6;
  for (const IpConfig& ip : result.ips) {
    auto& gw = ip.address.address.family == AF_INET ? gw4 : gw6;
    if (!gw && ip.gateway) gw = ip.gateway;
  }
  // Addresses, link up, routes: one pipeline, stopping at the first error.
  netlink::Batch batch(pod, {.stop_at_first_error = true});
  std::vector<std::string> what;
  for (const IpConfig& ip : result.ips) {
    batch.add_address({.dev = env.ifname, .prefix = ip.address.to_string()});
    what.push_back(fmt::format("failed to add IP addr {} to \"{}\"", ip.address.to_string(), env.ifname));
  }
  batch.set_link({.name = env.ifname, .up = true});
  what.push_back(fmt::format("failed to set \"{}\" UP", env.ifname));
  for (const Route& r : result.routes) {
    auto gw = r.gw ? r.gw : (r.dst.address.family == AF_INET ? gw4 : gw6);
    netlink::RouteSpec spec{.prefix = fmt::format("{}/{}", network_of(r.dst).to_string(), r.dst.length),
                            .via = gw ? gw->to_string() : "",
                            .dev = env.ifname};
    batch.add_route(spec);
    what.push_back(fmt::format("failed to add route '{} via {} dev {}'", r.dst.to_string(),
                               gw ? gw->to_string() : "<nil>", env.ifname));
  }
  auto results = batch.flush();
  for (std::size_t i = 0; i < results.size(); ++i)
    if (!results[i]) fail(ErrorCode::internal, fmt::format("{}: {}", what[i], results[i].error().message()));
}

// The reference's ensureAddr: an address already there is kept; a
// different IPv4 one (or an overlapping IPv6 one) is an error unless
// forceAddress; after adding, the bridge's MAC is pinned.
void ensure_gateway_address(Connection& host, const std::string& dev, const std::string& pin_mac,
                            const IpPrefix& gw, bool force) {
  int family = gw.address.family;
  auto addrs = checked(netlink::list_addresses(host, {.dev = dev, .family = family}),
                       "could not get list of IP addresses");
  for (const auto& a : addrs) {
    if (a.prefix.to_string() == gw.to_string()) return;
    bool conflicts = family == AF_INET || in_prefix(a.prefix, gw.address) || in_prefix(gw, a.prefix.address);
    if (!conflicts) continue;
    if (!force)
      fail(ErrorCode::internal,
           fmt::format("\"{}\" already has an IP address different from {}", dev, gw.to_string()));
    checked(netlink::delete_address(host, {.dev = dev, .prefix = a.prefix.to_string()}),
            fmt::format("could not remove IP address from \"{}\"", dev));
  }
  auto added = netlink::add_address(host, {.dev = dev, .prefix = gw.to_string()});
  if (!added && added.error().code != EEXIST)
    fail(ErrorCode::internal,
         fmt::format("could not add IP address to \"{}\": {}", dev, added.error().message()));
  if (!pin_mac.empty())
    checked(netlink::set_link(host, {.name = dev, .address = pin_mac}), "could not set bridge's mac");
}

void enable_forwarding(int family) {
  std::string name = family == AF_INET ? "net/ipv4/ip_forward" : "net/ipv6/conf/all/forwarding";
  if (read_sysctl(name).value_or("") != "1") write_sysctl(name, "1");
}

// With a VLAN, the gateway lives on a veth "<bridge>.<vlan>" whose other
// end is a VLAN port of the bridge, as the reference's ensureVlanInterface.
std::string ensure_vlan_interface(Connection& host, const BridgeConfig& c) {
  std::string name = fmt::format("{}.{}", c.bridge, c.vlan);
  if (name.size() > 15)
    fail(ErrorCode::invalid_config, fmt::format("vlan interface name \"{}\" is too long", name));
  if (netlink::resolve_link(host, name)) return name;
  std::string peer = random_veth_name();
  checked(netlink::add_link(host, {.name = name, .kind = netlink::VethOptions{.peer = peer}}),
          fmt::format("faild to create vlan gateway \"{}\"", name));
  checked(netlink::set_link(host, {.name = peer, .up = true, .master = c.bridge}),
          "failed to connect vlan gateway");
  checked(netlink::add_bridge_vlan(
              host, {.dev = peer, .vid = static_cast<uint16_t>(c.vlan), .pvid = true, .untagged = true}),
          fmt::format("failed to setup vlan tag on interface \"{}\"", peer));
  checked(netlink::set_link(host, {.name = name, .up = true}), fmt::format("failed to up \"{}\"", name));
  return name;
}

}  // namespace

std::string bridge_add(const Environment& env, const BridgeConfig& c, const std::string& stdin_data) {
  UniqueFd host_ns = current_netns();
  auto pod_ns_r = netlink::open_netns_path(env.netns);
  if (!pod_ns_r)
    fail(ErrorCode::invalid_environment,
         fmt::format("failed to open netns \"{}\": {}", env.netns, pod_ns_r.error().message()));
  UniqueFd pod_ns = std::move(*pod_ns_r);
  // The pod's side would be made on the host itself: its eth0, its routes.
  if (same_netns(pod_ns.get(), host_ns.get()))
    fail(ErrorCode::invalid_environment,
         fmt::format("CNI_NETNS \"{}\" is the plugin's own network namespace, not a pod's", env.netns));
  IpamContext ipam{c, env, stdin_data};
  if (!c.ipam_type.empty()) ipam_validate(ipam);  // bad input changes nothing

  Connection host = open_connection();
  BridgeState bridge = ensure_bridge(host, c);
  std::optional<Connection> pod;
  in_netns(pod_ns.get(), host_ns.get(), [&] { pod.emplace(open_connection()); });

  Veth veth = make_veth(*pod, host_ns.get(), env, c);
  Rollback rollback;  // after everything its steps use, so it runs before they are gone
  rollback.push([&] { (void)netlink::delete_link(*pod, env.ifname); });

  // The host end: up and a port of the bridge in one request, hairpin
  // written always (as the reference does), the VLAN, no router ads.
  checked(netlink::set_link(host, {.name = veth.host_name, .up = true, .master = c.bridge}),
          fmt::format("failed to connect \"{}\" to bridge {}", veth.host_name, c.bridge));
  checked(netlink::set_bridge_port(host, {.dev = veth.host_name, .hairpin = c.hairpin_mode}),
          fmt::format("failed to setup hairpin mode for {}", veth.host_name));
  if (c.vlan != 0)
    checked(
        netlink::add_bridge_vlan(
            host,
            {.dev = veth.host_name, .vid = static_cast<uint16_t>(c.vlan), .pvid = true, .untagged = true}),
        fmt::format("failed to setup vlan tag on interface \"{}\"", veth.host_name));
  write_sysctl(fmt::format("net/ipv6/conf/{}/accept_ra", veth.host_name), "0");
  veth.host_mac =
      mac_of(checked(netlink::get_link(host, veth.host_name), "failed to lookup " + veth.host_name));
  veth.pod_mac = c.mac.empty()
                     ? mac_of(checked(netlink::get_link(*pod, env.ifname), "failed to lookup " + env.ifname))
                     : netlink::MacAddress::parse(c.mac)->to_string();

  Result result;
  result.interfaces = {Interface{.name = c.bridge, .mac = bridge.mac_before_ports},
                       Interface{.name = veth.host_name, .mac = veth.host_mac},
                       Interface{.name = env.ifname, .mac = veth.pod_mac, .sandbox = env.netns}};

  if (c.mac_spoof_check) {
    spoof_check_add(veth.host_name, veth.pod_mac);
    rollback.push([&] { spoof_check_del(veth.host_name, veth.pod_mac); });
  }

  if (!c.ipam_type.empty()) {
    Result ipam_result = ipam_add(ipam);
    rollback.push([&] { ipam_del(ipam); });
    result.ips = ipam_result.ips;
    result.routes = ipam_result.routes;
    if (result.ips.empty()) fail(ErrorCode::internal, "IPAM plugin returned missing IP config");
    Gateways gws = calc_gateways(result, c);
    configure_pod(*pod, pod_ns.get(), host_ns.get(), env, c, result);

    if (c.is_gateway) {
      std::string gw_dev = c.bridge;
      if (c.vlan != 0 && !(gws.v4.empty() && gws.v6.empty())) {
        gw_dev = ensure_vlan_interface(host, c);
        result.interfaces.push_back(
            Interface{.name = gw_dev,
                      .mac = mac_of(checked(netlink::get_link(host, gw_dev), "failed to lookup " + gw_dev))});
      }
      for (const auto* list : {&gws.v4, &gws.v6}) {
        for (const IpPrefix& gw : *list)
          ensure_gateway_address(host, gw_dev, gw_dev == c.bridge ? bridge.mac_before_ports : "", gw,
                                 c.force_address);
        if (!list->empty()) enable_forwarding(list->front().address.family);
      }
    }
    if (c.ip_masq) {
      std::vector<MasqEntry> entries;
      for (const IpConfig& ip : result.ips)
        entries.push_back({ip.address, c.name, env.container_id, env.ifname});
      masquerade_add(entries);
      rollback.push([entries] { masquerade_del(entries); });
    }
  } else {
    checked(netlink::set_link(*pod, {.name = env.ifname, .up = true}),
            fmt::format("failed to set \"{}\" up", env.ifname));
  }

  // The bridge's MAC as it is now (adding a port may have changed it).
  result.interfaces[0].mac =
      mac_of(checked(netlink::get_link(host, c.bridge), "could not lookup " + c.bridge));
  result.dns = c.dns;
  rollback.commit();
  return result_to_json(result, c.version).dump(4, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace brisk::cni::detail
