// The kind options `link add` and `link set ... type KIND` read, as ip 6.1
// reads them: every bridge option (abbreviated as ip's order allows),
// macvlan's flags, queue and source list, a veth whose peer the kernel
// names, and `link set group N ...`. Parsed without a kernel; their end
// state against ip is BatchOracleTest's kind_options_as_ip_sends_them.
#include <gtest/gtest.h>
#include <linux/if_link.h>

#include "parse_support.h"

namespace brisk::ipcli {
namespace {

const netlink::BridgeOptions& bridge(const IpCommand& cmd) {
  return std::get<netlink::BridgeOptions>(cmd.link_add().kind);
}

IpCommand bridge_add(const Words& options) {
  Words words{"link", "add", "br0", "type", "bridge"};
  words.insert(words.end(), options.begin(), options.end());
  return ok(words);
}

TEST(BridgeOptions, EveryOptionIpTakes) {
  auto cmd = bridge_add({"fdb_flush",
                         "forward_delay",
                         "1",
                         "hello_time",
                         "2",
                         "max_age",
                         "3",
                         "ageing_time",
                         "4",
                         "stp_state",
                         "1",
                         "priority",
                         "5",
                         "group_fwd_mask",
                         "0x8",
                         "group_address",
                         "01:80:c2:00:00:03",
                         "no_linklocal_learn",
                         "1",
                         "vlan_filtering",
                         "1",
                         "vlan_protocol",
                         "802.1ad",
                         "vlan_default_pvid",
                         "6",
                         "vlan_stats_enabled",
                         "1",
                         "vlan_stats_per_port",
                         "1",
                         "mcast_snooping",
                         "0",
                         "mcast_vlan_snooping",
                         "1",
                         "mcast_router",
                         "2",
                         "mcast_query_use_ifaddr",
                         "1",
                         "mcast_querier",
                         "1",
                         "mcast_hash_elasticity",
                         "7",
                         "mcast_hash_max",
                         "8",
                         "mcast_last_member_count",
                         "9",
                         "mcast_startup_query_count",
                         "10",
                         "mcast_last_member_interval",
                         "11",
                         "mcast_membership_interval",
                         "12",
                         "mcast_querier_interval",
                         "13",
                         "mcast_query_interval",
                         "14",
                         "mcast_query_response_interval",
                         "15",
                         "mcast_startup_query_interval",
                         "16",
                         "mcast_stats_enabled",
                         "1",
                         "mcast_igmp_version",
                         "3",
                         "mcast_mld_version",
                         "2",
                         "nf_call_iptables",
                         "1",
                         "nf_call_ip6tables",
                         "0",
                         "nf_call_arptables",
                         "1"});
  const auto& b = bridge(cmd);
  EXPECT_TRUE(b.fdb_flush);
  EXPECT_EQ(b.forward_delay, 1u);
  EXPECT_EQ(b.hello_time, 2u);
  EXPECT_EQ(b.max_age, 3u);
  EXPECT_EQ(b.ageing_time, 4u);
  EXPECT_EQ(b.stp, true);
  EXPECT_EQ(b.priority, 5);
  EXPECT_EQ(b.group_fwd_mask, 8);
  EXPECT_EQ(b.group_address, "01:80:c2:00:00:03");
  EXPECT_EQ(b.no_linklocal_learn, true);
  EXPECT_EQ(b.vlan_filtering, true);
  EXPECT_EQ(b.vlan_protocol, 0x88a8);
  EXPECT_EQ(b.vlan_default_pvid, 6);
  EXPECT_EQ(b.vlan_stats_enabled, true);
  EXPECT_EQ(b.vlan_stats_per_port, true);
  EXPECT_EQ(b.mcast_snooping, false);
  EXPECT_EQ(b.mcast_vlan_snooping, true);
  EXPECT_EQ(b.mcast_router, 2);
  EXPECT_EQ(b.mcast_query_use_ifaddr, true);
  EXPECT_EQ(b.mcast_querier, true);
  EXPECT_EQ(b.mcast_hash_elasticity, 7u);
  EXPECT_EQ(b.mcast_hash_max, 8u);
  EXPECT_EQ(b.mcast_last_member_count, 9u);
  EXPECT_EQ(b.mcast_startup_query_count, 10u);
  EXPECT_EQ(b.mcast_last_member_interval, 11u);
  EXPECT_EQ(b.mcast_membership_interval, 12u);
  EXPECT_EQ(b.mcast_querier_interval, 13u);
  EXPECT_EQ(b.mcast_query_interval, 14u);
  EXPECT_EQ(b.mcast_query_response_interval, 15u);
  EXPECT_EQ(b.mcast_startup_query_interval, 16u);
  EXPECT_EQ(b.mcast_stats_enabled, true);
  EXPECT_EQ(b.mcast_igmp_version, 3);
  EXPECT_EQ(b.mcast_mld_version, 2);
  EXPECT_EQ(b.nf_call_iptables, true);
  EXPECT_EQ(b.nf_call_ip6tables, false);
  EXPECT_EQ(b.nf_call_arptables, true);
}

TEST(BridgeOptions, AbbreviationsInIpsOrder) {
  // "mcast_query" is mcast_query_use_ifaddr (tested before mcast_querier), as in ip.
  EXPECT_EQ(bridge(bridge_add({"mcast_query", "1"})).mcast_query_use_ifaddr, true);
  EXPECT_EQ(bridge(bridge_add({"mcast_querier_i", "5"})).mcast_querier_interval, 5u);
  EXPECT_EQ(bridge(bridge_add({"h", "7"})).hello_time, 7u);  // "h" is hello_time before it is help
  EXPECT_EQ(bridge(bridge_add({"vlan_protocol", "802.1q"})).vlan_protocol, 0x8100);  // any case
  EXPECT_EQ(bridge(bridge_add({"vlan_protocol", "0x88a8"})).vlan_protocol, 0x88a8);
  // Two options ip matches only whole.
  EXPECT_EQ(error_of({"link", "add", "br9", "type", "bridge", "no_linklocal", "1"})
                .message.rfind("bridge: unknown command \"no_linklocal\"?", 0),
            0u);
  EXPECT_EQ(error_of({"link", "add", "br9", "type", "bridge", "mcast_vlan", "1"})
                .message.rfind("bridge: unknown command \"mcast_vlan\"?", 0),
            0u);
}

TEST(BridgeOptions, ErrorsAsIp) {
  for (const char* key : {"forward_delay", "priority", "mcast_router", "mcast_hash_max",
                          "mcast_query_interval", "group_fwd_mask", "vlan_protocol", "mcast_igmp_version"}) {
    auto e = error_of({"link", "add", "br9", "type", "bridge", key, "zz"});
    EXPECT_EQ(e.message, std::string("Error: argument \"zz\" is wrong: invalid ") + key) << key;
    EXPECT_NE(error_of({"link", "add", "br9", "type", "bridge", key}).message.find("not complete"),
              std::string::npos);
  }
  EXPECT_NE(error_of({"link", "add", "br9", "type", "bridge", "mcast_router", "256"})
                .message.find("invalid mcast_router"),
            std::string::npos);  // a u8
  EXPECT_EQ(error_of({"link", "add", "br9", "type", "bridge", "group_address", "zz"}).message,
            "\"zz\" is invalid lladdr.");
  auto unknown = error_of({"link", "add", "br9", "type", "bridge", "frob", "1"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.message.find("mcast_startup_query_interval"), std::string::npos)
      << "the usage lists every option";
  EXPECT_TRUE(error_of({"link", "add", "br9", "type", "bridge", "help"}).help);
}

const netlink::MacvlanOptions& macvlan(const IpCommand& cmd) {
  return std::get<netlink::MacvlanOptions>(cmd.link_add().kind);
}

IpCommand macvlan_add(const Words& options) {
  Words words{"link", "add", "link", "eth0", "name", "mv0", "type", "macvlan"};
  words.insert(words.end(), options.begin(), options.end());
  return ok(words);
}

TEST(MacvlanOptions, AsIpReadsThem) {
  EXPECT_FALSE(macvlan(macvlan_add({})).mode) << "no mode: the kernel's default, as ip sends none";
  auto passthru = macvlan(macvlan_add({"mode", "passthru", "nopromisc", "bcqueuelen", "50"}));
  EXPECT_EQ(passthru.mode, netlink::MacvlanMode::passthru);
  EXPECT_EQ(passthru.flags, MACVLAN_FLAG_NOPROMISC);
  EXPECT_EQ(passthru.bcqueuelen, 50u);
  EXPECT_EQ(macvlan(macvlan_add({"mode", "bridge", "flag", "nodst"})).flags, MACVLAN_FLAG_NODST);
  EXPECT_EQ(macvlan(macvlan_add({"flag", "null"})).flags, 0);
  auto set = macvlan(
      macvlan_add({"mode", "source", "macaddr", "set", "02:00:00:00:00:01", "2:0:0:0:0:2", "bcq", "5"}));
  EXPECT_EQ(set.macaddr, netlink::MacvlanMacaddr::set);
  EXPECT_EQ(set.macaddrs, (std::vector<std::string>{"02:00:00:00:00:01", "02:00:00:00:00:02"}));
  EXPECT_EQ(set.bcqueuelen, 5u) << "the list ends at the first word that is no address";
  auto add = macvlan(macvlan_add({"macaddr", "add", "02:00:00:00:00:03"}));
  EXPECT_EQ(add.macaddr, netlink::MacvlanMacaddr::add);
  EXPECT_EQ(add.macaddrs.size(), 1u);
  EXPECT_EQ(macvlan(macvlan_add({"macaddr", "flush"})).macaddr, netlink::MacvlanMacaddr::flush);
  // As a change too, without a lower device.
  auto change = ok({"link", "set", "mv0", "type", "macvlan", "macaddr", "del", "02:00:00:00:00:03"});
  EXPECT_EQ(std::get<netlink::MacvlanOptions>(*change.link_set().kind).macaddr, netlink::MacvlanMacaddr::del);
}

TEST(MacvlanOptions, ErrorsAsIp) {
  auto message = [](const Words& options) {
    Words words{"link", "add", "link", "eth0", "name", "mv0", "type", "macvlan"};
    words.insert(words.end(), options.begin(), options.end());
    auto e = error_of(words);
    EXPECT_EQ(e.exit_code, 1) << words.back();
    return e.message;
  };
  EXPECT_EQ(message({"mode", "foo"}),
            "Error: argument of \"mode\" must be \"private\", \"vepa\", \"bridge\", \"passthru\" or "
            "\"source\", not \"foo\"");
  EXPECT_EQ(message({"flag", "foo"}),
            "Error: argument of \"flag\" must be \"nopromisc\", \"nodst\" or \"null\", not \"foo\"");
  EXPECT_EQ(message({"bcqueuelen", "x"}),
            "Error: argument of \"bcqueuelen\" must be a positive integer [0-4294967295], not \"x\"");
  EXPECT_EQ(message({"macaddr", "add", "zz"}), "\"zz\" is invalid lladdr.");
  std::string usage = message({"help"});
  EXPECT_EQ(
      usage.rfind("Usage: ... macvlan mode MODE [flag MODE_FLAG] MODE_OPTS [bcqueuelen BC_QUEUE_LEN]\n", 0),
      0u);
  EXPECT_EQ(message({"macaddr", "frob"}), usage);
  EXPECT_EQ(message({"bogus"}), "macvlan: unknown option \"bogus\"?\n" + usage);
  EXPECT_EQ(message({"nopromisc"}), "macvlan: nopromisc flag only valid in passthru mode\n" + usage);
  EXPECT_NE(error_of({"link", "add", "link", "e", "name", "m", "type", "macvlan", "macaddr"})
                .message.find("not complete"),
            std::string::npos);
}

TEST(VethOptions, APeerTheKernelNames) {
  auto cmd = ok({"link", "add", "tp0", "type", "veth"});
  EXPECT_TRUE(std::get<netlink::VethOptions>(cmd.link_add().kind).peer.empty());
}

TEST(LinkSetGroup, ChangesEveryDeviceOfTheGroup) {
  auto cmd = ok({"link", "set", "group", "7", "mtu", "1300", "up"});
  EXPECT_TRUE(cmd.link_set().name.empty());
  EXPECT_EQ(cmd.link_set().group, 7u);
  EXPECT_EQ(cmd.link_set().mtu, 1300u);
  // With a device, group N is the device's new group.
  EXPECT_EQ(ok({"link", "set", "dev", "v0", "group", "7"}).link_set().name, "v0");
  EXPECT_NE(error_of({"link", "set", "mtu", "1300"}).message.find("\"dev\" argument is required"),
            std::string::npos);
}

}  // namespace
}  // namespace brisk::ipcli
