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

// The pause before a method's setup or teardown: settle_ms, then until the
// CPUs are quiet (at most quiet_ms), so that the kernel's cleanup of what
// ran before is not charged to what runs next: without it, sequential runs
// at 1,000 put brisk's CPU at 1.19x the floor's [1.06-1.36]; with it,
// 1.15x [1.11-1.33], and brisk / brisk-1core (the same code on 2 CPUs)
// 0.99x. Tests pass settle_ms 0: no pause at all.
void settle(const ContainersBenchConfig& c) {
  if (c.settle_ms <= 0) return;
  std::this_thread::sleep_for(std::chrono::milliseconds(c.settle_ms));
  wait_until_quiet(std::chrono::milliseconds(std::max(0, c.quiet_ms)));
}

struct Run {
  std::unique_ptr<Method> method;
  ContainersMethodResult result{};
  int made = 0;
};

// What this process and its waited-for children have used so far.
struct Usage {
  double cpu_s = 0;   // user + system
  double user_s = 0;  // user alone
  long switches = 0;  // context switches, voluntary and involuntary (this process's)

  static Usage now() {
    Usage total;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
      rusage u{};
      ::getrusage(who, &u);
      double user = static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6;
      double sys = static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6;
      total.cpu_s += user + sys;
      total.user_s += user;
      if (who == RUSAGE_SELF) total.switches = u.ru_nvcsw + u.ru_nivcsw;
    }
    return total;
  }
  Usage operator-(const Usage& o) const {
    return {cpu_s - o.cpu_s, user_s - o.user_s, switches - o.switches};
  }
};

void add_usage(ContainersMethodResult& res, const Usage& used) {
  res.cpu_s += used.cpu_s;
  res.cpu_user_s += used.user_s;
  res.context_switches += used.switches;
}

void make_round(Run& run, int r, const ContainersBenchConfig& c) {
  int begin = r * c.bucket, end = std::min(c.n, (r + 1) * c.bucket);
  Setup s;
  double us = 0;
  Usage used;
  run.method->on_thread([&] {
    Usage before = Usage::now();
    auto start = Clock::now();
    s = run.method->make(begin, end);
    us = us_since(start);
    used = Usage::now() - before;
  });
  add_usage(run.result, used);
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
  Usage used;
  Clock::time_point start;
  run.method->on_thread([&] {
    Usage before = Usage::now();
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
    used = Usage::now() - before;
  });
  run.result.total_s = us_since(start) / 1e6;
  add_usage(run.result, used);
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
  settle(c);
  Clock::time_point start;
  run.method->on_thread([&] {
    start = Clock::now();
    res.failures += run.method->teardown(c.n);
    res.teardown_s = us_since(start) / 1e6;
  });
  if (!wait_host_ends_gone(*run.method)) ++res.failures;
  res.teardown_settled_s = us_since(start) / 1e6;
}

// One run of every method, in a sandbox of its own; rep rotates the order
// in which they go, so no method is always first (on a fresh machine) or
// last (behind the others' kernel cleanup). Returns whether they were
// interleaved; results come in the canonical order: brisk, floor,
// brisk-1core, brisk-2core, ip-batch, ip.
bool run_in_sandbox(const ContainersBenchConfig& c, int rep, std::vector<ContainersMethodResult>& results) {
  std::vector<Run> runs;
  auto make = c.shape == ContainersShape::phys ? containers::make_phys_method : containers::make_veth_method;
  runs.push_back({make("brisk", c)});
  for (const char* name : {"floor", "brisk-1core", "brisk-2core", "ip-batch", "ip"})
    if (wanted(c, name)) runs.push_back({make(name, c)});
  for (auto& run : runs) run.method->on_thread([&] { run.method->prepare(c.n); });
  // A namespace with a veth pair costs ~1 MB of kernel memory; every
  // method's containers exist at once when interleaved.
  long need_kb = static_cast<long>(runs.size()) * c.n * 1100;
  bool interleaved = c.schedule == ContainersSchedule::interleaved ||
                     (c.schedule == ContainersSchedule::automatic && need_kb < mem_available_kb() / 2);
  int rounds = (c.n + c.bucket - 1) / c.bucket;
  std::string run_label = c.repeat > 1 ? fmt::format("run {}/{}: ", rep + 1, c.repeat) : "";
  auto tell = [&](const std::string& line) {
    if (c.progress) c.progress("containers: " + run_label + line);
  };
  auto nth = [&](std::size_t k, std::size_t offset) -> Run& { return runs[(k + offset) % runs.size()]; };
  const auto first = static_cast<std::size_t>(rep);
  if (interleaved) {
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < runs.size(); ++k)
        make_round(nth(k, first + static_cast<std::size_t>(r)), r, c);
      tell(fmt::format("round {}/{} done", r + 1, rounds));
    }
    int alive = static_cast<int>(runs.size()) * c.n;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      alive -= c.n;
      finish(nth(k, first), c, alive);
      tell(nth(k, first).result.method + " torn down");
    }
  } else {
    for (std::size_t k = 0; k < runs.size(); ++k) {
      Run& run = nth(k, first);
      settle(c);
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
    results.push_back(std::move(run.result));
  }
  return interleaved;
}

const ContainersMethodResult* find_in(const std::vector<ContainersMethodResult>& results,
                                      const std::string& name) {
  for (const auto& m : results)
    if (m.method == name) return &m;
  return nullptr;
}

// brisk's worst bucket against the floor's same bucket (0 when they differ in buckets).
double worst_bucket_ratio(const ContainersMethodResult& brisk, const ContainersMethodResult& floor) {
  if (brisk.buckets.size() != floor.buckets.size()) return 0;
  double worst = 0;
  for (std::size_t b = 0; b < brisk.buckets.size(); ++b)
    if (floor.buckets[b].us_per_container > 0)
      worst = std::max(worst, brisk.buckets[b].us_per_container / floor.buckets[b].us_per_container);
  return worst;
}

// Each ratio the targets are judged on, one value per run: numerator and
// denominator were measured in the same run, side by side.
std::vector<Spread> run_ratios(const std::vector<std::vector<ContainersMethodResult>>& runs) {
  // brisk's figure over the other's; or, inverted, the other's over brisk's (a speed-up).
  using Figure = double (*)(const ContainersMethodResult&);
  constexpr Figure setup = [](const ContainersMethodResult& m) { return m.total_s; };
  constexpr Figure cpu = [](const ContainersMethodResult& m) { return m.cpu_s; };
  constexpr Figure settled = [](const ContainersMethodResult& m) { return m.teardown_settled_s; };
  struct Ratio {
    const char* name;
    const char* other;
    Figure figure;  // nullptr: the worst bucket
    bool inverted = false;
  };
  static const Ratio kRatios[] = {
      {"setup brisk / floor", "floor", setup},
      {"worst bucket brisk / floor", "floor", nullptr},
      {"cpu brisk / floor", "floor", cpu},
      {"teardown settled brisk / floor", "floor", settled},
      {"setup brisk / brisk-1core", "brisk-1core", setup},
      {"cpu brisk / brisk-1core", "brisk-1core", cpu},
      {"setup brisk / brisk-2core", "brisk-2core", setup},
      {"cpu brisk / brisk-2core", "brisk-2core", cpu},
      {"teardown settled brisk / ip-batch", "ip-batch", settled},
      {"setup ip-batch / brisk", "ip-batch", setup, true},
      {"setup ip / brisk", "ip", setup, true},
  };
  auto value = [](const Ratio& r, const ContainersMethodResult& b, const ContainersMethodResult& o) {
    if (!r.figure) return worst_bucket_ratio(b, o);
    return r.inverted ? r.figure(o) / r.figure(b) : r.figure(b) / r.figure(o);
  };
  std::vector<Spread> out;
  for (const auto& ratio : kRatios) {
    std::vector<double> values;
    for (const auto& run : runs) {
      const auto* brisk = find_in(run, "brisk");
      const auto* other = find_in(run, ratio.other);
      if (brisk && other) values.push_back(value(ratio, *brisk, *other));
    }
    if (!values.empty()) out.push_back(spread(ratio.name, std::move(values)));
  }
  return out;
}

// One method's figures over the runs: medians, summed failures, verified
// only when every run was.
ContainersMethodResult median_of(const std::vector<std::vector<ContainersMethodResult>>& runs,
                                 std::size_t m) {
  ContainersMethodResult out = runs.front()[m];
  auto med = [&](auto field) {
    std::vector<double> values;
    for (const auto& run : runs) values.push_back(static_cast<double>(field(run[m])));
    return median(std::move(values));
  };
  out.total_s = med([](const auto& r) { return r.total_s; });
  out.containers_per_s = out.total_s > 0 ? out.containers / out.total_s : 0;
  out.us_per_container = out.total_s * 1e6 / std::max(1, out.containers);
  out.ratio_to_brisk = med([](const auto& r) { return r.ratio_to_brisk; });
  out.cpu_s = med([](const auto& r) { return r.cpu_s; });
  out.cpu_user_s = med([](const auto& r) { return r.cpu_user_s; });
  out.context_switches = static_cast<long>(med([](const auto& r) { return r.context_switches; }));
  out.teardown_s = med([](const auto& r) { return r.teardown_s; });
  out.teardown_settled_s = med([](const auto& r) { return r.teardown_settled_s; });
  out.growth = med([](const auto& r) { return r.growth; });
  out.failures = 0;
  out.verified = true;
  for (const auto& run : runs) {
    out.failures += run[m].failures;
    out.verified = out.verified && run[m].verified;
  }
  for (std::size_t b = 0; b < out.buckets.size(); ++b) {
    std::vector<double> us;
    for (const auto& run : runs)
      if (b < run[m].buckets.size()) us.push_back(run[m].buckets[b].us_per_container);
    out.buckets[b].us_per_container = median(std::move(us));
  }
  return out;
}

void summarize(ContainersBenchReport& report) {
  for (std::size_t m = 0; m < report.runs.front().size(); ++m)
    report.methods.push_back(median_of(report.runs, m));
  report.ratios = run_ratios(report.runs);
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
    if (m != "ip" && m != "ip-batch" && m != "brisk" && m != "brisk-1core" && m != "brisk-2core" &&
        m != "floor")
      throw std::runtime_error("unknown method " + m);
  if (config.brisk_round < 0) throw std::runtime_error("--brisk-round must not be negative");
  if (config.repeat < 1) throw std::runtime_error("--repeat takes at least 1 run");
  ContainersBenchReport report{.config = config};
  report.notes.push_back("load average before the run: " + load_average() + " (other work on the machine)");
  for (int rep = 0; rep < config.repeat; ++rep) {
    // The last run's kernel cleanup (namespaces die asynchronously) is not the next one's cost.
    if (rep > 0) settle(config);
    std::vector<ContainersMethodResult> results;
    sandbox::run_in_net_sandbox([&] { report.interleaved = run_in_sandbox(config, rep, results); });
    report.runs.push_back(std::move(results));
  }
  summarize(report);
  if (config.repeat > 1)
    report.notes.push_back(fmt::format(
        "{} runs, the methods' order rotated each time; figures are medians, ratios median [min-max]",
        config.repeat));
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

const Spread* find_ratio(const ContainersBenchReport& report, const std::string& name) {
  for (const auto& r : report.ratios)
    if (r.name == name) return &r;
  return nullptr;
}

// "1.02x [0.97-1.10]", or "1.02x" from one run.
std::string spread_text(const Spread& r) {
  if (r.values.size() < 2) return fmt::format("{:.2f}x", r.median);
  return fmt::format("{:.2f}x [{:.2f}-{:.2f}]", r.median, r.min, r.max);
}

// The targets of issue 47, each judged on the median of its per-run ratio.
std::string targets_lines(const ContainersBenchReport& report) {
  struct Target {
    const char* ratio;
    const char* text;
    double limit;
    bool at_least;  // the ratio must be >= limit (else <=, or < when strict)
    bool strict;
    const char* teardown_against = nullptr;  // a teardown ratio: comparable only with equal backgrounds
  };
  static const Target kTargets[] = {
      {"setup brisk / floor", "setup, brisk / one-thread floor", 1.0, false, false},
      {"worst bucket brisk / floor", "worst bucket, brisk / floor", 1.15, false, false},
      {"cpu brisk / floor", "CPU per container, brisk / floor", 1.25, false, false},
      {"teardown settled brisk / floor", "teardown until settled, brisk / floor", 1.0, false, false, "floor"},
      {"teardown settled brisk / ip-batch", "teardown until settled, brisk / ip-batch", 1.0, false, true,
       "ip-batch"},
      {"setup brisk / brisk-1core", "setup, brisk / brisk-1core (the second core)", 1.0, false, false},
      {"setup ip-batch / brisk", "setup, ip-batch / brisk", 8.0, true, false},
  };
  std::string out = "\ntargets (median over the runs)\n";
  for (const auto& t : kTargets) {
    const Spread* r = find_ratio(report, t.ratio);
    if (!r) continue;
    if (t.teardown_against) {
      const auto* other = find_method(report, t.teardown_against);
      if (other && other->teardown_background != report.methods[0].teardown_background) {
        out += fmt::format(
            "  {}: not comparable in this run ({} and {} other containers alive; "
            "--schedule sequential makes them equal)\n",
            t.text, report.methods[0].teardown_background, other->teardown_background);
        continue;
      }
    }
    bool met = t.at_least ? r->median >= t.limit : t.strict ? r->median < t.limit : r->median <= t.limit;
    out += fmt::format("  {:<46} {:<22} (target {} {:.2f}x: {})\n", t.text, spread_text(*r),
                       t.at_least ? ">="
                       : t.strict ? "<"
                                  : "<=",
                       t.limit, verdict(met));
  }
  const auto& brisk = report.methods[0];
  auto [at_500, at_end] = brisk_rss(brisk, 500);
  if (at_500 > 0 && report.config.n > 500)
    out +=
        fmt::format("  RSS: {:.1f} MiB at 500 containers, {:.1f} MiB at {}: {:.2f}x (target <= 1.2x: {})\n",
                    at_500 / 1024.0, at_end / 1024.0, report.config.n, static_cast<double>(at_end) / at_500,
                    verdict(at_end <= 1.2 * at_500));
  return out;
}

// Every ratio, with each run's value.
std::string ratio_lines(const ContainersBenchReport& report) {
  if (report.runs.size() < 2) return "";
  std::string out =
      fmt::format("\nratios over {} runs: median [min-max], then each run's\n", report.runs.size());
  for (const auto& r : report.ratios) {
    out += fmt::format("  {:<34} {:<22}", r.name, spread_text(r));
    for (double v : r.values) out += fmt::format(" {:.2f}", v);
    out += "\n";
  }
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
  out +=
      fmt::format("{:<11} {:>8} {:>12} {:>13} {:>9} {:>10} {:>10} {:>9} {:>10} {:>11} {:>10} {:>9} {:>9}\n",
                  "method", "total s", "containers/s", "µs/container", "vs brisk", "cpu µs/ct", "user µs/ct",
                  "csw/ct", "processes", "teardown s", "settled s", "failures", "verified");
  for (const auto& m : report.methods)
    out += fmt::format(
        "{:<11} {:>8.2f} {:>12.1f} {:>13.0f} {:>8.2f}x {:>10.0f} {:>10.0f} {:>9.1f} {:>10} {:>11.2f} "
        "{:>10.2f} {:>9} "
        "{:>9}\n",
        m.method, m.total_s, m.containers_per_s, m.us_per_container, m.ratio_to_brisk,
        m.cpu_s * 1e6 / m.containers, m.cpu_user_s * 1e6 / m.containers,
        static_cast<double>(m.context_switches) / m.containers, m.processes, m.teardown_s,
        m.teardown_settled_s, m.failures, m.verified ? "yes" : "NO");
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
  out += ratio_lines(report);
  out += targets_lines(report);
  for (const auto& note : report.notes) out += "note: " + note + "\n";
  return out;
}

namespace {

nlohmann::json methods_json(const std::vector<ContainersMethodResult>& results) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : results) {
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
                       {"cpu_user_s", m.cpu_user_s},
                       {"context_switches", m.context_switches},
                       {"teardown_s", m.teardown_s},
                       {"teardown_settled_s", m.teardown_settled_s},
                       {"teardown_background", m.teardown_background},
                       {"failures", m.failures},
                       {"verified", m.verified},
                       {"growth", m.growth},
                       {"buckets", buckets}});
  }
  return methods;
}

}  // namespace

nlohmann::json to_json(const ContainersBenchReport& report) {
  nlohmann::json methods = methods_json(report.methods);
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : report.runs) runs.push_back(methods_json(run));
  nlohmann::json ratios = nlohmann::json::array();
  for (const auto& r : report.ratios)
    ratios.push_back(
        {{"name", r.name}, {"median", r.median}, {"min", r.min}, {"max", r.max}, {"values", r.values}});
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
        {"cpu_user_s", "seconds of CPU in user space"},
        {"context_switches", "count, during the setup"},
        {"ratios", "per-run ratio, median and range over the runs"},
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
        {"quiet_ms", c.quiet_ms},
        {"brisk_round", c.brisk_round},
        {"repeat", c.repeat}}},
      {"interleaved", report.interleaved},
      {"methods", methods},
      {"ratios", ratios},
      {"runs", runs},
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
