// brisk: the command-line tool. Subcommands live in their own files and
// register themselves on the CLI11 app here.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string_view>

#include "cli/commands.h"
#include "cli/ip/ip.h"

int main(int argc, char** argv) try {
  // iproute2's grammar (`brisk -j link show`, `brisk -batch f`) does not fit CLI11.
  if (argc > 1 && brisk::ipcli::is_ip_invocation(argv[1])) return brisk::ipcli::ip_main(argc, argv);
  if (argc == 2 && std::string_view(argv[1]) == "help") {
    std::fputs(brisk::ipcli::general_usage().data(), stdout);
    return 0;
  }
  CLI::App app{"brisk: fast process spawning and rtnetlink for Linux hosts and containers"};
  app.require_subcommand(1);
  app.footer("Network configuration in iproute2's grammar (link, address, route, neigh, netns, fdb):\n"
             "  brisk help, brisk OBJECT help");
  app.set_version_flag("-V,--version", std::string("brisk ") + BRISK_VERSION_STRING);
  brisk::cli::add_bench(app);
  brisk::cli::add_bench_ip(*app.get_subcommand("bench"));
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
