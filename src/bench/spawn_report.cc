#include "bench/spawn_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "bench/report_files.h"

namespace brisk::bench {

namespace {

std::string nofile_text(const NofileOutcome& nofile) {
  if (nofile.requested == 0 || nofile.requested == nofile.reached) return fmt::format("{}", nofile.reached);
  return fmt::format("{} (asked {})", nofile.reached, nofile.requested);
}

}  // namespace

std::string format_table(const SpawnBenchReport& report) {
  const auto& c = report.config;
  std::string program;
  for (const auto& [key, value] : c.env) program += key + "=" + value + " ";
  for (const auto& word : c.argv) program += word + " ";
  std::string out = fmt::format("{}{}x{} per method | heap {} MiB | nofile {}{}{} | engine: {}\n",
                                c.label.empty() ? "" : "== " + c.label + ": ", program, c.n, report.heap_mb,
                                nofile_text(report.nofile), c.workload ? " | stdout+stderr captured" : "",
                                c.chroot.empty() ? "" : " | chroot " + c.chroot, report.engine_method);
  if (!report.nofile.note.empty()) out += "  RLIMIT_NOFILE: " + report.nofile.note + "\n";
  out += fmt::format("{:<21} {:>12} {:>9}  {}\n", "method", "µs/call", "× brisk", "how");
  for (const auto& r : report.results) {
    std::string capped =
        r.calls < report.config.n ? fmt::format(" [{} calls: time budget]", r.calls) : std::string();
    out += fmt::format("{:<21} {:>12.1f} {:>9.2f}  {}{}{}\n", r.name, r.us_per_spawn, r.ratio_to_brisk,
                       r.description, capped, r.failures ? fmt::format(" ({} FAILED)", r.failures) : "");
  }
  for (const auto& s : report.skipped)
    out += fmt::format("{:<21} {:>12} {:>9}  {}\n", s.name, "skipped", "", s.reason);
  return out;
}

nlohmann::json to_json(const SpawnBenchReport& report) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& r : report.results) {
    methods.push_back({{"name", r.name},
                       {"description", r.description},
                       {"us_per_spawn", r.us_per_spawn},
                       {"ratio_to_brisk", r.ratio_to_brisk},
                       {"round_us", r.round_us},
                       {"failures", r.failures},
                       {"calls", r.calls}});
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : report.skipped) skipped.push_back({{"name", s.name}, {"reason", s.reason}});
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [key, value] : report.config.env) env[key] = value;
  return {{"bench", "spawn"},
          {"sweep", report.config.sweep},
          {"label", report.config.label},
          {"program", report.config.argv},
          {"env", env},
          {"captured", report.config.workload},
          {"n", report.config.n},
          {"rounds", report.config.rounds},
          {"heap_mb", report.heap_mb},
          {"nofile", report.nofile.reached},
          {"nofile_requested", report.nofile.requested},
          {"nofile_hard", report.nofile.hard},
          {"nofile_note", report.nofile.note},
          {"chroot", report.config.chroot},
          {"engine_method", report.engine_method},
          {"unit", "µs per call"},
          {"methods", methods},
          {"skipped", skipped}};
}

nlohmann::json to_json(const SpawnSweepReport& sweep) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& point : sweep.points) points.push_back(to_json(point));
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : sweep.skipped) skipped.push_back({{"label", s.label}, {"reason", s.reason}});
  return {{"bench", "spawn-sweep"}, {"points", points}, {"skipped_points", skipped}};
}

std::string to_csv(const std::vector<SpawnBenchReport>& points) {
  std::string csv =
      csv_row({"sweep", "point", "program", "captured", "calls", "heap_MiB", "nofile_requested",
               "nofile_reached", "chroot", "method", "us_per_call", "ratio_to_brisk", "failures"});
  for (const auto& p : points) {
    std::string program;
    for (const auto& word : p.config.argv) program += (program.empty() ? "" : " ") + word;
    for (const auto& r : p.results) {
      csv += csv_row({p.config.sweep, p.config.label, program, p.config.workload ? "yes" : "no",
                      std::to_string(r.calls), std::to_string(p.heap_mb), std::to_string(p.nofile.requested),
                      std::to_string(p.nofile.reached), p.config.chroot.empty() ? "no" : "yes", r.name,
                      fmt::format("{:.2f}", r.us_per_spawn), fmt::format("{:.3f}", r.ratio_to_brisk),
                      std::to_string(r.failures)});
    }
  }
  return csv;
}

namespace {

// One series per method over the points of one sweep, x taken from each point.
PlotSpec plot_over(const std::vector<SpawnBenchReport>& points, const std::string& sweep,
                   double (*x_of)(const SpawnBenchReport&)) {
  PlotSpec spec;
  std::map<std::string, std::size_t> index;
  for (const auto& p : points) {
    if (p.config.sweep != sweep) continue;
    for (const auto& r : p.results) {
      if (r.failures > 0 || r.us_per_spawn <= 0) continue;  // a failed method has no honest figure
      auto [it, added] = index.emplace(r.name, spec.series.size());
      if (added) spec.series.push_back({r.name, {}});
      spec.series[it->second].points.emplace_back(x_of(p), r.us_per_spawn);
    }
  }
  spec.log_x = wants_log_scale(spec.series, true);
  spec.log_y = wants_log_scale(spec.series, false, 8);
  return spec;
}

}  // namespace

PlotSpec heap_plot(const std::vector<SpawnBenchReport>& points) {
  PlotSpec spec =
      plot_over(points, "heap", [](const SpawnBenchReport& p) { return static_cast<double>(p.heap_mb); });
  spec.title = "Spawning /bin/true: cost against the parent's heap size";
  spec.x_label = "parent heap (MiB)";
  spec.y_label = "time per spawn (µs)";
  return spec;
}

PlotSpec nofile_plot(const std::vector<SpawnBenchReport>& points) {
  PlotSpec spec = plot_over(points, "nofile",
                            [](const SpawnBenchReport& p) { return static_cast<double>(p.nofile.reached); });
  spec.title = "Spawning /bin/true: cost against RLIMIT_NOFILE";
  spec.x_label = "RLIMIT_NOFILE reached (descriptors)";
  spec.y_label = "time per spawn (µs)";
  return spec;
}

std::vector<std::string> write_spawn_outputs(const SpawnSweepReport& sweep, const std::string& dir) {
  std::vector<std::string> files;
  files.push_back(write_text_file(dir, "spawn.json", to_json(sweep).dump(2) + "\n"));
  files.push_back(write_text_file(dir, "spawn.csv", to_csv(sweep.points)));
  std::string tables;
  for (const auto& point : sweep.points) tables += format_table(point) + "\n";
  for (const auto& skipped : sweep.skipped)
    tables += "skipped " + skipped.label + ": " + skipped.reason + "\n";
  files.push_back(write_text_file(dir, "spawn.txt", tables));
  for (auto [spec, stem] : {std::pair{heap_plot(sweep.points), "spawn-heap"},
                            std::pair{nofile_plot(sweep.points), "spawn-nofile"}}) {
    std::size_t with_points = 0;
    for (const auto& s : spec.series) with_points = std::max(with_points, s.points.size());
    if (with_points < 2) continue;  // a line needs two points along the sweep
    auto written = write_plot(spec, dir + "/" + stem);
    if (!written) throw std::runtime_error("plot " + std::string(stem) + ": " + written.error().message());
    files.push_back(*written);
  }
  return files;
}

}  // namespace brisk::bench
