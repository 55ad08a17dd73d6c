// bench/startup_bench.h: `brisk bench startup`, whole processes from spawn to
// reaped: `brisk -V` and `brisk link show` against `ip -V` and `ip link show`,
// run in turn round by round, in a network namespace of their own (lo only),
// so output is small and the host is never touched. Start-up is why brisk
// links its C++ runtime in and carries no benchmark code.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace brisk::bench {

struct StartupBenchConfig {
  int n = 200;                             // runs of each command
  std::vector<std::string> brisk_paths{};  // brisk CLIs to measure side by side; empty: brisk_cli()
  std::string ip = "ip";                   // the ip to compare with, looked up on PATH once
};

struct StartupRow {
  std::string program{};  // "ip", "brisk", or a brisk path as given
  std::string path{};     // the executable run
  std::string command{};  // its arguments: "-V", "link show"
  int runs = 0;           // timed runs
  int failures = 0;       // runs that did not start or did not exit 0
  double median_us = 0;   // wall time, spawn to reaped
  double mean_us = 0;
  double user_us = 0;    // mean user CPU (the child's rusage)
  double system_us = 0;  // mean system CPU
  double task_clock_us() const { return user_us + system_us; }
  double ratio_to_ip = 0;    // median_us over ip's for the same command
  long long size_bytes = 0;  // the executable's file size
};

struct StartupBenchReport {
  int n = 0;
  std::vector<StartupRow> rows{};  // per command: ip first, then each brisk
  std::vector<std::string> notes{};
  int failures() const;
};

// Throws std::runtime_error when the sandbox cannot be made (needs root) or a
// program is missing.
StartupBenchReport run_startup_bench(const StartupBenchConfig& config);
std::string format_table(const StartupBenchReport& report);
nlohmann::json to_json(const StartupBenchReport& report);

}  // namespace brisk::bench
