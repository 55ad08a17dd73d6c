// The link bench's charts: phases that add interfaces are drawn against the
// interface count, the others (whose count stays put) against the
// operations done, so that their points do not all land on one x.
#include "bench/net_plots.h"

#include <gtest/gtest.h>

namespace brisk::bench {
namespace {

LinkBenchRow row(const std::string& phase, const std::string& method, std::vector<LinkBucket> buckets) {
  return {.phase = phase,
          .method = method,
          .count = 2000,
          .us_per_op = 1,
          .ratio_to_brisk = 1,
          .failures = 0,
          .full_n = true,
          .per_process = false,
          .buckets = std::move(buckets)};
}

TEST(NetPlots, EachPhaseGetsTheAxisOnWhichItsPointsSpread) {
  LinkBenchReport report;
  report.rows.push_back(
      row("veth add", "raw",
          {{.index = 0, .first_op = 0, .ops = 1000, .interfaces_before = 1, .us_per_op = 300},
           {.index = 1, .first_op = 1000, .ops = 1000, .interfaces_before = 2001, .us_per_op = 310}}));
  report.rows.push_back(
      row("set up", "raw",
          {{.index = 0, .first_op = 0, .ops = 1000, .interfaces_before = 4001, .us_per_op = 12},
           {.index = 1, .first_op = 1000, .ops = 1000, .interfaces_before = 4001, .us_per_op = 13}}));
  report.rows.push_back(
      row("set up", "brisk",
          {{.index = 0, .first_op = 0, .ops = 1000, .interfaces_before = 4001, .us_per_op = 14},
           {.index = 1, .first_op = 1000, .ops = 1000, .interfaces_before = 4001, .us_per_op = 15}}));
  auto veth = link_phase_plot(report, "veth add");
  EXPECT_EQ(veth.x_label, "interfaces existing when the round began");
  ASSERT_EQ(veth.series.size(), 1u);
  EXPECT_EQ(veth.series[0].points[1].first, 2001);

  auto up = link_phase_plot(report, "set up");
  EXPECT_EQ(up.x_label, "operations done when the round began");
  EXPECT_NE(up.title.find("4001 interfaces"), std::string::npos) << up.title;
  ASSERT_EQ(up.series.size(), 2u);
  EXPECT_EQ(up.series[0].name, "brisk") << "brisk is drawn on top";
  EXPECT_EQ(up.series[0].points[0].first, 0);
  EXPECT_EQ(up.series[0].points[1].first, 1000);
}

}  // namespace
}  // namespace brisk::bench
