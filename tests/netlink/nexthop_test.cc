// Nexthop objects read back (made by ip, the oracle), made, replaced and
// deleted by brisk (read back by ip), in a batch that stops at its first
// error, and routes through them added and listed with their nhid.
#include "netlink/internal/nexthop.h"

#include <gtest/gtest.h>
#include <linux/rtnetlink.h>

#include "brisk/netlink/batch.h"
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

TEST_F(Nexthops, MadeReplacedAndDeleted) {
  ASSERT_TRUE(
      add_nexthop(conn(), {.id = 20, .family = AF_INET, .via = "10.9.0.4", .dev = "d0", .protocol = 99}));
  ASSERT_TRUE(add_nexthop(conn(), {.id = 21,
                                   .group = {{.id = 20, .weight = 256}, {.id = 3}},
                                   .group_type = NEXTHOP_GRP_TYPE_RES,
                                   .buckets = 8,
                                   .idle_timer = 300}));
  auto twice = add_nexthop(conn(), {.id = 20, .family = AF_INET, .dev = "d0"});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().code, EEXIST);
  auto gw = test::ip_json(ns(), {"nexthop", "get", "id", "20"})[0];
  EXPECT_EQ(gw["gateway"], "10.9.0.4");
  EXPECT_EQ(gw["dev"], "d0");
  EXPECT_EQ(gw["protocol"], "openr");
  auto group = test::ip_json(ns(), {"nexthop", "get", "id", "21"})[0];
  EXPECT_EQ(group["group"][0]["weight"], 256) << "the kernel's weight 255, one less";
  EXPECT_EQ(group["type"], "resilient");
  EXPECT_EQ(group["resilient_args"]["buckets"], 8);
  EXPECT_EQ(group["resilient_args"]["idle_timer"], 3) << "300 ticks";

  auto replaced = replace_nexthop(conn(), {.id = 20, .family = AF_INET, .via = "10.9.0.6", .dev = "d0"});
  ASSERT_TRUE(replaced) << replaced.error().message();
  EXPECT_EQ(get_nexthop(conn(), 20)->gateway->to_string(), "10.9.0.6") << "changed in place, in its group";
  ASSERT_TRUE(replace_nexthop(conn(), {.id = 23, .family = AF_INET, .blackhole = true}));
  EXPECT_TRUE(get_nexthop(conn(), 23)->blackhole) << "replace makes one too";
  auto bad_family = add_nexthop(conn(), {.id = 22, .family = AF_INET6, .via = "10.9.0.4", .dev = "d0"});
  ASSERT_FALSE(bad_family);
  EXPECT_FALSE(bad_family.error().kernel) << "refused before sending";
  auto missing = add_nexthop(conn(), {.id = 22, .family = AF_INET, .dev = "nope0"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENODEV);

  ASSERT_TRUE(delete_nexthop(conn(), 21));
  EXPECT_EQ(get_nexthop(conn(), 21).error().code, ENOENT);
  EXPECT_EQ(delete_nexthop(conn(), 21).error().code, ENOENT);
}

TEST_F(Nexthops, DumpFilteredByTheKernel) {
  auto groups = list_nexthops(conn(), {.groups = true});
  ASSERT_TRUE(groups) << groups.error().message();
  ASSERT_EQ(groups->size(), 2u);
  EXPECT_EQ((*groups)[0].id, 10u);
  auto through = list_nexthops(conn(), {.oif = *resolve_link(conn(), "d0")});
  ASSERT_TRUE(through);
  EXPECT_EQ(through->size(), 2u) << "ids 1 and 3";
  EXPECT_TRUE(list_nexthops(conn(), {.family = AF_INET6})->empty());
}

TEST_F(Nexthops, ResilientBuckets) {
  auto all = list_nexthop_buckets(conn());
  ASSERT_TRUE(all) << all.error().message();
  ASSERT_EQ(all->size(), 16u) << "group 11's table";
  int to_one = 0;
  for (const auto& b : *all) {
    EXPECT_EQ(b.id, 11u);
    to_one += b.nhid == 1;
  }
  EXPECT_EQ(to_one, 8) << "two members of weight 1 share the buckets";
  auto only = list_nexthop_buckets(conn(), {.nhid = 3});
  ASSERT_TRUE(only);
  EXPECT_EQ(only->size(), 8u);
  auto one = get_nexthop_bucket(conn(), 11, 15);
  ASSERT_TRUE(one) << one.error().message();
  EXPECT_EQ(one->index, 15);
  auto past = get_nexthop_bucket(conn(), 11, 16);
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().code, ENOENT);
  EXPECT_EQ(past.error().ext_ack, "Bucket index out of bounds");
}

// Stopping at the first error undoes the adds sent after it, as ip -batch
// without -force leaves nothing after a failed line.
TEST_F(Nexthops, StoppedBatchUndoesLaterAdds) {
  Batch batch(conn(), {.stop_at_first_error = true});
  put_nexthop(batch, {.id = 30, .family = AF_INET, .via = "10.9.0.5", .dev = "d0"}, NexthopWrite::add);
  put_nexthop(batch, {.id = 1, .family = AF_INET, .dev = "d0"}, NexthopWrite::add);  // EEXIST
  put_nexthop(batch, {.id = 31, .blackhole = true}, NexthopWrite::add);
  auto results = batch.flush();
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0]);
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, EEXIST);
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().code, ECANCELED);
  EXPECT_TRUE(get_nexthop(conn(), 30));
  EXPECT_EQ(get_nexthop(conn(), 31).error().code, ENOENT);
}

}  // namespace
}  // namespace brisk::netlink
