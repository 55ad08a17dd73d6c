#include "bench/containers_bench.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/resource.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bench/link_raw.h"
#include "bench/net_sandbox.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"
#include "sys/syscalls.h"

namespace brisk::bench {
namespace {

// Container i's /31: the host end takes the even address, eth0 the odd one.
std::string ipv4(uint32_t a) { return fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255); }
uint32_t host_addr(int i) { return (10u << 24) + 2 * static_cast<uint32_t>(i); }
std::string host_ip(int i) { return ipv4(host_addr(i)); }
std::string inside_ip(int i) { return ipv4(host_addr(i) + 1); }
std::string host_end(int i) { return "h" + std::to_string(i); }
constexpr const char* kInsideEnd = "eth0";

struct Setup {
  int failures = 0;
  int processes = 0;
};

// One way of making containers. Names are the method's own, so every
// method's namespaces can live side by side in the sandbox's /run/netns.
class Method {
 public:
  Method(std::string name, std::string prefix, const ContainersBenchConfig& config)
      : name_(std::move(name)), prefix_(std::move(prefix)), config_(config), host_(fresh_netns()) {}
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
  // Removes the n containers and their bridges; returns the failures.
  virtual int teardown(int n) = 0;

 protected:
  std::string name_;
  std::string prefix_;
  const ContainersBenchConfig& config_;
  UniqueFd host_;
  NetnsDirThread dir_;
};

// The shell script: `ip` once per step, `ip -n` for the inside.
class IpScript : public Method {
 public:
  explicit IpScript(const ContainersBenchConfig& config) : Method("ip", "ip", config) {}

  Setup make(int begin, int end) override {
    Setup s;
    auto ip = [&](std::vector<std::string> args) {
      args.insert(args.begin(), "ip");
      ++s.processes;
      s.failures += !run_process(args, host());
    };
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

  int teardown(int n) override {
    int failures = 0;
    for (int i = 0; i < n; ++i) failures += !run_process({"ip", "netns", "del", netns(i)}, host());
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
    std::string host_file = std::string(kSandboxScratch) + "/ipb-host.batch";
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
    write_file(host_file, text);
    ++s.processes;
    if (!run_process({"ip", "-batch", host_file}, host())) ++s.failures;
    std::string inside_file = std::string(kSandboxScratch) + "/ipb-inside.batch";
    for (int i = begin; i < end; ++i) {
      write_file(inside_file, "addr add " + inside_ip(i) + "/31 dev " + kInsideEnd + "\nlink set " + kInsideEnd +
                                  " up\nroute add default via " + host_ip(i) + "\n");
      ++s.processes;
      if (!run_process({"ip", "-n", netns(i), "-batch", inside_file}, host())) ++s.failures;
    }
    return s;
  }

  int teardown(int n) override {
    std::string file = std::string(kSandboxScratch) + "/ipb-teardown.batch";
    std::string text;
    for (int i = 0; i < n; ++i) text += "netns del " + netns(i) + "\n";
    for (int b = 0; b < bridges(n); ++b) text += "link del " + bridge(b * config_.bridge_ports) + "\n";
    write_file(file, text);
    return run_process({"ip", "-batch", file}, host()) ? 0 : 1;
  }
};

// The library: the host side of a round in one pipelined Batch, then each
// container's inside in one Batch on a connection made in its namespace.
class BriskLibrary : public Method {
 public:
  explicit BriskLibrary(const ContainersBenchConfig& config)
      : Method("brisk", "brisk", config), conn_(netlink::Connection::open_in(host()).value()) {}

  Setup make(int begin, int end) override {
    Setup s;
    // A round's namespaces are made on one helper thread, and their
    // connections opened on another: a thread per namespace would cost a
    // context switch each, milliseconds on a loaded host.
    std::vector<std::string> names;
    for (int i = begin; i < end; ++i) names.push_back(netns(i));
    auto made = netlink::create_netns_each(names);
    std::vector<UniqueFd> inside(names.size());
    for (std::size_t k = 0; k < names.size(); ++k) {
      auto fd = made[k] ? netlink::open_netns(names[k]) : netlink::NlResult<UniqueFd>(std::move(made[k]).error());
      if (fd) inside[k] = std::move(*fd);
      else ++s.failures;
    }
    // Every veth first, then every address: an address names its device, so
    // queued behind the device's creation it would wait for the pipeline to
    // drain, container by container; queued after all of them, the names
    // are resolved in one pipelined round.
    netlink::Batch host_side(conn_);
    for (int i = begin; i < end; ++i) {
      if (opens_bridge(i))
        host_side.add_link({.name = bridge(i), .kind = netlink::BridgeOptions{}, .common = {.up = config_.bridges_up}});
      const UniqueFd& fd = inside[static_cast<std::size_t>(i - begin)];
      if (!fd) continue;
      host_side.add_link({.name = host_end(i),
                          .kind = netlink::VethOptions{.peer = kInsideEnd, .peer_netns_fd = fd.get()},
                          .common = {.master = bridge(i), .up = true}});
    }
    for (int i = begin; i < end; ++i)
      if (inside[static_cast<std::size_t>(i - begin)])
        host_side.add_address({.dev = host_end(i), .prefix = host_ip(i) + "/31"});
    for (const auto& r : host_side.flush()) s.failures += !r;
    std::vector<int> fds;
    for (const auto& fd : inside)
      if (fd) fds.push_back(fd.get());
    auto conns = netlink::Connection::open_in_each(fds);
    std::size_t next = 0;
    for (int i = begin; i < end; ++i) {
      if (!inside[static_cast<std::size_t>(i - begin)]) continue;
      auto& conn = conns[next++];
      if (!conn) {
        ++s.failures;
        continue;
      }
      netlink::Batch in(*conn);
      in.add_address({.dev = kInsideEnd, .prefix = inside_ip(i) + "/31"});
      in.set_link({.name = kInsideEnd, .up = true});
      in.add_route({.prefix = "default", .via = host_ip(i)});
      for (const auto& r : in.flush()) s.failures += !r;
    }
    return s;
  }

  int teardown(int n) override {
    int failures = 0;
    for (int i = 0; i < n; ++i) failures += !netlink::delete_netns(netns(i));
    netlink::Batch batch(conn_);
    for (int b = 0; b < bridges(n); ++b) batch.delete_link(bridge(b * config_.bridge_ports));
    for (const auto& r : batch.flush()) failures += !r;
    return failures;
  }

 private:
  netlink::Connection conn_;
};

// The kernel's floor: the same end state from this thread with the fewest
// syscalls. Every ifindex is chosen here, so no request waits for a lookup;
// both veth ends come up at creation; a round's namespaces are made back to
// back without returning home in between, each leaving behind an nsfs fd
// (for the peer's IFLA_NET_NS_FD) and a netlink socket made inside it; the
// host side is one pipeline (bridge, veth with master, host address), and
// each inside is one send (address, default route).
class Floor : public Method {
 public:
  explicit Floor(const ContainersBenchConfig& config)
      : Method("floor", "floor", config), home_(open_own_netns()), nl_(host()) {
    nl_.pipeline(kWindow);
  }

  Setup make(int begin, int end) override {
    Setup s;
    struct Inside {
      UniqueFd ns;
      UniqueFd rtnl;
    };
    std::vector<Inside> inside(static_cast<std::size_t>(end - begin));
    for (int i = begin; i < end; ++i) {
      if (!raw_netns_enter_new(std::string(netlink::kNetnsDir) + "/" + netns(i))) continue;
      auto& in = inside[static_cast<std::size_t>(i - begin)];
      if (auto ns = sys::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)) in.ns = std::move(*ns);
      if (auto rtnl = sys::socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)) in.rtnl = std::move(*rtnl);
    }
    if (!sys::setns(home_.get(), CLONE_NEWNET)) throw std::runtime_error("floor: setns back home failed");
    for (int i = begin; i < end; ++i) {
      if (opens_bridge(i)) s.failures += nl_.bridge_add(bridge(i), bridge_index(i), config_.bridges_up) != 0;
      const auto& in = inside[static_cast<std::size_t>(i - begin)];
      if (!in.ns || !in.rtnl) continue;
      nl_.veth_add({.name = host_end(i), .index = host_index(i), .master = bridge_index(i), .up = true,
                    .peer = kInsideEnd, .peer_index = kInsideIndex, .peer_netns_fd = in.ns.get(), .peer_up = true});
      nl_.addr_add(host_index(i), host_addr(i), 31);
    }
    s.failures += nl_.flush();
    for (int i = begin; i < end; ++i) {
      auto& in = inside[static_cast<std::size_t>(i - begin)];
      if (!in.ns || !in.rtnl) {
        ++s.failures;
        continue;
      }
      RawNetlink rtnl(std::move(in.rtnl));
      rtnl.pipeline(2);  // both requests in one send
      rtnl.addr_add(kInsideIndex, host_addr(i) + 1, 31);
      rtnl.default_route_add(host_addr(i));
      s.failures += rtnl.flush();
    }
    return s;
  }

  int teardown(int n) override {
    int failures = 0;
    for (int i = 0; i < n; ++i) {
      std::string path = std::string(netlink::kNetnsDir) + "/" + netns(i);
      failures += !sys::umount2(path, MNT_DETACH);
      failures += !sys::unlink(path);
    }
    for (int b = 0; b < bridges(n); ++b) nl_.remove(bridge(b * config_.bridge_ports));
    return failures + nl_.flush();
  }

 private:
  static constexpr int kWindow = 64;       // requests per send(), as `brisk bench ip`'s floor
  static constexpr int kInsideIndex = 2;   // eth0's ifindex: lo is 1 in a new namespace
  // The host namespace has only lo (1): bridges from 2, host ends above any bridge.
  int bridge_index(int i) const { return 2 + i / config_.bridge_ports; }
  static int host_index(int i) { return (1 << 23) + i; }
  static UniqueFd open_own_netns() {
    auto fd = sys::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (!fd) throw std::runtime_error("floor: " + fd.error().message());
    return std::move(*fd);
  }

  UniqueFd home_;  // the namespace the method's thread lives in (the constructor's, inherited)
  RawNetlink nl_;  // in the method's host namespace
};

// The end state each method must reach: n host ends up, enslaved, with
// their peer in another namespace; and inside the first and last
// container, eth0 up with its address and the default route.
bool verify(const Method& m, int n) {
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
    bool has_default = std::any_of(routes->begin(), routes->end(), [&](const netlink::RouteInfo& r) {
      return r.dst.length == 0 && r.gateway && r.gateway->to_string() == host_ip(i);
    });
    if (!has_addr || !has_default) return false;
  }
  return true;
}

// Waits until the kernel's asynchronous cleanup of the deleted namespaces
// has taken every host end away (bounded, so a stuck kernel cannot hang us).
bool wait_host_ends_gone(const Method& m) {
  auto conn = netlink::Connection::open_in(m.host());
  if (!conn) return false;
  auto deadline = Clock::now() + std::chrono::minutes(5);
  while (Clock::now() < deadline) {
    auto links = netlink::list_links(*conn, {.kind = "veth"});
    if (links && links->empty()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

long mem_available_kb() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long value = 0;
  std::string unit;
  while (in >> key >> value >> unit)
    if (key == "MemAvailable:") return value;
  return 0;
}

bool wanted(const ContainersBenchConfig& c, const std::string& method) {
  return c.methods.empty() || std::find(c.methods.begin(), c.methods.end(), method) != c.methods.end();
}

struct Run {
  std::unique_ptr<Method> method;
  ContainersMethodResult result{};
  int made = 0;
};

// CPU seconds used so far by this process and its waited-for children.
double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    ::getrusage(who, &u);
    total += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }
  return total;
}

void make_round(Run& run, int r, const ContainersBenchConfig& c) {
  int begin = r * c.bucket, end = std::min(c.n, (r + 1) * c.bucket);
  Setup s;
  double us = 0;
  double cpu = 0;
  run.method->on_thread([&] {
    double cpu_start = cpu_seconds();
    auto start = Clock::now();
    s = run.method->make(begin, end);
    us = us_since(start);
    cpu = cpu_seconds() - cpu_start;
  });
  run.result.cpu_s += cpu;
  run.result.total_s += us / 1e6;
  run.result.failures += s.failures;
  run.result.processes += s.processes;
  run.result.buckets.push_back({.index = r, .first = begin, .containers = end - begin, .containers_before = run.made,
                                .us_per_container = us / (end - begin)});
  run.made = end;
}

void finish(Run& run, const ContainersBenchConfig& c) {
  auto& res = run.result;
  res.method = run.method->name();
  res.containers = c.n;
  res.containers_per_s = res.total_s > 0 ? c.n / res.total_s : 0;
  res.us_per_container = res.total_s * 1e6 / c.n;
  if (res.buckets.size() > 1 && res.buckets.front().us_per_container > 0)
    res.growth = res.buckets.back().us_per_container / res.buckets.front().us_per_container;
  run.method->on_thread([&] {
    if (c.before_verify) c.before_verify(res.method, run.method->netns(0));
    res.verified = verify(*run.method, c.n);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(c.settle_ms));
  Clock::time_point start;
  run.method->on_thread([&] {
    start = Clock::now();
    res.failures += run.method->teardown(c.n);
    res.teardown_s = us_since(start) / 1e6;
  });
  if (!wait_host_ends_gone(*run.method)) ++res.failures;
  res.teardown_settled_s = us_since(start) / 1e6;
}

void run_in_sandbox(const ContainersBenchConfig& c, ContainersBenchReport& report) {
  std::vector<Run> runs;
  runs.push_back({std::make_unique<BriskLibrary>(c)});
  if (wanted(c, "floor")) runs.push_back({std::make_unique<Floor>(c)});
  if (wanted(c, "ip-batch")) runs.push_back({std::make_unique<IpBatch>(c)});
  if (wanted(c, "ip")) runs.push_back({std::make_unique<IpScript>(c)});
  // A namespace with a veth pair costs ~1 MB of kernel memory; every
  // method's containers exist at once when interleaved.
  long need_kb = static_cast<long>(runs.size()) * c.n * 1100;
  report.interleaved = c.schedule == ContainersSchedule::interleaved ||
                       (c.schedule == ContainersSchedule::automatic && need_kb < mem_available_kb() / 2);
  int rounds = (c.n + c.bucket - 1) / c.bucket;
  auto tell = [&](const std::string& line) {
    if (c.progress) c.progress("containers: " + line);
  };
  if (report.interleaved) {
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < runs.size(); ++k) make_round(runs[(k + static_cast<std::size_t>(r)) % runs.size()], r, c);
      tell(fmt::format("round {}/{} done", r + 1, rounds));
    }
    for (auto& run : runs) {
      finish(run, c);
      tell(run.result.method + " torn down");
    }
  } else {
    for (auto& run : runs) {
      std::this_thread::sleep_for(std::chrono::milliseconds(c.settle_ms));
      for (int r = 0; r < rounds; ++r) {
        make_round(run, r, c);
        tell(fmt::format("{} round {}/{} done", run.method->name(), r + 1, rounds));
      }
      finish(run, c);
      tell(run.result.method + " torn down");
    }
  }
  for (auto& run : runs) {
    run.result.ratio_to_brisk = runs[0].result.total_s > 0 ? run.result.total_s / runs[0].result.total_s : 0;
    report.methods.push_back(std::move(run.result));
  }
  const auto& brisk = report.methods[0];
  for (const auto& m : report.methods)
    if (m.method == "floor" && m.growth > 0 && brisk.growth > 1)
      report.floor_share_of_growth = (m.growth - 1) / (brisk.growth - 1);
}

}  // namespace

ContainersBenchReport run_containers_bench(const ContainersBenchConfig& config) {
  if (config.n <= 0 || config.bucket <= 0 || config.settle_ms < 0)
    throw std::runtime_error("counts must be positive");
  if (config.bridge_ports <= 0 || config.bridge_ports > 1024)
    throw std::runtime_error("a bridge takes 1 to 1024 ports");
  if (config.n > (1 << 22)) throw std::runtime_error("at most 4194304 containers (their /31s fill 10.0.0.0/8)");
  for (const auto& m : config.methods)
    if (m != "ip" && m != "ip-batch" && m != "brisk" && m != "floor") throw std::runtime_error("unknown method " + m);
  ContainersBenchReport report{.config = config};
  report.notes.push_back("load average before the run: " + load_average() + " (other work on the machine)");
  run_in_net_sandbox([&] { run_in_sandbox(config, report); });
  report.notes.push_back(report.interleaved
                             ? "the methods took turns round by round, in rotating order"
                             : "the methods ran one after another (not enough memory for all at once)");
  report.notes.push_back(config.bridges_up ? "host bridges up" : "host bridges down (see --bridges-up)");
  return report;
}

namespace {

const ContainersMethodResult* find_method(const ContainersBenchReport& report, const std::string& name) {
  for (const auto& m : report.methods)
    if (m.method == name) return &m;
  return nullptr;
}

// Whether brisk's per-container cost rising with the containers is its own
// or the kernel's: the floor pays the kernel alone.
std::string growth_line(const ContainersBenchReport& report) {
  const auto* brisk = find_method(report, "brisk");
  const auto* floor = find_method(report, "floor");
  if (!brisk || !floor || brisk->growth == 0 || floor->growth == 0) return "";
  std::string out = fmt::format("growth, last bucket / first bucket: brisk {:.2f}x, floor {:.2f}x", brisk->growth,
                                floor->growth);
  if (report.floor_share_of_growth)
    out += fmt::format(": the floor (the kernel alone) shows {:.0f}% of brisk's growth",
                       *report.floor_share_of_growth * 100);
  else
    out += ": brisk did not grow";
  return out + "\n";
}

// The per-bucket target: brisk at most 1.1x the floor in every bucket.
std::string floor_target_line(const ContainersBenchReport& report) {
  const auto* brisk = find_method(report, "brisk");
  const auto* floor = find_method(report, "floor");
  if (!brisk || !floor || brisk->buckets.size() != floor->buckets.size()) return "";
  double worst = 0;
  for (std::size_t b = 0; b < brisk->buckets.size(); ++b)
    if (floor->buckets[b].us_per_container > 0)
      worst = std::max(worst, brisk->buckets[b].us_per_container / floor->buckets[b].us_per_container);
  return fmt::format("  brisk / floor, worst bucket {:.2f}x (target <= 1.1x: {}); total {:.2f}x\n", worst,
                     worst <= 1.1 ? "met" : "MISSED", floor->total_s > 0 ? brisk->total_s / floor->total_s : 0.0);
}

}  // namespace

std::string format_table(const ContainersBenchReport& report) {
  const auto& c = report.config;
  std::string out = fmt::format("brisk bench containers: {} containers per method, {} bridge(s) of up to {} ports\n\n",
                                c.n, (c.n + c.bridge_ports - 1) / c.bridge_ports, c.bridge_ports);
  out += fmt::format("{:<9} {:>8} {:>12} {:>13} {:>9} {:>10} {:>10} {:>11} {:>10} {:>9} {:>9}\n", "method",
                     "total s", "containers/s", "µs/container", "vs brisk", "cpu µs/ct", "processes", "teardown s",
                     "settled s", "failures", "verified");
  for (const auto& m : report.methods)
    out += fmt::format("{:<9} {:>8.2f} {:>12.1f} {:>13.0f} {:>8.1f}x {:>10.0f} {:>10} {:>11.2f} {:>10.2f} {:>9} {:>9}\n",
                       m.method, m.total_s, m.containers_per_s, m.us_per_container, m.ratio_to_brisk,
                       m.cpu_s * 1e6 / m.containers, m.processes, m.teardown_s, m.teardown_settled_s, m.failures,
                       m.verified ? "yes" : "NO");
  out += fmt::format("\nµs per container, per bucket of {} (flat means no slowdown as containers accumulate)\n{:>8}",
                     c.bucket, "before");
  for (const auto& m : report.methods) out += fmt::format(" {:>10}", m.method);
  out += "\n";
  for (std::size_t b = 0; b < report.methods[0].buckets.size(); ++b) {
    out += fmt::format("{:>8}", report.methods[0].buckets[b].containers_before);
    for (const auto& m : report.methods)
      out += b < m.buckets.size() ? fmt::format(" {:>10.0f}", m.buckets[b].us_per_container) : fmt::format(" {:>10}", "-");
    out += "\n";
  }
  out += growth_line(report);
  out += "\ntargets: brisk >= 20x faster than the ip script, >= 3x faster than ip -batch (wall; cpu for comparison)\n";
  for (const auto& m : report.methods) {
    double target = m.method == "ip" ? 20 : m.method == "ip-batch" ? 3 : 0;
    if (target > 0)
      out += fmt::format("  {:<9} {:>6.1f}x  {:<6}  cpu {:.1f}x\n", m.method, m.ratio_to_brisk,
                         m.ratio_to_brisk >= target ? "met" : "MISSED",
                         report.methods[0].cpu_s > 0 ? m.cpu_s / report.methods[0].cpu_s : 0.0);
  }
  out += floor_target_line(report);
  for (const auto& note : report.notes) out += "note: " + note + "\n";
  return out;
}

nlohmann::json to_json(const ContainersBenchReport& report) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : report.methods) {
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& b : m.buckets)
      buckets.push_back({{"index", b.index}, {"first", b.first}, {"containers", b.containers},
                         {"containers_before", b.containers_before}, {"us_per_container", b.us_per_container}});
    methods.push_back({{"method", m.method}, {"containers", m.containers}, {"processes", m.processes},
                       {"total_s", m.total_s}, {"containers_per_s", m.containers_per_s},
                       {"us_per_container", m.us_per_container}, {"ratio_to_brisk", m.ratio_to_brisk},
                       {"cpu_s", m.cpu_s}, {"teardown_s", m.teardown_s}, {"teardown_settled_s", m.teardown_settled_s},
                       {"failures", m.failures}, {"verified", m.verified}, {"growth", m.growth},
                       {"buckets", buckets}});
  }
  const auto& c = report.config;
  return {{"bench", "containers"},
          {"units",
           {{"total_s", "seconds"}, {"containers_per_s", "containers per second"},
            {"us_per_container", "microseconds per container"}, {"teardown_s", "seconds"},
            {"teardown_settled_s", "seconds"}, {"cpu_s", "seconds of CPU"},
            {"ratio_to_brisk", "method time / brisk time"},
            {"growth", "last bucket's us_per_container / the first's"},
            {"floor_share_of_growth", "(floor growth - 1) / (brisk growth - 1)"}}},
          {"config",
           {{"n", c.n}, {"bucket", c.bucket}, {"bridge_ports", c.bridge_ports}, {"bridges_up", c.bridges_up},
            {"settle_ms", c.settle_ms}}},
          {"interleaved", report.interleaved},
          {"methods", methods},
          {"floor_share_of_growth", report.floor_share_of_growth ? nlohmann::json(*report.floor_share_of_growth)
                                                                 : nlohmann::json(nullptr)},
          {"notes", report.notes}};
}

std::string to_csv(const ContainersBenchReport& report) {
  std::string out = "method,kind,bucket,first,containers,containers_before,us_per_container\n";
  for (const auto& m : report.methods) {
    for (const auto& b : m.buckets)
      out += fmt::format("{},setup,{},{},{},{},{:.1f}\n", m.method, b.index, b.first, b.containers,
                         b.containers_before, b.us_per_container);
    out += fmt::format("{},teardown,,0,{},{},{:.1f}\n", m.method, m.containers, m.containers,
                       m.teardown_s * 1e6 / m.containers);
    out += fmt::format("{},teardown_settled,,0,{},{},{:.1f}\n", m.method, m.containers, m.containers,
                       m.teardown_settled_s * 1e6 / m.containers);
  }
  return out;
}

void write_outputs(const ContainersBenchReport& report, const std::string& dir) {
  make_directories(dir);
  write_file(dir + "/containers.json", to_json(report).dump(2) + "\n");
  write_file(dir + "/containers.csv", to_csv(report));
}

}  // namespace brisk::bench
