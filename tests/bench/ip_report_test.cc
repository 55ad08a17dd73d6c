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

// Set up without -force goes a request per answer: brisk's time over that
// floor reaches the JSON and its own summary line.
TEST(IpBenchReport, RatioOverTheFloorOfOneRequestPerAnswer) {
  auto report = sample();
  report.over_alone_floor = {{.phase = "set up", .method = "brisk", .ratio = 1.0625}};
  auto json = to_json(report);
  ASSERT_EQ(json["over_floor_one_request_per_answer"].size(), 1u);
  EXPECT_EQ(json["over_floor_one_request_per_answer"][0]["phase"], "set up");
  EXPECT_DOUBLE_EQ(json["over_floor_one_request_per_answer"][0]["ratio"].get<double>(), 1.0625);
  std::string line = format_over_alone_floor(report.over_alone_floor);
  EXPECT_NE(line.find("set up alone"), std::string::npos) << line;
  EXPECT_NE(line.find("set up brisk 1.06x"), std::string::npos) << line;
}

// The floor of a line naming its device, as a ratio of the floor: in the
// JSON under its method, and on its own line without one.
TEST(IpBenchReport, FloorWithLookupOverTheFloor) {
  auto report = sample();
  report.lookup_floor_over_floor = {
      {.phase = "addr add", .method = "floor + name lookup", .ratio = 1.21875},
      {.phase = "route add", .method = "floor + name lookup", .ratio = 1.28125}};
  auto json = to_json(report);
  ASSERT_EQ(json["floor_with_lookup_over_floor"].size(), 2u);
  EXPECT_EQ(json["floor_with_lookup_over_floor"][1]["method"], "floor + name lookup");
  EXPECT_DOUBLE_EQ(json["floor_with_lookup_over_floor"][1]["ratio"].get<double>(), 1.28125);
  std::string line = format_lookup_floor_over_floor(report.lookup_floor_over_floor);
  EXPECT_NE(line.find(": addr add 1.22x; route add 1.28x\n"), std::string::npos) << line;
}

}  // namespace
}  // namespace brisk::bench
