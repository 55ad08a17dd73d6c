// Stopping runs from outside: CancelToken from another thread or a signal
// handler, and polling a running Process with try_wait() / wait_for().
#include "brisk/cancel.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "brisk/command.h"
#include "brisk/command_errors.h"
#include "brisk/pipeline.h"
#include "brisk/run_all.h"
#include "support/test_support.h"

namespace brisk {
namespace {

using namespace std::chrono_literals;

using brisk::test::sh;

// Cancels `token` after `delay`, from another thread; joins on destruction.
class DelayedCancel {
 public:
  DelayedCancel(std::shared_ptr<CancelToken> token, std::chrono::milliseconds delay)
      : thread_([token = std::move(token), delay] {
          std::this_thread::sleep_for(delay);
          token->cancel();
        }) {}
  ~DelayedCancel() { thread_.join(); }

 private:
  std::thread thread_;
};

TEST(Cancel, FromAnotherThreadStopsTheRunWithThePoliteSignal) {
  auto token = std::make_shared<CancelToken>();
  DelayedCancel stopper(token, 50ms);
  auto begin = std::chrono::steady_clock::now();
  try {
    Command("sleep").arg("30").cancel_on(token).status();
    FAIL() << "a cancelled run must throw";
  } catch (const Cancelled& e) {
    EXPECT_TRUE(e.status().cancelled);
    EXPECT_FALSE(e.status().timed_out);
    EXPECT_FALSE(e.status().allowed);
    EXPECT_EQ(e.status().exit, ExitStatus::from_signal(SIGTERM));
    EXPECT_EQ(e.status().to_string(), "cancelled, signal 15 (SIGTERM)");
    EXPECT_NE(std::string(e.what()).find("was cancelled"), std::string::npos) << e.what();
  }
  // Far below sleep's 30 s: the run really was stopped.
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 20s);
  EXPECT_TRUE(token->cancelled());
}

TEST(Cancel, AChildIgnoringThePoliteSignalIsKilledAfterTheGrace) {
  auto token = std::make_shared<CancelToken>();
  DelayedCancel stopper(token, 100ms);
  // The shell execs sleep, which keeps the ignored disposition.
  Output out =
      sh("trap '' TERM; echo ready; exec sleep 30").cancel_on(token).kill_after(100ms).check(false).output();
  EXPECT_EQ(out.out, "ready\n");
  EXPECT_TRUE(out.status.cancelled);
  EXPECT_EQ(out.status.exit, ExitStatus::from_signal(SIGKILL));
}

TEST(Cancel, ATokenThatAlreadyFiredStartsNothing) {
  auto token = std::make_shared<CancelToken>();
  token->cancel();
  token->cancel();  // idempotent
  try {
    Command("true").cancel_on(token).status();
    FAIL() << "nothing may start on a cancelled token";
  } catch (const SpawnFailed& e) {
    EXPECT_EQ(e.error().code, ECANCELED);
    EXPECT_EQ(e.error().program, "true");
    EXPECT_EQ(e.error().kind(), SpawnError::Kind::other);
  }
}

TEST(Cancel, StopsEveryMemberOfAPipeline) {
  auto token = std::make_shared<CancelToken>();
  DelayedCancel stopper(token, 50ms);
  Output out = Pipeline({Command("sleep").arg("30"), Command("cat")}).cancel_on(token).check(false).output();
  EXPECT_TRUE(out.status.cancelled);
  ASSERT_EQ(out.processes.size(), 2u);
  EXPECT_EQ(out.processes[0].status, ExitStatus::from_signal(SIGTERM));
}

TEST(Cancel, OneTokenStopsARunAllAndWhatItHasNotStarted) {
  auto token = std::make_shared<CancelToken>();
  std::vector<Command> jobs;
  for (int i = 0; i < 6; ++i) jobs.push_back(Command("sleep").arg("30").cancel_on(token));
  DelayedCancel stopper(token, 50ms);
  auto results = run_all(jobs, {.max_parallel = 2});
  ASSERT_EQ(results.size(), 6u);
  int stopped = 0, never_started = 0;
  for (const auto& r : results) {
    if (r) {
      EXPECT_TRUE(r->status.cancelled);
      ++stopped;
    } else {
      EXPECT_EQ(r.error().code, ECANCELED);
      ++never_started;
    }
  }
  EXPECT_EQ(stopped, 2);
  EXPECT_EQ(never_started, 4);
}

std::shared_ptr<CancelToken> g_signal_token;
void cancel_from_handler(int) { g_signal_token->cancel(); }

TEST(Cancel, IsSafeFromASignalHandler) {
  g_signal_token = std::make_shared<CancelToken>();
  struct sigaction action {
  }, old{};
  action.sa_handler = cancel_from_handler;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &old), 0);
  pthread_t self = pthread_self();
  std::thread sender([self] {
    std::this_thread::sleep_for(50ms);
    pthread_kill(self, SIGUSR1);  // interrupts the run's poll in this thread
  });
  Output out = Command("sleep").arg("30").cancel_on(g_signal_token).check(false).output();
  sender.join();
  sigaction(SIGUSR1, &old, nullptr);
  EXPECT_TRUE(out.status.cancelled);
  g_signal_token.reset();
}

TEST(Cancel, AfterTheRunIsANoOp) {
  auto token = std::make_shared<CancelToken>();
  EXPECT_EQ(Command("echo").arg("hi").cancel_on(token).read(), "hi\n");
  token->cancel();
  EXPECT_TRUE(token->cancelled());
}

TEST(Cancel, LeavesNoDescriptorBehind) {
  (void)Command("true").status();  // opens brisk's shared /dev/null before the count
  auto before = test::open_fds();
  {
    auto token = std::make_shared<CancelToken>();
    DelayedCancel stopper(token, 20ms);
    (void)Command("sleep").arg("30").cancel_on(token).check(false).output();
  }
  EXPECT_EQ(test::open_fds(), before);
}

TEST(TryWait, ReturnsNothingWhileTheRunGoesOnThenTheOutput) {
  Process process =
      sh("read line; echo got $line").stdin_from(Input::pipe()).stdout_to(Sink::capture()).spawn();
  UniqueFd in = process.take_stdin();
  EXPECT_FALSE(process.try_wait().has_value());
  EXPECT_FALSE(process.wait_for(20ms).has_value());
  ASSERT_EQ(::write(in.get(), "x\n", 2), 2);
  in.reset();
  std::optional<Output> out;
  for (int i = 0; i < 500 && !out; ++i) out = process.wait_for(20ms);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->out, "got x\n");
  EXPECT_TRUE(out->status.success());
  // The Process is spent, as after wait().
  EXPECT_THROW(process.try_wait(), std::logic_error);
  EXPECT_THROW(process.wait(), std::logic_error);
}

TEST(TryWait, ChecksTheStatusLikeWait) {
  Process process = sh("exit 3").spawn();
  std::optional<Output> out;
  EXPECT_THROW(
      {
        for (int i = 0; i < 500 && !out; ++i) out = process.wait_for(20ms);
      },
      ExecutionFailed);
}

TEST(TryWait, EnforcesTheTimeoutWhilePolled) {
  Process process = Command("sleep").arg("30").timeout(50ms).check(false).spawn();
  std::optional<Output> out;
  for (int i = 0; i < 1000 && !out; ++i) {
    out = process.try_wait();
    if (!out) std::this_thread::sleep_for(5ms);
  }
  ASSERT_TRUE(out.has_value());
  EXPECT_TRUE(out->status.timed_out);
}

TEST(Wakeup, EndsAWaitEarlyAndLeavesTheRunGoing) {
  Wakeup wake;
  Process process =
      sh("read line; echo got $line").stdin_from(Input::pipe()).stdout_to(Sink::capture()).spawn();
  UniqueFd in = process.take_stdin();
  std::thread notifier([&wake] {
    std::this_thread::sleep_for(50ms);
    wake.notify();
  });
  auto begin = std::chrono::steady_clock::now();
  EXPECT_FALSE(process.wait_for(30s, &wake).has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 20s);
  notifier.join();
  EXPECT_TRUE(wake.notified());
  // Still notified: the next wait returns at once, until cleared.
  EXPECT_FALSE(process.wait_for(30s, &wake).has_value());
  wake.clear();
  EXPECT_FALSE(wake.notified());
  ASSERT_EQ(::write(in.get(), "y\n", 2), 2);
  in.reset();
  std::optional<Output> out = process.wait_for(30s, &wake);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->out, "got y\n");
}

}  // namespace
}  // namespace brisk
