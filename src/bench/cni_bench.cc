#include "bench/cni_bench.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bench/cni_pods.h"
#include "bench/net_helpers.h"
#include "bench/stats.h"
#include "brisk/run_all.h"
#include "sandbox/net_sandbox.h"

namespace brisk::bench {
namespace {

constexpr int kMaxPods = 5000;  // per side; three sides' namespaces exist at once

// Every run of one side in one phase, in order.
struct Samples {
  std::vector<double> us{};
  std::vector<int> pods_before{};
  int failures = 0;
  std::string first_error{};

  void record(const CniOp& op, int before) {
    if (!op.ok) {
      if (failures++ == 0) first_error = op.error;
      return;
    }
    us.push_back(op.us);
    pods_before.push_back(before);
  }
};

double mean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

// Buckets of `size` consecutive runs; each reports the pods attached when it began.
CniPhaseRow summarize(const std::string& side, const std::string& phase, const Samples& s, int size) {
  CniPhaseRow row{.side = side,
                  .phase = phase,
                  .ops = static_cast<int>(s.us.size()) + s.failures,
                  .failures = s.failures,
                  .us_mean = mean(s.us),
                  .us_median = median(s.us),
                  .buckets = {},
                  .first_error = s.first_error};
  for (std::size_t start = 0; start < s.us.size(); start += static_cast<std::size_t>(size)) {
    std::size_t end = std::min(s.us.size(), start + static_cast<std::size_t>(size));
    std::vector<double> part(s.us.begin() + static_cast<long>(start), s.us.begin() + static_cast<long>(end));
    row.buckets.push_back({.index = static_cast<int>(row.buckets.size()),
                           .pods_before = s.pods_before[start],
                           .ops = static_cast<int>(part.size()),
                           .us_per_op = mean(part)});
  }
  return row;
}

// floor = in-process + process start, run by run.
Samples floor_of(const Samples& in_process, const Samples& start) {
  Samples f{.us = {},
            .pods_before = in_process.pods_before,
            .failures = in_process.failures + start.failures,
            .first_error = !in_process.first_error.empty() ? in_process.first_error : start.first_error};
  std::size_t count = std::min(in_process.us.size(), start.us.size());
  f.pods_before.resize(count);
  for (std::size_t i = 0; i < count; ++i) f.us.push_back(in_process.us[i] + start.us[i]);
  return f;
}

enum SideIndex { kReference, kBrisk, kInProcess, kSides };
const char* const kSideNames[] = {"reference", "brisk", "in-process"};

struct Pass {
  const CniBenchConfig& config;
  std::vector<std::unique_ptr<CniSide>> sides{};
  Samples add[kSides + 1]{}, del[kSides + 1]{};  // [kSides]: the process starts beside the in-process runs

  // One pod's run on every side, starting with side `first`.
  void one_pod(int pod, int first, bool adding, int before) {
    Samples* samples = adding ? add : del;
    for (int k = 0; k < kSides; ++k) {
      int s = (first + k) % kSides;
      const CniSide& side = *sides[static_cast<std::size_t>(s)];
      samples[s].record(adding ? side.add(pod) : side.del(pod), before);
      if (s == kInProcess) samples[kSides].record(side.start_trivial_process(), before);
    }
  }
};

void tell(const CniBenchConfig& c, const std::string& line) {
  if (c.progress) c.progress("cni: " + line);
}

int bucket_size(const CniBenchConfig& c) { return (c.n + c.buckets - 1) / c.buckets; }

void accumulate_and_remove(Pass& p, const std::string& label) {
  const auto& c = p.config;
  int size = bucket_size(c);
  for (int begin = 0; begin < c.n; begin += size) {
    int end = std::min(c.n, begin + size);
    for (auto& side : p.sides) side->make_pods(begin, end);
    for (int pod = begin; pod < end; ++pod) p.one_pod(pod, pod % kSides, true, pod);
    tell(c, fmt::format("{}: ADD, {}/{} pods", label, end, c.n));
  }
  for (int done = 0; done < c.n; ++done) {
    int pod = c.n - 1 - done;
    p.one_pod(pod, done % kSides, false, c.n - done);
    if ((done + 1) % size == 0 || done + 1 == c.n)
      tell(c, fmt::format("{}: DEL, {}/{} pods", label, done + 1, c.n));
  }
  for (auto& side : p.sides) side->delete_pods(0, c.n);
}

// `count` ADDs started at once on pods [base, base + count); each one's
// result once the last is done.
using ParallelAdds = std::vector<CniOp> (*)(const CniSide& side, int base, int count);

// The plugin, one process per ADD, all started at once and served by one
// poll loop: each gets its stdin and has its output read while the others
// run. (Waiting for them one by one would feed the k-th its config only after
// the k-1 before it had exited: that serialized the plugins.)
std::vector<CniOp> plugin_adds(const CniSide& side, int base, int count) {
  std::vector<Command> commands;
  for (int k = 0; k < count; ++k) commands.push_back(side.command("ADD", base + k));
  std::vector<CniOp> ops;
  for (auto& r : run_all(commands, {.max_parallel = static_cast<std::size_t>(count)}))
    ops.push_back(r ? CniSide::result_of(*r, 0, true) : CniOp{.ok = false, .error = r.error().message()});
  return ops;
}

// The floor of plugin_adds: one thread per ADD, each doing what one plugin
// process does, the sequential floor's work: a process start (/bin/true,
// started as the plugins are), then run_plugin in the host namespace with
// netlink sockets of its own.
std::vector<CniOp> floor_adds(const CniSide& side, int base, int count) {
  std::vector<CniOp> ops(static_cast<std::size_t>(count));
  std::vector<std::thread> workers;
  for (int k = 0; k < count; ++k)
    workers.emplace_back([&side, &op = ops[static_cast<std::size_t>(k)], pod = base + k] {
      try {
        CniOp start = side.start_trivial_process();
        op = start.ok ? side.add(pod) : start;
      } catch (const std::exception& e) {
        op = {.ok = false, .error = e.what()};
      }
    });
  for (auto& w : workers) w.join();
  return ops;
}

// One round on fresh pods, timed from the first start until the last exit;
// then the pods' DELs and the pods themselves (untimed).
void parallel_round(CniSide& side, ParallelAdds adds, int base, int count, CniParallelRow& row) {
  side.make_pods(base, base + count);
  auto start = Clock::now();
  std::vector<CniOp> ops = adds(side, base, count);
  row.wall_ms.push_back(us_since(start) / 1000);
  std::map<std::string, int> seen;
  for (const auto& op : ops) {
    if (!op.ok && row.failures++ == 0) row.first_error = op.error;
    if (op.ok && seen[op.address]++ > 0) ++row.duplicates;
  }
  for (int k = 0; k < count; ++k) {
    CniOp op = side.del(base + k);
    if (!op.ok && row.failures++ == 0) row.first_error = "DEL after the parallel ADDs: " + op.error;
  }
  side.delete_pods(base, base + count);
}

// Rounds of the reference, brisk and the floor (on the in-process side), in
// rotating order.
std::vector<CniParallelRow> run_parallel(Pass& p, const std::string& label) {
  const auto& c = p.config;
  if (c.parallel == 0 || !c.chain.empty()) return {};
  const ParallelAdds adds[kSides] = {plugin_adds, plugin_adds, floor_adds};
  std::vector<CniParallelRow> rows{{.side = kSideNames[kReference], .pods = c.parallel},
                                   {.side = kSideNames[kBrisk], .pods = c.parallel},
                                   {.side = "floor", .pods = c.parallel}};
  for (int r = 0; r < c.parallel_repeats; ++r) {
    for (int k = 0; k < kSides; ++k) {
      auto s = static_cast<std::size_t>((r + k) % kSides);
      parallel_round(*p.sides[s], adds[s], c.n + r * c.parallel, c.parallel, rows[s]);
    }
    tell(c, fmt::format("{}: {} parallel ADDs, round {}/{}", label, c.parallel, r + 1, c.parallel_repeats));
  }
  for (auto& row : rows) row.wall_ms_median = median(row.wall_ms);
  return rows;
}

std::vector<CniTarget> targets_of(const CniPass& pass) {
  std::vector<CniTarget> t;
  auto mean_of = [&](const char* side, const char* phase) {
    const CniPhaseRow* row = find_row(pass, side, phase);
    return row ? row->us_mean : 0.0;
  };
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  bool chain = !pass.chain.empty();
  t.push_back({.name = "ADD: reference / brisk",
               .value = ratio(mean_of("reference", "ADD"), mean_of("brisk", "ADD")),
               .target = pass.masq && !chain ? 10.0 : 5.0,
               .at_least = true});
  if (chain) {
    t.push_back({.name = "DEL: reference / brisk",
                 .value = ratio(mean_of("reference", "DEL"), mean_of("brisk", "DEL")),
                 .target = 5.0,
                 .at_least = true});
    // What a plugin could reach at best: its floor against the reference.
    for (const char* phase : {"ADD", "DEL"})
      t.push_back({.name = fmt::format("{}: reference / floor (ceiling)", phase),
                   .value = ratio(mean_of("reference", phase), mean_of("floor", phase)),
                   .target = 5.0,
                   .at_least = true});
  }
  t.push_back({.name = "ADD: brisk / floor",
               .value = ratio(mean_of("brisk", "ADD"), mean_of("floor", "ADD")),
               .target = 1.3,
               .at_least = false});
  t.push_back({.name = "DEL: brisk / floor",
               .value = ratio(mean_of("brisk", "DEL"), mean_of("floor", "DEL")),
               .target = 1.2,
               .at_least = false});
  // Per-pod cost with the most pods attached against the fewest: ADD's
  // last bucket against its first, DEL's first against its last.
  for (const char* phase : {"ADD", "DEL"}) {
    const CniPhaseRow* row = find_row(pass, "brisk", phase);
    if (!row || row->buckets.size() < 2) continue;
    const CniBucket& most = std::string(phase) == "ADD" ? row->buckets.back() : row->buckets.front();
    const CniBucket& fewest = std::string(phase) == "ADD" ? row->buckets.front() : row->buckets.back();
    t.push_back(
        {.name = fmt::format("{} per pod: at {} pods / at {}", phase, most.pods_before, fewest.pods_before),
         .value = ratio(most.us_per_op, fewest.us_per_op),
         .target = 1.2,
         .at_least = false});
  }
  // The parallel medians; the floor's ratios say how far the kernel lets a
  // plugin go: reference / floor is the ceiling of reference / brisk.
  auto wall_of = [&](const char* side) {
    const CniParallelRow* row = find_parallel(pass, side);
    return row ? row->wall_ms_median : 0.0;
  };
  if (pass.parallel.empty()) return t;
  int pods = pass.parallel.front().pods;
  t.push_back({.name = fmt::format("{} parallel ADDs: reference / brisk", pods),
               .value = ratio(wall_of("reference"), wall_of("brisk")),
               .target = 5.0,
               .at_least = true});
  t.push_back({.name = fmt::format("{} parallel ADDs: brisk / floor", pods),
               .value = ratio(wall_of("brisk"), wall_of("floor")),
               .target = 1.3,
               .at_least = false});
  t.push_back({.name = fmt::format("{} parallel ADDs: reference / floor (ceiling)", pods),
               .value = ratio(wall_of("reference"), wall_of("floor")),
               .target = 5.0,
               .at_least = true});
  return t;
}

CniPass run_pass(const CniBenchConfig& c, const std::string& brisk_plugin, const std::string& brisk_portmap,
                 bool masq) {
  std::string label =
      std::string(masq ? "ipMasq on" : "ipMasq off") + (c.chain.empty() ? "" : ", chain " + c.chain);
  bool chain = !c.chain.empty();
  std::string tag = masq ? "m" : "p";
  Pass p{.config = c};
  p.sides.push_back(std::make_unique<CniSide>(CniSideConfig{.tag = tag + "ref",
                                                            .plugin = c.reference_dir + "/bridge",
                                                            .type = "bridge",
                                                            .cni_path = c.reference_dir,
                                                            .masq = masq,
                                                            .chain = chain,
                                                            .portmap = c.reference_dir + "/portmap",
                                                            .timeout_ms = c.timeout_ms}));
  p.sides.push_back(std::make_unique<CniSide>(CniSideConfig{.tag = tag + "brisk",
                                                            .plugin = brisk_plugin,
                                                            .type = "brisk-bridge",
                                                            .cni_path = c.reference_dir,
                                                            .masq = masq,
                                                            .chain = chain,
                                                            .portmap = brisk_portmap,
                                                            .timeout_ms = c.timeout_ms}));
  p.sides.push_back(std::make_unique<CniSide>(CniSideConfig{.tag = tag + "inproc",
                                                            .plugin = "",
                                                            .type = "brisk-bridge",
                                                            .cni_path = c.reference_dir,
                                                            .masq = masq,
                                                            .chain = chain,
                                                            .portmap = "",
                                                            .timeout_ms = c.timeout_ms}));
  accumulate_and_remove(p, label);
  CniPass pass{.masq = masq, .chain = c.chain};
  int size = bucket_size(c);
  for (bool adding : {true, false}) {
    const Samples* s = adding ? p.add : p.del;
    const char* phase = adding ? "ADD" : "DEL";
    for (int k = 0; k < kSides; ++k) pass.rows.push_back(summarize(kSideNames[k], phase, s[k], size));
    pass.rows.push_back(summarize("process start", phase, s[kSides], size));
    pass.rows.push_back(summarize("floor", phase, floor_of(s[kInProcess], s[kSides]), size));
  }
  pass.parallel = run_parallel(p, label);
  pass.targets = targets_of(pass);
  return pass;
}

bool executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

// brisk-portmap: as given, or beside brisk-bridge.
std::string brisk_portmap_of(const CniBenchConfig& c) {
  if (!c.brisk_portmap.empty()) return c.brisk_portmap;
  std::string bridge = c.brisk_plugin.empty() ? default_brisk_plugin() : c.brisk_plugin;
  return bridge.empty() ? "" : (std::filesystem::path(bridge).parent_path() / "brisk-portmap").string();
}

}  // namespace

bool CniBenchReport::all_succeeded() const {
  for (const auto& pass : passes) {
    for (const auto& row : pass.rows)
      if (row.failures || row.ops != config.n) return false;
    for (const auto& row : pass.parallel)
      if (row.failures || row.duplicates) return false;
  }
  return !passes.empty();
}

std::string default_brisk_plugin() {
  std::filesystem::path dir;
  try {
    dir = std::filesystem::path(brisk_cli()).parent_path();  // installed, the plugin is in $prefix/lib/cni
  } catch (const std::runtime_error&) {
    return "";  // no CLI to find it by: the caller reports the missing plugin
  }
  for (const auto& candidate : {dir / "brisk-bridge", dir / ".." / "lib" / "cni" / "brisk-bridge"})
    if (executable(candidate.string())) return candidate.lexically_normal().string();
  return "";
}

const CniPhaseRow* find_row(const CniPass& pass, const std::string& side, const std::string& phase) {
  for (const auto& row : pass.rows)
    if (row.side == side && row.phase == phase) return &row;
  return nullptr;
}

const CniParallelRow* find_parallel(const CniPass& pass, const std::string& side) {
  for (const auto& row : pass.parallel)
    if (row.side == side) return &row;
  return nullptr;
}

void validate(const CniBenchConfig& c) {
  if (c.n < 1 || c.n > kMaxPods) throw std::runtime_error(fmt::format("--n must be 1 to {}", kMaxPods));
  if (c.buckets < 1 || c.buckets > c.n) throw std::runtime_error("--buckets must be 1 to --n");
  if (c.parallel < 0 || c.parallel > 1000) throw std::runtime_error("--parallel must be 0 to 1000");
  if (c.parallel_repeats < 1 || c.parallel_repeats > 100)
    throw std::runtime_error("--parallel-repeats must be 1 to 100");
  if (c.timeout_ms <= 0 || c.settle_ms < 0)
    throw std::runtime_error("--timeout-ms must be positive, --settle-ms not negative");
  for (const char* tool : {"bridge", "host-local"})
    if (!executable(c.reference_dir + "/" + tool))
      throw std::runtime_error("no reference plugin " + c.reference_dir + "/" + tool +
                               " (Debian: apt-get install containernetworking-plugins)");
  std::string brisk = c.brisk_plugin.empty() ? default_brisk_plugin() : c.brisk_plugin;
  if (!executable(brisk))
    throw std::runtime_error(
        brisk.empty() ? std::string("no brisk-bridge beside the brisk CLI; name it with --brisk-plugin")
                      : "brisk-bridge " + brisk + " is not an executable");
  if (!executable("/bin/true")) throw std::runtime_error("no /bin/true to time a process start with");
  if (c.chain.empty()) return;
  if (c.chain != "portmap") throw std::runtime_error("--chain must be portmap");
  if (!executable(c.reference_dir + "/portmap"))
    throw std::runtime_error("no reference plugin " + c.reference_dir +
                             "/portmap (Debian: apt-get install containernetworking-plugins)");
  if (!executable("/usr/sbin/iptables"))
    throw std::runtime_error("the reference portmap runs iptables (Debian: apt-get install iptables)");
  if (!executable(brisk_portmap_of(c)))
    throw std::runtime_error("no brisk-portmap " + brisk_portmap_of(c) + "; name it with --brisk-portmap");
}

CniBenchReport run_cni_bench(const CniBenchConfig& config) {
  validate(config);
  CniBenchReport report{
      .config = config,
      .brisk_plugin = config.brisk_plugin.empty() ? default_brisk_plugin() : config.brisk_plugin,
      .brisk_portmap = config.chain.empty() ? "" : brisk_portmap_of(config)};
  report.notes.push_back("load average before the run: " + load_average() + " (other work on the machine)");
  std::vector<bool> passes;
  if (config.masq != CniMasq::on) passes.push_back(false);
  if (config.masq != CniMasq::off) passes.push_back(true);
  sandbox::run_in_net_sandbox([&] {
    for (bool masq : passes) {
      std::this_thread::sleep_for(std::chrono::milliseconds(config.settle_ms));
      report.passes.push_back(run_pass(config, report.brisk_plugin, report.brisk_portmap, masq));
    }
  });
  report.notes.push_back("the sides took turns pod by pod, in rotating order; IPv6 off in every namespace");
  report.notes.push_back("ratios are of means measured side by side in this run");
  return report;
}

}  // namespace brisk::bench
