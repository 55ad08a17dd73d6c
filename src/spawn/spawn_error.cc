#include <cstring>

#include "brisk/spawn.h"

namespace brisk {

const char* to_string(SpawnStep step) {
  switch (step) {
    case SpawnStep::none:
      return "none";
    case SpawnStep::validate:
      return "validate";
    case SpawnStep::resolve_program:
      return "resolve program";
    case SpawnStep::prepare:
      return "prepare";
    case SpawnStep::clone:
      return "clone";
    case SpawnStep::signals:
      return "reset signals";
    case SpawnStep::process_group:
      return "process group";
    case SpawnStep::fd_map:
      return "map fds";
    case SpawnStep::close_fds:
      return "close fds";
    case SpawnStep::setns:
      return "setns";
    case SpawnStep::mount_namespace:
      return "private mount namespace";
    case SpawnStep::sysfs:
      return "mount sysfs";
    case SpawnStep::bind_etc:
      return "bind";
    case SpawnStep::cgroup:
      return "join cgroup";
    case SpawnStep::chroot:
      return "chroot";
    case SpawnStep::chdir:
      return "chdir";
    case SpawnStep::umask:
      return "umask";
    case SpawnStep::rlimit:
      return "setrlimit";
    case SpawnStep::setgroups:
      return "setgroups";
    case SpawnStep::setgid:
      return "setresgid";
    case SpawnStep::setuid:
      return "setresuid";
    case SpawnStep::parent_death_signal:
      return "parent death signal";
    case SpawnStep::exec:
      return "exec";
  }
  return "unknown step";
}

SpawnError::Kind SpawnError::kind() const {
  switch (step) {
    case SpawnStep::validate:
      // ECANCELED: not started by choice (a CancelToken, run_all's
      // stop_on_failure), not because the options were wrong.
      return code == ECANCELED ? Kind::other : Kind::invalid_argument;
    case SpawnStep::resolve_program:
    case SpawnStep::exec:
      if (code == ENOENT) return Kind::program_not_found;
      if (code == EACCES || code == EPERM || code == ENOEXEC) return Kind::permission_denied;
      return Kind::other;
    case SpawnStep::chdir:
      return Kind::bad_cwd;
    case SpawnStep::chroot:
      return Kind::bad_chroot;
    default:
      return Kind::other;
  }
}

std::string SpawnError::message() const {
  std::string text = "spawn " + program + ": " + to_string(step);
  if (!object.empty()) text += " " + object;
  text += ": ";
  if (!detail.empty()) {
    text += detail;
  } else {
    text += code ? std::strerror(code) : "failed";
  }
  return text;
}

SpawnFailed::SpawnFailed(SpawnError error) : std::runtime_error(error.message()), error_(std::move(error)) {}

void throw_error(const SpawnError& error) {
  switch (error.kind()) {
    case SpawnError::Kind::invalid_argument:
      throw InvalidSpawnOptions(error);
    case SpawnError::Kind::program_not_found:
      throw ProgramNotFound(error);
    case SpawnError::Kind::permission_denied:
      throw PermissionDenied(error);
    case SpawnError::Kind::bad_cwd:
      throw BadWorkingDirectory(error);
    case SpawnError::Kind::bad_chroot:
      throw BadRoot(error);
    case SpawnError::Kind::other:
      break;
  }
  throw SpawnFailed(error);
}

const char* to_string(SpawnMethod method) {
  switch (method) {
    case SpawnMethod::unknown:
      return "unknown";
    case SpawnMethod::clone3:
      return "clone3";
    case SpawnMethod::clone:
      return "clone";
    case SpawnMethod::vfork:
      return "vfork";
    case SpawnMethod::fork:
      return "fork";
  }
  return "unknown";
}

}  // namespace brisk
