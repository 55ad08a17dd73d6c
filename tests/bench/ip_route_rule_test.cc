// The route add and rule add phases of `brisk bench ip`: the floor's
// requests make the very routes and rules ip makes from the batch lines, and
// the end-state counts see exactly them.
#include "bench/ip_route_rule.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <fstream>

#include "brisk/spawn.h"
#include "support/test_support.h"

namespace brisk::bench {
namespace {

constexpr int kCount = 5;

std::string ip_json(int ns, const std::string& object) {
  SpawnOptions options{.argv = {"ip", "-j", object, "show"}};
  options.namespaces = {{.type = CLONE_NEWNET, .fd = ns}};
  auto run = brisk::test::run_capture(options);
  EXPECT_TRUE(run.status.success()) << object;
  return run.out;
}

TEST(IpRouteRule, TheFloorMakesWhatIpMakesFromTheBatchLines) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create a network namespace";
  UniqueFd by_ip = brisk::test::make_netns();
  UniqueFd by_floor = brisk::test::make_netns();
  ASSERT_TRUE(by_ip.valid() && by_floor.valid());

  brisk::test::TempDir dir;
  std::string file = dir.path() + "/batch";
  {
    std::ofstream out(file);
    // As in the bench: an address, so the namespace has a local table to
    // find the onlink gateway unicast in.
    out << "link add a0 type veth peer name b0\nlink set a0 up\naddr add 10.1.0.0/32 dev a0\n";
    for (int i = 0; i < kCount; ++i) out << route_line(i, "a0") << "\n" << rule_line(i) << "\n";
  }
  SpawnOptions options{.argv = {"ip", "-batch", file}};
  options.namespaces = {{.type = CLONE_NEWNET, .fd = by_ip.get()}};
  auto batch = brisk::test::run_capture(options);
  ASSERT_TRUE(batch.status.success());

  RawNetlink floor(by_floor.get());
  ASSERT_EQ(floor.veth_add("a0", "b0"), 0);
  ASSERT_EQ(floor.set_up("a0"), 0);
  int a0 = floor.ifindex("a0");
  ASSERT_GT(a0, 0);
  ASSERT_EQ(floor.addr_add(a0, 10u << 24 | 1u << 16), 0);
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(route_floor(floor, i, a0), 0) << route_line(i, "a0");
    EXPECT_EQ(rule_floor(floor, i), 0) << rule_line(i);
  }

  EXPECT_EQ(ip_json(by_floor.get(), "route"), ip_json(by_ip.get(), "route"));
  EXPECT_EQ(ip_json(by_floor.get(), "rule"), ip_json(by_ip.get(), "rule"));
  for (int ns : {by_ip.get(), by_floor.get()}) {
    EXPECT_EQ(count_bench_routes(ns), kCount);
    EXPECT_EQ(count_bench_rules(ns), kCount);
  }
}

}  // namespace
}  // namespace brisk::bench
