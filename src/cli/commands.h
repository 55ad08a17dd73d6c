// cli/commands.h: the subcommands of `brisk`, each defined in its own file.
// `brisk bench` and `brisk demo` are brisk-bench's (cli/handover.h).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/app.h"

namespace brisk::cli {

void add_run(CLI::App& app);  // run_command.cc

}  // namespace brisk::cli
