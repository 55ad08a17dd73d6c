// `brisk bench cni` through the library at a tiny size: every side's ADD
// and DEL succeed and are reported per bucket, the floor is the sum of its
// parts, the parallel ADDs (the floor's too) hand out distinct addresses,
// and bad settings are refused before anything is made.
#include "bench/cni_bench.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "support/test_support.h"

namespace brisk::bench {
namespace {

bool have_reference() {
  return ::access("/usr/lib/cni/bridge", X_OK) == 0 && ::access("/usr/lib/cni/host-local", X_OK) == 0;
}

CniBenchConfig tiny_cni() {
  return {.n = 4,
          .buckets = 2,
          .masq = CniMasq::both,
          .parallel = 3,
          .parallel_repeats = 1,
          .brisk_plugin = BRISK_BRIDGE_PATH,
          .settle_ms = 0};
}

TEST(CniBench, EverySideSucceedsAndIsReportedPerBucket) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  if (!have_reference())
    GTEST_SKIP() << "needs the reference plugins (apt-get install containernetworking-plugins)";
  std::vector<std::string> progress;
  CniBenchConfig config = tiny_cni();
  config.progress = [&](const std::string& line) { progress.push_back(line); };
  auto report = run_cni_bench(config);
  ASSERT_EQ(report.passes.size(), 2u);
  EXPECT_FALSE(report.passes[0].masq);
  EXPECT_TRUE(report.passes[1].masq);
  EXPECT_EQ(report.brisk_plugin, BRISK_BRIDGE_PATH);
  for (const auto& pass : report.passes) {
    ASSERT_EQ(pass.rows.size(), 10u);
    for (const char* phase : {"ADD", "DEL"}) {
      for (const char* side : {"reference", "brisk", "in-process", "process start", "floor"}) {
        const CniPhaseRow* row = find_row(pass, side, phase);
        ASSERT_NE(row, nullptr) << side << " " << phase;
        EXPECT_EQ(row->ops, 4) << side << " " << phase;
        EXPECT_EQ(row->failures, 0) << side << " " << phase << ": " << row->first_error;
        EXPECT_GT(row->us_mean, 0) << side << " " << phase;
        EXPECT_GT(row->us_median, 0) << side << " " << phase;
        ASSERT_EQ(row->buckets.size(), 2u) << side << " " << phase;
        for (const auto& b : row->buckets) EXPECT_EQ(b.ops, 2);
      }
      const CniPhaseRow* floor = find_row(pass, "floor", phase);
      EXPECT_NEAR(
          floor->us_mean,
          find_row(pass, "in-process", phase)->us_mean + find_row(pass, "process start", phase)->us_mean,
          1e-6 * floor->us_mean);
    }
    // ADDs count pods up from 0, DELs down from n.
    EXPECT_EQ(find_row(pass, "brisk", "ADD")->buckets[0].pods_before, 0);
    EXPECT_EQ(find_row(pass, "brisk", "ADD")->buckets[1].pods_before, 2);
    EXPECT_EQ(find_row(pass, "brisk", "DEL")->buckets[0].pods_before, 4);
    EXPECT_EQ(find_row(pass, "brisk", "DEL")->buckets[1].pods_before, 2);
    // Every side's parallel row, the floor's among them, in this order.
    ASSERT_EQ(pass.parallel.size(), 3u);
    EXPECT_EQ(pass.parallel[0].side, "reference");
    EXPECT_EQ(pass.parallel[1].side, "brisk");
    EXPECT_EQ(pass.parallel[2].side, "floor");
    for (const auto& p : pass.parallel) {
      EXPECT_EQ(p.pods, 3) << p.side;
      ASSERT_EQ(p.wall_ms.size(), 1u);
      EXPECT_GT(p.wall_ms_median, 0);
      EXPECT_EQ(p.failures, 0) << p.side << ": " << p.first_error;
      EXPECT_EQ(p.duplicates, 0) << p.side;
    }
    ASSERT_EQ(pass.targets.size(), 8u);
    EXPECT_EQ(pass.targets[0].target, pass.masq ? 10.0 : 5.0);
    EXPECT_EQ(pass.targets[5].name, "3 parallel ADDs: reference / brisk");
    EXPECT_EQ(pass.targets[6].name, "3 parallel ADDs: brisk / floor");
    EXPECT_EQ(pass.targets[7].name, "3 parallel ADDs: reference / floor (ceiling)");
    EXPECT_NEAR(pass.targets[7].value, pass.parallel[0].wall_ms_median / pass.parallel[2].wall_ms_median,
                1e-9);
    for (const auto& t : pass.targets) EXPECT_GT(t.value, 0) << t.name;
  }
  EXPECT_TRUE(report.all_succeeded());
  EXPECT_EQ(progress.size(),
            2u * (2 + 2 + 1));  // per pass: two ADD buckets, two DEL buckets, one parallel round

  auto json = to_json(report);
  EXPECT_EQ(json["bench"], "cni");
  EXPECT_TRUE(json["all_succeeded"].get<bool>());
  ASSERT_EQ(json["passes"].size(), 2u);
  for (const auto& pass : json["passes"]) {
    for (const char* key : {"masq", "rows", "parallel", "targets"}) EXPECT_TRUE(pass.contains(key)) << key;
    for (const auto& row : pass["rows"]) {
      for (const char* key :
           {"side", "phase", "ops", "failures", "us_mean", "us_median", "buckets", "first_error"})
        EXPECT_TRUE(row.contains(key)) << key;
      for (const auto& b : row["buckets"])
        for (const char* key : {"index", "pods_before", "ops", "us_per_op"})
          EXPECT_TRUE(b.contains(key)) << key;
    }
    std::vector<std::string> parallel_sides;
    for (const auto& p : pass["parallel"]) {
      for (const char* key :
           {"side", "pods", "wall_ms", "wall_ms_median", "failures", "duplicates", "first_error"})
        EXPECT_TRUE(p.contains(key)) << key;
      parallel_sides.push_back(p["side"]);
    }
    EXPECT_EQ(parallel_sides, (std::vector<std::string>{"reference", "brisk", "floor"}));
    for (const auto& t : pass["targets"])
      for (const char* key : {"name", "value", "target", "at_least", "met"})
        EXPECT_TRUE(t.contains(key)) << key;
  }
  std::string csv = to_csv(report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "masq,side,phase,kind,bucket,pods_before,ops,us");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * (10 * 2 + 3));  // per pass: 3 parallel rounds
  EXPECT_NE(csv.find("off,floor,ADD,parallel,0,0,3,"), std::string::npos) << csv;
  std::string table = format_table(report);
  for (const char* text : {"== ipMasq off ==", "== ipMasq on ==", "targets", "ADD: brisk / floor",
                           "succeeded", "\n  floor ", "3 parallel ADDs: brisk / floor",
                           "3 parallel ADDs: reference / floor (ceiling)", "floor one at a time: 3 x "})
    EXPECT_NE(table.find(text), std::string::npos) << text;
}

// A plugin that fails every run makes the report say so.
TEST(CniBench, AFailingPluginIsCountedAndFailsTheRun) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  if (!have_reference())
    GTEST_SKIP() << "needs the reference plugins (apt-get install containernetworking-plugins)";
  CniBenchConfig config = tiny_cni();
  config.masq = CniMasq::off;
  config.parallel = 0;
  config.brisk_plugin = "/bin/false";
  auto report = run_cni_bench(config);
  ASSERT_EQ(report.passes.size(), 1u);
  EXPECT_EQ(find_row(report.passes[0], "brisk", "ADD")->failures, 4);
  EXPECT_FALSE(find_row(report.passes[0], "brisk", "ADD")->first_error.empty());
  EXPECT_EQ(find_row(report.passes[0], "reference", "ADD")->failures, 0);
  EXPECT_FALSE(report.all_succeeded());
  EXPECT_NE(format_table(report).find("succeeded, no duplicate address: NO"), std::string::npos);
}

TEST(CniBench, RefusesBadConfigurationBeforeMakingAnything) {
  auto with = [](auto change) {
    CniBenchConfig c = tiny_cni();
    change(c);
    return c;
  };
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.n = 0; })), std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.n = 5001; })), std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.buckets = 5; })), std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.parallel = -1; })), std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.parallel_repeats = 0; })), std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.timeout_ms = 0; })), std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.reference_dir = "/nonexistent"; })),
               std::runtime_error);
  EXPECT_THROW(validate(with([](CniBenchConfig& c) { c.brisk_plugin = "/nonexistent/brisk-bridge"; })),
               std::runtime_error);
  EXPECT_THROW(run_cni_bench(with([](CniBenchConfig& c) { c.n = 0; })), std::runtime_error);
  if (have_reference()) {
    EXPECT_NO_THROW(validate(tiny_cni()));
  }
}

}  // namespace
}  // namespace brisk::bench
