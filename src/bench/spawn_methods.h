// bench/spawn_methods.h: the ways of starting a program that `brisk bench
// spawn` compares, each implemented the way its users write it.
//
// Two families share one shape:
//   spawn_methods():    start the program and wait (stdio inherited);
//   workload_methods(): the YaST write-up's shape, stdout and stderr
//                       captured, as brisk, SCR and Cheetah do it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace brisk::bench {

struct SpawnTarget {
  std::vector<std::string> argv;                           // argv[0] is an absolute path
  std::string chroot;                                      // empty: none
  std::vector<std::pair<std::string, std::string>> env{};  // set on top of the inherited environment
};

// What a batch of calls cost.
struct MethodTiming {
  double us_per_call = 0;  // wall time per call, as the method measured it
  int failures = 0;        // calls that did not exit 0 (or produced no output when captured)
};

struct SpawnMethodDef {
  const char* name;         // stable identifier used in JSON, CSV and --methods
  const char* description;  // one line for the table
  // Runs the target once and waits for it; returns its exit code, or -1.
  // nullptr for methods that only run in batches (Ruby: one interpreter per batch).
  int (*run)(const SpawnTarget& target) = nullptr;
  // Runs the target `count` times; nullptr means timing `run` in a loop here.
  MethodTiming (*run_batch)(const SpawnTarget& target, int count) = nullptr;
  // Empty when the method can run this target, else why not (no ruby, ...).
  std::string (*unavailable)(const SpawnTarget& target) = nullptr;
};

// brisk first; the rest in the order the write-up discusses them.
const std::vector<SpawnMethodDef>& spawn_methods();
// brisk's Command::output() first, then SCR's and Cheetah's ways.
const std::vector<SpawnMethodDef>& workload_methods();

// Times `count` calls of the method (through run_batch when it has one).
MethodTiming time_method(const SpawnMethodDef& method, const SpawnTarget& target, int count);
// Why the method cannot run the target, or empty.
std::string why_unavailable(const SpawnMethodDef& method, const SpawnTarget& target);

// Helpers the method files share.
std::vector<char*> c_argv(const std::vector<std::string>& argv);
// The parent's environment with `target.env` set on top, as KEY=VALUE strings.
std::vector<std::string> environment_for(const SpawnTarget& target);
// The target as a /bin/sh command line: env assignments, chroot(8) when
// chrooted, then the quoted argv.
std::string shell_line(const SpawnTarget& target);
// The exit code of a shell run by system() or pclose(), or -1; a shell
// killed by SIGINT or SIGTERM is noted as an interrupt (system() itself
// ignores SIGINT while it waits, so this is how a Ctrl-C reaches us).
int shell_exit_code(int status);
// Waits for pid; its exit code, or -1 for a signal or an error.
int wait_exit_code(int pid);

}  // namespace brisk::bench
