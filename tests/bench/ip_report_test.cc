// brisk bench ip's report: the table row and the JSON carry how many runs a
// phase's figures are the median of, and the ratios come from those figures.
#include "bench/ip_report.h"

#include <gtest/gtest.h>

namespace brisk::bench {
namespace {

IpBenchReport sample() {
  IpBenchRow route{.phase = "route add",
                   .ops = 1000,
                   .repeats = 3,
                   .methods = {{"ip", 0.050}, {"brisk", 0.016}, {"brisk -force", 0.014}, {"floor", 0.008}},
                   .target = "<= 1.25x floor",
                   .verified = true};
  return {.n = 1000, .repeats = 3, .rows = {route}};
}

TEST(IpBenchReport, JsonCarriesRepeatsAndRatios) {
  auto json = to_json(sample());
  EXPECT_EQ(json["repeats"], 3);
  const auto& phase = json["phases"][0];
  EXPECT_EQ(phase["repeats"], 3);
  EXPECT_EQ(phase["verified"], true);
  const auto& brisk = phase["methods"][1];
  EXPECT_EQ(brisk["method"], "brisk");
  EXPECT_DOUBLE_EQ(brisk["us_per_op"].get<double>(), 16.0);
  EXPECT_DOUBLE_EQ(brisk["over_floor"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(brisk["ip_over_method"].get<double>(), 0.050 / 0.016);
  EXPECT_FALSE(phase["methods"][3].contains("over_floor")) << "the floor is not set against itself";
}

TEST(IpBenchReport, RowShowsMicrosecondsAndRatios) {
  std::string row = format_row(sample().rows[0]);
  EXPECT_NE(row.find("16.0"), std::string::npos) << row;
  EXPECT_NE(row.find("2.00x"), std::string::npos) << row;
  EXPECT_NE(row.find("end state ok"), std::string::npos) << row;
}

// The floors with brisk's own unavoidable work added: both lists reach the
// JSON and the table's summary lines, each ratio in its place.
TEST(IpBenchReport, RatiosOverTheFloorsWithLookupAndParse) {
  auto report = sample();
  report.over_lookup_floor = {{.phase = "route add", .method = "brisk", .ratio = 1.5}};
  report.over_parse_floor = {{.phase = "route add", .method = "brisk", .ratio = 1.25},
                             {.phase = "route add", .method = "brisk -force", .ratio = 1.125}};
  auto json = to_json(report);
  ASSERT_EQ(json["over_floor_with_parse"].size(), 2u);
  EXPECT_EQ(json["over_floor_with_parse"][1]["method"], "brisk -force");
  EXPECT_DOUBLE_EQ(json["over_floor_with_parse"][1]["ratio"].get<double>(), 1.125);
  EXPECT_DOUBLE_EQ(json["over_floor_with_lookup"][0]["ratio"].get<double>(), 1.5);
  std::string line = format_over_parse_floor(report.over_parse_floor);
  EXPECT_NE(line.find("route add brisk 1.25x; route add brisk -force 1.12x"), std::string::npos) << line;
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(format_over_lookup_floor(report.over_lookup_floor).find("parse"), std::string::npos);
}

TEST(IpBenchReport, RatiosOverTheFloorWithoutAcks) {
  auto report = sample();
  report.over_quiet_floor = {{.phase = "rule add", .method = "brisk -force", .ratio = 1.375}};
  auto json = to_json(report);
  ASSERT_EQ(json["over_floor_without_acks"].size(), 1u);
  EXPECT_EQ(json["over_floor_without_acks"][0]["phase"], "rule add");
  EXPECT_DOUBLE_EQ(json["over_floor_without_acks"][0]["ratio"].get<double>(), 1.375);
  EXPECT_TRUE(json["over_floor_with_parse"].empty());
  std::string line = format_over_quiet_floor(report.over_quiet_floor);
  EXPECT_NE(line.find("without ACKs"), std::string::npos) << line;
  EXPECT_NE(line.find("rule add brisk -force 1.38x"), std::string::npos) << line;
}

}  // namespace
}  // namespace brisk::bench
