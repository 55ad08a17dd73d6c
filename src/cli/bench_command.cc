// `brisk bench spawn`: every way of starting a program, side by side.
#include <cstdio>
#include <iostream>

#include "bench/spawn_bench.h"
#include "cli/commands.h"

namespace brisk::cli {
namespace {

int g_exit_code = 0;

}  // namespace

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

void add_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure brisk against the tools people use today");
  bench->require_subcommand(1);
  add_bench_link(*bench);
  add_bench_containers(*bench);

  auto* spawn = bench->add_subcommand("spawn", "Spawn a program N times with every method");
  auto config = std::make_shared<bench::SpawnBenchConfig>();
  auto json = std::make_shared<bool>(false);
  spawn->add_option("--n", config->n, "Spawns per method")->capture_default_str()->check(CLI::PositiveNumber);
  spawn->add_option("--rounds", config->rounds, "Rounds the spawns are split into")
      ->capture_default_str()->check(CLI::PositiveNumber);
  spawn->add_option("--rss", config->rss_mb, "Grow this process's heap to MB MiB first")->capture_default_str();
  spawn->add_option("--nofile", config->nofile, "Raise RLIMIT_NOFILE to N first");
  spawn->add_option("--chroot", config->chroot, "Spawn inside this root directory")->check(CLI::ExistingDirectory);
  auto methods = std::make_shared<std::string>();
  spawn->add_option("--methods", *methods, "Only these methods, comma-separated (brisk always runs)");
  spawn->add_flag("--json", *json, "Print the report as JSON");
  spawn->add_option("program", config->argv, "Program and arguments (absolute path)")->capture_default_str();
  spawn->callback([config, json, methods] {
    for (size_t start = 0; start < methods->size();) {
      size_t comma = std::min(methods->find(',', start), methods->size());
      if (comma > start) config->methods.push_back(methods->substr(start, comma - start));
      start = comma + 1;
    }
    try {
      auto report = bench::run_spawn_bench(*config);
      if (*json)
        std::cout << bench::to_json(report).dump(2) << "\n";
      else
        std::cout << bench::format_table(report);
    } catch (const std::exception& e) {
      std::cerr << "brisk bench spawn: " << e.what() << "\n";
      set_exit_code(1);
    }
  });
}

}  // namespace brisk::cli
