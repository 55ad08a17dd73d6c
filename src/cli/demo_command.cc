// `brisk demo`: what `make demo` shows. A quick spawn benchmark at a small and
// a large parent heap, to show brisk's cost does not follow the parent's size.
#include <iostream>

#include "bench/spawn_bench.h"
#include "cli/commands.h"

namespace brisk::cli {

void add_demo(CLI::App& app) {
  auto* demo = app.add_subcommand("demo", "Show brisk against fork, vfork, posix_spawn and system()");
  auto n = std::make_shared<int>(300);
  demo->add_option("--n", *n, "Spawns per method and heap size")->capture_default_str()->check(CLI::PositiveNumber);
  demo->callback([n] {
    std::cout << "brisk demo: spawning /bin/true with every method, side by side.\n"
                 "fork copies the parent's page tables, so it slows down as the parent grows;\n"
                 "brisk shares the parent's memory (clone3 CLONE_VM|CLONE_VFORK) and does not.\n\n";
    for (std::size_t mb : {10, 1024}) {
      bench::SpawnBenchConfig config;
      config.n = *n;
      config.rounds = 5;
      config.rss_mb = mb;
      try {
        std::cout << bench::format_table(bench::run_spawn_bench(config)) << "\n";
      } catch (const std::exception& e) {
        std::cerr << "brisk demo: " << e.what() << "\n";
        set_exit_code(1);
        return;
      }
    }
    std::cout << "Full sweeps: `make bench` or `brisk bench spawn --help`.\n";
  });
}

}  // namespace brisk::cli
