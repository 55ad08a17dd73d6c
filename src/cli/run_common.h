// cli/run_common.h: what `brisk run` and `brisk run --batch` share: the
// parsed options, how they become a Command, and the result as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "brisk/command.h"
#include "brisk/run_all.h"

namespace brisk::cli {

// The options as given on the command line, before validation.
struct RunArgs {
  std::string cwd;                 // --cwd
  std::string chroot;              // --chroot
  std::vector<std::string> env;    // --env K=V, repeatable
  std::vector<std::string> unset;  // --unset K, repeatable
  bool clear_env = false;          // --clear-env
  std::string timeout;             // --timeout SECS, parsed by validate_run_args
  std::string kill_after;          // --kill-after SECS
  std::string netns;               // --netns NAME|PATH
  std::string user;                // --user USER[:GROUP]
  std::string allow_exit;          // --allow-exit LIST
  bool json = false;               // --json
  std::string batch;               // --batch FILE|-
  int jobs = 1;                    // -j N
  bool keep_going = false;         // --keep-going
  std::vector<std::string> argv;   // PROGRAM [ARGS...]
};

// Validates every option and builds the command template (without argv).
// On error returns the one-line message for the user.
struct Template {
  SpawnOptions spawn;  // cwd, chroot, env, netns, user, parent-death signal
  RunOptions run;      // timeout, kill-after, allowed exit codes
};
std::optional<std::string> build_template(const RunArgs& args, Template& out);

// Exit code for one finished run: 0 when allowed, 124 on timeout, 128+signal,
// else the program's code (1 when the program's 0 was not allowed).
int exit_code_for(const CommandStatus& status);
// 127 program not found, 126 cannot execute, 125 any other failure to start.
int exit_code_for(const SpawnError& error);

nlohmann::json result_json(const std::vector<std::string>& argv, const Result<Output, SpawnError>& result);

// Runs --batch; returns the exit code.
int run_batch(const RunArgs& args, const Template& base);

}  // namespace brisk::cli
