// brisk-bench: the benchmarks and the demo, a program of their own so that
// brisk carries none of them. brisk hands `brisk bench ...` and `brisk demo`
// over to it with argv unchanged, so help and errors read as brisk's.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/app.h"
#include "cli/bench/commands.h"

int main(int argc, char** argv) try {
  CLI::App app{brisk::cli::kAppDescription};
  brisk::cli::set_up_app(app);
  brisk::cli::add_bench(app);
  brisk::cli::add_demo(app);
  return brisk::cli::run_app(app, argc, argv);
} catch (const std::exception& e) {
  std::fprintf(stderr, "brisk: %s\n", e.what());
  return 1;
}
