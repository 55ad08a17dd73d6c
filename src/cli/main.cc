// brisk: the command-line tool. Subcommands live in their own files and
// register themselves on the CLI11 app here.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string_view>

#include "cli/commands.h"
#include "cli/handover.h"
#include "cli/ip/ip.h"

int main(int argc, char** argv) try {
  // iproute2's grammar (`brisk -j link show`, `brisk -batch f`) does not fit CLI11.
  if (argc > 1 && brisk::ipcli::is_ip_invocation(argv[1], argc == 2))
    return brisk::ipcli::ip_main(argc, argv);
  if (argc > 1 && brisk::cli::is_handed_over(argv[1])) return brisk::cli::hand_over(argv);
  if (argc == 2 && std::string_view(argv[1]) == "help") {
    std::fputs(brisk::ipcli::general_usage().data(), stdout);
    return 0;
  }
  CLI::App app{brisk::cli::kAppDescription};
  brisk::cli::set_up_app(app);
  // Listed for --help only: main hands them over before parsing.
  app.add_subcommand("bench", brisk::cli::kBenchSummary);
  app.add_subcommand("demo", brisk::cli::kDemoSummary);
  brisk::cli::add_run(app);
  // Any other word that names none of brisk's own commands is an object, as
  // ip reads it: ip's "Object "X" is unknown" (status 1), not CLI11's usage.
  if (argc > 1 && argv[1][0] != '-') {
    auto named = app.get_subcommands([&](CLI::App* sub) { return sub->check_name(argv[1]); });
    if (named.empty()) return brisk::ipcli::ip_main(argc, argv);
  }
  return brisk::cli::run_app(app, argc, argv);
} catch (const std::exception& e) {
  std::fprintf(stderr, "brisk: %s\n", e.what());
  return 1;
}
