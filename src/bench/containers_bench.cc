#include "bench/containers_bench.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bench/containers_method.h"
#include "bench/net_helpers.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "sandbox/net_sandbox.h"

namespace brisk::bench {
namespace {

using containers::Method;
using containers::Setup;

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

// VmRSS of this process, in kB (0 when /proc cannot say).
long rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
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
  run.result.buckets.push_back({.index = r,
                                .first = begin,
                                .containers = end - begin,
                                .containers_before = run.made,
                                .us_per_container = us / (end - begin),
                                .rss_kb = rss_kb()});
  run.made = end;
}

// The whole setup in one call (Method::make_all), as a container manager
// makes its fleet; a bucket ends at the first round end that reaches it.
void make_all_rounds(Run& run, const ContainersBenchConfig& c) {
  Setup s;
  double cpu = 0;
  Clock::time_point start;
  run.method->on_thread([&] {
    double cpu_start = cpu_seconds();
    start = Clock::now();
    Clock::time_point bucket_start = start;
    auto at_round = [&](int done) {
      if (done < std::min(c.n, run.made + c.bucket)) return;
      double us = us_since(bucket_start);
      int index = static_cast<int>(run.result.buckets.size());
      run.result.buckets.push_back({.index = index,
                                    .first = run.made,
                                    .containers = done - run.made,
                                    .containers_before = run.made,
                                    .us_per_container = us / (done - run.made),
                                    .rss_kb = rss_kb()});
      run.made = done;
      bucket_start = Clock::now();
    };
    s = run.method->make_all(c.n, at_round);
    cpu = cpu_seconds() - cpu_start;
  });
  run.result.total_s = us_since(start) / 1e6;
  run.result.cpu_s = cpu;
  run.result.failures += s.failures;
  run.result.processes += s.processes;
  if (run.made != c.n) ++run.result.failures;  // a stop before the end (cannot happen without stop_on_error)
}

void finish(Run& run, const ContainersBenchConfig& c, int background) {
  auto& res = run.result;
  res.teardown_background = background;
  res.method = run.method->name();
  res.containers = c.n;
  res.containers_per_s = res.total_s > 0 ? c.n / res.total_s : 0;
  res.us_per_container = res.total_s * 1e6 / c.n;
  if (res.buckets.size() > 1 && res.buckets.front().us_per_container > 0)
    res.growth = res.buckets.back().us_per_container / res.buckets.front().us_per_container;
  run.method->on_thread([&] {
    if (c.before_verify) c.before_verify(res.method, run.method->netns(0));
    res.verified = run.method->verify(c.n);
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
  auto make = c.shape == ContainersShape::phys ? containers::make_phys_method : containers::make_veth_method;
  runs.push_back({make("brisk", c)});
  for (const char* name : {"floor", "brisk-1core", "ip-batch", "ip"})
    if (wanted(c, name)) runs.push_back({make(name, c)});
  for (auto& run : runs) run.method->on_thread([&] { run.method->prepare(c.n); });
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
      for (std::size_t k = 0; k < runs.size(); ++k)
        make_round(runs[(k + static_cast<std::size_t>(r)) % runs.size()], r, c);
      tell(fmt::format("round {}/{} done", r + 1, rounds));
    }
    int alive = static_cast<int>(runs.size()) * c.n;
    for (auto& run : runs) {
      alive -= c.n;
      finish(run, c, alive);
      tell(run.result.method + " torn down");
    }
  } else {
    for (auto& run : runs) {
      std::this_thread::sleep_for(std::chrono::milliseconds(c.settle_ms));
      if (run.method->makes_all()) {
        make_all_rounds(run, c);
        tell(run.method->name() + " made its containers in one call");
      }
      for (int r = 0; r < rounds && !run.method->makes_all(); ++r) {
        make_round(run, r, c);
        tell(fmt::format("{} round {}/{} done", run.method->name(), r + 1, rounds));
      }
      finish(run, c, 0);
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
  if (config.n > (1 << 22))
    throw std::runtime_error("at most 4194304 containers (their /31s fill 10.0.0.0/8)");
  for (const auto& m : config.methods)
    if (m != "ip" && m != "ip-batch" && m != "brisk" && m != "brisk-1core" && m != "floor")
      throw std::runtime_error("unknown method " + m);
  if (config.brisk_round < 0) throw std::runtime_error("--brisk-round must not be negative");
  ContainersBenchReport report{.config = config};
  report.notes.push_back("load average before the run: " + load_average() + " (other work on the machine)");
  sandbox::run_in_net_sandbox([&] { run_in_sandbox(config, report); });
  report.notes.push_back(
      report.interleaved
          ? "the methods took turns round by round, in rotating order"
          : "the methods ran one after another (not enough memory for all at once, or "
            "--schedule sequential); brisk's made their containers in one setup_netns_many call");
  if (config.shape == ContainersShape::veth)
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
  std::string out = fmt::format("growth, last bucket / first bucket: brisk {:.2f}x, floor {:.2f}x",
                                brisk->growth, floor->growth);
  if (!report.floor_share_of_growth)
    out += ": brisk did not grow";
  else if (floor->growth <= 1)
    out += ": the floor did not grow, so none of brisk's growth is the kernel's here";
  else
    out += fmt::format(": the floor (the kernel alone) shows {:.0f}% of brisk's growth",
                       *report.floor_share_of_growth * 100);
  return out + "\n";
}

const char* verdict(bool met) { return met ? "met" : "MISSED"; }

// brisk's resident memory once `containers` were made (the first round that
// reached it), and at the end; 0 when it did not run that far.
std::pair<long, long> brisk_rss(const ContainersMethodResult& brisk, int containers) {
  long at = 0;
  for (const auto& b : brisk.buckets)
    if (at == 0 && b.containers_before + b.containers >= containers) at = b.rss_kb;
  return {at, brisk.buckets.empty() ? 0 : brisk.buckets.back().rss_kb};
}

// The targets of issue 18, each with the figures it is judged on.
std::string targets_lines(const ContainersBenchReport& report) {
  const auto* brisk = find_method(report, "brisk");
  const auto* floor = find_method(report, "floor");
  const auto* one_core = find_method(report, "brisk-1core");
  std::string out = "\ntargets\n";
  if (floor && brisk->total_s > 0) {
    double speedup = floor->total_s / brisk->total_s;
    out += fmt::format("  setup vs the one-thread floor: brisk {:.2f}x faster (target >= 1.2x: {})", speedup,
                       verdict(speedup >= 1.2));
    if (one_core && one_core->total_s > 0)
      out += fmt::format("; brisk-1core {:.2f}x, so the second core gives {:.2f}x",
                         floor->total_s / one_core->total_s, one_core->total_s / brisk->total_s);
    out += "\n";
  }
  for (const auto& m : report.methods) {
    double target = m.method == "ip" ? 20 : m.method == "ip-batch" ? 5 : 0;
    if (target > 0)
      out += fmt::format("  vs {:<9} {:>6.1f}x faster (target >= {:.0f}x: {}); cpu {:.1f}x\n", m.method,
                         m.ratio_to_brisk, target, verdict(m.ratio_to_brisk >= target),
                         brisk->cpu_s > 0 ? m.cpu_s / brisk->cpu_s : 0.0);
  }
  if (floor && brisk->buckets.size() == floor->buckets.size()) {
    double worst = 0;
    for (std::size_t b = 0; b < brisk->buckets.size(); ++b)
      if (floor->buckets[b].us_per_container > 0)
        worst = std::max(worst, brisk->buckets[b].us_per_container / floor->buckets[b].us_per_container);
    out += fmt::format("  brisk / floor, worst bucket {:.2f}x (target <= 1.1x: {})\n", worst,
                       verdict(worst <= 1.1));
  }
  const auto* ipb = find_method(report, "ip-batch");
  for (const auto* other : {floor, ipb}) {
    if (!other) continue;
    bool strict = other == ipb;  // faster than ip -batch; at most the floor
    if (other->teardown_background != brisk->teardown_background) {
      out += fmt::format(
          "  teardown vs {}: not comparable in this run ({} and {} other containers alive; "
          "--schedule sequential makes them equal)\n",
          other->method, brisk->teardown_background, other->teardown_background);
      continue;
    }
    bool met = strict ? brisk->teardown_settled_s < other->teardown_settled_s
                      : brisk->teardown_settled_s <= other->teardown_settled_s;
    out += fmt::format("  teardown until settled: brisk {:.0f} µs/container, {} {:.0f} (target {} {}: {})\n",
                       brisk->teardown_settled_s * 1e6 / brisk->containers, other->method,
                       other->teardown_settled_s * 1e6 / other->containers,
                       strict ? "<" : "<=", other->method, verdict(met));
  }
  auto [at_500, at_end] = brisk_rss(*brisk, 500);
  if (at_500 > 0 && report.config.n > 500)
    out +=
        fmt::format("  RSS: {:.1f} MiB at 500 containers, {:.1f} MiB at {}: {:.2f}x (target <= 1.2x: {})\n",
                    at_500 / 1024.0, at_end / 1024.0, report.config.n, static_cast<double>(at_end) / at_500,
                    verdict(at_end <= 1.2 * at_500));
  return out;
}

}  // namespace

std::string format_table(const ContainersBenchReport& report) {
  const auto& c = report.config;
  std::string out =
      c.shape == ContainersShape::phys
          ? fmt::format(
                "brisk bench containers --shape phys: {} containers per method, 2 host interfaces moved into "
                "each ({} made beforehand)\n\n",
                c.n, 2 * c.n)
          : fmt::format(
                "brisk bench containers: {} containers per method, {} bridge(s) of up to {} ports\n\n", c.n,
                (c.n + c.bridge_ports - 1) / c.bridge_ports, c.bridge_ports);
  out += fmt::format("{:<11} {:>8} {:>12} {:>13} {:>9} {:>10} {:>10} {:>11} {:>10} {:>9} {:>9}\n", "method",
                     "total s", "containers/s", "µs/container", "vs brisk", "cpu µs/ct", "processes",
                     "teardown s", "settled s", "failures", "verified");
  for (const auto& m : report.methods)
    out += fmt::format(
        "{:<11} {:>8.2f} {:>12.1f} {:>13.0f} {:>8.1f}x {:>10.0f} {:>10} {:>11.2f} {:>10.2f} {:>9} {:>9}\n",
        m.method, m.total_s, m.containers_per_s, m.us_per_container, m.ratio_to_brisk,
        m.cpu_s * 1e6 / m.containers, m.processes, m.teardown_s, m.teardown_settled_s, m.failures,
        m.verified ? "yes" : "NO");
  out += fmt::format(
      "\nµs per container, per bucket of {} (flat means no slowdown as containers accumulate)\n{:>8}",
      c.bucket, "before");
  for (const auto& m : report.methods) out += fmt::format(" {:>11}", m.method);
  out += "\n";
  for (std::size_t b = 0; b < report.methods[0].buckets.size(); ++b) {
    out += fmt::format("{:>8}", report.methods[0].buckets[b].containers_before);
    for (const auto& m : report.methods)
      out += b < m.buckets.size() ? fmt::format(" {:>11.0f}", m.buckets[b].us_per_container)
                                  : fmt::format(" {:>11}", "-");
    out += "\n";
  }
  out += growth_line(report);
  out += targets_lines(report);
  for (const auto& note : report.notes) out += "note: " + note + "\n";
  return out;
}

nlohmann::json to_json(const ContainersBenchReport& report) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : report.methods) {
    nlohmann::json buckets = nlohmann::json::array();
    for (const auto& b : m.buckets)
      buckets.push_back({{"index", b.index},
                         {"first", b.first},
                         {"containers", b.containers},
                         {"containers_before", b.containers_before},
                         {"us_per_container", b.us_per_container},
                         {"rss_kb", b.rss_kb}});
    methods.push_back({{"method", m.method},
                       {"containers", m.containers},
                       {"processes", m.processes},
                       {"total_s", m.total_s},
                       {"containers_per_s", m.containers_per_s},
                       {"us_per_container", m.us_per_container},
                       {"ratio_to_brisk", m.ratio_to_brisk},
                       {"cpu_s", m.cpu_s},
                       {"teardown_s", m.teardown_s},
                       {"teardown_settled_s", m.teardown_settled_s},
                       {"teardown_background", m.teardown_background},
                       {"failures", m.failures},
                       {"verified", m.verified},
                       {"growth", m.growth},
                       {"buckets", buckets}});
  }
  const auto& c = report.config;
  return {
      {"bench", "containers"},
      {"units",
       {{"total_s", "seconds"},
        {"containers_per_s", "containers per second"},
        {"us_per_container", "microseconds per container"},
        {"teardown_s", "seconds"},
        {"teardown_settled_s", "seconds"},
        {"cpu_s", "seconds of CPU"},
        {"rss_kb", "KiB resident"},
        {"ratio_to_brisk", "method time / brisk time"},
        {"growth", "last bucket's us_per_container / the first's"},
        {"floor_share_of_growth", "(floor growth - 1) / (brisk growth - 1)"}}},
      {"config",
       {{"n", c.n},
        {"shape", c.shape == ContainersShape::phys ? "phys" : "veth"},
        {"bucket", c.bucket},
        {"bridge_ports", c.bridge_ports},
        {"bridges_up", c.bridges_up},
        {"settle_ms", c.settle_ms},
        {"brisk_round", c.brisk_round}}},
      {"interleaved", report.interleaved},
      {"methods", methods},
      {"floor_share_of_growth", report.floor_share_of_growth ? nlohmann::json(*report.floor_share_of_growth)
                                                             : nlohmann::json(nullptr)},
      {"notes", report.notes}};
}

std::string to_csv(const ContainersBenchReport& report) {
  std::string out = "method,kind,bucket,first,containers,containers_before,us_per_container,rss_kb\n";
  for (const auto& m : report.methods) {
    for (const auto& b : m.buckets)
      out += fmt::format("{},setup,{},{},{},{},{:.1f},{}\n", m.method, b.index, b.first, b.containers,
                         b.containers_before, b.us_per_container, b.rss_kb);
    out += fmt::format("{},teardown,,0,{},{},{:.1f},\n", m.method, m.containers, m.containers,
                       m.teardown_s * 1e6 / m.containers);
    out += fmt::format("{},teardown_settled,,0,{},{},{:.1f},\n", m.method, m.containers, m.containers,
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
