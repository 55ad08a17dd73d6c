// The raw monitor printers on messages built here: multicast routes, which
// this kernel cannot make (no CONFIG_IP_MROUTE), and stats messages in
// shapes the kernel test does not reach. The expected lines follow ip 6.1's
// print_mroute and ipstats_print word for word.
#include "cli/ip/monitor/monitor_raw.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <array>
#include <map>
#include <vector>

#include "brisk/netlink/message.h"

namespace brisk::ipcli {
namespace {

netlink::MonitorEvent event_of(const netlink::Message& m) {
  const auto* h = m.header();
  const char* bytes = reinterpret_cast<const char*>(h);
  return {
      .type = h->nlmsg_type, .deleted = h->nlmsg_type == RTM_DELROUTE, .raw = {bytes, bytes + h->nlmsg_len}};
}

const NameOf kNames = [](int index) {
  static const std::map<int, std::string> names{{2, "eth0"}, {3, "eth1"}, {4, "eth2"}};
  auto it = names.find(index);
  return it == names.end() ? std::to_string(index) : it->second;
};

std::array<uint8_t, 4> v4(const char* text) {
  std::array<uint8_t, 4> a{};
  EXPECT_EQ(::inet_pton(AF_INET, text, a.data()), 1);
  return a;
}

// An ipmr route: (src, group) from iif 2 out of `oifs` (ifindex, ttl).
netlink::Message mroute(uint16_t type, const std::vector<std::pair<int, uint8_t>>& oifs,
                        uint32_t table = RT_TABLE_DEFAULT, uint32_t flags = 0) {
  netlink::Message m(type, 0);
  auto& r = m.put_header<rtmsg>();
  r.rtm_family = RTNL_FAMILY_IPMR;
  r.rtm_type = RTN_MULTICAST;
  r.rtm_table = RT_TABLE_DEFAULT;
  r.rtm_flags = flags;
  m.put_u32(RTA_TABLE, table);
  m.put_bytes(RTA_SRC, v4("10.0.0.1"));
  m.put_bytes(RTA_DST, v4("239.1.1.1"));
  m.put_u32(RTA_IIF, 2);
  std::vector<uint8_t> paths;
  for (auto [ifindex, ttl] : oifs) {
    rtnexthop hop{.rtnh_len = sizeof(rtnexthop), .rtnh_flags = 0, .rtnh_hops = ttl, .rtnh_ifindex = ifindex};
    auto* p = reinterpret_cast<const uint8_t*>(&hop);
    paths.insert(paths.end(), p, p + sizeof hop);
  }
  if (!paths.empty()) m.put_bytes(RTA_MULTIPATH, paths);
  return m;
}

TEST(MonitorRawMroute, AsIpPrintsIt) {
  Globals g;
  auto added = event_of(mroute(RTM_NEWROUTE, {{3, 1}, {4, 2}}));
  ASSERT_TRUE(is_mroute(added));
  EXPECT_EQ(mroute_text(added, kNames, 0, g),
            "(10.0.0.1,239.1.1.1)             Iif: eth0       Oifs: eth1 eth2(ttl 2)  State: resolved Table: "
            "default\n");
  // Main is left out unless -d; an unresolved entry has no Oifs.
  auto pending = event_of(mroute(RTM_DELROUTE, {}, RT_TABLE_MAIN, RTNH_F_UNRESOLVED));
  EXPECT_EQ(mroute_text(pending, kNames, 0, g),
            "Deleted (10.0.0.1,239.1.1.1)             Iif: eth0        State: unresolved\n");
  g.details = true;
  EXPECT_EQ(mroute_text(pending, kNames, 0, g),
            "Deleted (10.0.0.1,239.1.1.1)             Iif: eth0        State: unresolved Table: main\n");
  // dev DEVICE keeps the routes coming in on it.
  EXPECT_EQ(mroute_text(added, kNames, 3, g), "");
  EXPECT_NE(mroute_text(added, kNames, 2, g), "");
}

TEST(MonitorRawMroute, StatsUnderDashS) {
  netlink::Message m = mroute(RTM_NEWROUTE, {{3, 1}});
  rta_mfc_stats counts{.mfcs_packets = 7, .mfcs_bytes = 700, .mfcs_wrong_if = 1};
  m.put_bytes(RTA_MFC_STATS, {reinterpret_cast<const uint8_t*>(&counts), sizeof counts});
  m.put_u64(RTA_EXPIRES, 250);  // ticks of 1/100 s
  Globals g;
  g.stats = 1;
  EXPECT_EQ(mroute_text(event_of(m), kNames, 0, g),
            "(10.0.0.1,239.1.1.1)             Iif: eth0       Oifs: eth1  State: resolved\n"
            "  7 packets, 700 bytes, 1 arrived on wrong iif., Age 2.50 Table: default\n");
}

TEST(MonitorRawMroute, UnicastRoutesAreNot) {
  netlink::Message m(RTM_NEWROUTE, 0);
  m.put_header<rtmsg>().rtm_family = AF_INET;
  EXPECT_FALSE(is_mroute(event_of(m)));
}

netlink::Message stats(std::optional<std::pair<uint8_t, uint8_t>> l3) {
  netlink::Message m(RTM_NEWSTATS, 0);
  m.put_header<if_stats_msg>().ifindex = 3;
  auto offload = m.begin_nest(IFLA_STATS_LINK_OFFLOAD_XSTATS);
  auto info = m.begin_nest(IFLA_OFFLOAD_XSTATS_HW_S_INFO);
  if (l3) {
    auto one = m.begin_nest(IFLA_OFFLOAD_XSTATS_L3_STATS);
    m.put_u8(IFLA_OFFLOAD_XSTATS_HW_S_INFO_REQUEST, l3->first);
    m.put_u8(IFLA_OFFLOAD_XSTATS_HW_S_INFO_USED, l3->second);
    m.end_nest(one);
  }
  m.end_nest(info);
  m.end_nest(offload);
  return m;
}

TEST(MonitorRawStats, HardwareStatsState) {
  EXPECT_EQ(stats_text(event_of(stats(std::pair{1, 1})), kNames), "3: eth1:\n    l3_stats on used on\n");
  EXPECT_EQ(stats_text(event_of(stats(std::pair{0, 0})), kNames), "3: eth1:\n    l3_stats off used off\n");
  EXPECT_EQ(stats_text(event_of(stats(std::nullopt)), kNames), "3: eth1:\n\n");
}

}  // namespace
}  // namespace brisk::ipcli
