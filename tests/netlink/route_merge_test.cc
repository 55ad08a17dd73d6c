// put_route's merge modes and route metrics, with ip as the oracle.
#include <gtest/gtest.h>
#include <linux/rtnetlink.h>

#include "brisk/netlink/link.h"
#include "brisk/netlink/route.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;

class RoutePut : public test::NetnsTest {
 protected:
  void SetUp() override {
    NetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(add_link(conn(), {.name = "d0", .kind = VethOptions{.peer = "d1"}, .common = {.up = true}}));
    ASSERT_TRUE(test::ip_run(ns(), {"link", "set", "d1", "up"}));
    ASSERT_TRUE(test::ip_run(ns(), {"addr", "add", "10.9.0.1/24", "dev", "d0"}));
  }
  std::vector<std::string> gateways(const std::string& dst) {
    std::vector<std::string> out;
    for (const auto& r : ip_json(ns(), {"route", "show", dst})) out.push_back(r.value("gateway", ""));
    return out;
  }
};

TEST_F(RoutePut, AppendPrependChangeAsIp) {
  RouteSpec spec{.prefix = "10.22.0.0/16", .via = "10.9.0.2"};
  ASSERT_TRUE(put_route(conn(), spec, RouteMerge::append));
  spec.via = "10.9.0.3";
  ASSERT_TRUE(put_route(conn(), spec, RouteMerge::append));
  spec.via = "10.9.0.4";
  ASSERT_TRUE(put_route(conn(), spec, RouteMerge::prepend));
  EXPECT_EQ(gateways("10.22.0.0/16"), (std::vector<std::string>{"10.9.0.4", "10.9.0.2", "10.9.0.3"}));
  spec.via = "10.9.0.5";
  ASSERT_TRUE(put_route(conn(), spec, RouteMerge::change));
  EXPECT_EQ(gateways("10.22.0.0/16"), (std::vector<std::string>{"10.9.0.5", "10.9.0.2", "10.9.0.3"}));
  auto missing = put_route(conn(), {.prefix = "10.23.0.0/16", .via = "10.9.0.5"}, RouteMerge::change);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENOENT);
  auto exists = put_route(conn(), {.prefix = "10.22.0.0/16", .via = "10.9.0.6"}, RouteMerge::exclusive);
  ASSERT_FALSE(exists);
  EXPECT_EQ(exists.error().code, EEXIST);
}

TEST_F(RoutePut, MultipathIsSentAndReadBack) {
  ASSERT_TRUE(test::ip_run(ns(), {"addr", "add", "10.9.1.1/24", "dev", "d0"}));
  RouteSpec spec{
      .prefix = "10.30.0.0/16",
      .nexthops = {{.via = "10.9.0.2", .dev = "d0", .weight = 2}, {.via = "10.9.1.2", .weight = 256}}};
  auto added = add_route(conn(), spec);
  ASSERT_TRUE(added) << added.error().message();
  auto theirs = ip_json(ns(), {"route", "show", "10.30.0.0/16"});
  ASSERT_EQ(theirs.size(), 1u);
  ASSERT_EQ(theirs[0]["nexthops"].size(), 2u);
  EXPECT_EQ(theirs[0]["nexthops"][0]["gateway"], "10.9.0.2");
  EXPECT_EQ(theirs[0]["nexthops"][0]["weight"], 2);
  EXPECT_EQ(theirs[0]["nexthops"][1]["gateway"], "10.9.1.2");
  EXPECT_EQ(theirs[0]["nexthops"][1]["weight"], 256);
  EXPECT_FALSE(theirs[0].contains("scope")) << "universe, as ip sets it for a multipath route";
  auto mine = list_routes(conn(), {});
  ASSERT_TRUE(mine);
  for (const auto& r : *mine) {
    if (r.dst.to_string() != "10.30.0.0/16") continue;
    ASSERT_EQ(r.nexthops.size(), 2u);
    EXPECT_EQ(r.nexthops[0].gateway->to_string(), "10.9.0.2");
    EXPECT_EQ(r.nexthops[1].weight, 256);
  }
  auto bad = add_route(conn(), {.prefix = "10.31.0.0/16", .nexthops = {{.via = "10.9.0.2", .weight = 0}}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, EINVAL);
}

TEST_F(RoutePut, MetricsAreSentAndReadBack) {
  RouteSpec spec{.prefix = "10.20.0.0/16", .via = "10.9.0.2"};
  spec.metrics.values[RTAX_MTU] = 1400;
  spec.metrics.values[RTAX_ADVMSS] = 1360;
  spec.metrics.values[RTAX_RTT] = 800;
  spec.metrics.locked = 1u << RTAX_MTU;
  ASSERT_TRUE(add_route(conn(), spec));
  auto theirs = ip_json(ns(), {"route", "show", "10.20.0.0/16"});
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_EQ(theirs[0]["metrics"][0]["mtu"], 1400);
  EXPECT_EQ(theirs[0]["metrics"][0]["advmss"], 1360);
  EXPECT_EQ(theirs[0]["metrics"][0]["rtt"], 100);
  auto mine = list_routes(conn(), {});
  ASSERT_TRUE(mine);
  bool found = false;
  for (const auto& r : *mine) {
    if (r.dst.to_string() != "10.20.0.0/16") continue;
    found = true;
    EXPECT_EQ(r.metrics, spec.metrics);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace brisk::netlink
