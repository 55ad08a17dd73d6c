#include "bench/startup_bench.h"

#include <fmt/format.h>
#include <signal.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "bench/net_helpers.h"
#include "bench/spawn_bench.h"
#include "brisk/spawn.h"
#include "sandbox/net_sandbox.h"

namespace brisk::bench {
namespace {

struct Program {
  std::string label;
  std::string path;
};

struct Samples {
  std::vector<double> wall_us;
  double user_us = 0;
  double system_us = 0;
  int failures = 0;
};

double us_of(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) * 1e6 + static_cast<double>(tv.tv_usec);
}

std::vector<std::string> words(const std::string& command) {
  std::vector<std::string> out;
  for (size_t start = 0; start < command.size();) {
    size_t space = std::min(command.find(' ', start), command.size());
    out.push_back(command.substr(start, space - start));
    start = space + 1;
  }
  return out;
}

// One whole process, stdio on /dev/null; false when it did not exit 0.
bool run_once(const std::string& path, const std::string& command, Samples* into) {
  SpawnOptions options{.argv = {path}, .search_path = false};
  for (auto& word : words(command)) options.argv.push_back(std::move(word));
  options.inherit_stdio = false;
  options.parent_death_signal = SIGKILL;
  auto start = Clock::now();
  auto child = spawn(options);
  if (!child) return false;
  auto status = child->wait();
  double us = us_since(start);
  if (!status || !status->success()) return false;
  if (into) {
    into->wall_us.push_back(us);
    into->user_us += us_of(child->rusage().ru_utime);
    into->system_us += us_of(child->rusage().ru_stime);
  }
  return true;
}

std::vector<Program> programs_of(const StartupBenchConfig& config) {
  std::string ip =
      config.ip.find('/') == std::string::npos ? find_program(config.ip).value_or("") : config.ip;
  if (ip.empty()) throw std::runtime_error("no " + config.ip + " on PATH");
  std::vector<Program> programs{{"ip", ip}};
  if (config.brisk_paths.empty()) programs.push_back({"brisk", brisk_cli()});
  for (const auto& path : config.brisk_paths) programs.push_back({path, path});
  for (const auto& p : programs)
    if (!std::filesystem::exists(p.path)) throw std::runtime_error("cannot run " + p.path + ": no such file");
  return programs;
}

}  // namespace

int StartupBenchReport::failures() const {
  int total = 0;
  for (const auto& row : rows) total += row.failures;
  return total;
}

StartupBenchReport run_startup_bench(const StartupBenchConfig& config) {
  if (config.n < 1) throw std::runtime_error("--n must be at least 1");
  std::vector<Program> programs = programs_of(config);
  StartupBenchReport report{.n = config.n};
  report.notes.push_back("load average before the run: " + load_average() + " (other work on the machine)");
  const std::vector<std::string> commands{"-V", "link show"};
  std::vector<StartupRow> rows;
  for (const auto& command : commands)
    for (const auto& p : programs) {
      std::error_code ec;
      auto size = std::filesystem::file_size(p.path, ec);
      rows.push_back({.program = p.label,
                      .path = p.path,
                      .command = command,
                      .size_bytes = ec ? 0 : static_cast<long long>(size)});
    }
  std::vector<Samples> samples(rows.size());
  sandbox::run_in_net_sandbox([&] {
    for (const auto& row : rows) run_once(row.path, row.command, nullptr);  // warm the page cache, untimed
    // Round by round, each round starting one row later, so that a busy
    // moment of the machine, and being first, fall on every row alike.
    for (int round = 0; round < config.n; ++round)
      for (size_t k = 0; k < rows.size(); ++k) {
        size_t i = (k + static_cast<size_t>(round)) % rows.size();
        if (!run_once(rows[i].path, rows[i].command, &samples[i])) ++samples[i].failures;
      }
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    StartupRow& row = rows[i];
    const Samples& s = samples[i];
    row.failures = s.failures;
    row.runs = static_cast<int>(s.wall_us.size());
    if (row.runs == 0) continue;
    double sum = 0;
    for (double us : s.wall_us) sum += us;
    row.mean_us = sum / row.runs;
    row.median_us = median(s.wall_us);
    row.user_us = s.user_us / row.runs;
    row.system_us = s.system_us / row.runs;
  }
  for (auto& row : rows)
    for (const auto& ip : rows)
      if (ip.program == "ip" && ip.command == row.command && ip.median_us > 0)
        row.ratio_to_ip = row.median_us / ip.median_us;
  report.rows = std::move(rows);
  return report;
}

std::string format_table(const StartupBenchReport& report) {
  size_t width = 8;
  for (const auto& row : report.rows) width = std::max(width, row.program.size() + row.command.size() + 1);
  std::string out = fmt::format(
      "brisk bench startup: {} runs of each, in turn round by round, in a network namespace of their own\n"
      "{:<{}}  {:>10}  {:>10}  {:>14}  {:>7}  {:>8}\n",
      report.n, "command", width, "median µs", "mean µs", "task-clock µs", "vs ip", "failures");
  for (const auto& row : report.rows)
    out += fmt::format("{:<{}}  {:>10.1f}  {:>10.1f}  {:>14.1f}  {:>6.2f}x  {:>8}\n",
                       row.program + " " + row.command, width, row.median_us, row.mean_us,
                       row.task_clock_us(), row.ratio_to_ip, row.failures);
  out +=
      "wall: spawn to reaped; task-clock: the child's user + system CPU (rusage); vs ip: the medians' "
      "ratio\n";
  for (const auto& note : report.notes) out += "note: " + note + "\n";
  return out;
}

nlohmann::json to_json(const StartupBenchReport& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : report.rows)
    rows.push_back({{"program", row.program},
                    {"path", row.path},
                    {"command", row.command},
                    {"runs", row.runs},
                    {"failures", row.failures},
                    {"median_us", row.median_us},
                    {"mean_us", row.mean_us},
                    {"user_us", row.user_us},
                    {"system_us", row.system_us},
                    {"task_clock_us", row.task_clock_us()},
                    {"ratio_to_ip", row.ratio_to_ip},
                    {"size_bytes", row.size_bytes}});
  return {{"bench", "startup"}, {"n", report.n}, {"rows", rows}, {"notes", report.notes}};
}

}  // namespace brisk::bench
