// netconf: the dump of a family's per-device settings and the get of one
// device's, against what /proc/sys says in a throwaway namespace.
#include "netlink/internal/netconf.h"

#include <gtest/gtest.h>
#include <linux/netconf.h>

#include <algorithm>

#include "brisk/netlink/link.h"
#include "support/test_support.h"

namespace brisk::netlink {
namespace {

TEST(Netconf, ListsEveryDeviceThenAllAndDefaultAndGetsOne) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  UniqueFd ns = brisk::test::make_netns();
  auto conn = Connection::open_in(ns.get());
  ASSERT_TRUE(conn) << conn.error().message();
  auto lo = resolve_link(*conn, "lo");
  ASSERT_TRUE(lo);
  auto v4 = list_netconf(*conn, AF_INET);
  ASSERT_TRUE(v4) << v4.error().message();
  std::vector<int> indexes;
  for (const auto& c : *v4) {
    EXPECT_EQ(c.family, AF_INET);
    ASSERT_TRUE(c.ifindex);
    indexes.push_back(*c.ifindex);
    EXPECT_TRUE(c.forwarding && c.rp_filter);
  }
  EXPECT_EQ(indexes, (std::vector<int>{*lo, NETCONFA_IFINDEX_ALL, NETCONFA_IFINDEX_DEFAULT}));
  auto every = list_netconf(*conn);
  ASSERT_TRUE(every) << every.error().message();
  EXPECT_TRUE(
      std::any_of(every->begin(), every->end(), [](const NetconfInfo& c) { return c.family == AF_INET6; }));
  auto one = get_netconf(*conn, AF_INET6, *lo);
  ASSERT_TRUE(one) << one.error().message();
  EXPECT_EQ(one->ifindex, std::optional<int>(*lo));
  EXPECT_EQ(one->forwarding, std::optional<uint32_t>(0));
  EXPECT_FALSE(one->rp_filter);  // IPv4's alone
  auto missing = get_netconf(*conn, AF_INET, 9999);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENODEV);
}

}  // namespace
}  // namespace brisk::netlink
