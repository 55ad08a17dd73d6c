// bench/net_helpers.h: small helpers the network benchmarks share (their
// sandbox is sandbox/net_sandbox.h).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace brisk::bench {

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point start);

// Runs argv (stdio on /dev/null) in the network namespace `netns_fd` (the
// caller's when -1), killed if the spawning thread dies; true on exit 0.
bool run_process(const std::vector<std::string>& argv, int netns_fd = -1);

// The brisk CLI the benches run: $BRISK_CLI, else the `brisk` beside this
// program, in the build tree or installed (cli/companion.h). Throws
// std::runtime_error naming the paths tried when there is none.
std::string brisk_cli();

// Writes `text` to path, replacing it; throws std::runtime_error on failure.
void write_file(const std::string& path, const std::string& text);
// The 1- and 5-minute load averages, "2.10 1.85", for the report's notes.
std::string load_average();
// The share of all CPUs' time spent idle (idle and iowait) from /proc/stat's
// "cpu " line between two of its samples, or nullopt when it cannot be read.
struct CpuTimes {
  long long idle = 0;
  long long total = 0;
};
std::optional<CpuTimes> cpu_times();
// Waits until the CPUs have been at least 90% idle over a 100 ms window, or
// `limit` has passed; returns how long it waited. A namespace's teardown
// goes on in the kernel long after the call returns (the cleanup workqueue,
// then RCU callbacks run in softirq on whichever task is current): what
// runs next would be charged for it.
Clock::duration wait_until_quiet(Clock::duration limit);
// mkdir -p; throws std::runtime_error on failure.
void make_directories(const std::string& path);

}  // namespace brisk::bench
