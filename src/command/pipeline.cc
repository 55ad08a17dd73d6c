// command/pipeline.cc: the Pipeline builder.
#include "brisk/pipeline.h"

#include "brisk/command_log.h"
#include "command/execution.h"

namespace brisk {

Pipeline::Pipeline(std::vector<Command> commands)
    : RunSettings(command_defaults().run), commands_(std::move(commands)) {}

Pipeline& Pipeline::then(Command command) {
  commands_.push_back(std::move(command));
  return *this;
}
Pipeline& Pipeline::pipefail(bool on) {
  run_.pipefail = on;
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
