// Many threads spawning at once, and signals arriving during spawns: a
// handler must never run in the child, where it would share our memory.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "brisk/spawn.h"
#include "support/test_support.h"

namespace brisk {
namespace {

TEST(SpawnConcurrency, ManyThreadsEachGetTheirOwnOutput) {
  constexpr int kThreads = 8, kSpawns = 40;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &wrong] {
      for (int i = 0; i < kSpawns; ++i) {
        std::string expected = "t" + std::to_string(t) + "-" + std::to_string(i);
        auto got = test::run_capture({.argv = {"echo", expected}});
        if (got.out != expected + "\n" || !got.status.success()) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

std::atomic<pid_t> g_parent{0};
// Atomics, not volatile sig_atomic_t: the handler runs on whichever thread
// takes the signal, the noise thread and the spawning one at the same time
// (a data race TSan reported). Lock-free atomics are async-signal-safe.
std::atomic<int> g_ran_in_child{0};
std::atomic<int> g_handled{0};
static_assert(std::atomic<int>::is_always_lock_free);

// In a CLONE_VM child this store would land in our memory: the test sees it.
void handler(int) {
  if (static_cast<pid_t>(::syscall(SYS_getpid)) != g_parent.load()) g_ran_in_child = 1;
  g_handled.fetch_add(1);
}

TEST(SpawnSignals, ParentHandlersNeverRunInTheChild) {
  g_parent = ::getpid();
  struct sigaction action {};
  action.sa_handler = handler;
  struct sigaction old_usr1 {
  }, old_pipe{};
  ::sigaction(SIGUSR1, &action, &old_usr1);
  ::sigaction(SIGPIPE, &action, &old_pipe);
  std::atomic<bool> done{false};
  std::thread noise([&] {
    while (!done) {
      ::kill(::getpid(), SIGUSR1);  // to the process: any thread, the spawning one included
      ::kill(::getpid(), SIGPIPE);
      std::this_thread::yield();
    }
  });
  for (int i = 0; i < 300; ++i) {
    // The child sleeps a little so that signals arrive while it runs.
    auto child = spawn({.argv = {"/bin/true"}});
    ASSERT_TRUE(child) << child.error().message();
    ASSERT_TRUE(child->wait()->success());
  }
  done = true;
  noise.join();
  ::sigaction(SIGUSR1, &old_usr1, nullptr);
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  EXPECT_GT(g_handled.load(), 0);
  EXPECT_EQ(g_ran_in_child.load(), 0);
}

TEST(SpawnSignals, HandledSignalsAreDefaultAndMaskIsEmptyInTheChild) {
  struct sigaction action {};
  action.sa_handler = handler;
  struct sigaction old {};
  ::sigaction(SIGUSR2, &action, &old);
  sigset_t blocked, saved;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &blocked, &saved);

  auto got = test::run_capture({.argv = {"cat", "/proc/self/status"}});
  ::pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  ::sigaction(SIGUSR2, &old, nullptr);
  EXPECT_EQ(test::status_field(got.out, "SigBlk:"), "SigBlk:\t0000000000000000");
  EXPECT_EQ(test::status_field(got.out, "SigCgt:"), "SigCgt:\t0000000000000000");
}

TEST(SpawnSignals, RequestedMaskIsInstalledBeforeExec) {
  SpawnOptions options{.argv = {"cat", "/proc/self/status"}};
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGHUP);   // bit 0
  sigaddset(&mask, SIGUSR1);  // bit 9
  options.signal_mask = mask;
  auto got = test::run_capture(options);
  EXPECT_EQ(test::status_field(got.out, "SigBlk:"), "SigBlk:\t0000000000000201");
}

TEST(SpawnSignals, IgnoredSigpipeIsRestoredUnlessAskedNotTo) {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old {};
  ::sigaction(SIGPIPE, &ignore, &old);
  auto reset = test::run_capture({.argv = {"cat", "/proc/self/status"}});
  auto kept = test::run_capture({.argv = {"cat", "/proc/self/status"}, .default_sigpipe = false});
  ::sigaction(SIGPIPE, &old, nullptr);
  // Only SIGPIPE's bit: whoever started the tests may have ignored others.
  auto sigpipe_ignored = [](const std::string& status) {
    std::string hex = test::status_field(status, "SigIgn:").substr(8);
    return (std::stoull(hex, nullptr, 16) >> (SIGPIPE - 1)) & 1;
  };
  EXPECT_FALSE(sigpipe_ignored(reset.out));
  EXPECT_TRUE(sigpipe_ignored(kept.out));
}

}  // namespace
}  // namespace brisk
