// change_neighbour (an existing entry only) and proxy entries, with ip -j as
// the oracle.
#include <gtest/gtest.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include <algorithm>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;

class NeighChange : public test::NetnsTest {
 protected:
  void SetUp() override {
    NetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_TRUE(add_link(conn(), {.name = "n0", .kind = VethOptions{.peer = "n1"}, .common = {.up = true}}));
    // Both ends up, so n0 has carrier: a carrier-down event, which linkwatch
    // may process up to a second later, flushes every entry not permanent
    // (a STALE one below vanished that way in one run).
    ASSERT_TRUE(set_link(conn(), {.name = "n1", .up = true}));
  }
};

TEST_F(NeighChange, ChangesOnlyWhatExists) {
  auto missing =
      change_neighbour(conn(), {.dev = "n0", .address = "10.1.0.2", .lladdr = "02:00:00:00:01:02"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENOENT);
  EXPECT_EQ(missing.error().object, "10.1.0.2 dev n0");
  EXPECT_TRUE(ip_json(ns(), {"neigh", "show", "nud", "all", "dev", "n0", "10.1.0.2"}).empty())
      << "nothing created";

  ASSERT_TRUE(add_neighbour(conn(), {.dev = "n0", .address = "10.1.0.2", .lladdr = "02:00:00:00:01:02"}));
  // Only the state and a flag: the lladdr stays.
  ASSERT_TRUE(change_neighbour(
      conn(), {.dev = "n0", .address = "10.1.0.2", .state = NUD_STALE, .flags = NTF_ROUTER}));
  auto shown = ip_json(ns(), {"neigh", "show", "dev", "n0", "10.1.0.2"});
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0]["lladdr"], "02:00:00:00:01:02");
  EXPECT_EQ(shown[0]["state"][0], "STALE");
  EXPECT_TRUE(shown[0].contains("router"));

  Batch batch(conn());
  std::size_t changed =
      batch.change_neighbour({.dev = "n0", .address = "10.1.0.2", .lladdr = "02:00:00:00:01:09"});
  std::size_t absent =
      batch.change_neighbour({.dev = "n0", .address = "10.1.0.3", .lladdr = "02:00:00:00:01:03"});
  auto results = batch.flush();
  EXPECT_TRUE(results[changed]) << results[changed].error().message();
  ASSERT_FALSE(results[absent]);
  EXPECT_EQ(results[absent].error().code, ENOENT);
  EXPECT_EQ(ip_json(ns(), {"neigh", "show", "dev", "n0", "10.1.0.2"})[0]["lladdr"], "02:00:00:00:01:09");
}

TEST_F(NeighChange, ProxyEntriesAreTheirOwnTable) {
  ASSERT_TRUE(add_neighbour(conn(), {.dev = "n0", .address = "10.1.0.7", .flags = NTF_PROXY}));
  ASSERT_TRUE(add_neighbour(conn(), {.dev = "n1", .address = "fd00:1::7", .flags = NTF_PROXY}));
  ASSERT_TRUE(add_neighbour(conn(), {.address = "10.1.0.8", .flags = NTF_PROXY}));  // every device's
  auto oracle = ip_json(ns(), {"neigh", "show", "proxy"});
  EXPECT_EQ(oracle.size(), 3u) << oracle.dump();

  auto all = list_neighbours(conn(), {.proxy = true});
  ASSERT_TRUE(all) << all.error().message();
  ASSERT_EQ(all->size(), 3u);
  for (const auto& n : *all) {
    EXPECT_TRUE(n.flags & NTF_PROXY) << n.address.to_string();
    EXPECT_FALSE(n.lladdr);
    EXPECT_EQ(n.state, NUD_NONE);
  }
  auto on_n0 = list_neighbours(conn(), {.dev = "n0", .family = AF_INET, .proxy = true});
  ASSERT_TRUE(on_n0) << on_n0.error().message();
  ASSERT_EQ(on_n0->size(), 1u);
  EXPECT_EQ((*on_n0)[0].address.to_string(), "10.1.0.7");
  auto cache = list_neighbours(conn(), {.dev = "n0", .family = AF_INET});
  ASSERT_TRUE(cache);
  EXPECT_TRUE(cache->empty()) << "proxy entries are not in the cache";

  ASSERT_TRUE(delete_neighbour(conn(), {.dev = "n0", .address = "10.1.0.7", .flags = NTF_PROXY}));
  auto again = delete_neighbour(conn(), {.dev = "n0", .address = "10.1.0.7", .flags = NTF_PROXY});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ENOENT);
  EXPECT_EQ(again.error().object, "proxy 10.1.0.7 dev n0");
  ASSERT_TRUE(delete_neighbour(conn(), {.address = "10.1.0.8", .flags = NTF_PROXY}));
  auto left = ip_json(ns(), {"neigh", "show", "proxy"});
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0]["dst"], "fd00:1::7");
  EXPECT_EQ(left[0]["dev"], "n1");
}

TEST_F(NeighChange, ManagedAndExternLearnedReadBack) {
  ASSERT_TRUE(
      add_neighbour(conn(), {.dev = "n0", .address = "10.1.0.11", .state = NUD_NONE, .managed = true}));
  ASSERT_TRUE(add_neighbour(
      conn(),
      {.dev = "n0", .address = "10.1.0.12", .lladdr = "02:00:00:00:01:12", .flags = NTF_EXT_LEARNED}));
  auto listed = list_neighbours(conn(), {.dev = "n0", .family = AF_INET});
  ASSERT_TRUE(listed) << listed.error().message();
  auto find = [&](const char* dst) {
    return std::find_if(listed->begin(), listed->end(),
                        [&](const auto& n) { return n.address.to_string() == dst; });
  };
  ASSERT_NE(find("10.1.0.11"), listed->end());
  EXPECT_TRUE(find("10.1.0.11")->managed);
  ASSERT_NE(find("10.1.0.12"), listed->end());
  EXPECT_TRUE(find("10.1.0.12")->flags & NTF_EXT_LEARNED);
  EXPECT_FALSE(find("10.1.0.12")->managed);
}

TEST_F(NeighChange, GetAsksForOneEntryWithItsProtocol) {
  ASSERT_TRUE(add_neighbour(
      conn(), {.dev = "n0", .address = "10.1.0.2", .lladdr = "02:00:00:00:01:02", .protocol = RTPROT_DHCP}));
  ASSERT_TRUE(add_neighbour(
      conn(), {.dev = "n0", .address = "10.1.0.7", .flags = NTF_PROXY, .protocol = RTPROT_STATIC}));
  ASSERT_TRUE(add_neighbour(conn(), {.address = "10.1.0.8", .flags = NTF_PROXY}));
  auto got = get_neighbour(conn(), "n0", "10.1.0.2");
  ASSERT_TRUE(got) << got.error().message();
  EXPECT_EQ(got->ifindex, resolve_link(conn(), "n0").value());
  EXPECT_EQ(got->lladdr->to_string(), "02:00:00:00:01:02");
  EXPECT_EQ(got->state, NUD_PERMANENT);
  EXPECT_EQ(got->protocol, RTPROT_DHCP);
  EXPECT_EQ(ip_json(ns(), {"neigh", "show", "dev", "n0", "10.1.0.2"})[0]["protocol"], "dhcp")
      << "sent as ip sends it";
  auto proxy = get_neighbour(conn(), "n0", "10.1.0.7", true);
  ASSERT_TRUE(proxy) << proxy.error().message();
  EXPECT_TRUE(proxy->flags & NTF_PROXY);
  EXPECT_EQ(proxy->protocol, RTPROT_STATIC);
  auto everywhere = get_neighbour(conn(), "", "10.1.0.8", true);
  ASSERT_TRUE(everywhere) << everywhere.error().message();
  EXPECT_EQ(everywhere->ifindex, 0);

  auto none = get_neighbour(conn(), "n0", "10.1.0.3");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ENOENT);
  EXPECT_EQ(none.error().object, "10.1.0.3 dev n0");
  EXPECT_EQ(get_neighbour(conn(), "n0", "10.1.0.2", true).error().code, ENOENT) << "the proxy table is apart";
  EXPECT_EQ(get_neighbour(conn(), "nope0", "10.1.0.2").error().code, ENODEV);
  EXPECT_EQ(get_neighbour(conn(), "n0", "10.1.0.300").error().code, EINVAL);
  EXPECT_EQ(get_neighbour(conn(), "", "10.1.0.2").error().code, EINVAL) << "a cache entry needs its device";
}

TEST_F(NeighChange, ListFiltersByMasterInTheKernel) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}, .common = {.up = true}}));
  ASSERT_TRUE(set_link(conn(), {.name = "n1", .master = "br0"}));
  ASSERT_TRUE(add_neighbour(conn(), {.dev = "n0", .address = "10.1.0.2", .lladdr = "02:00:00:00:01:02"}));
  ASSERT_TRUE(add_neighbour(conn(), {.dev = "n1", .address = "10.1.0.3", .lladdr = "02:00:00:00:01:03"}));
  auto addresses = [](const std::vector<NeighbourInfo>& found) {
    std::vector<std::string> out;
    for (const auto& n : found) out.push_back(n.address.to_string());
    std::sort(out.begin(), out.end());
    return out;
  };
  auto ported = list_neighbours(conn(), {.family = AF_INET, .master = "br0"});
  ASSERT_TRUE(ported) << ported.error().message();
  EXPECT_EQ(addresses(*ported), std::vector<std::string>{"10.1.0.3"});
  auto unported = list_neighbours(conn(), {.family = AF_INET, .no_master = true});
  ASSERT_TRUE(unported) << unported.error().message();
  EXPECT_EQ(addresses(*unported), std::vector<std::string>{"10.1.0.2"});
  auto missing = list_neighbours(conn(), {.master = "nope0"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENODEV);
}

}  // namespace
}  // namespace brisk::netlink
