// Policy routing rules through the library, with ip as the oracle: add,
// list, delete, the spec a listed rule gives back, and the batch's undo of
// rules added past a failure.
#include "brisk/netlink/rule.h"

#include <gtest/gtest.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include "brisk/netlink/batch.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;

class Rules : public test::NetnsTest {
 protected:
  // priority -> the rule as `ip -j rule show` reports it.
  std::map<uint32_t, nlohmann::json> ip_rules(const char* family = "-4") {
    std::map<uint32_t, nlohmann::json> out;
    for (const auto& r : ip_json(ns(), {family, "rule", "show"})) out[r["priority"].get<uint32_t>()] = r;
    return out;
  }
};

TEST_F(Rules, AddListDeleteAsIpSeesThem) {
  ASSERT_TRUE(add_rule(conn(), {.priority = 100, .from = "10.1.0.0/16", .table = 100})) << "add";
  ASSERT_TRUE(add_rule(conn(), {.priority = 101,
                                .invert = true,
                                .to = "10.2.0.0/16",
                                .fwmark = 0x10,
                                .fwmask = 0xff,
                                .iif = "lo",
                                .uid_range = UidRange{10, 20},
                                .ip_proto = 6,
                                .sport = PortRange{80, 80},
                                .dport = PortRange{1000, 2000},
                                .table = 1000,  // past 255: FRA_TABLE, not the header
                                .protocol = RTPROT_STATIC}));
  ASSERT_TRUE(add_rule(conn(), {.priority = 102, .action = FR_ACT_BLACKHOLE}));
  ASSERT_TRUE(add_rule(conn(), {.family = AF_INET6, .priority = 103, .from = "fd00::/64", .table = 7}));
  auto seen = ip_rules();
  ASSERT_TRUE(seen.count(100) && seen.count(101) && seen.count(102));
  EXPECT_EQ(seen[100]["src"], "10.1.0.0");
  EXPECT_EQ(seen[100]["srclen"], 16);
  EXPECT_EQ(seen[100]["table"], "100");
  EXPECT_TRUE(seen[101].contains("not"));
  EXPECT_EQ(seen[101]["fwmark"], "0x10");
  EXPECT_EQ(seen[101]["fwmask"], "0xff");
  EXPECT_EQ(seen[101]["table"], "1000");
  EXPECT_EQ(seen[101]["dport_end"], 2000);
  EXPECT_EQ(seen[102]["action"], "blackhole");
  EXPECT_TRUE(ip_rules("-6").count(103));

  auto listed = list_rules(conn());
  ASSERT_TRUE(listed) << listed.error().message();
  std::map<uint32_t, RuleInfo> by_priority;
  for (const auto& r : *listed) by_priority[r.priority] = r;
  const RuleInfo& r = by_priority.at(101);
  EXPECT_TRUE(r.flags & FIB_RULE_INVERT);
  EXPECT_EQ(r.dst_len, 16);
  EXPECT_EQ(r.dst->to_string(), "10.2.0.0");
  EXPECT_EQ(r.iif, "lo");
  EXPECT_EQ(r.uid_range, (UidRange{10, 20}));
  EXPECT_EQ(r.sport, (PortRange{80, 80}));
  EXPECT_EQ(r.table, 1000u);
  EXPECT_EQ(r.protocol, RTPROT_STATIC);
  EXPECT_EQ(by_priority.at(102).action, FR_ACT_BLACKHOLE);
  EXPECT_EQ(by_priority.at(32766).table, uint32_t(RT_TABLE_MAIN));  // the kernel's own rules are listed too

  // The spec a listed rule gives back deletes that rule and no other.
  ASSERT_TRUE(delete_rule(conn(), r.spec()));
  seen = ip_rules();
  EXPECT_FALSE(seen.count(101));
  EXPECT_TRUE(seen.count(100) && seen.count(102));
  // A delete names what it matches: a second one finds nothing.
  auto again = delete_rule(conn(), r.spec());
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ENOENT);
  EXPECT_TRUE(again.error().kernel);
  // An add without a priority gets one from the kernel, just below the first non-zero one.
  ASSERT_TRUE(add_rule(conn(), {.to = "10.9.0.0/16", .table = 9}));
  EXPECT_TRUE(ip_rules().count(99));
}

TEST_F(Rules, BadInputIsRefusedBeforeSending) {
  for (const RuleSpec& bad :
       {RuleSpec{.from = "10.0.0.300/8"}, RuleSpec{.to = "fd00::/129"}, RuleSpec{.iif = "0123456789abcdef"},
        RuleSpec{.l3mdev = true, .table = 5}, RuleSpec{.nat_gateway = "fd00::1"}}) {
    auto added = add_rule(conn(), bad);
    ASSERT_FALSE(added);
    EXPECT_EQ(added.error().code, EINVAL);
    EXPECT_FALSE(added.error().kernel) << added.error().message();
  }
  EXPECT_EQ(ip_rules().size(), 3u);  // local, main, default
}

TEST_F(Rules, StopModeUndoesRulesAddedPastAFailure) {
  ASSERT_TRUE(add_rule(conn(), {.priority = 200, .table = 20}));
  Batch batch(conn(), {.stop_at_first_error = true});
  batch.add_rule({.priority = 201, .table = 21});
  batch.add_rule({.priority = 200, .table = 20});  // exists
  batch.add_rule({.priority = 202, .table = 22});  // pipelined past the failure, then undone
  batch.delete_rule({.priority = 201});            // never sent
  auto results = batch.flush();
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0]);
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, EEXIST);
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, ECANCELED);
  ASSERT_FALSE(results[3]);
  EXPECT_EQ(results[3].error().code, ECANCELED);
  auto seen = ip_rules();
  EXPECT_TRUE(seen.count(200) && seen.count(201));
  EXPECT_FALSE(seen.count(202));
}

}  // namespace
}  // namespace brisk::netlink
