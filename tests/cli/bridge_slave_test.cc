// `link set DEV type bridge_slave OPTIONS`: a bridge port's options, read
// as ip 6.1's bridge_slave_parse_opt reads them, applied and shown as ip's.
#include <gtest/gtest.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(IpBridgeSlave, Options) {
  auto c = ok({"link",
               "set",
               "ve0",
               "type",
               "bridge_slave",
               "cost",
               "5",
               "p",
               "3",
               "state",
               "3",
               "hairpin",
               "on",
               "learning",
               "o",
               "mcast_router",
               "2",
               "group_fwd_mask",
               "8",
               "backup_port",
               "ve1",
               "fdb_flush"});
  ASSERT_TRUE(c.link_set().bridge_port);
  const auto& p = *c.link_set().bridge_port;
  EXPECT_EQ(p.cost, 5u);
  EXPECT_EQ(p.priority, 3u);  // "p" is priority: ip matches it first
  EXPECT_EQ(p.state, 3u);
  EXPECT_EQ(p.hairpin, true);
  EXPECT_EQ(p.learning, false);  // "o" is a prefix of "off", ip's first choice
  EXPECT_EQ(p.mcast_router, 2u);
  EXPECT_EQ(p.group_fwd_mask, 8u);
  EXPECT_EQ(p.backup_port, "ve1");
  EXPECT_TRUE(p.fdb_flush);
  EXPECT_FALSE(c.link_set().kind);
  EXPECT_EQ(
      ok({"link", "set", "ve0", "type", "bridge_slave", "nobackup_port"}).link_set().bridge_port->backup_port,
      "");
  EXPECT_EQ(ok({"link", "set", "ve0", "type", "bridge_slave", "mcast_fast_leave", "on"})
                .link_set()
                .bridge_port->fast_leave,
            true);
}

TEST(IpBridgeSlave, Errors) {
  auto state = error_of({"link", "set", "ve0", "type", "bridge_slave", "state", "300"});
  EXPECT_EQ(format_error(state.message, state.exact), "Error: argument \"300\" is wrong: state is invalid");
  EXPECT_EQ(state.exit_code, 255);
  auto onoff = error_of({"link", "set", "ve0", "type", "bridge_slave", "hairpin", "maybe"});
  EXPECT_EQ(format_error(onoff.message, onoff.exact),
            "Error: argument of \"hairpin\" must be one of \"off\", \"on\", not \"maybe\"");
  EXPECT_EQ(onoff.exit_code, 1);
  EXPECT_FALSE(onoff.line_failure);  // ip exits(1) there, batch or not
  auto unknown = error_of({"link", "set", "ve0", "type", "bridge_slave", "bogus", "1"});
  EXPECT_EQ(unknown.message.rfind(
                "bridge_slave: unknown option \"bogus\"?\nUsage: ... bridge_slave [ fdb_flush ]", 0),
            0u);
  EXPECT_EQ(unknown.exit_code, 1);
}

class IpBridgeSlaveParity : public cli_test::CliNetnsTest {};

TEST_F(IpBridgeSlaveParity, AppliedAndShownAsIp) {
  UniqueFd theirs = cli_test::twin_netns(ns(), {{"link", "add", "ve0", "type", "veth", "peer", "name", "ve1"},
                                                {"link", "add", "br0", "type", "bridge"},
                                                {"link", "set", "ve0", "master", "br0"},
                                                {"link", "set", "ve1", "master", "br0"}});
  ASSERT_TRUE(theirs.valid());
  for (const Words& args : std::vector<Words>{
           {"link", "set", "dev", "ve0", "type", "bridge_slave", "cost", "5", "priority", "3", "learning",
            "off"},
           {"link", "set", "dev", "ve0", "type", "bridge_slave", "guard", "on", "hairpin", "on", "flood",
            "off"},
           {"link", "set", "dev", "ve0", "type", "bridge_slave", "mcast_router", "2", "group_fwd_mask", "8",
            "neigh_suppress", "on", "isolated", "on"},
           {"link",
            "set",
            "dev",
            "ve0",
            "type",
            "bridge_slave",
            "proxy_arp",
            "on",
            "mcast_flood",
            "off",
            "bcast_flood",
            "off",
            "mcast_to_unicast",
            "on",
            "fastleave",
            "on",
            "root_block",
            "on",
            "locked",
            "on"},
           {"link", "set", "dev", "ve0", "type", "bridge_slave", "backup_port", "ve1"},
           {"link", "set", "dev", "ve1", "type", "bridge_slave", "backup_port", "nosuch"},
           {"link", "set", "dev", "ve1", "type", "bridge_slave", "state", "300"},
       }) {
    auto ip = cli_test::ip_run(args, theirs.get());
    auto ours = cli_test::brisk_run(args, ns());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args) << ours.err;
    EXPECT_EQ(ours.err, ip.err) << ::testing::PrintToString(args);
  }
  // The ports' options as the kernel reports them (timers and ids aside).
  auto ports = [](int ns) {
    nlohmann::json out = nlohmann::json::array();
    for (auto& l : cli_test::ip_json(ns, {"-d", "link", "show", "master", "br0"})) {
      auto data = l["linkinfo"].value("info_slave_data", nlohmann::json::object());
      for (const char* key :
           {"id", "no", "designated_port", "designated_cost", "bridge_id", "root_id", "hold_timer",
            "message_age_timer", "forward_delay_timer", "topology_change_ack", "config_pending"})
        data.erase(key);
      out.push_back({{"ifname", l["ifname"]}, {"port", data}});
    }
    return out;
  };
  EXPECT_EQ(ports(ns()), ports(theirs.get()));
  cli_test::expect_same_output({"-d", "link", "show", "dev", "ve0"}, ns());
  cli_test::expect_same_output({"-j", "-d", "link", "show", "dev", "ve0"}, ns());
}

}  // namespace
}  // namespace brisk::ipcli
