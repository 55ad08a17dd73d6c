// Shared by the fault tests: a guard that disarms the syscall seam, and the
// leak checks every fault test ends with (descriptors, zombies, children).
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "brisk/command.h"
#include "brisk/fd.h"
#include "brisk/spawn.h"
#include "support/test_support.h"
#include "sys/fault.h"

namespace brisk::fault_test {

// Disarms every injected fault when the test ends, even on failure.
struct FaultGuard {
  FaultGuard() { sys::testing::clear_faults(); }
  ~FaultGuard() { sys::testing::clear_faults(); }
};

// The pids listed in /proc/self/task/*/children: our live children, zombies included.
inline std::set<pid_t> live_children() {
  std::set<pid_t> pids;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "children");
    for (pid_t pid; in >> pid;) pids.insert(pid);
  }
  return pids;
}

// True when no child of ours is waiting to be reaped (waitid P_ALL, WNOWAIT:
// looks without reaping, so a leak stays visible to the next check too).
inline bool no_zombie() {
  siginfo_t info{};
  int rc = ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT);
  if (rc < 0) return errno == ECHILD;
  return info.si_pid == 0;
}

// The real uid of `pid` from /proc/<pid>/status, or -1.
inline long uid_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::string line = test::status_field(text, "Uid:");
  auto digit = line.find_first_of("0123456789");
  return digit == std::string::npos ? -1 : std::stol(line.substr(digit));
}

// Records the descriptors and children at construction; expect_clean()
// checks that nothing was added since.
class LeakCheck {
 public:
  LeakCheck() : fds_((warm_up(), test::open_fds())), children_(live_children()) {}
  void expect_clean(const std::string& what) const {
    EXPECT_EQ(test::open_fds(), fds_) << what << ": descriptor leaked";
    EXPECT_EQ(live_children(), children_) << what << ": child left behind";
    EXPECT_TRUE(no_zombie()) << what << ": zombie left behind";
  }

  // The first run opens what the library keeps for the life of the process.
  static void warm_up() {
    static const bool done = Command({"/bin/true"}).status().success();
    (void)done;
  }

 private:
  std::set<int> fds_;
  std::set<pid_t> children_;
};

// Fills every hole in the descriptor table below the highest open fd with
// /dev/null, so that RLIMIT_NOFILE = highest() + 1 + n leaves exactly n
// descriptors free. The fillers close with the object.
class CompactFds {
 public:
  CompactFds() {
    LeakCheck::warm_up();
    std::set<int> open = test::open_fds();
    highest_ = *open.rbegin();
    for (int fd = 0; fd < highest_; ++fd)
      if (!open.count(fd)) fillers_.emplace_back(::fcntl(0, F_DUPFD_CLOEXEC, fd));
  }
  int highest() const { return highest_; }

 private:
  int highest_ = 0;
  std::vector<UniqueFd> fillers_;
};

// A spawn() on a helper thread whose child stops before exec, through
// brisk::testing::pause_before_exec: pid() is the child waiting there,
// release() lets it exec and returns what spawn() returned.
class PausedSpawn {
 public:
  explicit PausedSpawn(SpawnOptions options) {
    int gate[2];
    if (::pipe2(gate, O_CLOEXEC) < 0) throw std::runtime_error("pipe2");
    gate_read_.reset(gate[0]);
    gate_write_.reset(gate[1]);
    auto before = live_children();
    testing::pause_before_exec(gate_read_.get());
    spawner_ = std::thread([this, options] { result_.emplace(spawn(options)); });
    while (pid_ == 0) {
      for (pid_t pid : live_children())
        if (!before.count(pid)) pid_ = pid;
      std::this_thread::yield();
    }
    testing::pause_before_exec(-1);
  }
  ~PausedSpawn() {
    if (spawner_.joinable()) (void)release();
  }
  pid_t pid() const { return pid_; }
  // Always write rather than close: the child holds a copy of the write end.
  Result<Child, SpawnError> release() {
    (void)!::write(gate_write_.get(), "g", 1);
    spawner_.join();
    gate_read_.reset();
    gate_write_.reset();
    return std::move(*result_);
  }

 private:
  UniqueFd gate_read_, gate_write_;
  std::optional<Result<Child, SpawnError>> result_;
  std::thread spawner_;
  pid_t pid_ = 0;
};

// Runs body in a forked copy of this process and returns its exit code (or
// 128 + signal). For tests that change the process for good (uid, limits).
// The body reports failures by its return value and a line on stderr.
inline int in_forked_process(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int code = 99;
    try {
      code = body();
    } catch (const std::exception& e) {
      fprintf(stderr, "uncaught: %s\n", e.what());
    }
    std::fflush(stderr);
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Drops this (forked) process to uid and gid `id` (nobody by default),
// without supplementary groups.
inline bool drop_to_nobody(unsigned id = 65534) {
  return ::setgroups(0, nullptr) == 0 && ::setresgid(id, id, id) == 0 && ::setresuid(id, id, id) == 0;
}

}  // namespace brisk::fault_test
