// cli/bench/commands.h: the subcommands of brisk-bench (`brisk bench ...` and
// `brisk demo`, handed over by brisk), each defined in its own file.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/app.h"

namespace brisk::cli {

void add_bench(CLI::App& app);               // bench_command.cc
void add_demo(CLI::App& app);                // demo_command.cc
void add_bench_link(CLI::App& bench);        // bench_link_command.cc
void add_bench_containers(CLI::App& bench);  // bench_containers_command.cc
void add_bench_cni(CLI::App& bench);         // bench_cni_command.cc
void add_bench_ip(CLI::App& bench);          // bench_ip_command.cc: `brisk bench ip`
void add_bench_startup(CLI::App& bench);     // bench_startup_command.cc

// Runs a bench action: errors go to stderr as "<who>: ..." with exit code 1;
// an Interrupted (Ctrl-C) ends the process by its signal after the stack
// has unwound and cleaned up (bench_command.cc).
void run_interruptible(const char* who, const std::function<void()>& action);

}  // namespace brisk::cli
