// The demo's summary names every baseline as the bench names it. A row
// labelled after the wrong method reads as its opposite ("ip -batch 724 µs,
// brisk 1003 µs": brisk slower than ip -batch, where the 724 was the floor).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "bench/containers_bench.h"
#include "bench/demo.h"
#include "bench/link_bench.h"

namespace brisk::bench {
namespace {

// Ten containers at `us` each to set up; a tenth of that each for the
// teardown call, half of it until the kernel has settled.
ContainersMethodResult method(const std::string& name, double us) {
  return {.method = name,
          .containers = 10,
          .us_per_container = us,
          .teardown_s = 10 * us / 10 / 1e6,
          .teardown_settled_s = 10 * us / 2 / 1e6};
}

TEST(DemoSummary, EachContainerBaselineIsNamedAsTheBenchNamesIt) {
  ContainersBenchReport report;
  report.methods = {method("floor", 700), method("brisk-1core", 1000), method("brisk", 900),
                    method("ip-batch", 8000), method("ip", 40000)};
  auto rows = container_rows(report);
  ASSERT_EQ(rows.size(), 8u);
  std::map<std::string, double> setup_by_label;
  for (const auto& row : rows) {
    // Teardown rows are until settled: the call returns before the kernel is done.
    EXPECT_NEAR(row.brisk_us, row.operation == "container setup" ? 900 : 450, 1e-6) << row.operation;
    if (row.operation == "container setup") setup_by_label[row.baseline] = row.baseline_us;
  }
  EXPECT_EQ(setup_by_label,
            (std::map<std::string, double>{
                {"floor", 700}, {"brisk-1core", 1000}, {"ip -batch", 8000}, {"ip per command", 40000}}));
}

TEST(DemoSummary, AFailedMethodHasNoRowAndAFailedBriskNone) {
  ContainersBenchReport report;
  report.methods = {method("floor", 700), method("brisk", 900), method("ip-batch", 8000)};
  report.methods[2].failures = 1;
  auto rows = container_rows(report);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].baseline, "floor");
  report.methods[1].failures = 1;
  EXPECT_TRUE(container_rows(report).empty());
}

TEST(DemoSummary, LinkRowsAreTodaysToolsAgainstBriskByPhase) {
  LinkBenchReport report;
  for (const char* phase : {"veth add", "set up"})
    for (auto [name, us] : std::initializer_list<std::pair<const char*, double>>{
             {"ip", 3000}, {"ip-batch", 300}, {"raw", 20}, {"brisk-batch", 40}, {"brisk", 30}})
      report.rows.push_back(
          {.phase = phase, .method = name, .count = 5, .us_per_op = us, .ratio_to_brisk = us / 30});
  auto rows = link_rows(report);
  ASSERT_EQ(rows.size(), 4u);
  std::set<std::string> labels;
  for (const auto& row : rows) {
    labels.insert(row.baseline);
    EXPECT_EQ(row.brisk_us, 30);
    EXPECT_EQ(row.baseline_us, row.baseline == "ip -batch" ? 300 : 3000) << row.baseline;
  }
  EXPECT_EQ(labels, (std::set<std::string>{"ip per command", "ip -batch"}));
}

TEST(DemoSummary, LabelsAreDistinctAndUnknownNamesPassThrough) {
  std::set<std::string> seen;
  for (const char* name :
       {"ip", "ip-batch", "floor", "brisk-1core", "brisk-cli", "brisk-batch", "raw", "brisk"})
    EXPECT_TRUE(seen.insert(method_label(name)).second) << name;
  EXPECT_EQ(method_label("something-new"), "something-new");
}

}  // namespace
}  // namespace brisk::bench
