#include "bench/demo.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bench/cni_bench.h"
#include "bench/containers_bench.h"
#include "bench/interrupt.h"
#include "bench/link_bench.h"
#include "bench/net_plots.h"
#include "bench/plot.h"
#include "bench/report_files.h"
#include "bench/spawn_report.h"
#include "bench/spawn_sweep.h"

namespace brisk::bench {
namespace {

const SpawnMethodResult* find(const SpawnBenchReport& point, const std::string& name) {
  for (const auto& r : point.results)
    if (r.name == name && r.failures == 0) return &r;
  return nullptr;
}

std::string heap_text(std::size_t mb) {
  return mb >= 1024 && mb % 1024 == 0 ? fmt::format("{} GiB", mb / 1024) : fmt::format("{} MiB", mb);
}

// Spawn /bin/true at each heap size, then the write-up's workload shape.
DemoSectionResult run_spawn_section(const DemoSettings& settings,
                                    const std::function<void(const std::string&)>& progress) {
  SpawnSweepConfig config;
  config.n = settings.spawn_n;
  config.rounds = std::min(5, settings.spawn_n);
  config.budget_seconds = 10;  // fork at 1 GB on a loaded machine must not eat the 3 minutes
  config.heaps_mb = settings.heaps_mb;
  config.nofiles = {};
  config.chroot = false;
  config.workload_n = settings.workload_n;
  // The baselines of the summary; the full set (fork_closeall, popen) is `make bench`'s.
  config.methods = {"vfork", "posix_spawn", "fork", "system", "ruby_root", "ruby_nobody"};
  auto sweep = run_spawn_sweep(config, [&](const SpawnBenchReport& point) {
    progress(fmt::format("spawn: {} done", point.config.label));
  });
  // The ways YaST and scripts spawn today; a missing method (no ruby) is noted, not invented.
  static const std::map<std::string, std::string> spawn_baselines = {
      {"fork", "fork + execve"},
      {"posix_spawn", "glibc posix_spawn"},
      {"system", "system() via /bin/sh"},
      {"ruby_root", "Ruby system() as root"},
      {"ruby_nobody", "Ruby system() as nobody"},
  };
  static const std::map<std::string, std::string> workload_baselines = {
      {"scr_system_tempfiles", "SCR: system()+temp files"},
      {"cheetah_fork_pipes", "Cheetah: fork+exec+pipes"},
  };
  DemoSectionResult result;
  for (const auto& point : sweep.points) {
    const bool workload = point.config.sweep == "workload";
    const auto& baselines = workload ? workload_baselines : spawn_baselines;
    std::string operation = workload ? (point.config.chroot.empty() ? "ls -l / captured, LANG=C"
                                                                    : "ls -l / captured, LANG=C, chroot")
                                     : fmt::format("spawn /bin/true, {} parent", heap_text(point.heap_mb));
    const SpawnMethodResult* brisk = find(point, "brisk");
    for (const auto& [name, label] : baselines) {
      const SpawnMethodResult* base = find(point, name);
      if (brisk && base)
        result.rows.push_back(
            {operation, label, base->us_per_spawn, brisk->us_per_spawn, base->ratio_to_brisk});
    }
    for (const auto& skipped : point.skipped)
      if (baselines.count(skipped.name))
        result.notes.push_back(
            fmt::format("{}: {} skipped ({})", point.config.label, skipped.name, skipped.reason));
  }
  result.files = write_spawn_outputs(sweep, settings.out_dir);
  return result;
}

// The network sections' shared frame: root only, and everything the bench
// makes lives in namespaces held by fds, so a signal may simply end it.
bool skipped_without_root(const char* section, DemoSectionResult& result) {
  if (::geteuid() == 0) return false;
  result.notes.push_back(std::string(section) + ": skipped (network namespaces need root)");
  return true;
}

template <class Bench>
auto run_net_bench(Bench bench) {
  throw_if_interrupted();
  decltype(bench()) report;
  {
    DefaultSignalsScope die_on_signal;
    report = bench();
  }
  throw_if_interrupted();
  return report;
}

// Link operations in throwaway namespaces (bench/link_bench.h).
DemoSectionResult run_link_section(const DemoSettings& settings,
                                   const std::function<void(const std::string&)>& progress) {
  DemoSectionResult result;
  if (settings.link_n <= 0 || skipped_without_root("links", result)) return result;
  LinkBenchConfig config;
  config.n = settings.link_n;
  config.bucket = std::max(1, settings.link_n / 10);  // ten points on the flatness charts
  LinkBenchReport report = run_net_bench([&] { return run_link_bench(config); });
  progress("links: done");
  result.rows = link_rows(report);
  result.files.push_back(write_text_file(settings.out_dir, "link.json", to_json(report).dump(2) + "\n"));
  // Per-op cost against the interfaces already there: it must stay flat.
  for (auto& file : write_plots(report, settings.out_dir)) result.files.push_back(std::move(file));
  return result;
}

// The LXC scenario (bench/containers_bench.h): namespace, veth pair with its
// peer made inside, addresses, routes and a bridge port per container.
DemoSectionResult run_containers_section(const DemoSettings& settings,
                                         const std::function<void(const std::string&)>& progress) {
  DemoSectionResult result;
  if (settings.containers_n <= 0 || skipped_without_root("containers", result)) return result;
  ContainersBenchConfig config;
  config.n = settings.containers_n;
  config.bucket = std::max(1, settings.containers_n / 10);
  // The short version: pauses in proportion to the containers (1 s at the
  // default 200), and a busy machine is not waited out.
  config.settle_ms = std::min(1500, 5 * settings.containers_n);
  config.quiet_ms = 1000;
  ContainersBenchReport report = run_net_bench([&] { return run_containers_bench(config); });
  progress("containers: done");
  result.rows = container_rows(report);
  for (const auto& note : report.notes) result.notes.push_back("containers: " + note);
  result.files.push_back(
      write_text_file(settings.out_dir, "containers.json", to_json(report).dump(2) + "\n"));
  for (auto& file : write_plots(report, settings.out_dir)) result.files.push_back(std::move(file));
  return result;
}

// The CNI plugin (bench/cni_bench.h): the reference bridge + host-local and
// brisk-bridge per pod, as a runtime runs them, with and without ipMasq.
DemoSectionResult run_cni_section(const DemoSettings& settings,
                                  const std::function<void(const std::string&)>& progress) {
  DemoSectionResult result;
  if (settings.cni_n <= 0 || skipped_without_root("cni", result)) return result;
  CniBenchConfig config;
  config.n = settings.cni_n;
  config.buckets = std::min(config.buckets, settings.cni_n);
  config.parallel_repeats = 1;
  try {
    validate(config);
  } catch (const std::runtime_error& e) {
    result.notes.push_back(std::string("cni: skipped (") + e.what() + ")");
    return result;
  }
  CniBenchReport report = run_net_bench([&] { return run_cni_bench(config); });
  progress("cni: done");
  for (const auto& pass : report.passes) {
    std::string masq = pass.masq ? ", ipMasq" : "";
    for (const char* phase : {"ADD", "DEL"}) {
      const CniPhaseRow* ref = find_row(pass, "reference", phase);
      const CniPhaseRow* brisk = find_row(pass, "brisk", phase);
      if (ref && brisk && !ref->failures && !brisk->failures)
        result.rows.push_back(
            {std::string("CNI ") + phase + masq, "bridge + host-local", ref->us_mean, brisk->us_mean, 0});
    }
    const CniParallelRow* ref = find_parallel(pass, "reference");
    const CniParallelRow* brisk = find_parallel(pass, "brisk");
    if (ref && brisk && !ref->failures && !brisk->failures)
      result.rows.push_back({fmt::format("{} parallel CNI ADDs{}", ref->pods, masq), "bridge + host-local",
                             ref->wall_ms_median * 1000, brisk->wall_ms_median * 1000, 0});
  }
  if (!report.all_succeeded()) result.notes.push_back("cni: some plugin runs failed; see cni.json");
  for (const auto& note : report.notes) result.notes.push_back("cni: " + note);
  write_outputs(report, settings.out_dir);
  result.files.push_back(settings.out_dir + "/cni.json");
  result.files.push_back(settings.out_dir + "/cni.csv");
  for (auto& file : write_plots(report, settings.out_dir)) result.files.push_back(std::move(file));
  return result;
}

}  // namespace

std::string method_label(const std::string& method) {
  // The bench's own names, so that the summary and the bench's tables agree.
  static const std::map<std::string, std::string> labels{{"ip", "ip per command"},
                                                         {"ip-batch", "ip -batch"},
                                                         {"floor", "floor"},
                                                         {"brisk-1core", "brisk-1core"},
                                                         {"brisk-cli", "brisk per command"},
                                                         {"brisk-batch", "brisk -batch"},
                                                         {"raw", "raw netlink"},
                                                         {"brisk", "brisk"}};
  auto found = labels.find(method);
  return found == labels.end() ? method : found->second;
}

std::vector<DemoRow> link_rows(const LinkBenchReport& report) {
  std::vector<DemoRow> rows;
  std::map<std::string, const LinkBenchRow*> brisk_rows;
  for (const auto& row : report.rows)
    if (row.method == "brisk") brisk_rows[row.phase] = &row;
  for (const auto& row : report.rows) {
    // Today's tools only: the other rows are brisk's own ways and the floor.
    if (row.method != "ip" && row.method != "ip-batch") continue;
    auto brisk = brisk_rows.find(row.phase);
    if (brisk == brisk_rows.end() || row.failures || brisk->second->failures) continue;
    rows.push_back({"link: " + row.phase, method_label(row.method), row.us_per_op, brisk->second->us_per_op,
                    row.ratio_to_brisk});
  }
  return rows;
}

std::vector<DemoRow> container_rows(const ContainersBenchReport& report) {
  std::vector<DemoRow> rows;
  const ContainersMethodResult* brisk = nullptr;
  for (const auto& m : report.methods)
    if (m.method == "brisk") brisk = &m;
  if (!brisk || brisk->failures) return rows;
  for (const auto& m : report.methods) {
    if (m.method == "brisk" || m.failures || m.containers <= 0) continue;
    rows.push_back(
        {"container setup", method_label(m.method), m.us_per_container, brisk->us_per_container, 0});
    // Until settled: a namespace's teardown is the kernel's asynchronous
    // cleanup more than the call that starts it, which returns at once.
    rows.push_back({"container teardown (settled)", method_label(m.method),
                    m.teardown_settled_s * 1e6 / m.containers,
                    brisk->teardown_settled_s * 1e6 / brisk->containers, 0});
  }
  return rows;
}

std::vector<DemoSection> demo_sections() {
  return {{"spawn", run_spawn_section},
          {"links", run_link_section},
          {"containers", run_containers_section},
          {"cni", run_cni_section}};
}

std::string format_summary(const std::vector<DemoRow>& rows) {
  std::string out = fmt::format("{:<34} {:<26} {:>13} {:>11} {:>9}\n", "operation", "baseline", "baseline µs",
                                "brisk µs", "speed-up");
  for (const auto& r : rows)
    out += fmt::format("{:<34} {:<26} {:>13.1f} {:>11.1f} {:>8.1f}×\n", r.operation, r.baseline,
                       r.baseline_us, r.brisk_us, r.speedup());
  return out;
}

std::vector<std::string> write_summary(const std::vector<DemoRow>& rows, const std::string& dir) {
  nlohmann::json json = nlohmann::json::array();
  std::string csv = csv_row({"operation", "baseline", "baseline_us", "brisk_us", "speedup_x", "speedup_is"});
  for (const auto& r : rows) {
    json.push_back(
        {{"operation", r.operation},
         {"baseline", r.baseline},
         {"baseline_us", r.baseline_us},
         {"brisk_us", r.brisk_us},
         {"speedup", r.speedup()},
         {"speedup_is", r.round_ratio > 0 ? "median of per-round ratios" : "baseline_us / brisk_us"}});
    csv += csv_row({r.operation, r.baseline, fmt::format("{:.2f}", r.baseline_us),
                    fmt::format("{:.2f}", r.brisk_us), fmt::format("{:.2f}", r.speedup()),
                    r.round_ratio > 0 ? "median of per-round ratios" : "baseline_us / brisk_us"});
  }
  nlohmann::json doc = {{"bench", "demo"}, {"unit", "µs per operation"}, {"rows", json}};
  return {write_text_file(dir, "summary.json", doc.dump(2) + "\n"), write_text_file(dir, "summary.csv", csv)};
}

}  // namespace brisk::bench
