// The Child handle: waits and signals go through the pidfd, and a Child
// dropped early leaves neither a zombie nor a running process.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>

#include "brisk/spawn.h"
#include "support/test_support.h"
#include "sys/syscalls.h"

namespace brisk {
namespace {

using namespace std::chrono_literals;

// A second pidfd for the same process, to observe it after the Child is gone.
UniqueFd watch(const Child& child) { return sys::pidfd_open(child.pid()).value(); }

TEST(Child, WaitForTimesOutWhileTheProcessRuns) {
  auto child = spawn({.argv = {"sleep", "5"}});
  ASSERT_TRUE(child);
  auto start = std::chrono::steady_clock::now();
  auto status = child->wait_for(100ms);
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(status);
  EXPECT_FALSE(*status);
  EXPECT_GE(took, 100ms);
  EXPECT_LT(took, 4s);
}

TEST(Child, WaitForReturnsTheStatusOnceExited) {
  auto child = spawn({.argv = {"sh", "-c", "exit 3"}});
  auto status = child->wait_for(10s);
  ASSERT_TRUE(status && *status);
  EXPECT_EQ(**status, ExitStatus::from_code(3));
  EXPECT_EQ(*child->status(), ExitStatus::from_code(3));
}

TEST(Child, TryWaitDoesNotBlock) {
  auto child = spawn({.argv = {"sleep", "5"}});
  auto first = child->try_wait();
  ASSERT_TRUE(first);
  EXPECT_FALSE(*first);
  ASSERT_TRUE(child->kill(SIGTERM));
  auto status = child->wait();
  EXPECT_EQ(*status, ExitStatus::from_signal(SIGTERM));
  EXPECT_EQ(status->to_string(), "signal 15 (SIGTERM)");
  EXPECT_EQ(status->shell_code(), 143);
}

TEST(Child, KillGoesThroughThePidfdAndFailsOnceReaped) {
  auto child = spawn({.argv = {"sleep", "5"}});
  ASSERT_TRUE(child->kill());
  EXPECT_EQ(*child->wait(), ExitStatus::from_signal(SIGKILL));
  auto again = child->kill();
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ESRCH);
}

TEST(Child, RusageIsFilledWhenReaped) {
  auto child = spawn({.argv = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"}});
  ASSERT_TRUE(child->wait());
  EXPECT_GT(child->rusage().ru_utime.tv_sec * 1000000 + child->rusage().ru_utime.tv_usec +
                child->rusage().ru_stime.tv_sec * 1000000 + child->rusage().ru_stime.tv_usec,
            0);
}

TEST(Child, DroppedWhileRunningIsKilledAndReaped) {
  UniqueFd observer;
  {
    auto child = spawn({.argv = {"sleep", "30"}});
    ASSERT_TRUE(child);
    observer = watch(*child);
  }
  // Reaped: a second waitid finds no child behind the pidfd.
  siginfo_t info{};
  EXPECT_EQ(::waitid(static_cast<idtype_t>(3 /* P_PIDFD */), static_cast<id_t>(observer.get()), &info,
                     WEXITED | WNOHANG),
            -1);
  EXPECT_EQ(errno, ECHILD);
  pollfd pfd{.fd = observer.get(), .events = POLLIN, .revents = 0};
  EXPECT_EQ(::poll(&pfd, 1, 0), 1) << "process still running";
}

TEST(Child, WaitPolicyLetsTheProcessFinish) {
  test::TempDir dir;
  std::string marker = dir.path() + "/finished";
  {
    auto child = spawn({.argv = {"sh", "-c", "sleep 0.2; touch " + marker}, .drop_policy = DropPolicy::wait});
    ASSERT_TRUE(child);
  }
  EXPECT_TRUE(sys::stat(marker));
}

TEST(Child, MovedFromChildDoesNothingOnDestruction) {
  auto child = spawn({.argv = {"sh", "-c", "exit 4"}});
  Child moved = std::move(*child);
  EXPECT_EQ(*moved.wait(), ExitStatus::from_code(4));
}

TEST(Child, ReleaseHandsOverThePidfd) {
  UniqueFd pidfd;
  {
    auto child = spawn({.argv = {"sh", "-c", "exit 6"}});
    pidfd = child->release();
  }
  auto waited = sys::waitid_pidfd(pidfd.get(), WEXITED);
  ASSERT_TRUE(waited);
  EXPECT_EQ(ExitStatus::from_siginfo(waited->info), ExitStatus::from_code(6));
}

TEST(ExitStatus, DistinguishesCodesFromSignals) {
  EXPECT_NE(ExitStatus::from_code(137), ExitStatus::from_signal(SIGKILL));
  EXPECT_EQ(ExitStatus::from_signal(SIGSEGV, true).to_string(), "signal 11 (SIGSEGV, core dumped)");
  EXPECT_EQ(ExitStatus::from_code(0).to_string(), "exit code 0");
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_FALSE(ExitStatus::from_signal(SIGKILL).code());
  EXPECT_EQ(ExitStatus::from_signal(SIGKILL).signal(), SIGKILL);
}

}  // namespace
}  // namespace brisk
