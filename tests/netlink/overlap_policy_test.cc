// When setup_netns_many's second thread is used (NetnsOverlap::automatic):
// the rule on its inputs, and the idle time read from /proc/stat's text.
#include "netlink/overlap_policy.h"

#include <gtest/gtest.h>

namespace brisk::netlink::detail {
namespace {

TEST(OverlapPolicy, NeedsThreeCpusTwoOfThemIdleAndARoundWorthAThread) {
  EXPECT_TRUE(overlap_pays({.cpus = 4, .idle_cpus = 2.5, .overlapping = false, .round = 25}));
  // Two CPUs: the caller's and one that the kernel's own work needs too.
  EXPECT_FALSE(overlap_pays({.cpus = 2, .idle_cpus = 1.9, .overlapping = false, .round = 25}));
  // A busy machine: one idle CPU beside the caller's.
  EXPECT_FALSE(overlap_pays({.cpus = 8, .idle_cpus = 1.5, .overlapping = false, .round = 25}));
  // Small rounds: a thread's start is not hidden.
  EXPECT_FALSE(overlap_pays({.cpus = 8, .idle_cpus = 6, .overlapping = false, .round = 7}));
  EXPECT_TRUE(overlap_pays({.cpus = 8, .idle_cpus = 6, .overlapping = false, .round = 8}));
}

TEST(OverlapPolicy, WhileOverlappingTheSecondThreadsCpuCountsAsSpare) {
  // 1.2 idle while the second thread ran: 2.2 without it, so it goes on.
  EXPECT_TRUE(overlap_pays({.cpus = 4, .idle_cpus = 1.2, .overlapping = true, .round = 25}));
  // 0.5 idle while it ran: the machine got busy, so it stops.
  EXPECT_FALSE(overlap_pays({.cpus = 4, .idle_cpus = 0.5, .overlapping = true, .round = 25}));
}

constexpr const char* kProcStat =
    "cpu  1000 20 300 9000 50 0 7 0 0 0\n"
    "cpu0 500 10 150 4000 25 0 3 0 0 0\n"
    "cpu1 500 10 150 5000 25 0 4 0 0 0\n"
    "cpu12 1 1 1 700 1 0 0 0 0 0\n"
    "intr 12345 0 0\n"
    "ctxt 999\n";

TEST(OverlapPolicy, IdleSecondsSumIdleAndIowaitOfTheChosenCpus) {
  // cpu0: 4000 + 25 ticks, cpu1: 5000 + 25; 100 ticks a second.
  EXPECT_DOUBLE_EQ(*idle_seconds(kProcStat, {0, 1}, 100), 90.5);
  EXPECT_DOUBLE_EQ(*idle_seconds(kProcStat, {1}, 100), 50.25);
  // "cpu1" is not taken for "cpu12", nor the aggregate line for cpu0.
  EXPECT_DOUBLE_EQ(*idle_seconds(kProcStat, {12}, 100), 7.01);
}

TEST(OverlapPolicy, IdleSecondsRefusesWhatItCannotRead) {
  EXPECT_FALSE(idle_seconds(kProcStat, {3}, 100));  // no such CPU line
  EXPECT_FALSE(idle_seconds("cpu  1 2 3\ncpu0 1 2 x 4 5\n", {0}, 100));
  EXPECT_FALSE(idle_seconds("cpu  1 2 3\ncpu0 1 2 3\n", {0}, 100));  // too few fields
  EXPECT_FALSE(idle_seconds(kProcStat, {0}, 0));
}

TEST(OverlapPolicy, TheMeterSaysNothingBeforeItsCountersCanTell) {
  IdleMeter meter;
  EXPECT_GE(meter.cpus(), 1u);
  // Straight after its start, 10 ms ticks cannot say anything yet.
  EXPECT_FALSE(meter.idle_since_last());
}

}  // namespace
}  // namespace brisk::netlink::detail
