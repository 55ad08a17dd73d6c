// cli/app.h: what the mains of brisk and brisk-bench share: the top line and
// footer of the help (every subcommand's help inherits the footer), the exit
// code the subcommands record, and the parse that runs them.
#pragma once

#include <CLI/CLI.hpp>

namespace brisk::cli {

inline constexpr const char* kAppDescription =
    "brisk: fast process spawning and rtnetlink for Linux hosts and containers";
inline constexpr const char* kAppFooter =
    "Network configuration in iproute2's grammar (link, address, route, neigh, netns, fdb):\n"
    "  brisk help, brisk OBJECT help";

// Subcommands run from their CLI11 callbacks and record their exit code here.
inline int& exit_code_slot() {
  static int code = 0;
  return code;
}
inline int exit_code() { return exit_code_slot(); }
inline void set_exit_code(int code) { exit_code_slot() = code; }

// One subcommand required; the shared footer; -V prints brisk's version.
inline void set_up_app(CLI::App& app) {
  app.require_subcommand(1);
  app.footer(kAppFooter);
  app.set_version_flag("-V,--version", std::string("brisk ") + BRISK_VERSION_STRING);
}

// Parses argv, which runs the subcommand's callback: its exit code, 0 after
// --help or -V, 2 after a usage error (printed by CLI11).
inline int run_app(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exit_code();
}

}  // namespace brisk::cli
