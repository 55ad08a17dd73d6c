// cli/companion.h: how brisk's two programs find each other. In the build
// tree they sit side by side (build/brisk, build/brisk-bench); installed,
// brisk is in $bindir and brisk-bench in $libexecdir/brisk. Each looks,
// relative to its own /proc/self/exe, first beside itself, then where the
// installed layout puts the other, so that a build tree finds its own first.
#pragma once

#include <string>
#include <vector>

#include "brisk/result.h"

namespace brisk::cli {

inline constexpr const char* kCliProgram = "brisk";
inline constexpr const char* kBenchProgram = "brisk-bench";

// Where brisk-bench may be, for brisk to hand over to, in the order to try.
Result<std::vector<std::string>> bench_program_candidates();
// Where the brisk CLI may be, for brisk-bench to run, in the order to try.
Result<std::vector<std::string>> cli_program_candidates();

// The first candidate that is an executable regular file, or empty.
std::string first_executable(const std::vector<std::string>& candidates);
// "a or b", for messages that name what was looked for.
std::string join_paths(const std::vector<std::string>& paths);

}  // namespace brisk::cli
