// bench/containers_veth.cc: the veth shape of `brisk bench containers`
// (see containers_bench.h for what a container is and the four methods).

#include <algorithm>
#include <stdexcept>

#include "bench/containers_method.h"
#include "bench/link_raw.h"
#include "bench/net_helpers.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns.h"

namespace brisk::bench::containers {
namespace {

bool verify_veth(const Method& m, int n);

// The shell script: `ip` once per step, `ip -n` for the inside.
class IpScript : public Method {
 public:
  explicit IpScript(const ContainersBenchConfig& config) : Method("ip", "ip", config) {}

  Setup make(int begin, int end) override {
    Setup s;
    auto ip = [&](std::vector<std::string> args) { run_ip(*this, std::move(args), s); };
    for (int i = begin; i < end; ++i) {
      std::string ns = netns(i), dev = host_end(i);
      if (opens_bridge(i)) {
        ip({"link", "add", bridge(i), "type", "bridge"});
        if (config_.bridges_up) ip({"link", "set", bridge(i), "up"});
      }
      ip({"netns", "add", ns});
      ip({"link", "add", dev, "type", "veth", "peer", "name", kInsideEnd, "netns", ns});
      ip({"link", "set", dev, "master", bridge(i), "up"});
      ip({"addr", "add", host_ip(i) + "/31", "dev", dev});
      ip({"-n", ns, "addr", "add", inside_ip(i) + "/31", "dev", kInsideEnd});
      ip({"-n", ns, "link", "set", kInsideEnd, "up"});
      ip({"-n", ns, "route", "add", "default", "via", host_ip(i)});
    }
    return s;
  }

  bool verify(int n) const override { return verify_veth(*this, n); }

  int teardown(int n) override {
    int failures = ip_delete_namespaces(*this, n);
    for (int b = 0; b < bridges(n); ++b)
      failures += !run_process({"ip", "link", "del", bridge(b * config_.bridge_ports)}, host());
    return failures;
  }
};

// ip -batch: one process for the host side of a round; the inside of each
// container needs its own `ip -n NAME -batch`, since a batch cannot switch
// namespace between lines.
class IpBatch : public Method {
 public:
  explicit IpBatch(const ContainersBenchConfig& config) : Method("ip-batch", "ipb", config) {}

  Setup make(int begin, int end) override {
    Setup s;
    std::string text;
    for (int i = begin; i < end; ++i) {
      std::string ns = netns(i), dev = host_end(i);
      if (opens_bridge(i)) {
        text += "link add " + bridge(i) + " type bridge\n";
        if (config_.bridges_up) text += "link set " + bridge(i) + " up\n";
      }
      text += "netns add " + ns + "\n";
      text += "link add " + dev + " type veth peer name " + kInsideEnd + " netns " + ns + "\n";
      text += "link set " + dev + " master " + bridge(i) + " up\n";
      text += "addr add " + host_ip(i) + "/31 dev " + dev + "\n";
    }
    ++s.processes;
    if (!ip_batch_run(*this, "ipb-host.batch", text)) ++s.failures;
    ip_batch_inside(
        *this, begin, end,
        [](int i) {
          return "addr add " + inside_ip(i) + "/31 dev " + kInsideEnd + "\nlink set " + kInsideEnd +
                 " up\nroute add default via " + host_ip(i) + "\n";
        },
        s);
    return s;
  }

  bool verify(int n) const override { return verify_veth(*this, n); }

  int teardown(int n) override {
    std::string text = ip_batch_delete_lines(*this, n);
    for (int b = 0; b < bridges(n); ++b) text += "link del " + bridge(b * config_.bridge_ports) + "\n";
    return ip_batch_run(*this, "ipb-teardown.batch", text) ? 0 : 1;
  }
};

// The library: setup_netns_many, as a container manager would call it: per
// container the host side (the veth, its peer created in the namespace, with
// master and up; then the host address) and the inside (address, up, default
// route); the next sub-round's namespaces are made on a second core where
// the library finds that it pays (brisk), never (brisk-1core) or always (brisk-2core).
class BriskLibrary : public Method {
 public:
  BriskLibrary(const ContainersBenchConfig& config, const BriskWay& way)
      : Method(way.name, way.prefix, config),
        overlap_(way.overlap),
        conn_(netlink::Connection::open_in(host()).value()) {}

  Setup make(int begin, int end) override { return make_range(begin, end, {}); }
  bool makes_all() const override { return true; }
  Setup make_all(int n, const std::function<void(int)>& at_round) override {
    return make_range(0, n, at_round);
  }

  bool verify(int n) const override { return verify_veth(*this, n); }

  int teardown(int n) override {
    // The namespaces, then the bridges, as the floor does. Deleting the host
    // ends first, in one Batch, cost 490 µs of this thread's CPU per
    // container and settled 1.20x later than the floor (median of 3 runs
    // at 1,000): the kernel's own cleanup of a dying namespace already
    // unregisters its veth pair with the others in one batch. Bridges first
    // is slower again (1.13x): their 1,000 ports go one by one.
    int failures = brisk_delete_namespaces(*this, n);
    netlink::Batch batch(conn_);
    for (int b = 0; b < bridges(n); ++b) batch.delete_link(bridge(b * config_.bridge_ports));
    for (const auto& r : batch.flush()) failures += !r;
    return failures;
  }

 private:
  Setup make_range(int begin, int end, const std::function<void(int)>& at_round) {
    Setup s;
    netlink::Batch bridges(conn_);
    for (int i = begin; i < end; ++i)
      if (opens_bridge(i))
        bridges.add_link(
            {.name = bridge(i), .kind = netlink::BridgeOptions{}, .common = {.up = config_.bridges_up}});
    for (const auto& r : bridges.flush()) s.failures += !r;
    std::vector<netlink::NetnsSetup> fleet;
    fleet.reserve(static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i)
      fleet.push_back(
          {.name = netns(i),
           .host =
               [this, i](netlink::Batch& b, int ns) {
                 b.add_link({.name = host_end(i),
                             .kind = netlink::VethOptions{.peer = kInsideEnd, .peer_netns_fd = ns},
                             .common = {.master = bridge(i), .up = true}});
               },
           // After every veth of the round: the names are then resolved in one pipelined round.
           .host_after =
               [i](netlink::Batch& b) { b.add_address({.dev = host_end(i), .prefix = host_ip(i) + "/31"}); },
           .inside =
               [i](netlink::Batch& b) {
                 b.add_address({.dev = kInsideEnd, .prefix = inside_ip(i) + "/31"});
                 b.set_link({.name = kInsideEnd, .up = true});
                 b.add_route({.prefix = "default", .via = host_ip(i)});
               }});
    s.failures += brisk_setup(conn_, fleet, config_, overlap_, at_round);
    return s;
  }

  netlink::NetnsOverlap overlap_;
  netlink::Connection conn_;
};

// The kernel's floor: the same end state from this thread with the fewest
// syscalls. Every ifindex is chosen here, so no request waits for a lookup;
// the host end comes up at creation (the peer cannot: see RawVeth); a
// round's namespaces are made back to back without returning home in
// between (raw_namespaces); the host side is one pipeline (bridge, veth with
// master and the peer's IFLA_NET_NS_FD, host address), and each inside is
// one send on a socket made there (address, up, default route).
class Floor : public Method {
 public:
  explicit Floor(const ContainersBenchConfig& config)
      : Method("floor", "floor", config), home_(open_own_netns()), nl_(host()) {
    nl_.pipeline(kWindow);
  }

  Setup make(int begin, int end) override {
    Setup s;
    auto inside = raw_namespaces(*this, begin, end, home_.get());
    for (int i = begin; i < end; ++i) {
      if (opens_bridge(i)) s.failures += nl_.bridge_add(bridge(i), bridge_index(i), config_.bridges_up) != 0;
      const auto& in = inside[static_cast<std::size_t>(i - begin)];
      if (!in.ok()) continue;
      nl_.veth_add({.name = host_end(i),
                    .index = host_index(i),
                    .master = bridge_index(i),
                    .up = true,
                    .peer = kInsideEnd,
                    .peer_index = kInsideIndex,
                    .peer_netns_fd = in.ns.get()});
      nl_.addr_add(host_index(i), host_addr(i), 31);
    }
    s.failures += nl_.flush();
    for (int i = begin; i < end; ++i) {
      auto& in = inside[static_cast<std::size_t>(i - begin)];
      if (!in.ok()) {
        ++s.failures;
        continue;
      }
      RawNetlink rtnl(std::move(in.rtnl));
      rtnl.pipeline(3);  // all three in one send
      rtnl.addr_add(kInsideIndex, host_addr(i) + 1, 31);
      rtnl.set_up(kInsideEnd);
      rtnl.default_route_add(host_addr(i));
      s.failures += rtnl.flush();
    }
    return s;
  }

  bool verify(int n) const override { return verify_veth(*this, n); }

  int teardown(int n) override {
    int failures = raw_delete_namespaces(*this, n);
    for (int b = 0; b < bridges(n); ++b) nl_.remove(bridge(b * config_.bridge_ports));
    return failures + nl_.flush();
  }

 private:
  static constexpr int kWindow = 64;  // requests per send(), as `brisk bench ip`'s floor
  // eth0's ifindex: above lo (1) and the fallback devices (tunl0, sit0, ...)
  // that loaded tunnel modules add to every new namespace.
  static constexpr int kInsideIndex = 64;
  // Bridges from kInsideIndex up (the host namespace is as fresh as any), host ends above any bridge.
  int bridge_index(int i) const { return kInsideIndex + i / config_.bridge_ports; }
  static int host_index(int i) { return (1 << 23) + i; }

  UniqueFd home_;  // the namespace the method's thread lives in (the constructor's, inherited)
  RawNetlink nl_;  // in the method's host namespace
};

// The end state each method must reach: n host ends up, enslaved, with
// their peer in another namespace; and inside the first and last
// container, eth0 up with its address and the default route.
bool verify_veth(const Method& m, int n) {
  auto conn = netlink::Connection::open_in(m.host());
  if (!conn) return false;
  auto links = netlink::list_links(*conn, {.kind = "veth"});
  if (!links) return false;
  long good = std::count_if(links->begin(), links->end(), [](const netlink::LinkInfo& l) {
    return l.up() && l.master != 0 && l.link_netnsid.has_value();
  });
  if (good != n) return false;
  for (int i : {0, n - 1}) {
    auto fd = netlink::open_netns(m.netns(i));
    if (!fd) return false;
    auto inside = netlink::Connection::open_in(fd->get());
    if (!inside) return false;
    auto eth0 = netlink::get_link(*inside, kInsideEnd);
    auto addrs = netlink::list_addresses(*inside, {.dev = kInsideEnd, .family = AF_INET});
    auto routes = netlink::list_routes(*inside);
    if (!eth0 || !eth0->up() || !addrs || !routes) return false;
    bool has_addr = std::any_of(addrs->begin(), addrs->end(), [&](const netlink::AddressInfo& a) {
      return a.prefix.to_string() == inside_ip(i) + "/31";
    });
    bool has_default = has_default_via(*routes, host_ip(i));
    if (!has_addr || !has_default) return false;
  }
  return true;
}
}  // namespace

std::unique_ptr<Method> make_veth_method(const std::string& name, const ContainersBenchConfig& config) {
  if (name == "ip") return std::make_unique<IpScript>(config);
  if (name == "ip-batch") return std::make_unique<IpBatch>(config);
  if (name == "floor") return std::make_unique<Floor>(config);
  return std::make_unique<BriskLibrary>(config, brisk_way(name));
}

}  // namespace brisk::bench::containers
