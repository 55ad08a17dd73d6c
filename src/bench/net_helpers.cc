#include "bench/net_helpers.h"

#include <sched.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "brisk/spawn.h"
#include "cli/companion.h"

namespace brisk::bench {

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

bool run_process(const std::vector<std::string>& argv, int netns_fd) {
  SpawnOptions options{.argv = argv};
  if (netns_fd >= 0) options.namespaces = {{.type = CLONE_NEWNET, .fd = netns_fd}};
  options.inherit_stdio = false;
  options.parent_death_signal = SIGKILL;
  auto child = spawn(options);
  if (!child) return false;
  auto status = child->wait();
  return status && status->success();
}

std::string brisk_cli() {
  if (const char* env = std::getenv("BRISK_CLI"); env && *env) return env;
  auto candidates = cli::cli_program_candidates();
  if (!candidates) throw std::runtime_error("cannot find the brisk CLI: " + candidates.error().message());
  std::string found = cli::first_executable(*candidates);
  if (found.empty())
    throw std::runtime_error("cannot find the brisk CLI: looked for " + cli::join_paths(*candidates) +
                             " (or set BRISK_CLI)");
  return found;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five;
  in >> one >> five;
  return one + " " + five;
}

std::optional<CpuTimes> cpu_times() {
  std::ifstream in("/proc/stat");
  std::string name;
  if (!(in >> name) || name != "cpu") return std::nullopt;
  CpuTimes t;
  for (int field = 0; field < 8; ++field) {  // user nice system idle iowait irq softirq steal
    long long ticks = 0;
    if (!(in >> ticks)) return std::nullopt;
    t.total += ticks;
    if (field == 3 || field == 4) t.idle += ticks;
  }
  return t;
}

Clock::duration wait_until_quiet(Clock::duration limit) {
  auto start = Clock::now();
  auto before = cpu_times();
  while (before && Clock::now() - start < limit) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto after = cpu_times();
    if (!after) break;
    long long total = after->total - before->total;
    if (total > 0 && static_cast<double>(after->idle - before->idle) >= 0.9 * static_cast<double>(total))
      break;
    before = after;
  }
  return Clock::now() - start;
}

void make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw std::runtime_error("cannot create " + path + ": " + ec.message());
}

}  // namespace brisk::bench
