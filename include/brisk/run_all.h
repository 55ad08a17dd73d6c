// brisk/run_all.h: many commands, at most N at a time, from one event loop.
//
// No thread per child: the calling thread polls every running command's pipes
// and pidfds together, starts the next command as soon as one finishes, and
// enforces each command's own timeout. Results come back in input order.
// Statuses are not checked (a failure is a result, not an exception), and a
// command that cannot start yields its SpawnError while the others run on.
//
//   std::vector<brisk::Command> jobs = ...;
//   auto results = brisk::run_all(jobs, {.max_parallel = 4});
//   for (auto& r : results) if (!r || !r->status.success()) ...
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "brisk/command.h"
#include "brisk/export.h"
#include "brisk/pipeline.h"

namespace brisk {

struct RunAllOptions {
  std::size_t max_parallel = 4;  // commands running at once; at least 1
  // Called as each command finishes (in completion order), with its input index.
  std::function<void(std::size_t index, const Result<Output, SpawnError>& result)> on_done{};
  // Start no new command after the first failure; those not started get a
  // SpawnError with step validate and code ECANCELED.
  bool stop_on_failure = false;
};

BRISK_EXPORT std::vector<Result<Output, SpawnError>> run_all(const std::vector<Command>& commands,
                                                             const RunAllOptions& options = {});
BRISK_EXPORT std::vector<Result<Output, SpawnError>> run_all(const std::vector<Pipeline>& pipelines,
                                                             const RunAllOptions& options = {});

}  // namespace brisk
