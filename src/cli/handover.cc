#include "cli/handover.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "brisk/result.h"
#include "cli/companion.h"

namespace brisk::cli {

bool is_handed_over(std::string_view word) { return word == "bench" || word == "demo"; }

int hand_over(char** argv) {
  auto candidates = bench_program_candidates();
  if (!candidates) {
    std::fprintf(stderr, "brisk: cannot find %s: %s\n", kBenchProgram, candidates.error().message().c_str());
    return 127;
  }
  // Exec each in turn rather than test first: nothing can change in between.
  for (const auto& path : *candidates) {
    ::execv(path.c_str(), argv);  // returns only on failure
    SysError failed = last_error("execv", path);
    if (failed.code == ENOENT || failed.code == ENOTDIR) continue;
    std::fprintf(stderr, "brisk: cannot run `%s %s`: %s\n", kBenchProgram, argv[1], failed.message().c_str());
    return 126;
  }
  std::fprintf(stderr, "brisk: `%s` is in %s, which is not installed: looked for %s\n", argv[1],
               kBenchProgram, join_paths(*candidates).c_str());
  return 127;
}

}  // namespace brisk::cli
