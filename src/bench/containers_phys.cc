// bench/containers_phys.cc: the phys shape of `brisk bench containers`,
// LXC's `lxc.network.type = phys` as its 2013 write-up ran it. Container i
// gets two host interfaces, v<i>a and v<i>b, made beforehand (untimed): veth
// ends stand in for the VLANs this kernel lacks, and their peers w<i>a,
// w<i>b stay on the host, so the moment they vanish after teardown is the
// moment the kernel has freed the namespace. Per container, timed: the
// named namespace; both interfaces moved in, renamed eth0 and eth1, each
// with its MAC and up (one RTM_NEWLINK each wherever a method can); an
// address on each; the default route via eth0's peer address.
//   ip        a process per command: netns add, 2 link set, 2 addr add, route
//   ip-batch  one `ip -batch` per round for netns add and the moves, then
//             `ip -n NAME -batch` per container for addresses and route
//   brisk     named namespaces, one pipelined Batch of LinkSets (netns, name,
//             MAC, up) on the host, one Batch per container inside
//   floor     raw rtnetlink from the method's thread, indexes known (they
//             survive the move), pipelined

#include <algorithm>
#include <stdexcept>

#include "bench/containers_method.h"
#include "bench/link_raw.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns.h"
#include "brisk/netlink/netns_setup.h"

namespace brisk::bench::containers {
namespace {

constexpr const char* kInside[2] = {"eth0", "eth1"};
// Interface k (0, 1) of container i on the host; its peer; their indexes.
std::string moved(int i, int k) { return "v" + std::to_string(i) + (k ? "b" : "a"); }
std::string peer(int i, int k) { return "w" + std::to_string(i) + (k ? "b" : "a"); }
// Above the fallback devices of tunnel modules, which the move must not meet.
int moved_index(int i, int k) { return 64 + 4 * i + k; }
int peer_index(int i, int k) { return 64 + 4 * i + 2 + k; }
// eth0 in 10/8 (its gateway is host_addr(i)), eth1 in 11/8, both /31s.
uint32_t inside_addr(int i, int k) { return host_addr(i) + (k ? (1u << 24) : 0) + 1; }
std::string inside_prefix(int i, int k) { return ipv4(inside_addr(i, k)) + "/31"; }
// A locally administered MAC naming container and interface.
void mac_of(int i, int k, uint8_t (&mac)[6]) {
  uint8_t m[6] = {0x02, static_cast<uint8_t>(i >> 16), static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i),
                  0,    static_cast<uint8_t>(k)};
  std::copy(m, m + 6, mac);
}
std::string mac_text(int i, int k) {
  uint8_t m[6];
  mac_of(i, k, m);
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", m[0], m[1], m[2], m[3], m[4], m[5]);
}

// What every phys method shares: the host interfaces made beforehand, the
// check of the end state.
class PhysMethod : public Method {
 public:
  using Method::Method;

  void prepare(int n) override {
    RawNetlink nl(host());
    nl.pipeline(64);
    for (int i = 0; i < n; ++i)
      for (int k : {0, 1})
        nl.veth_add({.name = moved(i, k),
                     .index = moved_index(i, k),
                     .peer = peer(i, k),
                     .peer_index = peer_index(i, k)});
    if (int failed = nl.flush())
      throw std::runtime_error(fmt::format("phys: {} host interfaces not made", failed));
  }

  // On the host, only the 2n peers, each with its other end elsewhere; in
  // every container, eth0 and eth1 up with their MACs and addresses, and
  // the default route.
  bool verify(int n) const override {
    auto conn = netlink::Connection::open_in(host());
    if (!conn) return false;
    auto links = netlink::list_links(*conn, {.kind = "veth"});
    if (!links || links->size() != static_cast<std::size_t>(2 * n)) return false;
    for (const auto& l : *links)
      if (l.name[0] != 'w' || !l.link_netnsid) return false;
    for (int i = 0; i < n; ++i)
      if (!verify_inside(i)) return false;
    return true;
  }

 private:
  bool verify_inside(int i) const {
    auto fd = netlink::open_netns(netns(i));
    if (!fd) return false;
    auto inside = netlink::Connection::open_in(fd->get());
    if (!inside) return false;
    auto addrs = netlink::list_addresses(*inside, {.family = AF_INET});
    auto routes = netlink::list_routes(*inside);
    if (!addrs || !routes) return false;
    for (int k : {0, 1}) {
      auto link = netlink::get_link(*inside, kInside[k]);
      if (!link || !link->up() || !link->address || link->address->to_string() != mac_text(i, k))
        return false;
      bool has = std::any_of(addrs->begin(), addrs->end(), [&](const netlink::AddressInfo& a) {
        return a.ifindex == link->ifindex && a.prefix.to_string() == inside_prefix(i, k);
      });
      if (!has) return false;
    }
    return has_default_via(*routes, host_ip(i));
  }
};

class PhysIp : public PhysMethod {
 public:
  explicit PhysIp(const ContainersBenchConfig& config) : PhysMethod("ip", "ip", config) {}

  Setup make(int begin, int end) override {
    Setup s;
    auto ip = [&](std::vector<std::string> args) { run_ip(*this, std::move(args), s); };
    for (int i = begin; i < end; ++i) {
      std::string ns = netns(i);
      ip({"netns", "add", ns});
      for (int k : {0, 1})
        ip({"link", "set", moved(i, k), "netns", ns, "name", kInside[k], "address", mac_text(i, k), "up"});
      for (int k : {0, 1}) ip({"-n", ns, "addr", "add", inside_prefix(i, k), "dev", kInside[k]});
      ip({"-n", ns, "route", "add", "default", "via", host_ip(i)});
    }
    return s;
  }

  int teardown(int n) override { return ip_delete_namespaces(*this, n); }
};

class PhysIpBatch : public PhysMethod {
 public:
  explicit PhysIpBatch(const ContainersBenchConfig& config) : PhysMethod("ip-batch", "ipb", config) {}

  Setup make(int begin, int end) override {
    Setup s;
    std::string text;
    for (int i = begin; i < end; ++i) {
      text += "netns add " + netns(i) + "\n";
      for (int k : {0, 1})
        text += "link set " + moved(i, k) + " netns " + netns(i) + " name " + kInside[k] + " address " +
                mac_text(i, k) + " up\n";
    }
    ++s.processes;
    if (!ip_batch_run(*this, "ipb-host.batch", text)) ++s.failures;
    ip_batch_inside(
        *this, begin, end,
        [](int i) {
          return "addr add " + inside_prefix(i, 0) + " dev eth0\naddr add " + inside_prefix(i, 1) +
                 " dev eth1\nroute add default via " + host_ip(i) + "\n";
        },
        s);
    return s;
  }

  int teardown(int n) override {
    return ip_batch_run(*this, "ipb-teardown.batch", ip_batch_delete_lines(*this, n)) ? 0 : 1;
  }
};

class PhysBrisk : public PhysMethod {
 public:
  PhysBrisk(const ContainersBenchConfig& config, const BriskWay& way)
      : PhysMethod(way.name, way.prefix, config),
        overlap_(way.overlap),
        conn_(netlink::Connection::open_in(host()).value()) {}

  Setup make(int begin, int end) override { return make_range(begin, end, {}); }
  bool makes_all() const override { return true; }
  Setup make_all(int n, const std::function<void(int)>& at_round) override {
    return make_range(0, n, at_round);
  }

  int teardown(int n) override { return brisk_delete_namespaces(*this, n); }

 private:
  Setup make_range(int begin, int end, const std::function<void(int)>& at_round) {
    std::vector<netlink::NetnsSetup> fleet;
    fleet.reserve(static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i)
      fleet.push_back({.name = netns(i),
                       .host =
                           [i](netlink::Batch& b, int ns) {
                             for (int k : {0, 1})
                               b.set_link({.name = moved(i, k),
                                           .up = true,
                                           .address = mac_text(i, k),
                                           .new_name = kInside[k],
                                           .netns_fd = ns});
                           },
                       .inside =
                           [i](netlink::Batch& b) {
                             for (int k : {0, 1})
                               b.add_address({.dev = kInside[k], .prefix = inside_prefix(i, k)});
                             b.add_route({.prefix = "default", .via = host_ip(i)});
                           }});
    return {.failures = brisk_setup(conn_, fleet, config_, overlap_, at_round)};
  }

  netlink::NetnsOverlap overlap_;
  netlink::Connection conn_;
};

class PhysFloor : public PhysMethod {
 public:
  explicit PhysFloor(const ContainersBenchConfig& config)
      : PhysMethod("floor", "floor", config), home_(open_own_netns()), nl_(host()) {
    nl_.pipeline(64);
  }

  Setup make(int begin, int end) override {
    Setup s;
    auto inside = raw_namespaces(*this, begin, end, home_.get());
    for (int i = begin; i < end; ++i) {
      const auto& in = inside[static_cast<std::size_t>(i - begin)];
      if (!in.ok()) continue;
      for (int k : {0, 1}) {
        uint8_t mac[6];
        mac_of(i, k, mac);
        nl_.move_link(moved_index(i, k), in.ns.get(), kInside[k], mac, true);
      }
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
      for (int k : {0, 1}) rtnl.addr_add(moved_index(i, k), inside_addr(i, k), 31);
      rtnl.default_route_add(host_addr(i));
      s.failures += rtnl.flush();
    }
    return s;
  }

  int teardown(int n) override { return raw_delete_namespaces(*this, n); }

 private:
  UniqueFd home_;  // the method thread's namespace
  RawNetlink nl_;  // in the method's host namespace
};

}  // namespace

std::unique_ptr<Method> make_phys_method(const std::string& name, const ContainersBenchConfig& config) {
  if (name == "ip") return std::make_unique<PhysIp>(config);
  if (name == "ip-batch") return std::make_unique<PhysIpBatch>(config);
  if (name == "floor") return std::make_unique<PhysFloor>(config);
  return std::make_unique<PhysBrisk>(config, brisk_way(name));
}

}  // namespace brisk::bench::containers
