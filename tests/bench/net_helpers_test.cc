// The benches' wait for a quiet machine: it reads /proc/stat and keeps to its limit.
#include "bench/net_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace brisk::bench {
namespace {

TEST(NetHelpers, CpuTimesReadTheMachinesIdleShare) {
  auto t = cpu_times();
  ASSERT_TRUE(t.has_value());
  EXPECT_GT(t->total, 0);
  EXPECT_GE(t->idle, 0);
  EXPECT_LE(t->idle, t->total);
}

TEST(NetHelpers, WaitUntilQuietKeepsToItsLimit) {
  // Zero: not even one window is waited for.
  EXPECT_LT(wait_until_quiet(Clock::duration::zero()), std::chrono::milliseconds(50));
  // A busy thread on every CPU: the machine is never quiet, and the wait
  // still ends at its limit.
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  for (unsigned k = 0; k < std::max(1u, std::thread::hardware_concurrency()); ++k)
    spinners.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  auto waited = wait_until_quiet(std::chrono::milliseconds(300));
  stop = true;
  for (auto& spinner : spinners) spinner.join();
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  EXPECT_LT(waited, std::chrono::milliseconds(1000));
}

}  // namespace
}  // namespace brisk::bench
