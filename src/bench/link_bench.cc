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

// --- one timed phase ---

struct Timer {
  LinkBenchReport& report;
  void add(const std::string& phase, const std::string& method, int count, double total_us, int failures) {
    report.rows.push_back({phase, method, count, count ? total_us / count : 0, failures});
  }
};

UniqueFd bench_ip(Timer& t, const LinkBenchConfig& c) {
  UniqueFd ns = fresh_netns();
  int n = c.ip_n;
  auto phase = [&](const char* name, const std::function<std::vector<std::string>(int)>& args) {
    int failures = 0;
    auto start = Clock::now();
    for (int i = 0; i < n; ++i) failures += !run_ip(ns.get(), args(i));
    t.add(name, "ip", n, us_since(start), failures);
  };
  phase("veth add", [](int i) { return std::vector<std::string>{"link", "add", veth(i), "type", "veth", "peer", "name", peer(i)}; });
  phase("set up", [](int i) { return std::vector<std::string>{"link", "set", veth(i), "up"}; });
  phase("addr add", [](int i) { return std::vector<std::string>{"addr", "add", addr(i), "dev", veth(i)}; });
  phase("delete", [](int i) { return std::vector<std::string>{"link", "del", veth(i)}; });
  return ns;
}

UniqueFd bench_ip_batch(Timer& t, const LinkBenchConfig& c, const std::string& dir) {
  UniqueFd ns = fresh_netns();
  auto phase = [&](const char* name, int n, const std::function<std::string(int)>& line) {
    std::string path = dir + "/batch.txt";
    {
      std::ofstream file(path);
      for (int i = 0; i < n; ++i) file << line(i) << "\n";
    }
    auto start = Clock::now();
    bool ok = run_ip(ns.get(), {"-batch", path});
    t.add(name, "ip-batch", n, us_since(start), ok ? 0 : 1);
  };
  phase("veth add", c.n, [](int i) { return "link add " + veth(i) + " type veth peer name " + peer(i); });
  phase("set up", c.n, [](int i) { return "link set " + veth(i) + " up"; });
  phase("addr add", c.n, [](int i) { return "addr add " + addr(i) + " dev " + veth(i); });
  phase("delete", std::min(c.delete_n, c.n), [](int i) { return "link del " + veth(i); });
  return ns;
}

UniqueFd bench_raw(Timer& t, LinkBenchReport& report, const LinkBenchConfig& c) {
  UniqueFd ns = fresh_netns();
  RawNetlink nl(ns.get());
  int failures = 0;
  double total = 0;
  for (int start = 0; start < c.n; start += c.bucket) {
    int end = std::min(c.n, start + c.bucket);
    auto begin = Clock::now();
    for (int i = start; i < end; ++i) failures += raw_veth_add(nl, i) != 0;
    double us = us_since(begin);
    total += us;
    report.raw_add_buckets_us.push_back(us / (end - start));
  }
  t.add("veth add", "raw", c.n, total, failures);
  failures = 0;
  auto begin = Clock::now();
  for (int i = 0; i < c.n; ++i) failures += raw_set_up(nl, i) != 0;
  t.add("set up", "raw", c.n, us_since(begin), failures);
  // addr add needs the ifindex: one GETLINK per device, timed, as ip does.
  failures = 0;
  begin = Clock::now();
  for (int i = 0; i < c.n; ++i) failures += raw_addr_add(nl, i, raw_ifindex(nl, i)) != 0;
  t.add("addr add", "raw", c.n, us_since(begin), failures);
  int dn = std::min(c.delete_n, c.n);
  failures = 0;
  begin = Clock::now();
  for (int i = 0; i < dn; ++i) failures += raw_delete(nl, i) != 0;
  t.add("delete", "raw", dn, us_since(begin), failures);
  return ns;
}

UniqueFd bench_brisk(Timer& t, LinkBenchReport& report, const LinkBenchConfig& c) {
  UniqueFd ns = fresh_netns();
  auto conn = netlink::Connection::open_in(ns.get()).value();
  auto count_failures = [](const std::vector<netlink::NlResult<void>>& results) {
    int failures = 0;
    for (const auto& r : results) failures += !r;
    return failures;
  };
  int failures = 0;
  double total = 0;
  for (int start = 0; start < c.n; start += c.bucket) {
    int end = std::min(c.n, start + c.bucket);
    auto begin = Clock::now();
    netlink::Batch batch(conn);
    for (int i = start; i < end; ++i) batch.add_link({.name = veth(i), .kind = netlink::VethOptions{.peer = peer(i)}});
    failures += count_failures(batch.flush());
    double us = us_since(begin);
    total += us;
    report.brisk_add_buckets_us.push_back(us / (end - start));
  }
  t.add("veth add", "brisk", c.n, total, failures);
  auto begin = Clock::now();
  {
    netlink::Batch batch(conn);
    for (int i = 0; i < c.n; ++i) batch.set_link({.name = veth(i), .up = true});
    failures = count_failures(batch.flush());
  }
  t.add("set up", "brisk", c.n, us_since(begin), failures);
  begin = Clock::now();
  {
    netlink::Batch batch(conn);
    for (int i = 0; i < c.n; ++i) batch.add_address({.dev = veth(i), .prefix = addr(i)});
    failures = count_failures(batch.flush());
  }
  t.add("addr add", "brisk", c.n, us_since(begin), failures);
  begin = Clock::now();
  {
    netlink::Batch batch(conn);
    for (int i = 0; i < c.n; ++i) batch.delete_link(veth(i));
    failures = count_failures(batch.flush());
  }
  t.add("delete", "brisk", c.n, us_since(begin), failures);
  return ns;
}

// Namespace creation, inside a private mount namespace with a tmpfs /run.
void bench_netns(Timer& t, const LinkBenchConfig& c) {
  std::string error;
  std::thread([&] {
    if (::unshare(CLONE_NEWNS) != 0 || ::mount("", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") != 0) {
      error = "cannot make a private /run for the namespace benchmark";
      return;
    }
    int failures = 0;
    auto begin = Clock::now();
    for (int i = 0; i < c.netns_n; ++i) failures += !run_ip(-1, {"netns", "add", "ipns" + std::to_string(i)});
    t.add("netns add", "ip", c.netns_n, us_since(begin), failures);
    failures = 0;
    begin = Clock::now();
    for (int i = 0; i < c.netns_n; ++i) failures += !netlink::create_netns("briskns" + std::to_string(i));
    t.add("netns add", "brisk", c.netns_n, us_since(begin), failures);
    for (int i = 0; i < c.netns_n; ++i) {
      (void)netlink::delete_netns("ipns" + std::to_string(i));
      (void)netlink::delete_netns("briskns" + std::to_string(i));
    }
  }).join();
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace

LinkBenchReport run_link_bench(const LinkBenchConfig& config) {
  if (config.n <= 0 || config.bucket <= 0 || config.ip_n < 0 || config.delete_n < 0 || config.netns_n < 0)
    throw std::runtime_error("counts must be positive");
  LinkBenchReport report{.config = config};
  Timer timer{report};
  char dir[] = "/tmp/brisk-bench-link-XXXXXX";
  if (!::mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
  // Namespaces stay alive until the end: tearing one down deletes its
  // devices in the background, which would slow the next method down.
  std::vector<UniqueFd> keep;
  try {
    keep.push_back(bench_raw(timer, report, config));
    keep.push_back(bench_brisk(timer, report, config));
    keep.push_back(bench_ip_batch(timer, config, dir));
    if (config.ip_n > 0) keep.push_back(bench_ip(timer, config));
    if (config.netns_n > 0) bench_netns(timer, config);
  } catch (...) {
    ::unlink((std::string(dir) + "/batch.txt").c_str());
    ::rmdir(dir);
    throw;
  }
  ::unlink((std::string(dir) + "/batch.txt").c_str());
  ::rmdir(dir);
  return report;
}

std::string format_table(const LinkBenchReport& report) {
  std::string out = fmt::format("{:<10} {:<9} {:>7} {:>12} {:>10} {:>9}\n", "phase", "method", "ops", "µs/op",
                                "vs brisk", "failures");
  for (const auto& row : report.rows) {
    double brisk = 0;
    for (const auto& other : report.rows)
      if (other.phase == row.phase && other.method == "brisk") brisk = other.us_per_op;
    out += fmt::format("{:<10} {:<9} {:>7} {:>12.1f} {:>9.2f}x {:>9}\n", row.phase, row.method, row.count,
                       row.us_per_op, brisk > 0 ? row.us_per_op / brisk : 0.0, row.failures);
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
                    {"us_per_op", row.us_per_op}, {"failures", row.failures}});
  return {{"config",
           {{"n", report.config.n}, {"bucket", report.config.bucket}, {"ip_n", report.config.ip_n},
            {"delete_n", report.config.delete_n}, {"netns_n", report.config.netns_n}}},
          {"rows", rows},
          {"veth_add_buckets_us", {{"raw", report.raw_add_buckets_us}, {"brisk", report.brisk_add_buckets_us}}}};
}

}  // namespace brisk::bench
