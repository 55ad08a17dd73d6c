// bench/containers_method.h: what `brisk bench containers` runs, one way
// of making containers (a method) in one shape; shared by the veth shape
// (containers_veth.cc) and the phys shape (containers_phys.cc).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bench/containers_bench.h"
#include "brisk/fd.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns_setup.h"
#include "brisk/netlink/route.h"
#include "sandbox/net_sandbox.h"

namespace brisk::bench::containers {

// Container i's /31: the host end takes the even address, eth0 the odd one.
inline std::string ipv4(uint32_t a) {
  return fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}
inline uint32_t host_addr(int i) { return (10u << 24) + 2 * static_cast<uint32_t>(i); }
inline std::string host_ip(int i) { return ipv4(host_addr(i)); }
inline std::string inside_ip(int i) { return ipv4(host_addr(i) + 1); }
inline std::string host_end(int i) { return "h" + std::to_string(i); }
inline constexpr const char* kInsideEnd = "eth0";

struct Setup {
  int failures = 0;
  int processes = 0;
};

// One way of making containers. Names are the method's own, so every
// method's namespaces can live side by side in the sandbox's /run/netns.
class Method {
 public:
  Method(std::string name, std::string prefix, const ContainersBenchConfig& config)
      : name_(std::move(name)),
        prefix_(std::move(prefix)),
        config_(config),
        host_(sandbox::fresh_netns()),
        dir_("m:" + name_) {}
  virtual ~Method() = default;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;

  const std::string& name() const { return name_; }
  int host() const { return host_.get(); }
  std::string netns(int i) const { return prefix_ + "-c" + std::to_string(i); }
  std::string bridge(int i) const { return "br" + std::to_string(i / config_.bridge_ports); }
  // Container i is the first on its bridge: the bridge is made with it.
  bool opens_bridge(int i) const { return i % config_.bridge_ports == 0; }
  int bridges(int n) const { return (n + config_.bridge_ports - 1) / config_.bridge_ports; }

  // Runs fn on the method's own thread, where /run/netns is its alone.
  void on_thread(const std::function<void()>& fn) { dir_.run(fn); }

  // Makes containers [begin, end).
  virtual Setup make(int begin, int end) = 0;
  // Whether make_all can make every container in one call, as a container
  // manager would (run when the methods take no turns).
  virtual bool makes_all() const { return false; }
  // Makes containers [0, n), telling at_round(done) as it goes.
  virtual Setup make_all(int /*n*/, const std::function<void(int done)>& /*at_round*/) { return {}; }
  // Untimed, before the first round: what the shape needs on the host.
  virtual void prepare(int /*n*/) {}
  // Removes the n containers and their bridges; returns the failures.
  virtual int teardown(int n) = 0;
  // Whether the n containers' end state is right (on the method's thread).
  virtual bool verify(int n) const = 0;

 protected:
  std::string name_;
  std::string prefix_;
  const ContainersBenchConfig& config_;
  UniqueFd host_;
  sandbox::NetnsDirThread dir_;
};

// brisk's methods: the library's default, and each way of overlapping forced.
struct BriskWay {
  const char* name;    // the method's name
  const char* prefix;  // its namespaces' names start with this
  netlink::NetnsOverlap overlap;
};
inline constexpr BriskWay kBriskWays[] = {{"brisk", "brisk", netlink::NetnsOverlap::automatic},
                                          {"brisk-1core", "brisk1", netlink::NetnsOverlap::never},
                                          {"brisk-2core", "brisk2", netlink::NetnsOverlap::always}};
// The way called name; throws std::runtime_error when there is none.
const BriskWay& brisk_way(const std::string& name);

// The method called name ("ip", "ip-batch", "floor", or a BriskWay) in the
// config's shape; throws std::runtime_error when its namespaces cannot be made.
std::unique_ptr<Method> make_veth_method(const std::string& name, const ContainersBenchConfig& config);
std::unique_ptr<Method> make_phys_method(const std::string& name, const ContainersBenchConfig& config);

// Opens the calling thread's network namespace; throws on failure.
UniqueFd open_own_netns();

// Steps both shapes' methods share (containers_steps.cc).
// brisk: netlink::setup_netns_many of the fleet, in rounds of
// config.brisk_round, with the given overlap; returns the failures.
// at_round, when given, is told the containers done after each round.
int brisk_setup(netlink::Connection& host, std::span<const netlink::NetnsSetup> fleet,
                const ContainersBenchConfig& config, netlink::NetnsOverlap overlap,
                const std::function<void(int done)>& at_round = {});
// ip: one `ip ARGS...` process in the method's host namespace, counted into s.
void run_ip(const Method& m, std::vector<std::string> args, Setup& s);
// Whether routes hold an IPv4 default route via gateway.
bool has_default_via(const std::vector<netlink::RouteInfo>& routes, const std::string& gateway);
// ip-batch: `ip -batch` of text in the method's host namespace, from
// sandbox::kSandboxScratch/<file>; true when it succeeded.
bool ip_batch_run(const Method& m, const std::string& file, const std::string& text);
// ip-batch: `ip -n NAME -batch` per container of the lines text_of(i).
void ip_batch_inside(const Method& m, int begin, int end, const std::function<std::string(int)>& text_of,
                     Setup& s);
// The n namespaces deleted as each tool does it; the failures.
int ip_delete_namespaces(const Method& m, int n);           // `ip netns del` each
std::string ip_batch_delete_lines(const Method& m, int n);  // "netns del NAME" each
int brisk_delete_namespaces(const Method& m, int n);

// The floors' namespaces: container i's, made back to
// back on the calling thread, which returns to home_fd's namespace once at
// the end; each leaves an nsfs fd (for IFLA_NET_NS_FD) and a netlink socket
// made inside it. Either is invalid when that container's failed.
struct RawInside {
  UniqueFd ns;
  UniqueFd rtnl;
  bool ok() const { return ns.valid() && rtnl.valid(); }
};
std::vector<RawInside> raw_namespaces(const Method& m, int begin, int end, int home_fd);
// umount2 and unlink of the n namespaces; returns the failures.
int raw_delete_namespaces(const Method& m, int n);

}  // namespace brisk::bench::containers
