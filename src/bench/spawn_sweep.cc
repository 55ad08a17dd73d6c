#include "bench/spawn_sweep.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "bench/interrupt.h"
#include "sandbox/minimal_root.h"

namespace brisk::bench {

const std::vector<std::string>& workload_argv() {
  static const std::vector<std::string> argv{"/bin/ls", "-l", "/"};
  return argv;
}

SpawnSweepReport run_spawn_sweep(const SpawnSweepConfig& config,
                                 const std::function<void(const SpawnBenchReport&)>& on_point) {
  SpawnSweepReport sweep;
  sweep.config = config;
  const std::size_t base_heap =
      config.heaps_mb.empty() ? 10 : *std::min_element(config.heaps_mb.begin(), config.heaps_mb.end());
  auto run = [&](SpawnBenchConfig point) {
    point.rounds = config.rounds;
    point.budget_seconds = config.budget_seconds;
    sweep.points.push_back(run_spawn_bench(point));
    if (on_point) on_point(sweep.points.back());
  };
  auto spawn_point = [&](std::string sweep_name, std::string label) {
    SpawnBenchConfig point;
    point.sweep = std::move(sweep_name);
    point.label = std::move(label);
    point.argv = config.argv;
    point.methods = config.methods;
    point.n = config.n;
    point.rss_mb = base_heap;
    return point;
  };

  for (std::size_t mb : config.heaps_mb) {
    auto point = spawn_point("heap", fmt::format("heap {} MiB", mb));
    point.rss_mb = mb;
    run(point);
  }
  for (rlim_t nofile : config.nofiles) {
    auto point = spawn_point("nofile", fmt::format("nofile {}", nofile));
    point.nofile = nofile;
    run(point);
  }

  const bool root = ::geteuid() == 0;
  std::unique_ptr<sandbox::MinimalRoot> minimal;
  if ((config.chroot || config.workload_n > 0) && root) {
    std::vector<std::string> programs{config.argv[0]};
    if (config.workload_n > 0) programs.push_back(workload_argv()[0]);
    try {
      minimal = std::make_unique<sandbox::MinimalRoot>(programs);
    } catch (const std::runtime_error&) {
      throw_if_interrupted();  // a signal mid-copy fails it with EINTR: end by the signal, as anywhere else
      throw;
    }
  }
  if (config.chroot) {
    if (!minimal) {
      sweep.skipped.push_back({"chroot", "chroot needs root"});
    } else {
      auto point = spawn_point("chroot", "chroot into a minimal root");
      point.chroot = minimal->path();
      run(point);
    }
  }
  if (config.workload_n > 0) {
    for (bool chrooted : {false, true}) {
      SpawnBenchConfig point;
      point.sweep = "workload";
      point.label = chrooted ? "ls -l / captured, chroot" : "ls -l / captured";
      point.workload = true;
      point.n = config.workload_n;
      point.rss_mb = base_heap;
      point.argv = workload_argv();
      point.env = {{"LANG", "C"}};
      if (chrooted && !minimal) {
        sweep.skipped.push_back({point.label, "chroot needs root"});
        continue;
      }
      if (chrooted) point.chroot = minimal->path();
      run(point);
    }
  }
  return sweep;
}

}  // namespace brisk::bench
