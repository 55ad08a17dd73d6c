// `brisk bench startup`: whole-process start-up of brisk and ip, side by
// side; --brisk (repeatable) measures other brisk builds in the same run.
#include <iostream>
#include <memory>

#include "bench/startup_bench.h"
#include "cli/bench/commands.h"

namespace brisk::cli {

void add_bench_startup(CLI::App& bench) {
  auto* startup = bench.add_subcommand(
      "startup", "Time whole processes: brisk -V and brisk link show against ip's, spawn to reaped");
  auto config = std::make_shared<bench::StartupBenchConfig>();
  auto json = std::make_shared<bool>(false);
  startup->add_option("--n", config->n, "Runs of each command")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  startup->add_option(
      "--brisk", config->brisk_paths,
      "A brisk CLI to measure (repeat to compare builds; default: the brisk beside brisk-bench)");
  startup->add_option("--ip", config->ip, "The ip to compare with")->capture_default_str();
  startup->add_flag("--json", *json, "Print the report as JSON");
  startup->callback([config, json] {
    run_interruptible("brisk bench startup", [&] {
      auto report = bench::run_startup_bench(*config);
      if (*json)
        std::cout << bench::to_json(report).dump(2) << "\n";
      else
        std::cout << bench::format_table(report);
      if (report.failures()) set_exit_code(1);
    });
  });
}

}  // namespace brisk::cli
