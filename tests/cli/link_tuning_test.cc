// What ip link add and set take beyond the basics (addrgenmode, gso/gro
// sizes, queue counts, carrier, protodown, dynamic, trailers, link-layer
// broadcast, xdp off): parsed as ip's iplink_parse reads them, and applied
// and shown as after ip.
#include <gtest/gtest.h>
#include <linux/if_link.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(IpLinkTuning, Values) {
  auto s = ok(
      {"link",         "set",     "v0",           "addrgenmode", "NONE", "gso_max_size", "32000",
       "gso_max_segs", "100",     "gro_max_size", "30000",       "dyn",  "on",           "trailers",
       "off",          "carrier", "off",          "protodown",   "on",   "brd",          "ff:ff:ff:ff:ff:fe",
       "xdpgeneric",   "off"});
  const auto& t = s.link_set().tuning;
  EXPECT_EQ(t.addr_gen_mode, uint8_t(IN6_ADDR_GEN_MODE_NONE));
  EXPECT_EQ(t.gso_max_size, 32000u);
  EXPECT_EQ(t.gso_max_segs, 100u);
  EXPECT_EQ(t.gro_max_size, 30000u);
  EXPECT_EQ(t.dynamic, true);
  EXPECT_EQ(t.trailers, false);
  EXPECT_EQ(t.carrier, false);
  EXPECT_EQ(t.protodown, true);
  EXPECT_EQ(t.broadcast, "ff:ff:ff:ff:ff:fe");
  EXPECT_TRUE(t.xdp_off);
  EXPECT_EQ(t.xdp_flags, uint32_t(XDP_FLAGS_SKB_MODE));
  auto a = ok({"link", "add", "v0", "numtxqueues", "4", "numrx", "2", "addrgenmode", "random", "type", "veth",
               "peer", "name", "v1"});
  EXPECT_EQ(a.link_add().common.tuning.num_tx_queues, 4u);
  EXPECT_EQ(a.link_add().common.tuning.num_rx_queues, 2u);
  EXPECT_EQ(a.link_add().common.tuning.addr_gen_mode, uint8_t(IN6_ADDR_GEN_MODE_RANDOM));
}

TEST(IpLinkTuning, Errors) {
  auto mode = error_of({"link", "set", "v0", "addrgenmode", "bogus"});
  EXPECT_EQ(format_error(mode.message, mode.exact),
            "Error: argument \"bogus\" is wrong: Invalid address generation mode\n");
  EXPECT_EQ(mode.exit_code, 255);
  auto size = error_of({"link", "set", "v0", "gro_max_size", "-5"});
  EXPECT_EQ(format_error(size.message, size.exact),
            "Error: argument \"-5\" is wrong: Invalid \"gro_max_size\" value\n");
  auto onoff = error_of({"link", "set", "v0", "trailers", "maybe"});
  EXPECT_EQ(onoff.message, "Error: argument of \"trailers\" must be \"on\" or \"off\", not \"maybe\"");
  EXPECT_EQ(onoff.exit_code, 1);
  auto twice = error_of({"link", "add", "v0", "numtxqueues", "4", "numtxqueues", "5", "type", "veth"});
  EXPECT_EQ(format_error(twice.message, twice.exact),
            "Error: duplicate \"numtxqueues\": \"5\" is the second value.");
  auto xdp = error_of({"link", "set", "v0", "xdp", "obj", "prog.o"});
  EXPECT_EQ(xdp.exit_code, 255);
  EXPECT_NE(xdp.message.find("loads no XDP programs"), std::string::npos);
}

class IpLinkTuningParity : public cli_test::CliNetnsTest {};

// Each line through ip in one namespace and brisk in another: the same
// status and stderr, then the same -d link show, text and JSON.
TEST_F(IpLinkTuningParity, AppliedAndShownAsIp) {
  Words pair{"link", "add", "ve0", "type", "veth", "peer", "name", "ve1"};
  UniqueFd theirs = cli_test::twin_netns(ns(), {pair});
  ASSERT_TRUE(theirs.valid());
  for (const Words& args : std::vector<Words>{
           {"link", "set", "ve0", "addrgenmode", "none"},
           {"link", "set", "ve1", "addrgenmode", "stable_secret"},
           {"link", "set", "ve1", "xdp", "off"},
           {"link", "set", "ve1", "dynamic", "on", "trailers", "off"},
           {"link", "set", "ve1", "gso_max_size", "32000", "gso_max_segs", "100", "gro_max_size", "30000"},
           {"link", "set", "ve1", "broadcast", "ff:ff:ff:ff:ff:fe"},
           {"link", "set", "ve1", "carrier", "off"},   // veth refuses it: EOPNOTSUPP, as for ip
           {"link", "set", "ve1", "protodown", "on"},  // likewise
           {"link", "add", "vv0", "numtxqueues", "4", "numrxqueues", "2", "addrgenmode", "none",
            "gso_max_size", "20000", "type", "veth", "peer", "name", "vv1"},
       }) {
    auto ip = cli_test::ip_run(args, theirs.get());
    auto ours = cli_test::brisk_run(args, ns());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args) << ours.err;
    EXPECT_EQ(ours.err, ip.err) << ::testing::PrintToString(args);
  }
  auto strip = [](nlohmann::json links) {  // the MACs are random
    for (auto& l : links) {
      l.erase("address");
      l.erase("perm_address");
    }
    return links;
  };
  EXPECT_EQ(strip(cli_test::ip_json(ns(), {"-d", "link", "show"})),
            strip(cli_test::ip_json(theirs.get(), {"-d", "link", "show"})));
  cli_test::expect_same_output({"-d", "link", "show", "dev", "ve1"}, ns());
  cli_test::expect_same_output({"-j", "-d", "link", "show", "dev", "vv0"}, ns());
}

}  // namespace
}  // namespace brisk::ipcli
