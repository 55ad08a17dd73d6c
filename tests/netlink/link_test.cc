// Links, with iproute2 as the oracle. Every test runs in its own namespace.
#include "brisk/netlink/link.h"

#include <gtest/gtest.h>
#include <linux/if.h>
#include <sched.h>

#include "brisk/netlink/batch.h"
#include "netns_fixture.h"
#include "sys/syscalls.h"

namespace brisk::netlink {
namespace {

using test::ip_json;
using test::ip_link;
using test::ip_link_names;
using test::ip_run;

class Link : public test::NetnsTest {};

TEST_F(Link, AFreshNamespaceHoldsOnlyLoopback) {
  auto links = list_links(conn());
  ASSERT_TRUE(links) << links.error().message();
  ASSERT_EQ(links->size(), 1u);
  EXPECT_EQ((*links)[0].name, "lo");
  EXPECT_EQ((*links)[0].ifindex, 1);
}

TEST_F(Link, VethWithCommonOptionsReadsBackThroughIp) {
  auto added = add_link(
      conn(),
      {.name = "va0",
       .kind = VethOptions{.peer = "vb0", .peer_common = {.mtu = 1400, .address = "02:00:00:00:00:02"}},
       .common = {.mtu = 9000,
                  .address = "02:00:00:00:00:01",
                  .txqueuelen = 77,
                  .alias = "uplink",
                  .group = 5,
                  .up = true}});
  ASSERT_TRUE(added) << added.error().message();
  auto a = ip_link(ns(), "va0");
  ASSERT_FALSE(a.is_null());
  EXPECT_EQ(a["linkinfo"]["info_kind"], "veth");
  EXPECT_EQ(a["mtu"], 9000);
  EXPECT_EQ(a["address"], "02:00:00:00:00:01");
  EXPECT_EQ(a["txqlen"], 77);
  EXPECT_EQ(a["ifalias"], "uplink");
  EXPECT_EQ(a["group"], "5");
  EXPECT_NE(std::find(a["flags"].begin(), a["flags"].end(), "UP"), a["flags"].end());
  EXPECT_EQ(a["link"], "vb0");
  auto b = ip_link(ns(), "vb0");
  ASSERT_FALSE(b.is_null());
  EXPECT_EQ(b["mtu"], 1400);
  EXPECT_EQ(b["address"], "02:00:00:00:00:02");
  EXPECT_EQ(std::find(b["flags"].begin(), b["flags"].end(), "UP"), b["flags"].end());
}

TEST_F(Link, GetReadsBackWhatIpCreated) {
  ASSERT_TRUE(ip_run(ns(), {"link", "add", "ipa", "mtu", "1300", "address", "02:11:22:33:44:55", "type",
                            "veth", "peer", "name", "ipb"}));
  ASSERT_TRUE(
      ip_run(ns(), {"link", "set", "ipa", "up", "group", "9", "alias", "from-ip", "txqueuelen", "33"}));
  auto link = get_link(conn(), "ipa");
  ASSERT_TRUE(link) << link.error().message();
  auto oracle = ip_link(ns(), "ipa");
  EXPECT_EQ(link->ifindex, oracle["ifindex"]);
  EXPECT_EQ(link->kind, "veth");
  EXPECT_EQ(link->mtu, 1300u);
  EXPECT_EQ(link->address->to_string(), "02:11:22:33:44:55");
  EXPECT_EQ(link->group, 9u);
  EXPECT_EQ(link->alias, "from-ip");
  EXPECT_EQ(link->txqueuelen, 33u);
  EXPECT_TRUE(link->up());
  EXPECT_EQ(link->link, ip_link(ns(), "ipb")["ifindex"]);
  auto by_index = get_link(conn(), link->ifindex);
  ASSERT_TRUE(by_index);
  EXPECT_EQ(by_index->name, "ipa");
  EXPECT_FALSE(by_index->stats);
  auto with_stats = get_link(conn(), "ipa", {.stats = true});
  ASSERT_TRUE(with_stats);
  EXPECT_TRUE(with_stats->stats);
}

TEST_F(Link, PeerIsCreatedDirectlyInAnotherNamespace) {
  UniqueFd other = brisk::test::make_netns();
  ASSERT_TRUE(other.valid());
  auto added =
      add_link(conn(), {.name = "host0", .kind = VethOptions{.peer = "eth0", .peer_netns_fd = other.get()}});
  ASSERT_TRUE(added) << added.error().message();
  EXPECT_FALSE(ip_link(ns(), "host0").is_null());
  EXPECT_TRUE(ip_link(ns(), "eth0").is_null());
  auto peer = ip_link(other.get(), "eth0");
  ASSERT_FALSE(peer.is_null());
  EXPECT_EQ(peer["linkinfo"]["info_kind"], "veth");
  auto here = get_link(conn(), "host0");
  ASSERT_TRUE(here);
  EXPECT_TRUE(here->link_netnsid.has_value());
}

TEST_F(Link, BridgeOptionsAndMasterReadBack) {
  auto bridge = add_link(conn(), {.name = "br0", .kind = BridgeOptions{.stp = false, .forward_delay = 700}});
  ASSERT_TRUE(bridge) << bridge.error().message();
  auto added =
      add_link(conn(), {.name = "p0", .kind = VethOptions{.peer = "p1"}, .common = {.master = "br0"}});
  ASSERT_TRUE(added) << added.error().message();
  auto br = ip_link(ns(), "br0");
  EXPECT_EQ(br["linkinfo"]["info_kind"], "bridge");
  EXPECT_EQ(br["linkinfo"]["info_data"]["stp_state"], 0);
  EXPECT_EQ(br["linkinfo"]["info_data"]["forward_delay"], 700);
  EXPECT_EQ(ip_link(ns(), "p0")["master"], "br0");
  // Options this kernel may lack (CONFIG_BRIDGE_VLAN_FILTERING, kernel STP
  // in a namespace): either they read back, or the error names the kind.
  auto optional_option = [&](const char* name, BridgeOptions options, const char* key) {
    auto added = add_link(conn(), {.name = name, .kind = options});
    if (!added) {
      EXPECT_EQ(added.error().code, EOPNOTSUPP) << added.error().message();
      EXPECT_EQ(added.error().object, name);
      EXPECT_NE(added.error().message().find("'bridge'"), std::string::npos) << added.error().message();
      EXPECT_TRUE(ip_link(ns(), name).is_null());
    } else {
      EXPECT_EQ(ip_link(ns(), name)["linkinfo"]["info_data"][key], 1);
    }
  };
  optional_option("br1", {.stp = true}, "stp_state");
  optional_option("br2", {.vlan_filtering = true}, "vlan_filtering");
  auto ports = list_links(conn(), {.master = "br0"});
  ASSERT_TRUE(ports) << ports.error().message();
  ASSERT_EQ(ports->size(), 1u);
  EXPECT_EQ((*ports)[0].name, "p0");
}

TEST_F(Link, MacvlanAndMacvtapCarryTheirMode) {
  ASSERT_TRUE(add_link(conn(), {.name = "low0", .kind = VethOptions{.peer = "low1"}}));
  auto mv = add_link(conn(),
                     {.name = "mv0", .kind = MacvlanOptions{.link = "low0", .mode = MacvlanMode::private_}});
  ASSERT_TRUE(mv) << mv.error().message();
  auto mt = add_link(
      conn(),
      {.name = "mt0", .kind = MacvlanOptions{.link = "low0", .mode = MacvlanMode::vepa, .tap = true}});
  ASSERT_TRUE(mt) << mt.error().message();
  auto a = ip_link(ns(), "mv0");
  EXPECT_EQ(a["linkinfo"]["info_kind"], "macvlan");
  EXPECT_EQ(a["linkinfo"]["info_data"]["mode"], "private");
  EXPECT_EQ(a["link"], "low0");
  auto b = ip_link(ns(), "mt0");
  EXPECT_EQ(b["linkinfo"]["info_kind"], "macvtap");
  EXPECT_EQ(b["linkinfo"]["info_data"]["mode"], "vepa");
}

TEST_F(Link, VxlanCarriesItsOptions) {
  ASSERT_TRUE(add_link(conn(), {.name = "under0", .kind = VethOptions{.peer = "under1"}}));
  auto added = add_link(conn(), {.name = "vx0",
                                 .kind = VxlanOptions{.id = 42,
                                                      .dstport = 4789,
                                                      .local = "10.0.0.1",
                                                      .remote = "10.0.0.2",
                                                      .dev = "under0",
                                                      .ttl = 9,
                                                      .learning = false}});
  ASSERT_TRUE(added) << added.error().message();
  auto vx = ip_link(ns(), "vx0");
  auto data = vx["linkinfo"]["info_data"];
  EXPECT_EQ(vx["linkinfo"]["info_kind"], "vxlan");
  EXPECT_EQ(data["id"], 42);
  EXPECT_EQ(data["port"], 4789);
  EXPECT_EQ(data["local"], "10.0.0.1");
  EXPECT_EQ(data["remote"], "10.0.0.2");
  EXPECT_EQ(data["link"], "under0");
  EXPECT_EQ(data["ttl"], 9);
  EXPECT_EQ(data["learning"], false);
  auto group = add_link(
      conn(), {.name = "vx1", .kind = VxlanOptions{.id = 43, .group = "239.1.1.1", .dev = "under0"}});
  ASSERT_TRUE(group) << group.error().message();
  EXPECT_EQ(ip_link(ns(), "vx1")["linkinfo"]["info_data"]["group"], "239.1.1.1");
}

TEST_F(Link, TunAndTapArePersistentWithOwnerAndGroup) {
  auto tun = add_link(conn(), {.name = "tun0",
                               .kind = TunOptions{.owner = 54321, .group = 54322},
                               .common = {.mtu = 1280, .up = true}});
  ASSERT_TRUE(tun) << tun.error().message();
  auto tap = add_link(conn(), {.name = "tap0", .kind = TunOptions{.tap = true}});
  ASSERT_TRUE(tap) << tap.error().message();
  auto a = ip_link(ns(), "tun0");
  ASSERT_FALSE(a.is_null());
  EXPECT_EQ(a["linkinfo"]["info_kind"], "tun");
  EXPECT_EQ(a["linkinfo"]["info_data"]["type"], "tun");
  EXPECT_EQ(a["linkinfo"]["info_data"]["persist"], true);
  EXPECT_EQ(a["linkinfo"]["info_data"]["user"], 54321);
  EXPECT_EQ(a["linkinfo"]["info_data"]["group"], 54322);
  EXPECT_EQ(a["mtu"], 1280);
  EXPECT_EQ(ip_link(ns(), "tap0")["linkinfo"]["info_data"]["type"], "tap");
  auto dup = add_link(conn(), {.name = "tun0", .kind = TunOptions{}});
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, EEXIST);
  EXPECT_EQ(dup.error().object, "tun0");
}

TEST_F(Link, TunWithAMissingMasterLeavesNothingBehind) {
  auto tun = add_link(conn(), {.name = "tun1", .kind = TunOptions{}, .common = {.master = "nobr0"}});
  ASSERT_FALSE(tun);
  EXPECT_EQ(tun.error().code, ENODEV);
  EXPECT_TRUE(ip_link(ns(), "tun1").is_null());
}

class MissingKind : public test::NetnsTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(MissingKind, ReportsEopnotsuppNamingTheKind) {
  std::string kind = GetParam();
  ASSERT_TRUE(add_link(conn(), {.name = "low0", .kind = VethOptions{.peer = "low1"}}));
  NlResult<void> added = kind == "vlan"
                             ? add_link(conn(), {.name = "k0", .kind = VlanOptions{.link = "low0", .id = 5}})
                             : add_link(conn(), {.name = "k0", .kind = OtherKind{kind}});
  if (added) {
    EXPECT_EQ(ip_link(ns(), "k0")["linkinfo"]["info_kind"], kind);
    GTEST_SKIP() << "this kernel has " << kind << "; the EOPNOTSUPP path cannot be shown here";
  }
  EXPECT_EQ(added.error().code, EOPNOTSUPP) << added.error().message();
  EXPECT_EQ(added.error().object, "k0");
  EXPECT_NE(added.error().message().find("'" + kind + "'"), std::string::npos) << added.error().message();
  EXPECT_TRUE(ip_link(ns(), "k0").is_null());
}

INSTANTIATE_TEST_SUITE_P(Kinds, MissingKind, ::testing::Values("dummy", "vlan", "bond", "ipvlan", "vrf"));

TEST_F(Link, SetChangesEveryField) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}}));
  ASSERT_TRUE(add_link(conn(), {.name = "s0", .kind = VethOptions{.peer = "s1"}}));
  auto set = set_link(conn(), {.name = "s0",
                               .up = true,
                               .mtu = 1450,
                               .address = "02:aa:bb:cc:dd:ee",
                               .master = "br0",
                               .alias = "hello",
                               .txqueuelen = 12,
                               .group = 3});
  ASSERT_TRUE(set) << set.error().message();
  auto a = ip_link(ns(), "s0");
  EXPECT_EQ(a["mtu"], 1450);
  EXPECT_EQ(a["address"], "02:aa:bb:cc:dd:ee");
  EXPECT_EQ(a["master"], "br0");
  EXPECT_EQ(a["ifalias"], "hello");
  EXPECT_EQ(a["txqlen"], 12);
  EXPECT_EQ(a["group"], "3");
  EXPECT_NE(std::find(a["flags"].begin(), a["flags"].end(), "UP"), a["flags"].end());
  ASSERT_TRUE(set_link(conn(), {.name = "s0", .up = false, .master = ""}));
  a = ip_link(ns(), "s0");
  EXPECT_FALSE(a.contains("master"));
  EXPECT_EQ(std::find(a["flags"].begin(), a["flags"].end(), "UP"), a["flags"].end());
  ASSERT_TRUE(set_link(conn(), {.name = "s0", .new_name = "renamed0"}));
  EXPECT_TRUE(ip_link(ns(), "s0").is_null());
  EXPECT_FALSE(ip_link(ns(), "renamed0").is_null());
}

TEST_F(Link, SetMovesADeviceToAnotherNamespace) {
  UniqueFd other = brisk::test::make_netns();
  ASSERT_TRUE(add_link(conn(), {.name = "m0", .kind = VethOptions{.peer = "m1"}}));
  auto moved = set_link(conn(), {.name = "m1", .netns_fd = other.get()});
  ASSERT_TRUE(moved) << moved.error().message();
  EXPECT_TRUE(ip_link(ns(), "m1").is_null());
  EXPECT_FALSE(ip_link(other.get(), "m1").is_null());
  // By pid: the namespace of a process living in `other`.
  auto holder = spawn({.argv = {"sleep", "10"}, .namespaces = {{.type = CLONE_NEWNET, .fd = other.get()}}});
  ASSERT_TRUE(holder);
  auto by_pid = set_link(conn(), {.name = "m0", .netns_pid = holder->pid()});
  (void)holder->kill();
  (void)holder->wait();
  ASSERT_TRUE(by_pid) << by_pid.error().message();
  EXPECT_TRUE(ip_link(ns(), "m0").is_null());
  EXPECT_FALSE(ip_link(other.get(), "m0").is_null());
  EXPECT_FALSE(conn().cached_ifindex("m0"));
}

TEST_F(Link, DeleteByNameAndByGroup) {
  ASSERT_TRUE(add_link(conn(), {.name = "d0", .kind = VethOptions{.peer = "d1"}}));
  for (const char* name : {"g0", "g1", "g2"})
    ASSERT_TRUE(add_link(conn(), {.name = name, .kind = BridgeOptions{}, .common = {.group = 77}}));
  ASSERT_TRUE(add_link(conn(), {.name = "keep0", .kind = BridgeOptions{}}));
  ASSERT_TRUE(delete_link(conn(), "d0"));
  EXPECT_TRUE(ip_link(ns(), "d0").is_null());
  EXPECT_TRUE(ip_link(ns(), "d1").is_null());
  ASSERT_TRUE(delete_link_group(conn(), 77));
  EXPECT_EQ(ip_link_names(ns()), (std::vector<std::string>{"lo", "keep0"}));
  auto again = delete_link(conn(), "d0");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ENODEV);
  EXPECT_EQ(again.error().object, "d0");
}

TEST_F(Link, ListFiltersByKindInTheKernel) {
  ASSERT_TRUE(add_link(conn(), {.name = "b0", .kind = BridgeOptions{}}));
  ASSERT_TRUE(add_link(conn(), {.name = "v0", .kind = VethOptions{.peer = "v1"}}));
  auto bridges = list_links(conn(), {.kind = "bridge"});
  ASSERT_TRUE(bridges) << bridges.error().message();
  ASSERT_EQ(bridges->size(), 1u);
  EXPECT_EQ((*bridges)[0].name, "b0");
  auto veths = list_links(conn(), {.kind = "veth", .stats = true});
  ASSERT_TRUE(veths);
  ASSERT_EQ(veths->size(), 2u);
  EXPECT_TRUE((*veths)[0].stats);
  // Everything brisk lists, ip lists, with the same index, name and kind.
  auto all = list_links(conn());
  auto oracle = ip_json(ns(), {"-d", "link", "show"});
  ASSERT_EQ(all->size(), oracle.size());
  for (std::size_t i = 0; i < all->size(); ++i) {
    EXPECT_EQ((*all)[i].ifindex, oracle[i]["ifindex"]);
    EXPECT_EQ((*all)[i].name, oracle[i]["ifname"]);
    EXPECT_EQ((*all)[i].mtu, oracle[i]["mtu"]);
  }
}

// --- bad input: a typed error naming the object, nothing half-created ---

TEST_F(Link, RefusesBadNamesBeforeSendingAnything) {
  struct Case {
    std::string name;
    int code;
  };
  for (const auto& c :
       {Case{"sixteen-bytes-xx", ENAMETOOLONG}, Case{"has space", EINVAL}, Case{"a/b", EINVAL},
        Case{"a:b", EINVAL}, Case{"veth%d", EINVAL}, Case{"", EINVAL}, Case{"..", EINVAL}}) {
    uint64_t sent = conn().stats().requests;
    auto added = add_link(conn(), {.name = c.name, .kind = BridgeOptions{}});
    ASSERT_FALSE(added) << c.name;
    EXPECT_EQ(added.error().code, c.code) << c.name;
    EXPECT_EQ(added.error().object, c.name);
    EXPECT_EQ(conn().stats().requests, sent) << "nothing may reach the kernel for " << c.name;
  }
  auto templ = add_link(conn(), {.name = "veth%d", .kind = BridgeOptions{}});
  EXPECT_NE(templ.error().message().find("template"), std::string::npos);
  EXPECT_EQ(ip_link_names(ns()), std::vector<std::string>{"lo"});
}

// A veth without a peer name gets one from the kernel (vethN), as with ip;
// a peer name that cannot be one is refused before anything is sent.
TEST_F(Link, VethPeerNamedByTheKernelOrValid) {
  auto long_peer = add_link(conn(), {.name = "solo0", .kind = VethOptions{.peer = "a-very-long-peer-name"}});
  ASSERT_FALSE(long_peer);
  EXPECT_EQ(long_peer.error().code, ENAMETOOLONG);
  EXPECT_NE(long_peer.error().message().find("peer"), std::string::npos);
  EXPECT_EQ(ip_link_names(ns()), std::vector<std::string>{"lo"});
  ASSERT_TRUE(add_link(conn(), {.name = "solo0", .kind = VethOptions{}}));
  auto names = ip_link_names(ns());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"lo", "solo0", "veth0"}));
}

TEST_F(Link, MtuOutOfRangeFailsAndSetCarriesTheKernelsExtAck) {
  auto added =
      add_link(conn(), {.name = "big0", .kind = VethOptions{.peer = "big1"}, .common = {.mtu = 70000}});
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, EINVAL);
  EXPECT_EQ(added.error().object, "big0");
  EXPECT_EQ(ip_link_names(ns()), std::vector<std::string>{"lo"});
  ASSERT_TRUE(add_link(conn(), {.name = "ok0", .kind = VethOptions{.peer = "ok1"}}));
  auto small = set_link(conn(), {.name = "ok0", .mtu = 10});
  ASSERT_FALSE(small);
  EXPECT_EQ(small.error().object, "ok0");
  EXPECT_NE(small.error().ext_ack.find("mtu"), std::string::npos) << small.error().message();
}

TEST_F(Link, MalformedMacIsRefusedNamingTheDevice) {
  auto added =
      add_link(conn(), {.name = "mac0", .kind = BridgeOptions{}, .common = {.address = "02:00:00:00:00"}});
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, EINVAL);
  EXPECT_EQ(added.error().object, "mac0");
  EXPECT_NE(added.error().message().find("MAC"), std::string::npos);
  auto set = set_link(conn(), {.name = "lo", .address = "zz:00:00:00:00:00"});
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().object, "lo");
  EXPECT_EQ(ip_link_names(ns()), std::vector<std::string>{"lo"});
}

TEST_F(Link, MissingMasterDeviceOrNamespaceIsNamed) {
  auto master =
      add_link(conn(), {.name = "x0", .kind = VethOptions{.peer = "x1"}, .common = {.master = "nobridge"}});
  ASSERT_FALSE(master);
  EXPECT_EQ(master.error().code, ENODEV);
  EXPECT_EQ(master.error().object, "x0");
  EXPECT_NE(master.error().message().find("master 'nobridge'"), std::string::npos)
      << master.error().message();
  auto set = set_link(conn(), {.name = "ghost0", .up = true});
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().code, ENODEV);
  EXPECT_EQ(set.error().object, "ghost0");
  auto get = get_link(conn(), "ghost0");
  ASSERT_FALSE(get);
  EXPECT_EQ(get.error().code, ENODEV);
  // A peer namespace fd that is not a namespace.
  UniqueFd not_ns = sys::open("/dev/null", O_RDONLY).value();
  auto bad_ns =
      add_link(conn(), {.name = "x0", .kind = VethOptions{.peer = "x1", .peer_netns_fd = not_ns.get()}});
  ASSERT_FALSE(bad_ns);
  EXPECT_EQ(bad_ns.error().object, "x0");
  EXPECT_EQ(ip_link_names(ns()), std::vector<std::string>{"lo"});
}

TEST_F(Link, DuplicateNamesFailWithoutAnOrphanPeer) {
  ASSERT_TRUE(add_link(conn(), {.name = "dup0", .kind = VethOptions{.peer = "dup1"}}));
  auto same = add_link(conn(), {.name = "dup0", .kind = VethOptions{.peer = "new1"}});
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error().code, EEXIST);
  EXPECT_EQ(same.error().object, "dup0");
  auto peer_taken = add_link(conn(), {.name = "new0", .kind = VethOptions{.peer = "dup1"}});
  ASSERT_FALSE(peer_taken);
  EXPECT_EQ(peer_taken.error().code, EEXIST);
  EXPECT_EQ(peer_taken.error().object, "new0");
  EXPECT_EQ(ip_link_names(ns()), (std::vector<std::string>{"lo", "dup1", "dup0"}));
}

TEST_F(Link, ADeviceWeCreatedNeedsNoLookup) {
  ASSERT_TRUE(add_link(conn(), {.name = "e0", .kind = VethOptions{.peer = "e1"}}));
  auto cached = conn().cached_ifindex("e0");
  ASSERT_TRUE(cached) << "the kernel's echo of the new device fills the cache";
  EXPECT_EQ(*cached, ip_link(ns(), "e0")["ifindex"]);
  uint64_t lookups = conn().stats().link_lookups;
  ASSERT_TRUE(add_link(conn(), {.name = "m0", .kind = MacvlanOptions{.link = "e0"}}));
  EXPECT_EQ(conn().stats().link_lookups, lookups);
  // A failed add leaves no entry behind.
  ASSERT_FALSE(add_link(conn(), {.name = "e0", .kind = BridgeOptions{}}));
  EXPECT_TRUE(conn().cached_ifindex("e0")) << "the existing device is still known";
  ASSERT_FALSE(add_link(conn(), {.name = "big0", .kind = BridgeOptions{}, .common = {.mtu = 1}}));
  EXPECT_FALSE(conn().cached_ifindex("big0"));
}

TEST_F(Link, NameCacheFollowsRenameAndDelete) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}}));
  ASSERT_TRUE(
      add_link(conn(), {.name = "c0", .kind = VethOptions{.peer = "c1"}, .common = {.master = "br0"}}));
  ASSERT_TRUE(conn().cached_ifindex("br0"));
  uint64_t lookups = conn().stats().link_lookups;
  ASSERT_TRUE(
      add_link(conn(), {.name = "c2", .kind = VethOptions{.peer = "c3"}, .common = {.master = "br0"}}));
  EXPECT_EQ(conn().stats().link_lookups, lookups) << "a cached master needs no lookup";
  ASSERT_TRUE(set_link(conn(), {.name = "br0", .new_name = "br1"}));
  EXPECT_FALSE(conn().cached_ifindex("br0"));
  auto stale =
      add_link(conn(), {.name = "c4", .kind = VethOptions{.peer = "c5"}, .common = {.master = "br0"}});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, ENODEV);
  ASSERT_TRUE(
      add_link(conn(), {.name = "c4", .kind = VethOptions{.peer = "c5"}, .common = {.master = "br1"}}));
  EXPECT_EQ(ip_link(ns(), "c4")["master"], "br1");
  // Delete and re-create under the same name: a new ifindex, which we must use.
  int old_index = *conn().cached_ifindex("br1");
  ASSERT_TRUE(delete_link(conn(), "br1"));
  EXPECT_FALSE(conn().cached_ifindex("br1"));
  ASSERT_TRUE(add_link(conn(), {.name = "br1", .kind = BridgeOptions{}}));
  ASSERT_TRUE(set_link(conn(), {.name = "c0", .master = "br1"}));
  EXPECT_EQ(ip_link(ns(), "c0")["master"], "br1");
  EXPECT_NE(*conn().cached_ifindex("br1"), old_index);
}

}  // namespace
}  // namespace brisk::netlink

namespace brisk::netlink {
namespace {

// The flags `ip link set` toggles: each asked-for bit changes, the others stay.
TEST_F(Link, SetTogglesPromiscArpMulticastAndAllmulticast) {
  ASSERT_TRUE(add_link(conn(), {.name = "f0", .kind = VethOptions{.peer = "f1"}}));
  ASSERT_TRUE(
      set_link(conn(), {.name = "f0", .tuning = {.promisc = true, .arp = false, .allmulticast = true}}));
  auto on = get_link(conn(), "f0");
  ASSERT_TRUE(on) << on.error().message();
  EXPECT_TRUE(on->flags & IFF_PROMISC);
  EXPECT_TRUE(on->flags & IFF_NOARP);
  EXPECT_TRUE(on->flags & IFF_ALLMULTI);
  EXPECT_TRUE(on->flags & IFF_MULTICAST) << "not asked for: unchanged";
  ASSERT_TRUE(set_link(
      conn(),
      {.name = "f0", .tuning = {.promisc = false, .arp = true, .multicast = false, .allmulticast = false}}));
  auto off = get_link(conn(), "f0");
  ASSERT_TRUE(off) << off.error().message();
  EXPECT_FALSE(off->flags & (IFF_PROMISC | IFF_NOARP | IFF_ALLMULTI | IFF_MULTICAST))
      << std::hex << off->flags;
}

}  // namespace
}  // namespace brisk::netlink
