// Nexthop objects read back (made by ip, the oracle), and routes through
// them added and listed with their nhid.
#include "brisk/netlink/nexthop.h"

#include <gtest/gtest.h>
#include <linux/rtnetlink.h>

#include "brisk/netlink/link.h"
#include "brisk/netlink/route.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

class Nexthops : public test::NetnsTest {
 protected:
  void SetUp() override {
    NetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(add_link(conn(), {.name = "d0", .kind = VethOptions{.peer = "d1"}, .common = {.up = true}}));
    for (const std::vector<std::string>& setup : std::vector<std::vector<std::string>>{
             {"link", "set", "d1", "up"},
             {"link", "set", "lo", "up"},
             {"addr", "add", "10.9.0.1/24", "dev", "d0"},
             {"nexthop", "add", "id", "1", "via", "10.9.0.2", "dev", "d0", "proto", "static"},
             {"nexthop", "add", "id", "2", "blackhole"},
             {"nexthop", "add", "id", "3", "via", "10.9.0.3", "dev", "d0"},
             {"nexthop", "add", "id", "10", "group", "1/3,5"},
             {"nexthop", "add", "id", "11", "group", "1/3", "type", "resilient", "buckets", "16",
              "idle_timer", "2"}})
      ASSERT_TRUE(test::ip_run(ns(), setup)) << ::testing::PrintToString(setup);
  }
};

TEST_F(Nexthops, ListedAsTheKernelHoldsThem) {
  auto all = list_nexthops(conn());
  ASSERT_TRUE(all) << all.error().message();
  ASSERT_EQ(all->size(), 5u);
  const NexthopEntry& gw = (*all)[0];
  EXPECT_EQ(gw.id, 1u);
  EXPECT_EQ(gw.family, AF_INET);
  EXPECT_EQ(gw.gateway->to_string(), "10.9.0.2");
  EXPECT_EQ(gw.oif, *resolve_link(conn(), "d0"));
  EXPECT_EQ(gw.scope, RT_SCOPE_LINK);
  EXPECT_EQ(gw.protocol, RTPROT_STATIC);
  EXPECT_TRUE((*all)[1].blackhole);
  EXPECT_FALSE((*all)[1].gateway);
  const NexthopEntry& group = (*all)[3];
  EXPECT_EQ(group.id, 10u);
  EXPECT_EQ(group.group, (std::vector<NexthopGroupMember>{{.id = 1, .weight = 1}, {.id = 3, .weight = 5}}));
  EXPECT_EQ(group.group_type, NEXTHOP_GRP_TYPE_MPATH);
  EXPECT_FALSE(group.resilient);
  const NexthopEntry& resilient = (*all)[4];
  EXPECT_EQ(resilient.group_type, NEXTHOP_GRP_TYPE_RES);
  ASSERT_TRUE(resilient.resilient);
  EXPECT_EQ(resilient.resilient->buckets, 16);
  EXPECT_EQ(resilient.resilient->idle_timer, 200u) << "clock ticks, 100 a second";
}

TEST_F(Nexthops, OneById) {
  auto group = get_nexthop(conn(), 10);
  ASSERT_TRUE(group) << group.error().message();
  EXPECT_EQ(group->group.size(), 2u);
  auto none = get_nexthop(conn(), 99);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ENOENT);
}

TEST_F(Nexthops, RoutesThroughThem) {
  ASSERT_TRUE(add_route(conn(), {.prefix = "10.40.0.0/16", .nhid = 10}));
  auto refused = add_route(conn(), {.prefix = "10.41.0.0/16", .nhid = 99});
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().kernel);
  auto routes = list_routes(conn());
  ASSERT_TRUE(routes);
  bool found = false;
  for (const auto& r : *routes) {
    if (r.dst.to_string() != "10.40.0.0/16") continue;
    found = true;
    EXPECT_EQ(r.nhid, 10u);
    EXPECT_EQ(r.scope, RT_SCOPE_UNIVERSE) << "as ip: no link scope for a route through a nexthop object";
    EXPECT_EQ(r.nexthops.size(), 2u) << "the group's paths, as the kernel resolves them";
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(test::ip_json(ns(), {"route", "show", "10.40.0.0/16"})[0]["nhid"], 10);
}

}  // namespace
}  // namespace brisk::netlink
