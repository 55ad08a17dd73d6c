// Altnames, kind options changed on a live device, and a netns move that
// renames, readdresses, resizes and raises the device in one request; with
// iproute2 as the oracle, each test in its own namespace.
#include <gtest/gtest.h>
#include <linux/if.h>

#include <algorithm>

#include "brisk/netlink/batch.h"
#include "brisk/netlink/link.h"
#include "netns_fixture.h"

namespace brisk::netlink {
namespace {

using test::ip_json;
using test::ip_link;

class LinkAltname : public test::NetnsTest {};

const std::string kLong = "an-altname-longer-than-ifnamsiz";

TEST_F(LinkAltname, AddReadBackAndDelete) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}}));
  auto added = add_altnames(conn(), {.name = "br0", .altnames = {"alt0", kLong}});
  ASSERT_TRUE(added) << added.error().message();
  auto a = ip_link(ns(), "br0");
  EXPECT_EQ(a["altnames"], nlohmann::json::array({"alt0", kLong}));
  auto link = get_link(conn(), "br0");
  ASSERT_TRUE(link) << link.error().message();
  EXPECT_EQ(link->altnames, (std::vector<std::string>{"alt0", kLong}));
  auto listed = list_links(conn());
  ASSERT_TRUE(listed);
  auto br = std::find_if(listed->begin(), listed->end(), [](const LinkInfo& l) { return l.name == "br0"; });
  ASSERT_NE(br, listed->end());
  EXPECT_EQ(br->altnames, link->altnames);
  // Deleted through the long altname itself.
  auto deleted = delete_altnames(conn(), {.name = kLong, .altnames = {"alt0"}});
  ASSERT_TRUE(deleted) << deleted.error().message();
  EXPECT_EQ(ip_link(ns(), "br0")["altnames"], nlohmann::json::array({kLong}));
  EXPECT_FALSE(conn().cached_ifindex("alt0"));
  auto again = delete_altnames(conn(), {.name = "br0", .altnames = {"alt0"}});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ENOENT);
  EXPECT_EQ(add_altnames(conn(), {.name = "br0", .altnames = {kLong}}).error().code, EEXIST);
  EXPECT_EQ(add_altnames(conn(), {.name = "nosuch", .altnames = {"x"}}).error().code, ENODEV);
  EXPECT_EQ(add_altnames(conn(), {.name = "br0", .altnames = {"a/b"}}).error().code, EINVAL);  // not sent
}

TEST_F(LinkAltname, AnAltnameNamesTheDevice) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}}));
  ASSERT_TRUE(add_link(conn(), {.name = "v0", .kind = VethOptions{.peer = "v1"}}));
  ASSERT_TRUE(add_altnames(conn(), {.name = "br0", .altnames = {"alt0", kLong}}));
  auto by_long = get_link(conn(), kLong);
  ASSERT_TRUE(by_long) << by_long.error().message();
  EXPECT_EQ(by_long->name, "br0");
  auto index = resolve_link(conn(), kLong);
  ASSERT_TRUE(index);
  EXPECT_EQ(*index, by_long->ifindex);
  conn().forget_all_names();
  auto short_index = resolve_link(conn(), "alt0");  // SIOCGIFINDEX knows altnames too
  ASSERT_TRUE(short_index);
  EXPECT_EQ(*short_index, by_long->ifindex);
  // A set by altname changes the device and renames nothing.
  ASSERT_TRUE(set_link(conn(), {.name = "alt0", .mtu = 1400}));
  ASSERT_TRUE(set_link(conn(), {.name = kLong, .up = true}));
  ASSERT_TRUE(set_link(conn(), {.name = "v0", .master = kLong}));
  auto br = ip_link(ns(), "br0");
  EXPECT_EQ(br["mtu"], 1400);
  EXPECT_NE(std::find(br["flags"].begin(), br["flags"].end(), "UP"), br["flags"].end());
  EXPECT_EQ(ip_link(ns(), "v0")["master"], "br0");
  auto addr = add_address(conn(), {.dev = kLong, .prefix = "10.0.0.1/24"});
  ASSERT_TRUE(addr) << addr.error().message();
  auto addrs = ip_json(ns(), {"-4", "addr", "show", "dev", "br0"});
  ASSERT_EQ(addrs.size(), 1u);
  EXPECT_EQ(addrs[0]["addr_info"][0]["local"], "10.0.0.1");
  // An altname past ALTIFNAMSIZ names nothing.
  EXPECT_EQ(get_link(conn(), std::string(128, 'x')).error().code, ENODEV);
  ASSERT_TRUE(delete_link(conn(), kLong));
  EXPECT_TRUE(ip_link(ns(), "br0").is_null());
}

TEST_F(LinkAltname, BatchedPropertyChangesResolveLaterOps) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{}}));
  Batch batch(conn());
  batch.add_altnames({.name = "br0", .altnames = {kLong}});
  batch.set_link({.name = kLong, .up = true});
  batch.delete_altnames({.name = "br0", .altnames = {kLong}});
  auto results = batch.flush();
  ASSERT_EQ(results.size(), 3u);
  for (auto& r : results) EXPECT_TRUE(r) << r.error().message();
  EXPECT_FALSE(ip_link(ns(), "br0").contains("altnames"));
  EXPECT_FALSE(conn().cached_ifindex(kLong));
}

TEST_F(LinkAltname, SetChangesBridgeOptionsAndMacvlanMode) {
  ASSERT_TRUE(add_link(conn(), {.name = "br0", .kind = BridgeOptions{.priority = 5}}));
  auto set = set_link(conn(), {.name = "br0",
                               .kind = BridgeOptions{.stp = true,
                                                     .forward_delay = 400,
                                                     .hello_time = 300,
                                                     .max_age = 2500,
                                                     .ageing_time = 6000,
                                                     .priority = 100,
                                                     .mcast_snooping = false}});
  ASSERT_TRUE(set) << set.error().message();
  auto data = ip_link(ns(), "br0")["linkinfo"]["info_data"];
  EXPECT_EQ(data["stp_state"], 1);
  EXPECT_EQ(data["forward_delay"], 400);
  EXPECT_EQ(data["hello_time"], 300);
  EXPECT_EQ(data["max_age"], 2500);
  EXPECT_EQ(data["ageing_time"], 6000);
  EXPECT_EQ(data["priority"], 100);
  EXPECT_EQ(data["mcast_snooping"], 0);
  // Only what is set is sent: the rest stays.
  ASSERT_TRUE(set_link(conn(), {.name = "br0", .kind = BridgeOptions{.priority = 7}}));
  data = ip_link(ns(), "br0")["linkinfo"]["info_data"];
  EXPECT_EQ(data["priority"], 7);
  EXPECT_EQ(data["forward_delay"], 400);
  auto refused = set_link(conn(), {.name = "br0", .kind = BridgeOptions{.max_age = 1}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ERANGE);

  ASSERT_TRUE(add_link(conn(), {.name = "v0", .kind = VethOptions{.peer = "v1"}}));
  ASSERT_TRUE(add_link(conn(), {.name = "mv0", .kind = MacvlanOptions{.link = "v0"}}));
  ASSERT_TRUE(set_link(conn(), {.name = "mv0", .kind = MacvlanOptions{.mode = MacvlanMode::private_}}));
  EXPECT_EQ(ip_link(ns(), "mv0")["linkinfo"]["info_data"]["mode"], "private");
  auto wrong_kind = set_link(conn(), {.name = "br0", .kind = MacvlanOptions{.mode = MacvlanMode::vepa}});
  ASSERT_FALSE(wrong_kind);
  EXPECT_EQ(wrong_kind.error().code, EOPNOTSUPP);
  // Refused before sending: a lower device cannot change, veth options are fixed.
  EXPECT_EQ(set_link(conn(), {.name = "mv0", .kind = MacvlanOptions{.link = "v1"}}).error().code, EINVAL);
  EXPECT_EQ(set_link(conn(), {.name = "v0", .kind = VethOptions{.peer = "x"}}).error().code, EINVAL);
  EXPECT_TRUE(set_link(conn(), {.name = "v0", .kind = OtherKind{"veth"}}));  // the kind alone
}

// LXC's phys network type: one RTM_NEWLINK moves the device, and its new
// name, MAC, MTU and state apply in the target namespace (the CLI test
// compares the end state with ip's).
TEST_F(LinkAltname, NetnsMoveWithNameAddressMtuAndUpIsOneRequest) {
  UniqueFd target = brisk::test::make_netns();
  ASSERT_TRUE(target.valid());
  ASSERT_TRUE(add_link(conn(), {.name = "h0", .kind = VethOptions{.peer = "h1"}}));
  ASSERT_TRUE(resolve_link(conn(), "h0"));  // the rename addresses it by index: resolved beforehand
  auto before = conn().stats();
  auto moved = set_link(conn(), {.name = "h0",
                                 .up = true,
                                 .mtu = 1400,
                                 .address = "02:00:00:00:00:42",
                                 .new_name = "eth0",
                                 .netns_fd = target.get()});
  ASSERT_TRUE(moved) << moved.error().message();
  auto after = conn().stats();
  EXPECT_EQ(after.requests - before.requests, 1u);
  EXPECT_EQ(after.sendmsg_calls - before.sendmsg_calls, 1u);
  auto ours = ip_link(target.get(), "eth0");
  ASSERT_FALSE(ours.is_null());
  EXPECT_EQ(ours["mtu"], 1400);
  EXPECT_EQ(ours["address"], "02:00:00:00:00:42");
  EXPECT_NE(std::find(ours["flags"].begin(), ours["flags"].end(), "UP"), ours["flags"].end());
  EXPECT_TRUE(ip_link(ns(), "h0").is_null());
  EXPECT_FALSE(conn().cached_ifindex("h0"));
}

}  // namespace
}  // namespace brisk::netlink
