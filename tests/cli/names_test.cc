// ip's name tables: every name a table prints reads back as its number, and
// every number as its name; iproute2's names files are read as ip reads them.
#include "cli/ip/names.h"

#include <gtest/gtest.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

namespace brisk::ipcli {
namespace {

void expect_round_trip(const NameTable& table, uint32_t max) {
  ASSERT_FALSE(table.entries().empty());
  for (const auto& [number, name] : table.entries()) {
    EXPECT_EQ(table.name(number), name);
    EXPECT_EQ(table.number(name), number) << name;
  }
  // A number without a name is printed, and read back, as the number.
  for (uint32_t n : {uint32_t{0}, uint32_t{77}, max}) {
    std::string text = table.name(n);
    EXPECT_EQ(table.number(text), n) << text;
  }
}

TEST(IpNames, RouteTablesRoundTrip) {
  expect_round_trip(route_tables(), UINT32_MAX);
  EXPECT_EQ(table_number("main"), RT_TABLE_MAIN);
  EXPECT_EQ(table_number("local"), RT_TABLE_LOCAL);
  EXPECT_EQ(table_number("default"), RT_TABLE_DEFAULT);
  EXPECT_EQ(table_name(RT_TABLE_MAIN), "main");
  EXPECT_EQ(table_number("4294967295"), UINT32_MAX);
  EXPECT_FALSE(table_number("4294967296"));
  EXPECT_FALSE(table_number("nosuchtable"));
}

TEST(IpNames, ProtocolsRoundTrip) {
  expect_round_trip(protocols(), 255);
  // ip 6.1's built-in names, whether or not /etc/iproute2/rt_protos exists.
  EXPECT_EQ(protocol_number("dhcp"), RTPROT_DHCP);
  EXPECT_EQ(protocol_number("bird"), RTPROT_BIRD);
  EXPECT_EQ(protocol_number("bgp"), RTPROT_BGP);
  EXPECT_EQ(protocol_name(RTPROT_KERNEL), "kernel");
  EXPECT_EQ(protocol_number("0x10"), RTPROT_DHCP);  // strtoul's base 0, as ip's get_u8
  EXPECT_EQ(protocol_number("020"), RTPROT_DHCP);
  EXPECT_FALSE(protocol_number("256"));
  EXPECT_FALSE(protocol_number("nosuchproto"));
  EXPECT_FALSE(protocol_number(""));
}

TEST(IpNames, ScopesRoundTrip) {
  expect_round_trip(scopes(), 255);
  EXPECT_EQ(scope_number("universe"), RT_SCOPE_UNIVERSE);
  EXPECT_EQ(scope_number("link"), RT_SCOPE_LINK);
  EXPECT_EQ(scope_name(RT_SCOPE_HOST), "host");
}

TEST(IpNames, RouteTypesRoundTrip) {
  expect_round_trip(route_types(), 255);
  EXPECT_EQ(rtn_type_number("blackhole"), RTN_BLACKHOLE);
  EXPECT_EQ(rtn_type_name(RTN_THROW), "throw");
}

TEST(IpNames, NudStatesRoundTrip) {
  expect_round_trip(nud_states(), 0xff);
  EXPECT_EQ(nud_states().number("permanent"), NUD_PERMANENT);
  EXPECT_EQ(nud_names(NUD_REACHABLE | NUD_NOARP), (std::vector<std::string>{"REACHABLE", "NOARP"}));
  EXPECT_EQ(nud_names(0), (std::vector<std::string>{"NONE"}));
}

TEST(IpNames, FileTextAddsAndOverridesNames) {
  NameTable table({{254, "main"}}, UINT32_MAX);
  table.add_file_text("#\n# comment\n100\tvpn\n0x65 office  # trailing\n254 primary\nbad line\n  \n300\n");
  EXPECT_EQ(table.number("vpn"), 100u);
  EXPECT_EQ(table.number("office"), 101u);
  EXPECT_EQ(table.name(254), "primary");
  EXPECT_FALSE(table.number("main"));
  EXPECT_FALSE(table.number("bad"));
  EXPECT_EQ(table.name(300), "300");
  NameTable small({}, 255);
  small.add_file_text("256 toolarge\n");
  EXPECT_FALSE(small.number("toolarge"));
}

}  // namespace
}  // namespace brisk::ipcli
