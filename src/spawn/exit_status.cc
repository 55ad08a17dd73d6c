#include "brisk/exit_status.h"

#include <string.h>

namespace brisk {

ExitStatus ExitStatus::from_siginfo(const siginfo_t& info) {
  switch (info.si_code) {
    case CLD_KILLED:
      return from_signal(info.si_status, false);
    case CLD_DUMPED:
      return from_signal(info.si_status, true);
    default:  // CLD_EXITED
      return from_code(info.si_status);
  }
}

std::string signal_name(int signal) {
  const char* abbrev = sigabbrev_np(signal);  // glibc 2.32+, thread-safe
  if (abbrev) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

std::string ExitStatus::to_string() const {
  if (kind == Kind::exited) return "exit code " + std::to_string(value);
  std::string text = "signal " + std::to_string(value) + " (" + signal_name(value);
  if (core_dumped) text += ", core dumped";
  return text + ")";
}

}  // namespace brisk
