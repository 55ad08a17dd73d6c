#include "bench/link_bench.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <thread>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/netns.h"
#include "bench/spawn_bench.h"
#include "brisk/spawn.h"

namespace brisk::bench {
namespace {

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// A namespace with IPv6 off: otherwise every device brought up starts DAD
// and MLD work in the background, which lands on whichever phase runs next.
UniqueFd fresh_netns() {
  UniqueFd fd;
  std::thread([&fd] {
    if (::unshare(CLONE_NEWNET) != 0) return;
    for (const char* knob : {"/proc/sys/net/ipv6/conf/all/disable_ipv6", "/proc/sys/net/ipv6/conf/default/disable_ipv6"}) {
      int sysctl = ::open(knob, O_WRONLY | O_CLOEXEC);  // /proc/sys/net follows the opener's namespace
      if (sysctl >= 0) {
        (void)!::write(sysctl, "1", 1);
        ::close(sysctl);
      }
    }
    int ns = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (ns >= 0) fd.reset(ns);
  }).join();
  if (!fd) throw std::runtime_error("cannot create a network namespace (needs CAP_SYS_ADMIN)");
  return fd;
}

std::string veth(int i) { return "v" + std::to_string(i); }
std::string peer(int i) { return "p" + std::to_string(i); }
std::string addr(int i) { return fmt::format("10.{}.{}.{}/32", (i >> 16) & 255, (i >> 8) & 255, i & 255); }

// Runs `ip args...` in ns (the caller's when ns < 0); true on exit 0.
bool run_ip(int ns, std::vector<std::string> args) {
  args.insert(args.begin(), "ip");
  SpawnOptions options{.argv = std::move(args)};
  if (ns >= 0) options.namespaces = {{.type = CLONE_NEWNET, .fd = ns}};
  options.inherit_stdio = false;
  auto child = spawn(options);
  if (!child) return false;
  auto status = child->wait();
  return status && status->success();
}

// --- the minimal raw-netlink loop: one request, wait for its ACK ---

class RawNetlink {
 public:
  explicit RawNetlink(int ns) {
    std::thread([&] {
      if (::setns(ns, CLONE_NEWNET) == 0) fd_.reset(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
    }).join();
    if (!fd_) throw std::runtime_error("raw netlink socket failed");
    int one = 1;
    ::setsockopt(fd_.get(), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof one);
  }
  void start(uint16_t type, uint16_t flags) {
    std::memset(buf_, 0, sizeof buf_);
    auto* h = header();
    h->nlmsg_len = NLMSG_HDRLEN;
    h->nlmsg_type = type;
    h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
    h->nlmsg_seq = ++seq_;
  }
  void* extra(std::size_t size) {
    void* at = buf_ + header()->nlmsg_len;
    header()->nlmsg_len += NLMSG_ALIGN(size);
    return at;
  }
  rtattr* attr(uint16_t type, const void* data, std::size_t len) {
    auto* a = reinterpret_cast<rtattr*>(buf_ + header()->nlmsg_len);
    a->rta_type = type;
    a->rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
    if (len) std::memcpy(RTA_DATA(a), data, len);
    header()->nlmsg_len += RTA_ALIGN(a->rta_len);
    return a;
  }
  rtattr* str(uint16_t type, const std::string& s) { return attr(type, s.c_str(), s.size() + 1); }
  void end(rtattr* nest) {
    nest->rta_len = static_cast<unsigned short>(buf_ + header()->nlmsg_len - reinterpret_cast<char*>(nest));
  }
  // Sends and waits for the ACK; returns 0 or the negative errno. The
  // ifindex of an RTM_NEWLINK reply (to a GETLINK) is kept.
  int transact() {
    if (::send(fd_.get(), buf_, header()->nlmsg_len, 0) < 0) return -errno;
    char reply[8192];
    for (;;) {
      ssize_t n = ::recv(fd_.get(), reply, sizeof reply, 0);
      if (n < 0) return -errno;
      for (auto* h = reinterpret_cast<nlmsghdr*>(reply); NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
        if (h->nlmsg_seq != seq_) continue;
        if (h->nlmsg_type == RTM_NEWLINK) last_ifindex_ = static_cast<ifinfomsg*>(NLMSG_DATA(h))->ifi_index;
        if (h->nlmsg_type == NLMSG_ERROR) return static_cast<nlmsgerr*>(NLMSG_DATA(h))->error;
      }
    }
  }

  int last_ifindex() const { return last_ifindex_; }

 private:
  nlmsghdr* header() { return reinterpret_cast<nlmsghdr*>(buf_); }
  int last_ifindex_ = 0;
  UniqueFd fd_;
  uint32_t seq_ = 0;
  alignas(nlmsghdr) char buf_[4096];
};

int raw_veth_add(RawNetlink& nl, int i) {
  nl.start(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
  nl.extra(sizeof(ifinfomsg));
  nl.str(IFLA_IFNAME, veth(i));
  auto* info = nl.attr(IFLA_LINKINFO, nullptr, 0);
  nl.str(IFLA_INFO_KIND, "veth");
  auto* data = nl.attr(IFLA_INFO_DATA, nullptr, 0);
  auto* p = nl.attr(VETH_INFO_PEER, nullptr, 0);
  nl.extra(sizeof(ifinfomsg));
  nl.str(IFLA_IFNAME, peer(i));
  nl.end(p);
  nl.end(data);
  nl.end(info);
  return nl.transact();
}

int raw_set_up(RawNetlink& nl, int i) {
  nl.start(RTM_NEWLINK, 0);
  auto* ifi = static_cast<ifinfomsg*>(nl.extra(sizeof(ifinfomsg)));
  ifi->ifi_flags = ifi->ifi_change = IFF_UP;
  nl.str(IFLA_IFNAME, veth(i));
  return nl.transact();
}

// What ip does for `dev NAME`: one RTM_GETLINK by name.
int raw_ifindex(RawNetlink& nl, int i) {
  nl.start(RTM_GETLINK, 0);
  nl.extra(sizeof(ifinfomsg));
  nl.str(IFLA_IFNAME, veth(i));
  uint32_t mask = RTEXT_FILTER_SKIP_STATS;
  nl.attr(IFLA_EXT_MASK, &mask, sizeof mask);
  return nl.transact() == 0 ? nl.last_ifindex() : 0;
}

int raw_addr_add(RawNetlink& nl, int i, int ifindex) {
  nl.start(RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
  auto* ifa = static_cast<ifaddrmsg*>(nl.extra(sizeof(ifaddrmsg)));
  ifa->ifa_family = AF_INET;
  ifa->ifa_prefixlen = 32;
  ifa->ifa_index = static_cast<uint32_t>(ifindex);
  uint8_t ip[4] = {10, static_cast<uint8_t>((i >> 16) & 255), static_cast<uint8_t>((i >> 8) & 255),
                   static_cast<uint8_t>(i & 255)};
  nl.attr(IFA_LOCAL, ip, 4);
  nl.attr(IFA_ADDRESS, ip, 4);
  return nl.transact();
}

int raw_delete(RawNetlink& nl, int i) {
  nl.start(RTM_DELLINK, 0);
  nl.extra(sizeof(ifinfomsg));
  nl.str(IFLA_IFNAME, veth(i));
  return nl.transact();
}

// --- the methods: each acts on ops [begin, end) of a phase in its namespace ---

enum class Phase { veth_add, set_up, addr_add, remove };
constexpr Phase kPhases[] = {Phase::veth_add, Phase::set_up, Phase::addr_add, Phase::remove};
const char* phase_name(Phase p) {
  switch (p) {
    case Phase::veth_add: return "veth add";
    case Phase::set_up: return "set up";
    case Phase::addr_add: return "addr add";
    case Phase::remove: return "delete";
  }
  return "";
}

struct Method {
  std::string name;
  UniqueFd ns;
  // Ops this method runs in a phase (ip and the one-by-one deletes are slow).
  std::function<int(Phase)> count;
  // Runs ops [begin, end) of a phase; returns how many failed.
  std::function<int(Phase, int, int)> run;
};

Method ip_method(const LinkBenchConfig& c) {
  Method m{.name = "ip", .ns = fresh_netns(), .count = {}, .run = {}};
  m.count = [n = c.ip_n](Phase) { return n; };
  m.run = [ns = m.ns.get()](Phase phase, int begin, int end) {
    int failures = 0;
    for (int i = begin; i < end; ++i) {
      std::vector<std::string> args;
      switch (phase) {
        case Phase::veth_add: args = {"link", "add", veth(i), "type", "veth", "peer", "name", peer(i)}; break;
        case Phase::set_up: args = {"link", "set", veth(i), "up"}; break;
        case Phase::addr_add: args = {"addr", "add", addr(i), "dev", veth(i)}; break;
        case Phase::remove: args = {"link", "del", veth(i)}; break;
      }
      failures += !run_ip(ns, args);
    }
    return failures;
  };
  return m;
}

Method ip_batch_method(const LinkBenchConfig& c, const std::string& dir) {
  Method m{.name = "ip-batch", .ns = fresh_netns(), .count = {}, .run = {}};
  m.count = [n = c.n, d = std::min(c.delete_n, c.n)](Phase p) { return p == Phase::remove ? d : n; };
  m.run = [ns = m.ns.get(), path = dir + "/batch.txt"](Phase phase, int begin, int end) {
    {
      std::ofstream file(path);
      for (int i = begin; i < end; ++i) {
        switch (phase) {
          case Phase::veth_add: file << "link add " << veth(i) << " type veth peer name " << peer(i) << "\n"; break;
          case Phase::set_up: file << "link set " << veth(i) << " up\n"; break;
          case Phase::addr_add: file << "addr add " << addr(i) << " dev " << veth(i) << "\n"; break;
          case Phase::remove: file << "link del " << veth(i) << "\n"; break;
        }
      }
    }
    // Writing the file is part of what a caller of ip -batch pays (microseconds).
    return run_ip(ns, {"-batch", path}) ? 0 : end - begin;
  };
  return m;
}

Method raw_method(const LinkBenchConfig& c) {
  Method m{.name = "raw", .ns = fresh_netns(), .count = {}, .run = {}};
  auto nl = std::make_shared<RawNetlink>(m.ns.get());
  m.count = [n = c.n, d = std::min(c.delete_n, c.n)](Phase p) { return p == Phase::remove ? d : n; };
  m.run = [nl](Phase phase, int begin, int end) {
    int failures = 0;
    for (int i = begin; i < end; ++i) {
      switch (phase) {
        case Phase::veth_add: failures += raw_veth_add(*nl, i) != 0; break;
        case Phase::set_up: failures += raw_set_up(*nl, i) != 0; break;
        // addr add needs the ifindex: one GETLINK per device, as ip does.
        case Phase::addr_add: failures += raw_addr_add(*nl, i, raw_ifindex(*nl, i)) != 0; break;
        case Phase::remove: failures += raw_delete(*nl, i) != 0; break;
      }
    }
    return failures;
  };
  return m;
}

Method brisk_method(const LinkBenchConfig& c) {
  Method m{.name = "brisk", .ns = fresh_netns(), .count = {}, .run = {}};
  auto conn = std::make_shared<netlink::Connection>(netlink::Connection::open_in(m.ns.get()).value());
  m.count = [n = c.n](Phase) { return n; };
  m.run = [conn](Phase phase, int begin, int end) {
    netlink::Batch batch(*conn);
    for (int i = begin; i < end; ++i) {
      switch (phase) {
        case Phase::veth_add: batch.add_link({.name = veth(i), .kind = netlink::VethOptions{.peer = peer(i)}}); break;
        case Phase::set_up: batch.set_link({.name = veth(i), .up = true}); break;
        case Phase::addr_add: batch.add_address({.dev = veth(i), .prefix = addr(i)}); break;
        case Phase::remove: batch.delete_link(veth(i)); break;
      }
    }
    int failures = 0;
    for (const auto& r : batch.flush()) failures += !r;
    return failures;
  };
  return m;
}

// Namespace creation, inside a private mount namespace with a tmpfs /run.
void bench_netns(LinkBenchReport& report, const LinkBenchConfig& c) {
  std::string error;
  std::thread([&] {
    if (::unshare(CLONE_NEWNS) != 0 || ::mount("", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") != 0) {
      error = "cannot make a private /run for the namespace benchmark";
      return;
    }
    LinkBenchRow ip{.phase = "netns add", .method = "ip", .count = c.netns_n};
    LinkBenchRow brisk{.phase = "netns add", .method = "brisk", .count = c.netns_n};
    std::vector<double> ratios, ip_us_all, brisk_us_all;
    for (int i = 0; i < c.netns_n; ++i) {  // alternate, so both see the same machine
      auto begin = Clock::now();
      ip.failures += !run_ip(-1, {"netns", "add", "ipns" + std::to_string(i)});
      double ip_us = us_since(begin);
      begin = Clock::now();
      brisk.failures += !netlink::create_netns("briskns" + std::to_string(i));
      double brisk_us = us_since(begin);
      ip_us_all.push_back(ip_us);
      brisk_us_all.push_back(brisk_us);
      ratios.push_back(brisk_us > 0 ? ip_us / brisk_us : 0);
    }
    for (int i = 0; i < c.netns_n; ++i) {
      (void)netlink::delete_netns("ipns" + std::to_string(i));
      (void)netlink::delete_netns("briskns" + std::to_string(i));
    }
    ip.us_per_op = median(ip_us_all);  // medians, like the other rows: one slow
    brisk.us_per_op = median(brisk_us_all);  // kernel cleanup must not skew the figure
    ip.ratio_to_brisk = median(ratios);
    brisk.ratio_to_brisk = 1;
    report.rows.push_back(ip);
    report.rows.push_back(brisk);
  }).join();
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace

LinkBenchReport run_link_bench(const LinkBenchConfig& config) {
  if (config.n <= 0 || config.bucket <= 0 || config.ip_n < 0 || config.delete_n < 0 || config.netns_n < 0)
    throw std::runtime_error("counts must be positive");
  LinkBenchReport report{.config = config};
  char dir[] = "/tmp/brisk-bench-link-XXXXXX";
  if (!::mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      ::unlink((dir + "/batch.txt").c_str());
      ::rmdir(dir.c_str());
    }
  } cleanup{dir};
  // Every namespace lives until the run ends: tearing one down deletes its
  // devices in the background, which would slow whatever runs next.
  std::vector<Method> methods;
  methods.push_back(brisk_method(config));
  methods.push_back(raw_method(config));
  methods.push_back(ip_batch_method(config, dir));
  if (config.ip_n > 0) methods.push_back(ip_method(config));

  // Each phase is split into rounds of `bucket` brisk ops; in every round
  // each method does its share, in an order that rotates between rounds, so
  // a noisy neighbour slows every method of a round alike.
  int rounds = (config.n + config.bucket - 1) / config.bucket;
  for (Phase phase : kPhases) {
    // Work the kernel deferred from the last phase (linkwatch bringing the
    // devices' carriers and qdiscs up, under rtnl_lock) must not land on this one.
    std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
    // Per method and round; -1 where a method had no ops in a round (ip, deletes).
    std::vector<std::vector<double>> round_us(methods.size(), std::vector<double>(rounds, -1));
    std::vector<int> failures(methods.size(), 0);
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < methods.size(); ++k) {
        std::size_t which = (k + static_cast<std::size_t>(r)) % methods.size();
        Method& m = methods[which];
        int total = m.count(phase);
        int begin = static_cast<int>(static_cast<long>(total) * r / rounds);
        int end = static_cast<int>(static_cast<long>(total) * (r + 1) / rounds);
        if (end <= begin) continue;
        auto start = Clock::now();
        failures[which] += m.run(phase, begin, end);
        round_us[which][r] = us_since(start) / (end - begin);
      }
    }
    for (std::size_t k = 0; k < methods.size(); ++k) {
      std::vector<double> timed, ratios;
      for (int r = 0; r < rounds; ++r) {
        if (round_us[k][r] < 0) continue;
        timed.push_back(round_us[k][r]);
        if (round_us[0][r] > 0) ratios.push_back(round_us[k][r] / round_us[0][r]);  // methods[0] is brisk
      }
      LinkBenchRow row{.phase = phase_name(phase), .method = methods[k].name, .count = methods[k].count(phase),
                       .us_per_op = median(timed), .ratio_to_brisk = median(ratios), .failures = failures[k]};
      report.rows.push_back(row);
      if (phase == Phase::veth_add && methods[k].name == "brisk") report.brisk_add_buckets_us = timed;
      if (phase == Phase::veth_add && methods[k].name == "raw") report.raw_add_buckets_us = timed;
    }
  }
  // Still holding the namespaces: closing them now would start the
  // background teardown of every device while namespaces are being timed.
  if (config.netns_n > 0) bench_netns(report, config);
  return report;
}

std::string format_table(const LinkBenchReport& report) {
  std::string out = fmt::format("{:<10} {:<9} {:>7} {:>12} {:>10} {:>9}\n", "phase", "method", "ops", "µs/op",
                                "vs brisk", "failures");
  for (const auto& row : report.rows) {
    out += fmt::format("{:<10} {:<9} {:>7} {:>12.1f} {:>9.2f}x {:>9}\n", row.phase, row.method, row.count,
                       row.us_per_op, row.ratio_to_brisk, row.failures);
  }
  out += fmt::format("\nveth add per bucket of {} (µs/op):\n", report.config.bucket);
  for (std::size_t i = 0; i < report.brisk_add_buckets_us.size(); ++i) {
    double raw = i < report.raw_add_buckets_us.size() ? report.raw_add_buckets_us[i] : 0;
    out += fmt::format("  {:>6}..{:<6} raw {:>8.1f}  brisk {:>8.1f}  brisk/raw {:.2f}\n", i * report.config.bucket,
                       (i + 1) * report.config.bucket, raw, report.brisk_add_buckets_us[i],
                       raw > 0 ? report.brisk_add_buckets_us[i] / raw : 0.0);
  }
  return out;
}

nlohmann::json to_json(const LinkBenchReport& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : report.rows)
    rows.push_back({{"phase", row.phase}, {"method", row.method}, {"count", row.count},
                    {"us_per_op", row.us_per_op}, {"ratio_to_brisk", row.ratio_to_brisk}, {"failures", row.failures}});
  return {{"config",
           {{"n", report.config.n}, {"bucket", report.config.bucket}, {"ip_n", report.config.ip_n},
            {"delete_n", report.config.delete_n}, {"netns_n", report.config.netns_n}}},
          {"rows", rows},
          {"veth_add_buckets_us", {{"raw", report.raw_add_buckets_us}, {"brisk", report.brisk_add_buckets_us}}}};
}

}  // namespace brisk::bench
