// `brisk bench link` end to end at a tiny size: every method runs every
// phase in its own throwaway namespace, and nothing fails.
#include <gtest/gtest.h>

#include "bench/link_bench.h"
#include "support/test_support.h"

namespace brisk::bench {
namespace {

TEST(LinkBench, EveryMethodRunsEveryPhaseWithoutFailures) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  auto report = run_link_bench({.n = 12, .bucket = 4, .ip_n = 2, .delete_n = 3, .netns_n = 2, .settle_ms = 0});
  // 4 phases × 4 methods, plus netns add for ip and brisk.
  ASSERT_EQ(report.rows.size(), 18u);
  for (const auto& row : report.rows) {
    EXPECT_EQ(row.failures, 0) << row.phase << " " << row.method;
    EXPECT_GT(row.us_per_op, 0) << row.phase << " " << row.method;
    if (row.method == "brisk") {
      EXPECT_DOUBLE_EQ(row.ratio_to_brisk, 1.0);
    }
  }
  EXPECT_EQ(report.brisk_add_buckets_us.size(), 3u);
  EXPECT_EQ(report.raw_add_buckets_us.size(), 3u);
  auto json = to_json(report);
  EXPECT_EQ(json["rows"].size(), 18u);
  EXPECT_NE(format_table(report).find("netns add"), std::string::npos);
}

TEST(LinkBench, RefusesNonsenseCounts) {
  EXPECT_THROW(run_link_bench({.n = 0}), std::runtime_error);
  EXPECT_THROW(run_link_bench({.n = 4, .bucket = 0}), std::runtime_error);
}

}  // namespace
}  // namespace brisk::bench
