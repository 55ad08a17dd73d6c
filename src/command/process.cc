// command/process.cc: a started run (Command::spawn, Pipeline::spawn),
// driven, waited for and signalled through its Execution.
#include <stdexcept>

#include "brisk/cancel.h"
#include "brisk/command.h"
#include "brisk/command_errors.h"
#include "command/execution.h"

namespace brisk {

Process::Process(std::unique_ptr<detail::Execution> execution) : execution_(std::move(execution)) {}
Process::Process(Process&&) noexcept = default;
Process& Process::operator=(Process&&) noexcept = default;
Process::~Process() = default;

pid_t Process::pid() const { return execution_ ? execution_->last_pid() : -1; }

Result<void> Process::kill(int signal) {
  if (!execution_)
    return SysError{.code = ESRCH, .call = "pidfd_send_signal", .detail = "process already waited for"};
  return execution_->kill(signal);
}

UniqueFd Process::take_stdin() { return execution_ ? execution_->take_handed(0) : UniqueFd(); }
UniqueFd Process::take_stdout() { return execution_ ? execution_->take_handed(1) : UniqueFd(); }
UniqueFd Process::take_stderr() { return execution_ ? execution_->take_handed(2) : UniqueFd(); }

std::optional<Output> Process::drive_until(detail::Clock::time_point until, int rounds, const Wakeup* wake) {
  if (!execution_) throw std::logic_error("brisk::Process waited for after it finished");
  execution_->close_handed();
  {
    detail::SigpipeGuard guard(execution_->writes_stdin());
    detail::Execution* one = execution_.get();
    // The flag is checked before each poll: a notify() racing with
    // Wakeup::clear() may leave it set with the eventfd already drained.
    while (!execution_->finished() && !(wake && wake->notified())) {
      bool progressed = detail::poll_once({&one, 1}, until, wake ? wake->fd() : -1);
      if (detail::Clock::now() >= until && (!progressed || --rounds <= 0)) break;
    }
  }
  if (!execution_->finished()) return std::nullopt;
  return wait();
}

std::optional<Output> Process::wait_for(std::chrono::nanoseconds limit, const Wakeup* wake) {
  return drive_until(detail::Clock::now() + limit, 1, wake);
}

// 16 rounds read at most 16 x 64 KiB from each pipe.
std::optional<Output> Process::try_wait() { return drive_until(detail::Clock::now(), 16); }

Output Process::wait() {
  if (!execution_) throw std::logic_error("brisk::Process waited for after it finished");
  auto execution = std::move(execution_);
  // The caller's ends are theirs to keep; the ones not taken close here, so
  // that the child does not wait forever on a stdin nobody will write.
  execution->close_handed();
  detail::drive(*execution);
  Output output = execution->finish();
  if (execution->run().check) check_output(execution->commands(), output);
  return output;
}

}  // namespace brisk
