// bench/spawn_methods.h: the ways of starting a program that `brisk bench
// spawn` compares, each implemented the way its users write it.
#pragma once

#include <string>
#include <vector>

namespace brisk::bench {

struct SpawnTarget {
  std::vector<std::string> argv;  // argv[0] is an absolute path
  std::string chroot;             // empty: none
};

struct SpawnMethodDef {
  const char* name;         // stable identifier used in JSON and --methods
  const char* description;  // one line for the table
  // Runs the target once and waits for it; returns its exit code, or -1.
  int (*run)(const SpawnTarget& target);
};

// brisk first; the rest in the order the write-up discusses them.
const std::vector<SpawnMethodDef>& spawn_methods();

}  // namespace brisk::bench
