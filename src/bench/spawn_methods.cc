#include "bench/spawn_methods.h"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "bench/interrupt.h"
#include "bench/ruby_methods.h"
#include "brisk/shell_words.h"
#include "brisk/spawn.h"

extern char** environ;

namespace brisk::bench {

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const auto& arg : argv) out.push_back(const_cast<char*>(arg.c_str()));
  out.push_back(nullptr);
  return out;
}

std::vector<std::string> environment_for(const SpawnTarget& target) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    bool overridden = false;
    for (const auto& [key, value] : target.env)
      overridden |=
          entry.size() > key.size() && entry.substr(0, key.size()) == key && entry[key.size()] == '=';
    if (!overridden) env.emplace_back(entry);
  }
  for (const auto& [key, value] : target.env) env.push_back(key + "=" + value);
  return env;
}

int wait_exit_code(int pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int shell_exit_code(int status) {
  if (status == -1) return -1;
  if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
    note_interrupt(WTERMSIG(status));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

MethodTiming time_method(const SpawnMethodDef& method, const SpawnTarget& target, int count) {
  if (method.run_batch) return method.run_batch(target, count);
  MethodTiming timing;
  auto start = std::chrono::steady_clock::now();
  int done = 0;
  for (; done < count && !interrupt_signal(); ++done)  // Ctrl-C ends the batch early; the caller throws
    if (method.run(target) != 0) ++timing.failures;
  std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
  timing.us_per_call = took.count() / std::max(done, 1);
  return timing;
}

std::string why_unavailable(const SpawnMethodDef& method, const SpawnTarget& target) {
  return method.unavailable ? method.unavailable(target) : std::string();
}

namespace {

// The environment a method passes to execve: the parent's unless the target
// changes it. Built before the fork, so the child only reads it.
struct Envp {
  explicit Envp(const SpawnTarget& target) {
    if (target.env.empty()) return;
    strings = environment_for(target);
    pointers = c_argv(strings);
  }
  char** get() { return pointers.empty() ? environ : pointers.data(); }
  std::vector<std::string> strings;
  std::vector<char*> pointers;
};

int run_brisk(const SpawnTarget& target) {
  SpawnOptions options{.argv = target.argv, .search_path = false};
  options.chroot = target.chroot;
  for (const auto& [key, value] : target.env) options.env.emplace_back(key, value);
  auto child = spawn(options);
  if (!child) return -1;
  auto status = child->wait();
  return status && status->code() ? *status->code() : -1;
}

// The classic: a child that chroots itself, then execs.
[[noreturn]] void exec_in_child(const SpawnTarget& target, char** argv, char** envp) {
  if (!target.chroot.empty() && (::chroot(target.chroot.c_str()) < 0 || ::chdir("/") < 0)) ::_exit(126);
  ::execve(argv[0], argv, envp);
  ::_exit(127);
}

int run_vfork(const SpawnTarget& target) {
  auto argv = c_argv(target.argv);
  Envp envp(target);
  pid_t pid = ::vfork();
  if (pid == 0) exec_in_child(target, argv.data(), envp.get());
  return pid < 0 ? -1 : wait_exit_code(pid);
}

int run_fork(const SpawnTarget& target) {
  auto argv = c_argv(target.argv);
  Envp envp(target);
  pid_t pid = ::fork();
  if (pid == 0) exec_in_child(target, argv.data(), envp.get());
  return pid < 0 ? -1 : wait_exit_code(pid);
}

// What daemons and older runtimes do so no descriptor leaks into the child:
// close every fd up to RLIMIT_NOFILE, one syscall each.
int run_fork_closeall(const SpawnTarget& target) {
  auto argv = c_argv(target.argv);
  Envp envp(target);
  rlimit nofile{};
  ::getrlimit(RLIMIT_NOFILE, &nofile);
  int limit = nofile.rlim_cur == RLIM_INFINITY ? 1 << 20 : static_cast<int>(nofile.rlim_cur);
  pid_t pid = ::fork();
  if (pid == 0) {
    for (int fd = 3; fd < limit; ++fd) ::close(fd);
    exec_in_child(target, argv.data(), envp.get());
  }
  return pid < 0 ? -1 : wait_exit_code(pid);
}

// posix_spawn cannot chroot: it runs the chroot(8) binary, as scripts do.
int run_posix_spawn(const SpawnTarget& target) {
  std::vector<std::string> words = target.argv;
  if (!target.chroot.empty()) words.insert(words.begin(), {"/usr/sbin/chroot", target.chroot});
  auto argv = c_argv(words);
  Envp envp(target);
  pid_t pid = -1;
  if (::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.get()) != 0) return -1;
  return wait_exit_code(pid);
}

}  // namespace

std::string shell_line(const SpawnTarget& target) {
  std::string line;
  for (const auto& [key, value] : target.env) line += key + "=" + quote(value) + " ";
  if (!target.chroot.empty()) line += "/usr/sbin/chroot " + quote(target.chroot) + " ";
  for (const auto& arg : target.argv) line += quote(arg) + " ";
  return line;
}

namespace {

int run_system(const SpawnTarget& target) { return shell_exit_code(std::system(shell_line(target).c_str())); }

// popen reads the child's stdout through a pipe, as scripts capture output.
int run_popen(const SpawnTarget& target) {
  FILE* pipe = ::popen(shell_line(target).c_str(), "re");
  if (!pipe) return -1;
  char buffer[4096];
  while (std::fread(buffer, 1, sizeof buffer, pipe) > 0) {
  }
  return shell_exit_code(::pclose(pipe));
}

}  // namespace

const std::vector<SpawnMethodDef>& spawn_methods() {
  static const std::vector<SpawnMethodDef> methods = {
      {"brisk", "brisk::spawn (clone3 CLONE_VM|CLONE_VFORK, reused stack, pidfd)", run_brisk},
      {"vfork", "raw vfork + execve", run_vfork},
      {"posix_spawn", "glibc posix_spawn (chroot through chroot(8))", run_posix_spawn},
      {"fork", "fork + execve", run_fork},
      {"fork_closeall", "fork, close every fd below RLIMIT_NOFILE, execve", run_fork_closeall},
      {"system", "system() through /bin/sh", run_system},
      {"popen", "popen() through /bin/sh, stdout read to EOF", run_popen},
      {"ruby_root",
       "Ruby system() as root (forks); one ruby per round times its own loop: start-up excluded, its heap "
       "not the ballast",
       nullptr, run_ruby_as_root, ruby_unavailable_as_root},
      {"ruby_nobody",
       "Ruby system() as nobody (vforks); one ruby per round times its own loop: start-up excluded, its heap "
       "not the ballast",
       nullptr, run_ruby_as_nobody, ruby_unavailable_as_nobody},
  };
  return methods;
}

}  // namespace brisk::bench
