// brisk/exit_status.h: how a process ended.
#pragma once

#include <signal.h>

#include <optional>
#include <string>

#include "brisk/export.h"

namespace brisk {

// Either an exit code or a terminating signal; never confuses the two, so a
// child killed by SIGKILL is not mistaken for one that exited 137.
struct BRISK_EXPORT ExitStatus {
  enum class Kind { exited, signaled };

  Kind kind = Kind::exited;
  int value = 0;             // the exit code, or the signal number
  bool core_dumped = false;  // only when signaled

  static ExitStatus from_code(int code) { return {Kind::exited, code, false}; }
  static ExitStatus from_signal(int signal, bool core = false) { return {Kind::signaled, signal, core}; }
  // From waitid()'s siginfo (CLD_EXITED, CLD_KILLED or CLD_DUMPED).
  static ExitStatus from_siginfo(const siginfo_t& info);

  bool success() const { return kind == Kind::exited && value == 0; }
  std::optional<int> code() const { return kind == Kind::exited ? std::optional(value) : std::nullopt; }
  std::optional<int> signal() const { return kind == Kind::signaled ? std::optional(value) : std::nullopt; }
  // The code a shell would report: the exit code, or 128 + signal.
  int shell_code() const { return kind == Kind::exited ? value : 128 + value; }
  // "exit code 3", "signal 9 (SIGKILL)", "signal 11 (SIGSEGV, core dumped)".
  std::string to_string() const;

  friend bool operator==(const ExitStatus&, const ExitStatus&) = default;
};

// "SIGTERM" for 15; "signal 64" for numbers without a name.
BRISK_EXPORT std::string signal_name(int signal);

}  // namespace brisk
