// cli/handover.h: `brisk bench` and `brisk demo` run in brisk-bench, a
// program of their own, so that brisk itself carries no benchmark code and
// starts fast. brisk hands those words over by exec, argv unchanged.
#pragma once

#include <string_view>

namespace brisk::cli {

// The subcommands that live in brisk-bench, with the summaries both
// programs' help lists.
inline constexpr const char* kBenchSummary = "Measure brisk against the tools people use today";
inline constexpr const char* kDemoSummary =
    "Show brisk against fork, posix_spawn, system(), Ruby and ip, with plots";

// True for the first argument of a command that brisk-bench runs.
bool is_handed_over(std::string_view word);

// Execs brisk-bench with argv as it is (argv[argc] is null). Returns only on
// failure, having said why on stderr: 127 when brisk-bench is not where it
// was looked for, 126 when it is there but cannot be executed.
int hand_over(char** argv);

}  // namespace brisk::cli
