// link show and addr show (and addr flush) with the device selectors ip's
// ipaddr_list_flush_or_save shares between them: master DEV, vrf NAME,
// nomaster, type KIND and type KIND_slave.
#include <gtest/gtest.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpShowSelectors, Grammar) {
  for (const char* object : {"link", "addr"}) {
    auto m = ok({object, "show", "master", "br0", "nomaster", "type", "veth"});
    EXPECT_EQ(m.filter().master, "br0");
    EXPECT_TRUE(m.filter().no_master);
    EXPECT_EQ(m.filter().kind, "veth");
    EXPECT_TRUE(m.filter().slave_kind.empty());
    auto port = ok({object, "show", "type", "bridge_slave"});
    EXPECT_EQ(port.filter().slave_kind, "bridge");
    EXPECT_TRUE(port.filter().kind.empty());
    EXPECT_EQ(ok({object, "show", "vrf", "blue"}).filter().vrf, "blue");
    EXPECT_NE(error_of({object, "show", "master"}).message.find("not complete"), std::string::npos) << object;
  }
  // A selector is enough for a flush, as for ip.
  EXPECT_EQ(ok({"addr", "flush", "master", "br0"}).verb, verb_named("addr flush"));
  EXPECT_EQ(ok({"addr", "flush", "type", "bridge_slave"}).filter().slave_kind, "bridge");
}

// A bridge with two ports (one a veth end with an address, one whose peer
// has one too), and a device outside it; ip and brisk read the same namespace.
class IpShowSelectorsParity : public cli_test::CliNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    for (const std::vector<std::string>& setup : std::vector<std::vector<std::string>>{
             {"link", "add", "br0", "address", "02:00:00:00:01:00", "type", "bridge"},
             {"link", "add", "p0", "address", "02:00:00:00:01:01", "type", "veth", "peer", "name", "q0",
              "address", "02:00:00:00:01:02"},
             {"link", "add", "p1", "address", "02:00:00:00:01:03", "type", "veth", "peer", "name", "q1",
              "address", "02:00:00:00:01:04"},
             {"link", "set", "p0", "master", "br0"},
             {"link", "set", "p1", "master", "br0"},
             {"addr", "add", "10.7.0.1/24", "dev", "p0"},
             {"addr", "add", "10.7.1.1/24", "dev", "q0"},
             {"addr", "add", "10.7.2.1/24", "dev", "br0"}})
      ASSERT_EQ(ip_run(setup, ns()).code, 0) << ::testing::PrintToString(setup);
  }
};

TEST_F(IpShowSelectorsParity, ShowsWhatIpShows) {
  for (const std::vector<std::string>& show :
       std::vector<std::vector<std::string>>{{"link", "show", "master", "br0"},
                                             {"addr", "show", "master", "br0"},
                                             {"link", "show", "nomaster"},
                                             {"addr", "show", "nomaster"},
                                             {"link", "show", "type", "veth"},
                                             {"addr", "show", "type", "bridge"},
                                             {"link", "show", "type", "bridge_slave"},
                                             {"addr", "show", "type", "bridge_slave"},
                                             {"-j", "addr", "show", "master", "br0"},
                                             {"-br", "link", "show", "nomaster"},
                                             {"-d", "link", "show", "type", "bridge_slave"},
                                             {"addr", "show", "master", "br0", "type", "veth"},
                                             {"link", "show", "master", "p0"}}) {
    auto ours = brisk_run(show, ns());
    auto ip = ip_run(show, ns());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(show);
    EXPECT_EQ(ours.out, ip.out) << ::testing::PrintToString(show);
  }
  // A master or vrf ip cannot find while parsing: its argument error, exit 255.
  for (const std::vector<std::string>& show :
       std::vector<std::vector<std::string>>{{"link", "show", "master", "nosuch"},
                                             {"addr", "show", "master", "nosuch"},
                                             {"link", "show", "vrf", "br0"},
                                             {"addr", "show", "vrf", "nosuch"},
                                             {"addr", "flush", "master", "nosuch"}}) {
    auto ours = brisk_run(show, ns());
    auto ip = ip_run(show, ns());
    EXPECT_EQ(ours.code, 255) << ::testing::PrintToString(show);
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(show);
    EXPECT_EQ(ours.err, ip.err) << ::testing::PrintToString(show);
  }
}

// Flush takes show's selectors, as ip-address(8) says. (ip 6.1 itself
// applies none of these link selectors to a flush and removes every
// address; brisk does what the manual describes.)
TEST_F(IpShowSelectorsParity, FlushTakesShowsSelectors) {
  auto addresses = [this] {
    std::string text;
    for (const char* dev : {"br0", "p0", "q0", "p1", "q1"})
      text += std::string(dev) + ":" + ip_run({"-br", "-4", "addr", "show", "dev", dev}, ns()).out;
    return text;
  };
  ASSERT_EQ(brisk_run({"addr", "flush", "type", "bridge_slave"}, ns()).code, 0);
  auto after_ports = addresses();
  EXPECT_EQ(after_ports.find("10.7.0.1/24"), std::string::npos) << after_ports;  // p0, a bridge port: gone
  EXPECT_NE(after_ports.find("10.7.1.1/24"), std::string::npos) << after_ports;  // q0: kept
  EXPECT_NE(after_ports.find("10.7.2.1/24"), std::string::npos) << after_ports;  // br0: kept
  ASSERT_EQ(brisk_run({"addr", "flush", "nomaster", "type", "veth"}, ns()).code, 0);
  auto after_veths = addresses();
  EXPECT_EQ(after_veths.find("10.7.1.1/24"), std::string::npos) << after_veths;
  EXPECT_NE(after_veths.find("10.7.2.1/24"), std::string::npos) << after_veths;
  ASSERT_EQ(brisk_run({"addr", "flush", "master", "br0"}, ns()).code, 0);  // its ports have none left
  EXPECT_NE(addresses().find("10.7.2.1/24"), std::string::npos);
}

}  // namespace
}  // namespace brisk::ipcli
