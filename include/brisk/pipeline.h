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
#include "brisk/export.h"

namespace brisk {

class BRISK_EXPORT Pipeline : public RunSettings<Pipeline> {
 public:
  // Takes the run settings (stdin, sinks, timeout, recorder...) from the
  // process-wide defaults.
  explicit Pipeline(std::vector<Command> commands);

  Pipeline& then(Command command);
  // The first failing member decides the status, not the last.
  Pipeline& pipefail(bool on = true);
  // The other run setters (stdin_from, stdout_to, check, timeout, ...) and
  // run_options() come from RunSettings, as Command's do.

  // As Command's: throws SpawnFailed, TimedOut or ExecutionFailed.
  Output output() const;
  CommandStatus status() const;
  std::string read() const;
  Process spawn() const;

  const std::vector<Command>& commands() const { return commands_; }
  // The members' lines joined by " | ".
  std::string to_string() const;

 private:
  std::vector<Command> commands_;
};

BRISK_EXPORT Pipeline operator|(Command left, Command right);
BRISK_EXPORT Pipeline operator|(Pipeline left, Command right);

}  // namespace brisk
