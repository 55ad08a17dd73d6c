// command/pipeline.cc: the Pipeline builder.
#include "brisk/pipeline.h"

#include "brisk/command_log.h"
#include "command/execution.h"

namespace brisk {

Pipeline::Pipeline(std::vector<Command> commands)
    : commands_(std::move(commands)), run_(command_defaults().run) {}

Pipeline& Pipeline::then(Command command) {
  commands_.push_back(std::move(command));
  return *this;
}
Pipeline& Pipeline::stdin_from(Input input) {
  run_.input = std::move(input);
  return *this;
}
Pipeline& Pipeline::stdout_to(Sink sink) {
  run_.out = std::move(sink);
  return *this;
}
Pipeline& Pipeline::stderr_to(Sink sink) {
  run_.err = std::move(sink);
  return *this;
}
Pipeline& Pipeline::allow_exit(AllowedExit codes) {
  run_.allowed = std::move(codes);
  return *this;
}
Pipeline& Pipeline::check(bool on) {
  run_.check = on;
  return *this;
}
Pipeline& Pipeline::pipefail(bool on) {
  run_.pipefail = on;
  return *this;
}
Pipeline& Pipeline::timeout(std::chrono::nanoseconds limit) {
  run_.timeout = limit;
  return *this;
}
Pipeline& Pipeline::kill_after(std::chrono::nanoseconds grace) {
  run_.kill_after = grace;
  return *this;
}
Pipeline& Pipeline::timeout_signal(int signal) {
  run_.timeout_signal = signal;
  return *this;
}
Pipeline& Pipeline::new_process_group(bool on) {
  run_.new_process_group = on;
  return *this;
}
Pipeline& Pipeline::recorder(std::shared_ptr<Recorder> recorder) {
  run_.recorder = std::move(recorder);
  return *this;
}

Pipeline& Pipeline::cancel_on(std::shared_ptr<CancelToken> token) {
  run_.cancel = std::move(token);
  return *this;
}

Output Pipeline::output() const { return detail::run_checked(commands_, detail::capturing(run_)); }

CommandStatus Pipeline::status() const { return detail::run_checked(commands_, run_).status; }

std::string Pipeline::read() const {
  RunOptions run = detail::capturing(run_);
  run.out = Sink::capture();
  run.check = true;
  return detail::run_checked(commands_, run).out;
}

Process Pipeline::spawn() const {
  auto execution = detail::Execution::start(commands_, run_);
  if (!execution) throw_error(execution.error());
  return Process(std::move(*execution));
}

std::string Pipeline::to_string() const { return detail::describe(commands_); }

Pipeline operator|(Command left, Command right) {
  return Pipeline(std::vector<Command>{std::move(left), std::move(right)});
}

Pipeline operator|(Pipeline left, Command right) {
  left.then(std::move(right));
  return left;
}

}  // namespace brisk
