// bench/spawn_sweep.h: `brisk bench spawn --sweep`, the YaST write-up's
// conditions one after another, each a side-by-side run of every method:
//   heap      parent heap 10 MB, 1 GB, 4 GB (fork copies page tables)
//   nofile    RLIMIT_NOFILE 1024 and 1048576 (raised as far as allowed)
//   chroot    every method chrooted into a minimal root built here
//   workload  the write-up's shape: `ls -l /` with LANG=C, stdout and
//             stderr captured, brisk against SCR's and Cheetah's ways,
//             direct and chrooted
#pragma once

#include <sys/resource.h>

#include <functional>
#include <string>
#include <vector>

#include "bench/spawn_bench.h"

namespace brisk::bench {

struct SpawnSweepConfig {
  int n = 200;  // calls per method and point (fork at 4 GB: ~0.1 s each)
  int rounds = 10;
  double budget_seconds = 15;  // per method and point: slow methods (fork at 4 GB) make fewer calls
  std::vector<std::size_t> heaps_mb{10, 1024, 4096};
  std::vector<rlim_t> nofiles{1024, 1048576};  // at the smallest heap
  bool chroot = true;                          // the chroot point (needs root)
  int workload_n = 1000;                       // calls of the workload shape; 0 skips it
  std::vector<std::string> argv{"/bin/true"};
  std::vector<std::string> methods;  // empty: all
};

struct SkippedPoint {
  std::string label;
  std::string reason;
};

struct SpawnSweepReport {
  SpawnSweepConfig config;
  std::vector<SpawnBenchReport> points;
  std::vector<SkippedPoint> skipped;  // points that could not run here, and why
};

// The argv of the workload shape.
const std::vector<std::string>& workload_argv();

// Runs every point, calling on_point after each (for progress output).
// The minimal root is built in $TMPDIR and removed before returning, also
// when an exception (Interrupted included) leaves.
SpawnSweepReport run_spawn_sweep(const SpawnSweepConfig& config,
                                 const std::function<void(const SpawnBenchReport&)>& on_point = {});

}  // namespace brisk::bench
