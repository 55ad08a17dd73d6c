// command/run_all.cc: many runs, at most N at once, from one poll() loop.
#include "brisk/run_all.h"

#include <algorithm>

#include "command/execution.h"

namespace brisk {
namespace {

using Job = std::span<const Command>;

std::vector<Result<Output, SpawnError>> run_jobs(const std::vector<Job>& jobs,
                                                 const std::vector<const RunOptions*>& runs,
                                                 const RunAllOptions& options) {
  std::vector<std::optional<Result<Output, SpawnError>>> results(jobs.size());
  std::vector<std::unique_ptr<detail::Execution>> running;
  std::vector<std::size_t> running_index;
  const std::size_t limit = std::max<std::size_t>(options.max_parallel, 1);
  std::size_t next = 0;
  bool failed = false;

  auto complete = [&](std::size_t index, Result<Output, SpawnError> result) {
    if (!result || !result->status.success()) failed = true;
    results[index] = std::move(result);
    if (options.on_done) options.on_done(index, *results[index]);
  };

  // Stdin pipes may be written for the whole run; block SIGPIPE once for it.
  bool any_stdin = std::any_of(runs.begin(), runs.end(), [](const RunOptions* run) {
    auto kind = run->input.kind();
    return kind == Input::Kind::data || kind == Input::Kind::callback;
  });
  detail::SigpipeGuard guard(any_stdin);
  for (;;) {
    while (running.size() < limit && next < jobs.size() && !(failed && options.stop_on_failure)) {
      std::size_t index = next++;
      auto execution = detail::Execution::start(jobs[index], *runs[index]);
      if (!execution) {
        complete(index, std::move(execution).error());
        continue;
      }
      (*execution)->close_handed();  // nobody can take them from a batch
      running.push_back(std::move(*execution));
      running_index.push_back(index);
    }
    if (running.empty()) break;
    std::vector<detail::Execution*> raw;
    raw.reserve(running.size());
    for (auto& e : running) raw.push_back(e.get());
    detail::poll_once(raw);
    for (std::size_t i = 0; i < running.size();) {
      if (!running[i]->finished()) {
        ++i;
        continue;
      }
      complete(running_index[i], running[i]->finish());
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      running_index.erase(running_index.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  std::vector<Result<Output, SpawnError>> out;
  out.reserve(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (results[i]) {
      out.push_back(std::move(*results[i]));
    } else {
      SpawnError cancelled;
      cancelled.step = SpawnStep::validate;
      cancelled.code = ECANCELED;
      cancelled.program = jobs[i].empty() || jobs[i].front().argv().empty() ? "" : jobs[i].front().argv()[0];
      cancelled.detail = "not started: an earlier command failed";
      out.emplace_back(std::move(cancelled));
    }
  }
  return out;
}

}  // namespace

std::vector<Result<Output, SpawnError>> run_all(const std::vector<Command>& commands,
                                                const RunAllOptions& options) {
  std::vector<Job> jobs;
  std::vector<const RunOptions*> runs;
  for (const auto& command : commands) {
    jobs.emplace_back(&command, 1);
    runs.push_back(&command.run_options());
  }
  return run_jobs(jobs, runs, options);
}

std::vector<Result<Output, SpawnError>> run_all(const std::vector<Pipeline>& pipelines,
                                                const RunAllOptions& options) {
  std::vector<Job> jobs;
  std::vector<const RunOptions*> runs;
  for (const auto& pipeline : pipelines) {
    jobs.emplace_back(pipeline.commands());
    runs.push_back(&pipeline.run_options());
  }
  return run_jobs(jobs, runs, options);
}

}  // namespace brisk
