// brisk/command_errors.h: the exceptions of the command API.
//
// ExecutionFailed is thrown when a run ends with a status that is not
// allowed; TimedOut, a subclass, when its timeout expired, and Cancelled when
// its CancelToken fired. All carry every
// command's argv, the status, and the run's stdout and stderr, even when the
// caller did not capture them (the first bytes of quiet and callback streams
// are kept for this). Failures to start are SpawnFailed (brisk/spawn.h).
//
//   try {
//     brisk::Command("false").status();
//   } catch (const brisk::ExecutionFailed& e) {
//     log(e.what());  // Execution of "false" failed with exit code 1.
//   }
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "brisk/command.h"
#include "brisk/export.h"

namespace brisk {

class BRISK_EXPORT ExecutionFailed : public std::runtime_error {
 public:
  ExecutionFailed(std::vector<std::vector<std::string>> commands, Output output);

  // Every command of the run, in pipeline order.
  const std::vector<std::vector<std::string>>& commands() const noexcept { return commands_; }
  const CommandStatus& status() const noexcept { return output_.status; }
  const std::string& out() const noexcept { return output_.out; }
  const std::string& err() const noexcept { return output_.err; }
  const Output& output() const noexcept { return output_; }

 private:
  std::vector<std::vector<std::string>> commands_;
  Output output_;
};

class BRISK_EXPORT TimedOut : public ExecutionFailed {
 public:
  TimedOut(std::vector<std::vector<std::string>> commands, Output output);
};

// The run's CancelToken fired (brisk/cancel.h).
class BRISK_EXPORT Cancelled : public ExecutionFailed {
 public:
  Cancelled(std::vector<std::vector<std::string>> commands, Output output);
};

// Throws TimedOut, Cancelled or ExecutionFailed for a status that is not allowed.
BRISK_EXPORT void check_output(const std::vector<std::vector<std::string>>& commands, const Output& output);

}  // namespace brisk
