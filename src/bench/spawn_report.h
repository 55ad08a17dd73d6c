// bench/spawn_report.h: the spawn bench's results as a table, JSON, CSV
// and plots.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/plot.h"
#include "bench/spawn_bench.h"
#include "bench/spawn_sweep.h"

namespace brisk::bench {

std::string format_table(const SpawnBenchReport& report);
nlohmann::json to_json(const SpawnBenchReport& report);
nlohmann::json to_json(const SpawnSweepReport& sweep);

// One row per point and method; the header names carry the units.
std::string to_csv(const std::vector<SpawnBenchReport>& points);

// µs per call against parent heap size (the "heap" points), one line per
// method; log scales where the range calls for them.
PlotSpec heap_plot(const std::vector<SpawnBenchReport>& points);
// µs per call against the RLIMIT_NOFILE reached (the "nofile" points).
PlotSpec nofile_plot(const std::vector<SpawnBenchReport>& points);

// Writes spawn.json, spawn.csv, spawn.txt (the tables) and the plots into dir; returns the paths.
// Throws std::runtime_error with the file's name on failure.
std::vector<std::string> write_spawn_outputs(const SpawnSweepReport& sweep, const std::string& dir);

}  // namespace brisk::bench
