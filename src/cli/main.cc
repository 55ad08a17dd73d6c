// brisk: the command-line tool. Subcommands live in their own files and
// register themselves on the CLI11 app here.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/commands.h"

int main(int argc, char** argv) try {
  CLI::App app{"brisk: fast process spawning and rtnetlink for Linux hosts and containers"};
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", std::string("brisk ") + BRISK_VERSION_STRING);
  brisk::cli::add_bench(app);
  brisk::cli::add_demo(app);
  brisk::cli::add_run(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  return brisk::cli::exit_code();
} catch (const std::exception& e) {
  std::fprintf(stderr, "brisk: %s\n", e.what());
  return 1;
}
