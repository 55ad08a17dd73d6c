// The YaST write-up's workload: one command, stdout and stderr captured.
// brisk's Command::output() against the two ways YaST did it: SCR's
// .target.bash_output (system() through the shell, output redirected to temp
// files that are read back) and Cheetah's (fork, a pipe per stream, exec, a
// poll loop until both close, waitpid).
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/spawn_methods.h"
#include "brisk/command.h"

namespace brisk::bench {
namespace {

int run_brisk_output(const SpawnTarget& target) {
  Command command(target.argv);
  for (const auto& [key, value] : target.env) command.env(key, value);
  if (!target.chroot.empty()) command.chroot(target.chroot);
  Output out = command.check(false).output();
  return out.out.empty() ? -1 : out.status.exit.code().value_or(-1);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int run_system_tempfiles(const SpawnTarget& target) {
  const std::string stem =
      (std::filesystem::temp_directory_path() / ("brisk-bench-" + std::to_string(::getpid()))).string();
  const std::string out = stem + ".out", err = stem + ".err";
  int status = std::system((shell_line(target) + "> " + out + " 2> " + err).c_str());
  std::string captured = slurp(out), errors = slurp(err);
  ::unlink(out.c_str());
  ::unlink(err.c_str());
  int code = shell_exit_code(status);
  return captured.empty() ? -1 : code;
}

// Reads both pipes until both close; true when stdout had data.
bool drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  char buffer[65536];
  for (int open_count = 2; open_count > 0;) {
    if (::poll(fds, 2, -1) < 0) continue;
    for (auto& pfd : fds) {
      if (pfd.fd < 0 || !pfd.revents) continue;
      ssize_t n = ::read(pfd.fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(pfd.fd);
        pfd.fd = -1;
        --open_count;
      } else {
        (&pfd == &fds[0] ? out : err).append(buffer, static_cast<std::size_t>(n));
      }
    }
  }
  return !out.empty();
}

int run_fork_exec_pipes(const SpawnTarget& target) {
  auto argv = c_argv(target.argv);
  auto env_strings = environment_for(target);
  auto envp = c_argv(env_strings);
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) < 0) return -1;
  if (::pipe2(err, O_CLOEXEC) < 0) {
    ::close(out[0]);
    ::close(out[1]);
    return -1;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    if (!target.chroot.empty() && (::chroot(target.chroot.c_str()) < 0 || ::chdir("/") < 0)) ::_exit(126);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  std::string o, e;
  bool got_output = drain(out[0], err[0], o, e);
  int code = pid < 0 ? -1 : wait_exit_code(pid);
  return got_output ? code : -1;
}

}  // namespace

const std::vector<SpawnMethodDef>& workload_methods() {
  static const std::vector<SpawnMethodDef> methods = {
      {"brisk", "brisk::Command::output(), both streams captured by one poll loop", run_brisk_output},
      {"scr_system_tempfiles", "SCR's way: system() through /bin/sh, output to temp files read back",
       run_system_tempfiles},
      {"cheetah_fork_pipes", "Cheetah's way: fork + execve, a pipe per stream, poll, waitpid",
       run_fork_exec_pipes},
  };
  return methods;
}

}  // namespace brisk::bench
