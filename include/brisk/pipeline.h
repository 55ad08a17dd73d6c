// brisk/pipeline.h: commands connected stdout to stdin, without a shell.
//
// The pipeline's own settings say where the first stdin comes from, where the
// last stdout goes, and where every member's stderr goes (one shared stream,
// as in a shell). Each member keeps its own environment, cwd, chroot, user
// and namespaces; its own stdin, stdout, stderr and timeout are ignored.
//
//   brisk::Output out = (brisk::Command("dmesg") | brisk::Command({"grep", "-c", "eth0"}))
//                           .pipefail()
//                           .output();
//   out.processes[0].status;  // every member's status
//
// The status is the last member's, like a shell; with pipefail() it is the
// first member's whose status is not allowed (or the last's when all are).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "brisk/command.h"

namespace brisk {

class Pipeline {
 public:
  // Takes the run settings (stdin, sinks, timeout, recorder...) from the
  // process-wide defaults.
  explicit Pipeline(std::vector<Command> commands);

  Pipeline& then(Command command);
  Pipeline& stdin_from(Input input);
  Pipeline& stdout_to(Sink sink);
  Pipeline& stderr_to(Sink sink);
  Pipeline& allow_exit(AllowedExit codes);
  Pipeline& check(bool on);
  Pipeline& pipefail(bool on = true);
  Pipeline& timeout(std::chrono::nanoseconds limit);
  Pipeline& kill_after(std::chrono::nanoseconds grace);
  Pipeline& timeout_signal(int signal);
  // Every member joins one group, led by the first: timeouts reach them all.
  Pipeline& new_process_group(bool on = true);
  Pipeline& recorder(std::shared_ptr<Recorder> recorder);
  Pipeline& cancel_on(std::shared_ptr<CancelToken> token);

  // As Command's: throws SpawnFailed, TimedOut or ExecutionFailed.
  Output output() const;
  CommandStatus status() const;
  std::string read() const;
  Process spawn() const;

  const std::vector<Command>& commands() const { return commands_; }
  const RunOptions& run_options() const { return run_; }
  RunOptions& run_options() { return run_; }
  // The members' lines joined by " | ".
  std::string to_string() const;

 private:
  std::vector<Command> commands_;
  RunOptions run_;
};

Pipeline operator|(Command left, Command right);
Pipeline operator|(Pipeline left, Command right);

}  // namespace brisk
