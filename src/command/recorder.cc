// command/recorder.cc: Cheetah's default recorder and the process-wide defaults.
#include <mutex>

#include "brisk/command_log.h"

namespace brisk {
namespace {

class LogRecorder final : public Recorder {
 public:
  explicit LogRecorder(LogFunction log) : log_(std::move(log)) {}
  void record_commands(std::string_view line) override {
    log_(LogLevel::info, "Executing \"" + std::string(line) + "\".");
  }
  void record_stdin(std::string_view data) override {
    log_(LogLevel::info, "Standard input: " + std::string(data));
  }
  void record_stdout(std::string_view line) override {
    log_(LogLevel::info, "Standard output: " + std::string(line));
  }
  void record_stderr(std::string_view line) override {
    log_(LogLevel::error, "Error output: " + std::string(line));
  }
  void record_status(const CommandStatus& status) override {
    log_(status.allowed ? LogLevel::info : LogLevel::error, "Status: " + status.to_string());
  }

 private:
  LogFunction log_;
};

std::mutex g_defaults_mutex;
CommandDefaults& defaults_storage() {
  static CommandDefaults defaults;
  return defaults;
}

}  // namespace

std::shared_ptr<Recorder> log_recorder(LogFunction log) {
  return std::make_shared<LogRecorder>(std::move(log));
}

void set_command_defaults(CommandDefaults defaults) {
  std::lock_guard lock(g_defaults_mutex);
  defaults_storage() = std::move(defaults);
}

CommandDefaults command_defaults() {
  std::lock_guard lock(g_defaults_mutex);
  return defaults_storage();
}

}  // namespace brisk
