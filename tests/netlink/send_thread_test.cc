// The send thread's hand-off: a job sees what the caller wrote before
// start(), and the caller sees what the job wrote once wait() returns, both
// while each side is still yielding and after it has gone to sleep (a job
// or a pause longer than the yielding lasts). Plain, non-atomic data, so a
// missing ordering is a TSan report, and under plain builds a wrong count.
#include "netlink/send_thread.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace brisk::netlink::detail {
namespace {

TEST(SendThread, EveryJobRunsOnceAndItsWritesAreSeenAfterWait) {
  SendThread sender;
  int given = 0;  // written here, read by the job
  int done = 0;   // written by the job, read here
  for (int i = 1; i <= 2000; ++i) {
    given = i;
    ASSERT_TRUE(sender.start([&] { done += given; }));
    sender.wait();
    ASSERT_EQ(done, i * (i + 1) / 2) << "job " << i;
  }
}

TEST(SendThread, HandOffSurvivesBothSidesSleeping) {
  SendThread sender;
  std::thread::id ran_on;
  int runs = 0;
  for (int i = 0; i < 3; ++i) {
    // Longer than the yielding: the thread sleeps awaiting this job...
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_TRUE(sender.start([&] {
      // ...and the caller sleeps awaiting its end.
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ran_on = std::this_thread::get_id();
      ++runs;
    }));
    sender.wait();
    EXPECT_EQ(runs, i + 1);
    EXPECT_NE(ran_on, std::this_thread::get_id());
  }
}

TEST(SendThread, WaitWithoutAJobReturnsAndDestructionFinishesTheJobInHand) {
  { SendThread never_started; }
  bool finished = false;
  {
    SendThread sender;
    sender.wait();
    ASSERT_TRUE(sender.start([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      finished = true;
    }));
  }  // destroyed with the job running: it ends first
  EXPECT_TRUE(finished);
}

}  // namespace
}  // namespace brisk::netlink::detail
