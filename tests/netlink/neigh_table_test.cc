// Neighbour tables: the change request as built (its attributes and their
// nest, read back by the parser a reply goes through), and, in a throwaway
// namespace, the dump and a device's parameters changed and read back.
#include "netlink/internal/neigh_table.h"

#include <gtest/gtest.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <array>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/link.h"
#include "support/test_support.h"

namespace brisk::netlink {
namespace {

TEST(NeighTable, ChangeMessageCarriesOnlyWhatIsSetAndNestsTheParameters) {
  Message plain = neigh_table_change_message({.family = AF_INET, .name = "arp_cache", .thresh2 = 700});
  const nlmsghdr& h = *reinterpret_cast<const nlmsghdr*>(plain.bytes().data());
  EXPECT_EQ(h.nlmsg_type, RTM_SETNEIGHTBL);
  EXPECT_TRUE(h.nlmsg_flags & NLM_F_REPLACE);
  EXPECT_EQ(static_cast<const ndtmsg*>(NLMSG_DATA(&h))->ndtm_family, AF_INET);
  std::array<AttrPolicy, NDTA_MAX + 1> policy{};
  policy[NDTA_NAME] = {AttrKind::string};
  for (int t : {NDTA_THRESH1, NDTA_THRESH2, NDTA_THRESH3}) policy[t] = {AttrKind::u32};
  policy[NDTA_GC_INTERVAL] = {AttrKind::u64};
  policy[NDTA_PARMS] = {AttrKind::nested};
  auto attrs = Attributes::parse_message(h, sizeof(ndtmsg), Schema{policy});
  ASSERT_TRUE(attrs) << attrs.error().message();
  EXPECT_EQ(attrs->string(NDTA_NAME), std::optional<std::string_view>("arp_cache"));
  EXPECT_EQ(attrs->u32(NDTA_THRESH2), std::optional<uint32_t>(700));
  EXPECT_FALSE(attrs->has(NDTA_THRESH1));
  EXPECT_FALSE(attrs->has(NDTA_PARMS)) << "no parameter set, no nest";

  Message dev = neigh_table_change_message(
      {.name = "ndisc_cache", .ifindex = 7, .gc_interval = 1ull << 40, .queue_len = 5, .locktime = 0});
  const nlmsghdr& d = *reinterpret_cast<const nlmsghdr*>(dev.bytes().data());
  auto top = Attributes::parse_message(d, sizeof(ndtmsg), Schema{policy});
  ASSERT_TRUE(top) << top.error().message();
  EXPECT_EQ(top->u64(NDTA_GC_INTERVAL), std::optional<uint64_t>(1ull << 40));
  std::array<AttrPolicy, NDTPA_MAX + 1> parm_policy{};
  parm_policy[NDTPA_IFINDEX] = parm_policy[NDTPA_QUEUE_LEN] = parm_policy[NDTPA_APP_PROBES] = {AttrKind::u32};
  parm_policy[NDTPA_LOCKTIME] = parm_policy[NDTPA_RETRANS_TIME] = {AttrKind::u64};
  auto parms = top->nested(NDTA_PARMS, Schema{parm_policy});
  ASSERT_TRUE(parms) << parms.error().message();
  EXPECT_EQ(parms->u32(NDTPA_IFINDEX), std::optional<uint32_t>(7));
  EXPECT_EQ(parms->u32(NDTPA_QUEUE_LEN), std::optional<uint32_t>(5));
  EXPECT_EQ(parms->u64(NDTPA_LOCKTIME), std::optional<uint64_t>(0)) << "a zero that was set is sent";
  EXPECT_FALSE(parms->has(NDTPA_APP_PROBES));
  EXPECT_FALSE(parms->has(NDTPA_RETRANS_TIME));
}

TEST(NeighTable, ListsTablesAndThisNamespacesDevicesAndChangesOnesParameters) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  UniqueFd ns = brisk::test::make_netns();
  auto conn = Connection::open_in(ns.get());
  ASSERT_TRUE(conn) << conn.error().message();
  auto lo = resolve_link(*conn, "lo");
  ASSERT_TRUE(lo);
  auto v4 = list_neigh_tables(*conn, AF_INET);
  ASSERT_TRUE(v4) << v4.error().message();
  // arp_cache itself (thresholds, config, stats, parameters without a
  // device), then this namespace's devices: lo alone.
  ASSERT_EQ(v4->size(), 2u);
  const NeighTableInfo& table = (*v4)[0];
  EXPECT_EQ(table.family, AF_INET);
  EXPECT_EQ(table.name, "arp_cache");
  EXPECT_TRUE(table.thresh1 && table.thresh2 && table.thresh3 && table.gc_interval);
  ASSERT_TRUE(table.config);
  EXPECT_EQ(table.config->ndtc_key_len, 4u);
  EXPECT_TRUE(table.stats);
  ASSERT_TRUE(table.parms);
  EXPECT_FALSE(table.parms->ifindex);
  const NeighTableInfo& device = (*v4)[1];
  ASSERT_TRUE(device.parms);
  EXPECT_EQ(device.parms->ifindex, std::optional<int>(*lo));
  EXPECT_FALSE(device.thresh1 || device.config || device.stats);

  auto changed = change_neigh_table(*conn, {.family = AF_INET,
                                            .name = "arp_cache",
                                            .ifindex = *lo,
                                            .queue_len = 17,
                                            .ucast_probes = 9,
                                            .locktime = 2000});
  ASSERT_TRUE(changed) << changed.error().message();
  auto after = list_neigh_tables(*conn, AF_INET);
  ASSERT_TRUE(after && after->size() == 2u);
  const NeighTableParms& p = *(*after)[1].parms;
  EXPECT_EQ(p.queue_len, std::optional<uint32_t>(17));
  EXPECT_EQ(p.ucast_probes, std::optional<uint32_t>(9));
  EXPECT_EQ(p.locktime, std::optional<uint64_t>(2000));
  EXPECT_EQ(p.mcast_probes, device.parms->mcast_probes) << "what was not sent stays";

  // The table's own values belong to the initial namespace: refused here.
  auto thresholds = change_neigh_table(*conn, {.name = "arp_cache", .thresh1 = 1});
  ASSERT_FALSE(thresholds);
  EXPECT_EQ(thresholds.error().code, ENOENT);
  auto unknown = change_neigh_table(*conn, {.name = "no_such_cache", .ifindex = *lo, .queue_len = 1});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ENOENT);
}

}  // namespace
}  // namespace brisk::netlink
