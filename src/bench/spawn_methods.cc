#include "bench/spawn_methods.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "brisk/spawn.h"

extern char** environ;

namespace brisk::bench {
namespace {

std::vector<char*> c_argv(const SpawnTarget& target) {
  std::vector<char*> argv;
  for (const auto& arg : target.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  return argv;
}

int wait_pid(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_brisk(const SpawnTarget& target) {
  SpawnOptions options{.argv = target.argv, .search_path = false};
  options.chroot = target.chroot;
  auto child = spawn(options);
  if (!child) return -1;
  auto status = child->wait();
  return status && status->code() ? *status->code() : -1;
}

// The classic: a child that chroots itself, then execs.
[[noreturn]] void exec_in_child(const SpawnTarget& target, char** argv) {
  if (!target.chroot.empty() && (::chroot(target.chroot.c_str()) < 0 || ::chdir("/") < 0)) ::_exit(126);
  ::execve(argv[0], argv, environ);
  ::_exit(127);
}

int run_vfork(const SpawnTarget& target) {
  auto argv = c_argv(target);
  pid_t pid = ::vfork();
  if (pid == 0) exec_in_child(target, argv.data());
  return pid < 0 ? -1 : wait_pid(pid);
}

int run_fork(const SpawnTarget& target) {
  auto argv = c_argv(target);
  pid_t pid = ::fork();
  if (pid == 0) exec_in_child(target, argv.data());
  return pid < 0 ? -1 : wait_pid(pid);
}

// posix_spawn cannot chroot: it runs the chroot(8) binary, as scripts do.
int run_posix_spawn(const SpawnTarget& target) {
  SpawnTarget actual = target;
  if (!target.chroot.empty()) {
    actual.argv.insert(actual.argv.begin(), {"/usr/sbin/chroot", target.chroot});
  }
  auto argv = c_argv(actual);
  pid_t pid = -1;
  if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  return wait_pid(pid);
}

std::string shell_line(const SpawnTarget& target) {
  std::string line = target.chroot.empty() ? "" : "/usr/sbin/chroot '" + target.chroot + "' ";
  for (const auto& arg : target.argv) line += "'" + arg + "' ";
  return line;
}

int run_system(const SpawnTarget& target) {
  int status = std::system(shell_line(target).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

const std::vector<SpawnMethodDef>& spawn_methods() {
  static const std::vector<SpawnMethodDef> methods = {
      {"brisk", "brisk::spawn (clone3 CLONE_VM|CLONE_VFORK, reused stack, pidfd)", run_brisk},
      {"vfork", "raw vfork + execve", run_vfork},
      {"posix_spawn", "glibc posix_spawn", run_posix_spawn},
      {"fork", "fork + execve", run_fork},
      {"system", "system() through /bin/sh", run_system},
  };
  return methods;
}

}  // namespace brisk::bench
