// brisk/command_log.h: what a run tells a logger, and process-wide defaults.
//
// A Recorder receives, in order: the command line, the stdin data it feeds,
// stdout and stderr line by line as they arrive, and the final status, the
// way Cheetah's recorder does, line by line. log_recorder() is Cheetah's default recorder on
// top of any logging function: INFO for commands, input, output and success;
// ERROR for stderr lines and failures.
//
//   brisk::CommandDefaults defaults;
//   defaults.run.recorder = brisk::log_recorder([](brisk::LogLevel level, std::string_view line) {
//     syslog(level == brisk::LogLevel::error ? LOG_ERR : LOG_INFO, "%.*s", int(line.size()), line.data());
//   });
//   brisk::set_command_defaults(defaults);
//
// Only streams the event loop reads are recorded: inherited, null, file and
// fd sinks go straight to the child and are never seen.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "brisk/command.h"
#include "brisk/export.h"

namespace brisk {

class BRISK_EXPORT Recorder {
 public:
  virtual ~Recorder() = default;
  // The command line (a pipeline's members joined by " | ").
  virtual void record_commands(std::string_view line) = 0;
  // One line of stdin without its newline, as it is fed (Input::data is
  // recorded whole at the start); a final unterminated line comes last.
  virtual void record_stdin(std::string_view line) = 0;
  // One line without its newline; a final unterminated line comes at end of file.
  virtual void record_stdout(std::string_view line) = 0;
  virtual void record_stderr(std::string_view line) = 0;
  virtual void record_status(const CommandStatus& status) = 0;
};

enum class LogLevel { info, error };
using LogFunction = std::function<void(LogLevel level, std::string_view message)>;

// Messages, as Cheetah writes them:
//   INFO  Executing "ls -l /".
//   INFO  Standard input: <line>
//   INFO  Standard output: <line>
//   ERROR Error output: <line>
//   INFO  Status: exit code 0          (ERROR when not allowed)
BRISK_EXPORT std::shared_ptr<Recorder> log_recorder(LogFunction log);

// Applied by Command's constructors (not by Command(SpawnOptions, RunOptions)).
struct CommandDefaults {
  RunOptions run{};  // every run setting, e.g. a recorder or a timeout
  std::vector<std::pair<std::string, std::optional<std::string>>>
      env{};  // changes applied before the command's own
};

// Thread-safe; commands built afterwards use the new defaults.
BRISK_EXPORT void set_command_defaults(CommandDefaults defaults);
BRISK_EXPORT CommandDefaults command_defaults();

}  // namespace brisk
