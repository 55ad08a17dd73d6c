// `brisk bench link` through the library at a tiny size: every method runs
// every phase in its own throwaway namespace, nothing fails, every row and
// bucket has a figure, and the JSON and CSV carry them.
#include "bench/link_bench.h"

#include <gtest/gtest.h>

#include <set>

#include "support/test_support.h"

namespace brisk::bench {
namespace {

LinkBenchConfig tiny() {
  return {.n = 12,
          .bucket = 4,
          .ip_n = 2,
          .delete_n = 3,
          .netns_n = 2,
          .settle_ms = 0,
          .brisk_path = BRISK_CLI_PATH};
}

TEST(LinkBench, EveryMethodRunsEveryPhaseWithoutFailures) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  auto report = run_link_bench(tiny());
  // 4 phases x 6 methods, plus netns add for brisk, brisk-cli, ip and raw.
  ASSERT_EQ(report.rows.size(), 28u);
  std::set<std::string> methods;
  for (const auto& row : report.rows) {
    methods.insert(row.method);
    EXPECT_EQ(row.failures, 0) << row.phase << " " << row.method;
    EXPECT_GT(row.us_per_op, 0) << row.phase << " " << row.method;
    EXPECT_GT(row.ratio_to_brisk, 0) << row.phase << " " << row.method;
    if (row.method == "brisk") {
      EXPECT_DOUBLE_EQ(row.ratio_to_brisk, 1.0);
    }
    EXPECT_EQ(row.per_process, row.method == "ip" || row.method == "brisk-cli")
        << row.phase << " " << row.method;
    ASSERT_FALSE(row.buckets.empty()) << row.phase << " " << row.method;
    int ops = 0;
    for (const auto& b : row.buckets) {
      EXPECT_GT(b.us_per_op, 0) << row.phase << " " << row.method << " bucket " << b.index;
      ops += b.ops;
    }
    EXPECT_EQ(ops, row.count) << row.phase << " " << row.method;
    if (row.full_n) {
      EXPECT_EQ(row.buckets.size(), 3u) << row.phase << " " << row.method;
    }
  }
  EXPECT_EQ(methods, (std::set<std::string>{"ip", "brisk-cli", "ip-batch", "brisk-batch", "raw", "brisk"}));
  // veth add: the buckets count the interfaces already there (lo, then 2 per pair).
  for (const auto& row : report.rows) {
    if (row.phase != "veth add" || !row.full_n) continue;
    ASSERT_EQ(row.buckets.size(), 3u);
    EXPECT_EQ(row.buckets[0].interfaces_before, 1);
    EXPECT_EQ(row.buckets[1].interfaces_before, 9);
    EXPECT_EQ(row.buckets[2].interfaces_before, 17);
    EXPECT_EQ(row.buckets[2].first_op, 8);
  }
  // Deletes: brisk and brisk-batch all N, ip-batch and raw delete_n.
  for (const auto& row : report.rows) {
    if (row.phase != "delete") continue;
    int expected = row.per_process ? 2 : (row.method == "brisk" || row.method == "brisk-batch") ? 12 : 3;
    EXPECT_EQ(row.count, expected) << row.method;
  }

  auto json = to_json(report);
  EXPECT_EQ(json["bench"], "link");
  ASSERT_EQ(json["rows"].size(), 28u);
  for (const auto& row : json["rows"]) {
    for (const char* key : {"phase", "method", "count", "us_per_op", "ratio_to_brisk", "failures", "full_n",
                            "per_process", "buckets"})
      EXPECT_TRUE(row.contains(key)) << key;
    for (const auto& b : row["buckets"])
      for (const char* key : {"index", "first_op", "ops", "interfaces_before", "us_per_op"})
        EXPECT_TRUE(b.contains(key)) << key;
  }
  EXPECT_TRUE(json["units"].contains("us_per_op"));
  EXPECT_EQ(json["config"]["n"], 12);

  std::string csv = to_csv(report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "phase,method,bucket,first_op,ops,interfaces_before,us_per_op,full_n,per_process");
  std::size_t buckets = 0;
  for (const auto& row : report.rows) buckets += row.buckets.size();
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(buckets + 1));
  auto table = format_table(report);
  EXPECT_NE(table.find("netns add"), std::string::npos);
  EXPECT_NE(table.find("one process per op"), std::string::npos);
  EXPECT_NE(table.find("per bucket of 4"), std::string::npos);
}

TEST(LinkBench, RefusesNonsenseCounts) {
  EXPECT_THROW(run_link_bench({.n = 0}), std::runtime_error);
  EXPECT_THROW(run_link_bench({.n = 4, .bucket = 0}), std::runtime_error);
  EXPECT_THROW(run_link_bench({.n = 4, .bucket = 2, .ip_n = -1}), std::runtime_error);
}

}  // namespace
}  // namespace brisk::bench
