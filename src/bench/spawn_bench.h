// bench/spawn_bench.h: `brisk bench spawn`, every method side by side.
//
// The N calls of each method are split into rounds; within a round every
// method runs its share back to back, in an order that rotates between
// rounds. A method's figure is the median of its per-round µs, and its ratio
// to brisk is the median of the per-round ratios, so a noisy neighbour that
// slows one round slows every method in it alike.
#pragma once

#include <sys/resource.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/stats.h"  // median, which the spawn benches' callers use too

namespace brisk::bench {

struct SpawnBenchConfig {
  int n = 1000;            // calls per method
  int rounds = 10;         // rounds the calls are split into
  std::size_t rss_mb = 0;  // grow our own heap to this many MiB first
  rlim_t nofile = 0;       // raise RLIMIT_NOFILE to this first, as far as allowed (0: leave it)
  std::string chroot;      // run inside this root
  std::vector<std::string> argv{"/bin/true"};
  std::vector<std::pair<std::string, std::string>> env{};  // set for the program (the workload: LANG=C)
  std::vector<std::string> methods;                        // empty: all
  bool workload = false;      // the write-up's shape: capture both streams (workload_methods())
  std::string sweep{};        // the sweep this run belongs to: heap, nofile, chroot, workload
  double budget_seconds = 0;  // per method: fewer calls for methods slower than this allows (0: none)
  std::string label{};        // names this run in a sweep ("heap 1024 MiB")
};

struct SpawnMethodResult {
  std::string name;
  std::string description;
  double us_per_spawn = 0;       // median over rounds, µs per call
  double ratio_to_brisk = 0;     // median of per-round ratios
  std::vector<double> round_us;  // per-round µs per call
  int failures = 0;              // calls that did not exit 0
  int calls = 0;                 // calls timed (fewer than n when the time budget capped them)
  int calls_per_round = 0;
};

struct SkippedMethod {
  std::string name;
  std::string reason;
};

// What RLIMIT_NOFILE was asked for, what it was during the run, and why
// they differ (a hard limit we may not raise without CAP_SYS_RESOURCE).
struct NofileOutcome {
  rlim_t requested = 0;  // 0: not asked
  rlim_t reached = 0;    // the soft limit during the run
  rlim_t hard = 0;       // the hard limit during the run
  std::string note;      // empty when reached == requested (or nothing asked)
};

struct SpawnBenchReport {
  SpawnBenchConfig config;
  std::size_t heap_mb = 0;  // heap actually held during the run
  NofileOutcome nofile;
  std::string engine_method;  // what brisk's probe chose
  std::vector<SpawnMethodResult> results;
  std::vector<SkippedMethod> skipped;  // methods that could not run here, and why
};

// Holds a heap of `mb` MiB, populated so it has page tables to copy.
class HeapBallast {
 public:
  explicit HeapBallast(std::size_t mb);
  HeapBallast(const HeapBallast&) = delete;
  HeapBallast& operator=(const HeapBallast&) = delete;
  ~HeapBallast();
  std::size_t mb() const { return size_ >> 20; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// Raises RLIMIT_NOFILE's soft limit (and the hard one when allowed) towards
// `wanted` for its lifetime, recording how far it got; restores on exit.
class NofileScope {
 public:
  explicit NofileScope(rlim_t wanted);
  NofileScope(const NofileScope&) = delete;
  NofileScope& operator=(const NofileScope&) = delete;
  ~NofileScope();
  const NofileOutcome& outcome() const { return outcome_; }

 private:
  rlimit saved_{};
  NofileOutcome outcome_;
};

// Throws std::runtime_error on bad configuration (unknown method, no such
// program), and Interrupted (bench/interrupt.h) on SIGINT/SIGTERM within an
// InterruptScope.
SpawnBenchReport run_spawn_bench(const SpawnBenchConfig& config);

}  // namespace brisk::bench
