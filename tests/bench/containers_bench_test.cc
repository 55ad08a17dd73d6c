// `brisk bench containers` through the library at a tiny size: every method
// builds the containers (checked by the bench's own verification of the end
// state), tears them down, and reports a figure for every bucket.
#include "bench/containers_bench.h"

#include <gtest/gtest.h>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/netns.h"
#include "brisk/netlink/route.h"
#include "support/test_support.h"

namespace brisk::bench {
namespace {

// A connection in the named namespace (the caller's /run/netns); throws when there is none.
netlink::Connection connect_to(const std::string& netns) {
  auto fd = netlink::open_netns(netns);
  if (!fd) throw std::runtime_error(fd.error().message());
  return netlink::Connection::open_in(fd->get()).value();
}

TEST(ContainersBench, EveryMethodBuildsVerifiesAndTearsDown) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  std::vector<std::string> progress;
  // 6 containers on bridges of 4 ports: two bridges, the second opened mid-round.
  auto report =
      run_containers_bench({.n = 6,
                            .bucket = 3,
                            .bridge_ports = 4,
                            .settle_ms = 0,
                            .schedule = ContainersSchedule::interleaved,
                            .progress = [&](const std::string& line) { progress.push_back(line); }});
  EXPECT_TRUE(report.interleaved);
  ASSERT_EQ(report.methods.size(), 6u);
  EXPECT_EQ(report.methods[0].method, "brisk");
  EXPECT_EQ(report.methods[1].method, "floor");
  EXPECT_EQ(report.methods[2].method, "brisk-1core");
  EXPECT_EQ(report.methods[3].method, "brisk-2core");
  EXPECT_EQ(report.methods[4].method, "ip-batch");
  EXPECT_EQ(report.methods[5].method, "ip");
  for (const auto& m : report.methods) {
    EXPECT_EQ(m.failures, 0) << m.method;
    EXPECT_TRUE(m.verified) << m.method;
    EXPECT_EQ(m.containers, 6);
    EXPECT_GT(m.total_s, 0) << m.method;
    EXPECT_GT(m.containers_per_s, 0) << m.method;
    EXPECT_GT(m.teardown_s, 0) << m.method;
    EXPECT_GE(m.teardown_settled_s, m.teardown_s) << m.method;
    EXPECT_GT(m.ratio_to_brisk, 0) << m.method;
    EXPECT_GT(m.cpu_s, 0) << m.method;
    ASSERT_EQ(m.buckets.size(), 2u) << m.method;
    EXPECT_EQ(m.buckets[0].containers_before, 0);
    EXPECT_EQ(m.buckets[1].containers_before, 3);
    EXPECT_EQ(m.buckets[1].first, 3);
    for (const auto& b : m.buckets) {
      EXPECT_GT(b.us_per_container, 0) << m.method;
      EXPECT_GT(b.rss_kb, 0) << m.method;
    }
    EXPECT_DOUBLE_EQ(m.growth, m.buckets[1].us_per_container / m.buckets[0].us_per_container) << m.method;
  }
  EXPECT_DOUBLE_EQ(report.methods[0].ratio_to_brisk, 1.0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(report.methods[k].processes, 0) << report.methods[k].method;
  EXPECT_EQ(report.methods[4].processes, 2 + 6);      // a host batch per round, an inside batch per container
  EXPECT_EQ(report.methods[5].processes, 2 + 6 * 7);  // two bridges, seven steps per container
  EXPECT_EQ(progress.size(), 2u + 6u);                // two rounds, six teardowns
  // Torn down one after another: each with fewer others' containers alive.
  for (int k = 0; k < 6; ++k) EXPECT_EQ(report.methods[k].teardown_background, 6 * (5 - k));

  auto json = to_json(report);
  EXPECT_EQ(json["bench"], "containers");
  ASSERT_EQ(json["methods"].size(), 6u);
  for (const auto& m : json["methods"]) {
    for (const char* key :
         {"method", "containers", "processes", "total_s", "containers_per_s", "us_per_container",
          "ratio_to_brisk", "cpu_s", "cpu_user_s", "context_switches", "teardown_s", "teardown_settled_s",
          "teardown_background", "failures", "verified", "growth", "buckets"})
      EXPECT_TRUE(m.contains(key)) << key;
    for (const auto& b : m["buckets"])
      for (const char* key :
           {"index", "first", "containers", "containers_before", "us_per_container", "rss_kb"})
        EXPECT_TRUE(b.contains(key)) << key;
  }
  EXPECT_TRUE(json["units"].contains("total_s"));
  std::string csv = to_csv(report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "method,kind,bucket,first,containers,containers_before,us_per_container,rss_kb");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 6 * (2 + 2));
  std::string table = format_table(report);
  EXPECT_NE(table.find("targets"), std::string::npos);
  EXPECT_NE(table.find("growth, last bucket / first bucket: brisk"), std::string::npos) << table;
  for (const char* target :
       {"setup, brisk / one-thread floor", "worst bucket, brisk / floor", "CPU per container, brisk / floor",
        "setup, brisk / brisk-1core (the second core)", "setup, ip-batch / brisk"})
    EXPECT_NE(table.find(target), std::string::npos) << target << "\n" << table;
  // Different backgrounds: the teardowns are not compared.
  EXPECT_NE(table.find("teardown until settled, brisk / floor: not comparable in this run (30 and 24 other "
                       "containers alive"),
            std::string::npos)
      << table;
  // Each ratio whose methods ran, brisk-2core's among them.
  std::vector<std::string> ratio_names;
  for (const auto& r : report.ratios) ratio_names.push_back(r.name);
  EXPECT_EQ(ratio_names,
            (std::vector<std::string>{
                "setup brisk / floor", "worst bucket brisk / floor", "cpu brisk / floor",
                "teardown settled brisk / floor", "setup brisk / brisk-1core", "cpu brisk / brisk-1core",
                "setup brisk / brisk-2core", "cpu brisk / brisk-2core", "teardown settled brisk / ip-batch",
                "setup ip-batch / brisk", "setup ip / brisk"}));
  // One run: every ratio has one value, and no per-run section.
  EXPECT_EQ(report.runs.size(), 1u);
  EXPECT_EQ(table.find("ratios over"), std::string::npos) << table;
  for (const auto& r : report.ratios) EXPECT_EQ(r.values.size(), 1u) << r.name;
  // Each method's column in the bucket table.
  EXPECT_NE(table.find("       brisk       floor brisk-1core brisk-2core    ip-batch          ip\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(json.contains("floor_share_of_growth"), true);
  if (report.methods[0].growth > 1) {
    ASSERT_TRUE(report.floor_share_of_growth.has_value());
    EXPECT_DOUBLE_EQ(*report.floor_share_of_growth,
                     (report.methods[1].growth - 1) / (report.methods[0].growth - 1));
  } else {
    EXPECT_FALSE(report.floor_share_of_growth.has_value());
  }
}

// The floor alone at a size with three rounds and three bridges (8 on
// bridges of 3 ports): every request succeeded and the end state is the
// one every method must reach.
TEST(ContainersBench, FloorBuildsAndVerifiesItsEndState) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  auto report =
      run_containers_bench({.n = 8, .bucket = 3, .bridge_ports = 3, .settle_ms = 0, .methods = {"floor"}});
  ASSERT_EQ(report.methods.size(), 2u);
  const auto& floor = report.methods[1];
  EXPECT_EQ(floor.method, "floor");
  EXPECT_EQ(floor.failures, 0);
  EXPECT_TRUE(floor.verified);
  EXPECT_EQ(floor.processes, 0);
  ASSERT_EQ(floor.buckets.size(), 3u);
  EXPECT_EQ(floor.buckets[2].containers, 2);
  EXPECT_GE(floor.teardown_settled_s, floor.teardown_s);
}

// Verification can fail: a container's default route taken away before the
// check leaves that method unverified, and only that one.
TEST(ContainersBench, ABrokenEndStateFailsVerification) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  std::string broken_in;
  auto report =
      run_containers_bench({.n = 4,
                            .bucket = 4,
                            .settle_ms = 0,
                            .methods = {"floor"},
                            .before_verify = [&](const std::string& method, const std::string& first_netns) {
                              if (method != "floor") return;
                              auto conn = connect_to(first_netns);
                              auto removed =
                                  netlink::delete_route(conn, {.prefix = "default", .via = "10.0.0.0"});
                              ASSERT_TRUE(removed) << removed.error().message();
                              broken_in = first_netns;
                            }});
  EXPECT_EQ(broken_in, "floor-c0");
  ASSERT_EQ(report.methods.size(), 2u);
  EXPECT_TRUE(report.methods[0].verified);   // brisk, untouched
  EXPECT_FALSE(report.methods[1].verified);  // the floor, broken
  EXPECT_EQ(report.methods[1].failures, 0);  // every request had succeeded
}

TEST(ContainersBench, SequentialScheduleAndMethodChoice) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  // brisk makes all 5 in one setup_netns_many call (rounds of 1), its
  // buckets cut from the rounds it reports; brisk-1core too, on one thread.
  auto report = run_containers_bench({.n = 5,
                                      .bucket = 2,
                                      .settle_ms = 0,
                                      .methods = {"ip-batch", "brisk-1core"},
                                      .brisk_round = 1,
                                      .schedule = ContainersSchedule::sequential});
  EXPECT_FALSE(report.interleaved);
  ASSERT_EQ(report.methods.size(), 3u);
  EXPECT_EQ(report.methods[1].method, "brisk-1core");
  for (const auto& m : report.methods) {
    EXPECT_TRUE(m.verified) << m.method;
    EXPECT_EQ(m.failures, 0) << m.method;
    EXPECT_EQ(m.teardown_background, 0) << m.method;
    ASSERT_EQ(m.buckets.size(), 3u) << m.method;
    EXPECT_EQ(m.buckets[2].containers_before, 4) << m.method;
    EXPECT_EQ(m.buckets[2].containers, 1) << m.method;
  }
  std::string table = format_table(report);
  EXPECT_EQ(table.find("not comparable"), std::string::npos) << table;
  EXPECT_NE(table.find("teardown until settled, brisk / ip-batch"), std::string::npos) << table;
}

// --repeat: every method runs each time; a method's figure is the median
// of its runs, and each ratio is quoted with the value of every run.
TEST(ContainersBench, RepeatsGiveMediansAndEachRatiosRange) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  std::vector<std::string> progress;
  auto report =
      run_containers_bench({.n = 3,
                            .bucket = 3,
                            .settle_ms = 0,
                            .methods = {"floor", "brisk-1core"},
                            .schedule = ContainersSchedule::sequential,
                            .repeat = 3,
                            .progress = [&](const std::string& line) { progress.push_back(line); }});
  ASSERT_EQ(report.runs.size(), 3u);
  ASSERT_EQ(report.methods.size(), 3u);
  // The order of the methods rotates from run to run; the results keep theirs.
  std::vector<std::string> first_made;
  for (const auto& line : progress)
    if (line.find("made its containers") != std::string::npos ||
        line.find("round 1/1") != std::string::npos) {
      auto colon = line.find(": ", line.find("run "));
      first_made.push_back(line.substr(colon + 2, line.find(' ', colon + 2) - colon - 2));
    }
  ASSERT_EQ(first_made.size(), 9u);
  EXPECT_EQ(first_made[0], "brisk");
  EXPECT_EQ(first_made[3], "floor");
  EXPECT_EQ(first_made[6], "brisk-1core");
  for (std::size_t m = 0; m < 3; ++m) {
    std::vector<double> totals;
    for (const auto& run : report.runs) {
      EXPECT_EQ(run[m].method, report.methods[m].method);
      EXPECT_TRUE(run[m].verified) << run[m].method;
      totals.push_back(run[m].total_s);
    }
    EXPECT_DOUBLE_EQ(report.methods[m].total_s, median(totals)) << report.methods[m].method;
    EXPECT_TRUE(report.methods[m].verified);
  }
  ASSERT_FALSE(report.ratios.empty());
  for (const auto& r : report.ratios) {
    ASSERT_EQ(r.values.size(), 3u) << r.name;
    EXPECT_LE(r.min, r.median) << r.name;
    EXPECT_LE(r.median, r.max) << r.name;
  }
  EXPECT_EQ(report.ratios[0].name, "setup brisk / floor");
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_DOUBLE_EQ(report.ratios[0].values[k], report.runs[k][0].total_s / report.runs[k][1].total_s);
  std::string table = format_table(report);
  EXPECT_NE(table.find("ratios over 3 runs"), std::string::npos) << table;
  auto json = to_json(report);
  EXPECT_EQ(json["runs"].size(), 3u);
  EXPECT_EQ(json["ratios"][0]["values"].size(), 3u);
  EXPECT_EQ(json["config"]["repeat"], 3);
}

// LXC's phys shape at a small size, every method: the moved interfaces'
// names, MACs, addresses and the default route are checked in every
// container, and the host keeps only the stand-ins' peers.
TEST(ContainersBench, PhysShapeEveryMethodBuildsAndVerifies) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  auto report = run_containers_bench({.n = 8,
                                      .shape = ContainersShape::phys,
                                      .bucket = 4,
                                      .settle_ms = 0,
                                      .schedule = ContainersSchedule::interleaved});
  ASSERT_EQ(report.methods.size(), 6u);
  for (const auto& m : report.methods) {
    EXPECT_EQ(m.failures, 0) << m.method;
    EXPECT_TRUE(m.verified) << m.method;
    EXPECT_EQ(m.buckets.size(), 2u) << m.method;
    EXPECT_GE(m.teardown_settled_s, m.teardown_s) << m.method;
  }
  EXPECT_EQ(report.methods[4].processes,
            2 + 8);  // ip-batch: a host batch per round, an inside one per container
  EXPECT_EQ(report.methods[5].processes, 8 * 6);  // ip: netns add, 2 link set, 2 addr add, route add
  EXPECT_EQ(to_json(report)["config"]["shape"], "phys");
  EXPECT_NE(format_table(report).find("--shape phys"), std::string::npos);
}

// The phys check sees a wrong MAC.
TEST(ContainersBench, PhysVerificationSeesAWrongMac) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
  auto report =
      run_containers_bench({.n = 2,
                            .shape = ContainersShape::phys,
                            .bucket = 2,
                            .settle_ms = 0,
                            .methods = {"floor"},
                            .before_verify = [&](const std::string& method, const std::string& first_netns) {
                              if (method != "floor") return;
                              auto conn = connect_to(first_netns);
                              auto set =
                                  netlink::set_link(conn, {.name = "eth1", .address = "02:ff:ff:ff:ff:ff"});
                              ASSERT_TRUE(set) << set.error().message();
                            }});
  ASSERT_EQ(report.methods.size(), 2u);
  EXPECT_TRUE(report.methods[0].verified);
  EXPECT_FALSE(report.methods[1].verified);
}

TEST(ContainersBench, RefusesBadConfiguration) {
  EXPECT_THROW(run_containers_bench({.n = 0}), std::runtime_error);
  EXPECT_THROW(run_containers_bench({.n = 4, .bucket = 0}), std::runtime_error);
  EXPECT_THROW(run_containers_bench({.n = 4, .bucket = 2, .bridge_ports = 1025}), std::runtime_error);
  EXPECT_THROW(run_containers_bench({.n = 4, .bucket = 2, .methods = {"lxc"}}), std::runtime_error);
  EXPECT_THROW(run_containers_bench({.n = 4, .bucket = 2, .methods = {"floor", "raw"}}), std::runtime_error);
  EXPECT_THROW(run_containers_bench({.n = 4, .bucket = 2, .brisk_round = -1}), std::runtime_error);
  EXPECT_THROW(run_containers_bench({.n = 4, .bucket = 2, .repeat = 0}), std::runtime_error);
}

}  // namespace
}  // namespace brisk::bench
