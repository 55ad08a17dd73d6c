// bench/spawn_bench.h: `brisk bench spawn`, every method side by side.
//
// The N spawns of each method are split into rounds; within a round every
// method runs its share back to back, in an order that rotates between
// rounds. A method's figure is the median of its per-round µs, and its ratio
// to brisk is the median of the per-round ratios, so a noisy neighbour that
// slows one round slows every method in it alike.
#pragma once

#include <sys/resource.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace brisk::bench {

struct SpawnBenchConfig {
  int n = 1000;                       // spawns per method
  int rounds = 10;                    // rounds the spawns are split into
  std::size_t rss_mb = 0;             // grow our own heap to this many MiB first
  rlim_t nofile = 0;                  // raise RLIMIT_NOFILE to this first (0: leave it)
  std::string chroot;                 // spawn inside this root
  std::vector<std::string> argv{"/bin/true"};
  std::vector<std::string> methods;   // empty: all
};

struct SpawnMethodResult {
  std::string name;
  std::string description;
  double us_per_spawn = 0;        // median over rounds
  double ratio_to_brisk = 0;      // median of per-round ratios
  std::vector<double> round_us;   // per-round µs per spawn
  int failures = 0;               // spawns that did not exit 0
};

struct SpawnBenchReport {
  SpawnBenchConfig config;
  std::size_t heap_mb = 0;       // heap actually held during the run
  rlim_t nofile = 0;             // RLIMIT_NOFILE during the run
  std::string engine_method;     // what brisk's probe chose
  std::vector<SpawnMethodResult> results;
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

// Throws std::runtime_error on bad configuration (unknown method, nofile
// above the hard limit, no such program).
SpawnBenchReport run_spawn_bench(const SpawnBenchConfig& config);

std::string format_table(const SpawnBenchReport& report);
nlohmann::json to_json(const SpawnBenchReport& report);
double median(std::vector<double> values);

}  // namespace brisk::bench
