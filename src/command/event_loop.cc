// command/event_loop.cc: the poll() loop that drives runs.
//
// poll() rather than epoll: a run has at most a handful of descriptors, and
// rebuilding the set costs less than epoll_create plus one epoll_ctl per fd.
#include <signal.h>

#include <algorithm>
#include <ctime>

#include "brisk/command_errors.h"
#include "brisk/shell_words.h"
#include "command/execution.h"
#include "sys/syscalls.h"

namespace brisk::detail {

bool poll_once(std::span<Execution* const> executions, std::optional<Clock::time_point> until, int wake_fd) {
  std::vector<pollfd> fds;
  std::vector<std::size_t> begin;
  std::optional<Clock::time_point> wake;
  for (Execution* e : executions) {
    begin.push_back(fds.size());
    e->add_polls(fds);
    if (auto t = e->next_timer()) wake = wake ? std::min(*wake, *t) : *t;
  }
  begin.push_back(fds.size());
  if (wake_fd >= 0) fds.push_back({wake_fd, POLLIN, 0});  // after every execution's range
  if (until) wake = wake ? std::min(*wake, *until) : *until;
  int timeout_ms = -1;
  if (wake) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(*wake - Clock::now()).count();
    timeout_ms = static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
  }
  auto ready = sys::poll(fds, timeout_ms);
  // EINTR: nothing is ready, timers are checked below. Other errors (ENOMEM)
  // leave revents at zero, and the next round retries.
  if (!ready)
    for (auto& pfd : fds) pfd.revents = 0;
  Clock::time_point now = Clock::now();
  for (std::size_t i = 0; i < executions.size(); ++i) {
    executions[i]->dispatch(std::span<const pollfd>(fds).subspan(begin[i], begin[i + 1] - begin[i]));
    executions[i]->fire_timers(now);
  }
  return ready && *ready > 0;
}

void drive(Execution& execution) {
  SigpipeGuard guard(execution.writes_stdin());
  Execution* one = &execution;
  while (!execution.finished()) poll_once({&one, 1});
}

SigpipeGuard::SigpipeGuard(bool active) : active_(active) {
  if (!active_) return;
  sigset_t pipe_only;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  sigset_t pending;
  sigpending(&pending);
  was_pending_ = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask_);
}

SigpipeGuard::~SigpipeGuard() {
  if (!active_) return;
  if (!was_pending_) {
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) == 1) {
      sigset_t pipe_only;
      sigemptyset(&pipe_only);
      sigaddset(&pipe_only, SIGPIPE);
      timespec zero{0, 0};
      (void)sigtimedwait(&pipe_only, nullptr, &zero);
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

Output run_checked(std::span<const Command> commands, const RunOptions& run) {
  auto execution = Execution::start(commands, run);
  if (!execution) throw_error(execution.error());
  (*execution)->close_handed();  // output() and status() cannot hand pipes out
  drive(**execution);
  Output output = (*execution)->finish();
  if (run.check) check_output((*execution)->commands(), output);
  return output;
}

RunOptions capturing(RunOptions run) {
  if (run.out.kind() == Sink::Kind::quiet) run.out = Sink::capture();
  if (run.err.kind() == Sink::Kind::quiet) run.err = Sink::capture();
  return run;
}

std::string describe(std::span<const Command> commands) {
  std::string line;
  for (const auto& command : commands) {
    if (!line.empty()) line += " | ";
    line += command.to_string();
  }
  return line;
}

}  // namespace brisk::detail
