// command/errors.cc: ExecutionFailed, TimedOut and Cancelled, with Cheetah's message.
#include "brisk/command_errors.h"
#include "brisk/shell_words.h"

namespace brisk {
namespace {

std::string command_line(const std::vector<std::vector<std::string>>& commands) {
  std::string line;
  for (const auto& argv : commands) {
    if (!line.empty()) line += " | ";
    line += join_quoted(argv);
  }
  return line;
}

std::string first_line(const std::string& text) {
  std::size_t start = 0;
  // Skip blank lines: the first line that says something is the useful one.
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) return text.substr(start, end - start);
    start = end + 1;
  }
  return {};
}

std::string failure_message(const std::vector<std::vector<std::string>>& commands, const Output& output) {
  std::string message = "Execution of \"" + command_line(commands) + "\" ";
  if (output.status.timed_out) {
    message += "timed out and ended with " + output.status.exit.to_string();
  } else if (output.status.cancelled) {
    message += "was cancelled and ended with " + output.status.exit.to_string();
  } else if (output.status.exit.kind == ExitStatus::Kind::signaled) {
    message += "was killed by " + output.status.exit.to_string();
  } else {
    message += "failed with " + output.status.exit.to_string();
  }
  if (output.status.read_error) message += ", output lost: " + output.status.read_error->message();
  std::string line = first_line(output.err);
  if (line.empty()) return message + ".";
  return message + ": " + line;
}

}  // namespace

// The message is built from const references first: the order in which
// arguments are evaluated is unspecified, so moving in the same call is unsafe.
ExecutionFailed::ExecutionFailed(std::vector<std::vector<std::string>> commands, Output output)
    : std::runtime_error(failure_message(commands, output)),
      commands_(std::move(commands)),
      output_(std::move(output)) {}

TimedOut::TimedOut(std::vector<std::vector<std::string>> commands, Output output)
    : ExecutionFailed(std::move(commands), std::move(output)) {}

Cancelled::Cancelled(std::vector<std::vector<std::string>> commands, Output output)
    : ExecutionFailed(std::move(commands), std::move(output)) {}

void check_output(const std::vector<std::vector<std::string>>& commands, const Output& output) {
  if (output.status.allowed) return;
  if (output.status.timed_out) throw TimedOut(commands, output);
  if (output.status.cancelled) throw Cancelled(commands, output);
  throw ExecutionFailed(commands, output);
}

}  // namespace brisk
