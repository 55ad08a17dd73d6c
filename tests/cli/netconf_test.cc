// ip netconf: each family's settings per device, one device's, one family's,
// and the errors, byte for byte and status for status as ip 6.1.
#include <gtest/gtest.h>

#include "cli_support.h"

namespace brisk::cli_test {
namespace {

class IpNetconf : public CliNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_EQ(ip_run({"link", "add", "d0", "type", "veth", "peer", "name", "d1"}, ns()).code, 0);
    // Settings that differ from the defaults, so each printed word is exercised.
    for (const char* write :
         {"echo 1 > /proc/sys/net/ipv4/conf/d0/forwarding", "echo 2 > /proc/sys/net/ipv4/conf/d1/rp_filter",
          "echo 1 > /proc/sys/net/ipv4/conf/d1/proxy_arp", "echo 1 > /proc/sys/net/ipv6/conf/d0/forwarding",
          "echo 1 > /proc/sys/net/ipv4/conf/default/ignore_routes_with_linkdown"})
      ASSERT_EQ(run({"sh", "-c", write}, ns()).code, 0) << write;
  }
};

// Every show's text and JSON, its errors and statuses, are compared with
// ip's without root: recorded_cases.h's "netconf_ntable" is this state.
// Here, what brisk reads of the kernel itself, and its own words.
TEST_F(IpNetconf, ShowAsIp) {
  auto shown = brisk_run({"netconf"}, ns()).out;
  EXPECT_NE(shown.find("inet d1 forwarding off rp_filter loose mc_forwarding off proxy_neigh on "),
            std::string::npos)
      << shown;
  // An unknown command names brisk's help, with ip's status.
  auto bogus = brisk_run({"netconf", "bogus"}, ns());
  EXPECT_EQ(bogus.code, ip_run({"netconf", "bogus"}, ns()).code);
  EXPECT_EQ(bogus.err, "Command \"bogus\" is unknown, try \"brisk netconf help\".\n");
  auto help = brisk_run({"netconf", "help"}, ns());
  EXPECT_EQ(help.code, 255);
  EXPECT_EQ(help.err.rfind("Usage: brisk netconf show [ dev DEV ]\n", 0), 0u) << help.err;
}

// In a batch, a missing device fails its line and -force goes on, as ip.
TEST_F(IpNetconf, BatchLinesAsIp) {
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/batch";
  write_file(file, "netconf show dev nope\nnetconf show dev d1\n");
  for (bool force : {false, true}) expect_same_batch(file, force, ns(), ns());
}

}  // namespace
}  // namespace brisk::cli_test
