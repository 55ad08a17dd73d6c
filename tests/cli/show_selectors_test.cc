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

// What link and addr show print with each selector, and their argument
// errors, are compared with ip's without root: recorded_cases.h's
// "selectors" scenario is this state.

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
