// Values are checked by the parser, with ip's words: the parser tables for
// route protocols, tables and netns PIDs, and the same stderr and exit code
// as ip 6.1 for each bad value.
#include <gtest/gtest.h>
#include <linux/rtnetlink.h>

#include "cli/ip/ip.h"
#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(IpValues, RouteProtocolsByAnyNameOrNumber) {
  EXPECT_EQ(ok({"route", "add", "10.0.0.0/8", "dev", "v0", "proto", "dhcp"}).route().protocol, RTPROT_DHCP);
  EXPECT_EQ(ok({"route", "add", "10.0.0.0/8", "dev", "v0", "proto", "bird"}).route().protocol, RTPROT_BIRD);
  EXPECT_EQ(ok({"route", "add", "10.0.0.0/8", "dev", "v0", "protocol", "99"}).route().protocol, 99);
  EXPECT_EQ(ok({"route", "show", "proto", "dhcp"}).filter().protocol, RTPROT_DHCP);
  auto bad = error_of({"route", "add", "10.0.0.0/8", "dev", "v0", "proto", "nosuch"});
  EXPECT_EQ(format_error(bad.message, bad.exact),
            "Error: argument \"nosuch\" is wrong: \"protocol\" value is invalid\n");
  EXPECT_EQ(bad.exit_code, 255);
  EXPECT_FALSE(parse_command(Words{"route", "add", "10.0.0.0/8", "dev", "v0", "proto", "256"}, Globals{}));
}

TEST(IpValues, RouteTablesByNameOrNumber) {
  EXPECT_EQ(ok({"route", "add", "10.0.0.0/8", "dev", "v0", "table", "local"}).route().table, RT_TABLE_LOCAL);
  EXPECT_EQ(ok({"route", "add", "10.0.0.0/8", "dev", "v0", "table", "4294967295"}).route().table,
            4294967295u);
  EXPECT_EQ(ok({"route", "show", "table", "all"}).route().table, RT_TABLE_UNSPEC);
  EXPECT_NE(
      error_of({"route", "add", "10.0.0.0/8", "dev", "v0", "table", "4294967296"}).message.find("\"table\""),
      std::string::npos);
  EXPECT_NE(error_of({"route", "show", "table", "nosuch"}).message.find("table id"), std::string::npos);
}

TEST(IpValues, LinkLayerAddressesAsIpReadsThem) {
  // Each byte as sscanf's %x reads it, written back in full.
  EXPECT_EQ(ok({"neigh", "add", "10.0.0.9", "lladdr", "2:0:0:0:0:1", "dev", "d0"}).neigh().lladdr,
            "02:00:00:00:00:01");
  EXPECT_EQ(ok({"neigh", "add", "10.0.0.9", "lladdr", "0x2:0:0:0:0:AB", "dev", "d0"}).neigh().lladdr,
            "02:00:00:00:00:ab");
  EXPECT_EQ(ok({"link", "set", "d0", "address", "2:0:0:0:0:a"}).link_set().address, "02:00:00:00:00:0a");
  auto bad = error_of({"neigh", "add", "10.0.0.9", "lladdr", "02:zz:00:00:00:01", "dev", "d0"});
  EXPECT_EQ(bad.message, "\"zz\" is invalid lladdr.");
  EXPECT_TRUE(bad.line_failure);  // a failed line: -force reads on
  auto length = error_of({"link", "set", "d0", "address", "02:00:00:00:00"});
  EXPECT_EQ(length.message, "Invalid address length 5 - must be 6 bytes");
  EXPECT_TRUE(length.line_failure);
}

TEST(IpValues, NetnsPidIsCheckedByTheParser) {
  auto by_pid = ok({"link", "set", "lo", "netns", "1"});
  EXPECT_EQ(by_pid.link_set().netns_pid, 1);
  auto by_name = ok({"link", "set", "lo", "netns", "blue"});
  EXPECT_FALSE(by_name.link_set().netns_pid);
  EXPECT_EQ(by_name.set_netns, "blue");
  for (const char* pid : {"99999999999999999999999", "2147483648"}) {
    auto e = error_of({"link", "set", "lo", "netns", pid});
    EXPECT_EQ(e.message, "Error: argument \"" + std::string(pid) + "\" is wrong: Invalid \"netns\" value\n");
    EXPECT_TRUE(e.exact);
    EXPECT_EQ(e.exit_code, 255);
  }
}

class IpValueErrors : public cli_test::CliNetnsTest {};

// Byte for byte what ip 6.1 prints, and the same status.
TEST_F(IpValueErrors, SameTextAndStatusAsIp) {
  for (const Words& args : std::vector<Words>{
           {"link", "set", "lo", "netns", "99999999999999999999999"},
           {"link", "set", "lo", "netns", "2147483648"},
           {"link", "set", "lo", "mtu", "big"},
           {"link", "set", "lo", "txqlen", "x"},
           {"link", "set", "lo", "group", "x"},
           {"link", "set", "lo", "promisc", "maybe"},
           {"route", "add", "10.1.0.0/16", "dev", "lo", "proto", "nosuch"},
           {"route", "add", "10.1.0.0/16", "dev", "lo", "table", "nosuch"},
           {"route", "add", "10.1.0.0/16", "dev", "lo", "table", "4294967296"},
           {"route", "add", "10.1.0.0/16", "dev", "lo", "metric", "x"},
           {"route", "show", "proto", "nosuch"},
           {"route", "show", "table", "nosuch"},
           {"route", "show", "type", "nosuch"},
           // link-layer addresses as ll_addr_a2n reads them
           {"neigh", "add", "10.0.0.10", "lladdr", "zz:00:00:00:00:20", "dev", "lo"},
           {"neigh", "add", "10.0.0.11", "lladdr", "02:00:00:00:00:300", "dev", "lo"},
           {"link", "set", "lo", "address", "02:00:00:00:00"},
           {"link", "set", "lo", "address", "gg:00:00:00:00:01"},
           {"link", "set", "lo", "carrier", "maybe"},
           {"link", "set", "lo", "addrgenmode", "bogus"},
           {"addr", "add", "10.8.0.1", "peer", "fd00::2", "dev", "lo"},
           {"addr", "add", "10.8.0.1/24", "dev", "lo", "metric", "x"},
           {"route", "add", "10.1.0.0/16", "dev", "lo", "realm", "nowhere"},
       }) {
    auto theirs = cli_test::ip_run(args, ns());
    auto ours = cli_test::brisk_run(args, ns());
    std::string line;
    for (const auto& w : args) line += w + " ";
    EXPECT_EQ(ours.err, theirs.err) << line;
    EXPECT_EQ(ours.code, theirs.code) << line;
    EXPECT_EQ(ours.out, "") << line;
  }
}

}  // namespace
}  // namespace brisk::ipcli
