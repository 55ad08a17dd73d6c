// Routes, neighbours and bridge fdb, with ip -j / bridge -j as the oracle.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/route.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;
using test::ip_run;

class Routing : public test::NetnsTest {
 protected:
  void SetUp() override {
    NetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(add_link(conn(), {.name = "r0", .kind = VethOptions{.peer = "r1"}, .common = {.up = true}}));
    ASSERT_TRUE(set_link(conn(), {.name = "r1", .up = true}));
    ASSERT_TRUE(add_address(conn(), {.dev = "r0", .prefix = "10.1.0.1/24"}));
    ASSERT_TRUE(add_address(conn(), {.dev = "r0", .prefix = "fd00:1::1/64", .nodad = true}));
  }
  nlohmann::json route(const std::string& dst, const char* family = "-4", const char* table = "main") {
    for (const auto& r : ip_json(ns(), {family, "route", "show", "table", table}))
      if (r["dst"] == dst) return r;
    return nullptr;
  }
};

TEST_F(Routing, RoutesOfEveryShapeReadBackThroughIp) {
  ASSERT_TRUE(add_route(
      conn(), {.prefix = "10.2.0.0/16", .via = "10.1.0.254", .dev = "r0", .metric = 50, .src = "10.1.0.1"}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "10.3.0.0/16", .dev = "r0"}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "10.4.0.0/16", .via = "192.0.2.1", .dev = "r0", .onlink = true}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "10.5.0.0/16", .type = RouteType::blackhole}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "10.6.0.0/16", .type = RouteType::unreachable}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "10.7.0.0/16", .type = RouteType::prohibit}));
  ASSERT_TRUE(
      add_route(conn(), {.prefix = "10.8.0.0/16", .dev = "r0", .table = 100, .protocol = RTPROT_STATIC}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "default", .via = "10.1.0.254"}));
  ASSERT_TRUE(add_route(conn(), {.prefix = "fd00:2::/64", .via = "fd00:1::fe", .dev = "r0", .metric = 7}));
  auto a = route("10.2.0.0/16");
  EXPECT_EQ(a["gateway"], "10.1.0.254");
  EXPECT_EQ(a["dev"], "r0");
  EXPECT_EQ(a["metric"], 50);
  EXPECT_EQ(a["prefsrc"], "10.1.0.1");
  EXPECT_FALSE(a.contains("protocol")) << "ip omits the default, boot";
  auto b = route("10.3.0.0/16");
  EXPECT_EQ(b["scope"], "link");
  auto c = route("10.4.0.0/16");
  EXPECT_NE(std::find(c["flags"].begin(), c["flags"].end(), "onlink"), c["flags"].end());
  EXPECT_EQ(route("10.5.0.0/16")["type"], "blackhole");
  EXPECT_EQ(route("10.6.0.0/16")["type"], "unreachable");
  EXPECT_EQ(route("10.7.0.0/16")["type"], "prohibit");
  auto t = route("10.8.0.0/16", "-4", "100");
  EXPECT_EQ(t["protocol"], "static");
  EXPECT_TRUE(route("10.8.0.0/16").is_null());
  EXPECT_EQ(route("default")["gateway"], "10.1.0.254");
  auto v6 = route("fd00:2::/64", "-6");
  EXPECT_EQ(v6["gateway"], "fd00:1::fe");
  EXPECT_EQ(v6["metric"], 7);
  // brisk lists what ip lists (main table, IPv4).
  auto listed = list_routes(conn(), {.family = AF_INET});
  ASSERT_TRUE(listed) << listed.error().message();
  auto oracle = ip_json(ns(), {"-4", "route", "show", "table", "main"});
  EXPECT_EQ(listed->size(), oracle.size());
  auto in100 = list_routes(conn(), {.family = AF_INET, .table = 100});
  ASSERT_TRUE(in100);
  ASSERT_EQ(in100->size(), 1u);
  EXPECT_EQ((*in100)[0].dst.to_string(), "10.8.0.0/16");
  EXPECT_EQ((*in100)[0].protocol, RTPROT_STATIC);
}

TEST_F(Routing, ListReadsWhatIpAddedAndReplaceDeleteWork) {
  ASSERT_TRUE(ip_run(ns(), {"route", "add", "10.9.0.0/24", "via", "10.1.0.9", "metric", "12"}));
  auto routes = list_routes(conn(), {.family = AF_INET, .dev = "r0"});
  ASSERT_TRUE(routes);
  const RouteInfo* found = nullptr;
  for (const auto& r : *routes)
    if (r.dst.to_string() == "10.9.0.0/24") found = &r;
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->gateway->to_string(), "10.1.0.9");
  EXPECT_EQ(found->metric, 12u);
  auto dup = add_route(conn(), {.prefix = "10.9.0.0/24", .via = "10.1.0.9", .metric = 12});
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, EEXIST);
  EXPECT_EQ(dup.error().object, "10.9.0.0/24 via 10.1.0.9");
  ASSERT_TRUE(replace_route(conn(), {.prefix = "10.9.0.0/24", .via = "10.1.0.10", .metric = 12}));
  EXPECT_EQ(route("10.9.0.0/24")["gateway"], "10.1.0.10");
  ASSERT_TRUE(delete_route(conn(), {.prefix = "10.9.0.0/24", .metric = 12}));
  EXPECT_TRUE(route("10.9.0.0/24").is_null());
  auto gone = delete_route(conn(), {.prefix = "10.9.0.0/24"});
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, ESRCH);
}

TEST_F(Routing, BadRoutesAreRefusedNamingTheRoute) {
  auto bad_prefix = add_route(conn(), {.prefix = "10.0.0.0/40", .dev = "r0"});
  ASSERT_FALSE(bad_prefix);
  EXPECT_EQ(bad_prefix.error().object, "10.0.0.0/40 dev r0");
  auto bad_gw = add_route(conn(), {.prefix = "10.0.0.0/8", .via = "10.1.0"});
  ASSERT_FALSE(bad_gw);
  EXPECT_NE(bad_gw.error().message().find("gateway"), std::string::npos);
  auto mixed = add_route(conn(), {.prefix = "10.0.0.0/8", .via = "fd00::1"});
  ASSERT_FALSE(mixed);
  auto nodev = add_route(conn(), {.prefix = "10.0.0.0/8", .dev = "nope0"});
  ASSERT_FALSE(nodev);
  EXPECT_EQ(nodev.error().code, ENODEV);
  auto unreachable_gw = add_route(conn(), {.prefix = "10.0.0.0/8", .via = "192.0.2.1"});
  ASSERT_FALSE(unreachable_gw);
  EXPECT_EQ(unreachable_gw.error().code, ENETUNREACH);
  EXPECT_FALSE(unreachable_gw.error().ext_ack.empty()) << unreachable_gw.error().message();
}

TEST_F(Routing, NeighboursReadBackAndNeverDump) {
  Batch batch(conn());
  batch.add_neighbour({.dev = "r0", .address = "10.1.0.2", .lladdr = "02:00:00:00:01:02"});
  batch.add_neighbour(
      {.dev = "r0", .address = "10.1.0.3", .lladdr = "02:00:00:00:01:03", .state = NUD_REACHABLE});
  batch.add_neighbour({.dev = "r0", .address = "fd00:1::2", .lladdr = "02:00:00:00:01:04"});
  uint64_t requests = conn().stats().requests;
  for (auto& r : batch.flush()) ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(conn().stats().requests - requests, 3u) << "three requests, no lookups or dumps";
  auto oracle = ip_json(ns(), {"neigh", "show", "dev", "r0"});
  std::map<std::string, nlohmann::json> by_dst;
  for (const auto& n : oracle) by_dst[n["dst"]] = n;
  EXPECT_EQ(by_dst["10.1.0.2"]["lladdr"], "02:00:00:00:01:02");
  EXPECT_EQ(by_dst["10.1.0.2"]["state"][0], "PERMANENT");
  EXPECT_EQ(by_dst["10.1.0.3"]["state"][0], "REACHABLE");
  EXPECT_EQ(by_dst["fd00:1::2"]["lladdr"], "02:00:00:00:01:04");
  auto listed = list_neighbours(conn(), {.dev = "r0", .family = AF_INET});
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_EQ(listed->size(), 2u);
  ASSERT_TRUE(replace_neighbour(conn(), {.dev = "r0", .address = "10.1.0.2", .lladdr = "02:00:00:00:09:09"}));
  EXPECT_EQ(ip_json(ns(), {"neigh", "show", "10.1.0.2", "dev", "r0"})[0]["lladdr"], "02:00:00:00:09:09");
  auto dup = add_neighbour(conn(), {.dev = "r0", .address = "10.1.0.2", .lladdr = "02:00:00:00:09:09"});
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, EEXIST);
  EXPECT_EQ(dup.error().object, "10.1.0.2 dev r0");
  ASSERT_TRUE(delete_neighbour(conn(), {.dev = "r0", .address = "10.1.0.2"}));
  EXPECT_TRUE(ip_json(ns(), {"neigh", "show", "10.1.0.2", "dev", "r0"}).empty());
  auto bad_mac = add_neighbour(conn(), {.dev = "r0", .address = "10.1.0.5", .lladdr = "02:00"});
  ASSERT_FALSE(bad_mac);
  EXPECT_EQ(bad_mac.error().object, "10.1.0.5 dev r0");
  auto no_mac = add_neighbour(conn(), {.dev = "r0", .address = "10.1.0.5"});
  ASSERT_FALSE(no_mac);
}

// 100 routes and 100 neighbours through a one-byte receive buffer, and a
// route the kernel refuses (an unreachable gateway), on a connection made
// with `options`: each result, and what is in place afterwards, checked.
// Returns the connection's stats.
ConnectionStats many_changes_through_a_tiny_buffer(int netns, ConnectionOptions options) {
  options.receive_buffer = 1;
  options.max_window = 100000;
  options.unbounded_window = true;
  auto small = Connection::open_in(netns, options);
  EXPECT_TRUE(small) << small.error().message();
  if (!small) return {};
  Batch batch(*small);
  for (int i = 0; i < 100; ++i) {
    batch.add_route({.prefix = "10.50." + std::to_string(i) + ".0/24", .via = "10.1.0.254"});
    batch.add_neighbour({.dev = "r0",
                         .address = "10.1.0." + std::to_string(i + 100),
                         .lladdr = "02:00:00:00:02:" + fmt::format("{:02x}", i)});
  }
  std::size_t bad = batch.add_route({.prefix = "10.60.0.0/24", .via = "192.0.2.1"});
  auto results = batch.flush();
  for (std::size_t i = 0; i < 200; ++i) EXPECT_TRUE(results[i]) << i << ": " << results[i].error().message();
  EXPECT_FALSE(results[bad]);
  if (!results[bad] && small->stats().rechecks == 0) {
    EXPECT_EQ(results[bad].error().code, ENETUNREACH) << results[bad].error().message();
  }
  EXPECT_EQ(ip_json(netns, {"neigh", "show", "dev", "r0"}).size(), 100u);
  int routes = 0;
  for (const auto& r : ip_json(netns, {"-4", "route", "show"}))
    if (r["dst"].get<std::string>().rfind("10.50.", 0) == 0) ++routes;
  EXPECT_EQ(routes, 100);
  return small->stats();
}

// Every change ACKed: the ACKs overrun the buffer, and the unanswered
// changes are re-checked.
TEST_F(Routing, LostAcksForRoutesAndNeighboursAreRechecked) {
  auto stats = many_changes_through_a_tiny_buffer(ns(), {.ack_every_change = true});
  EXPECT_GT(stats.enobufs, 0u);
  EXPECT_GT(stats.rechecks, 0u);
}

// By default only a failure is answered, and the window's fence: the same
// 201 changes fit the buffer, nothing is re-checked, and the refused route
// still has the kernel's own error.
TEST_F(Routing, QuietChangesLeaveTheReceiveBufferToTheirFailures) {
  auto stats = many_changes_through_a_tiny_buffer(ns(), {});
  EXPECT_EQ(stats.enobufs, 0u);
  EXPECT_EQ(stats.rechecks, 0u);
  EXPECT_GE(stats.fences, 1u);
  EXPECT_EQ(stats.requests, 201u);
}

TEST_F(Routing, BridgeFdbAddListDelete) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}}));
  ASSERT_TRUE(set_link(conn(), {.name = "r1", .master = "br0"}));
  ASSERT_TRUE(add_fdb(conn(), {.dev = "r1", .lladdr = "02:00:00:00:aa:01"}));
  // The device's own table takes only permanent entries.
  auto self = add_fdb(
      conn(),
      {.dev = "r1", .lladdr = "02:00:00:00:aa:02", .master = false, .self = true, .state = NUD_PERMANENT});
  ASSERT_TRUE(self) << self.error().message();
  auto run = brisk::test::run_capture({.argv = {"bridge", "-j", "fdb", "show", "br", "br0"},
                                       .namespaces = {{.type = CLONE_NEWNET, .fd = ns()}}});
  auto oracle = nlohmann::json::parse(run.out);
  bool saw = false;
  for (const auto& e : oracle)
    if (e["mac"] == "02:00:00:00:aa:01" && e["ifname"] == "r1") saw = true;
  EXPECT_TRUE(saw) << run.out;
  auto listed = list_fdb(conn(), "br0");
  ASSERT_TRUE(listed) << listed.error().message();
  bool mine = false;
  for (const auto& e : *listed) mine |= e.lladdr.to_string() == "02:00:00:00:aa:01";
  EXPECT_TRUE(mine);
  ASSERT_TRUE(delete_fdb(conn(), {.dev = "r1", .lladdr = "02:00:00:00:aa:01"}));
  auto after = list_fdb(conn(), "br0");
  for (const auto& e : *after) EXPECT_NE(e.lladdr.to_string(), "02:00:00:00:aa:01");
  auto missing = list_fdb(conn(), "nobridge");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENODEV);
}

}  // namespace
}  // namespace brisk::netlink
