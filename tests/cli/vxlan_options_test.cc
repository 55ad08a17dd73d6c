// Every vxlan option of ip 6.1's iplink_vxlan.c: the grammar, then brisk
// against ip in twin throwaway namespaces for creation, changes and bad
// values (status, the whole stderr, and the device the kernel made).
#include <gtest/gtest.h>
#include <linux/if_link.h>

#include <sstream>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

const netlink::VxlanOptions& vxlan_of(const IpCommand& c) {
  return std::get<netlink::VxlanOptions>(c.link_add().kind);
}

TEST(IpVxlanGrammar, EveryOption) {
  auto c = ok({"link",
               "add",
               "vx0",
               "type",
               "vxlan",
               "id",
               "1",
               "tos",
               "inherit",
               "df",
               "set",
               "flowlabel",
               "0x123",
               "ageing",
               "none",
               "maxaddress",
               "50",
               "srcport",
               "1000",
               "2000",
               "proxy",
               "norsc",
               "l2miss",
               "nol3miss",
               "noudpcsum",
               "udp6zerocsumtx",
               "noudp6zerocsumrx",
               "remcsumtx",
               "noremcsumrx",
               "gbp",
               "dstport",
               "4789"});
  const auto& v = vxlan_of(c);
  EXPECT_EQ(v.tos, 1);
  EXPECT_EQ(v.df, VXLAN_DF_SET);
  EXPECT_EQ(v.flowlabel, 0x123u);
  EXPECT_EQ(v.ageing, 0u);
  EXPECT_EQ(v.max_addresses, 50u);
  ASSERT_TRUE(v.source_ports);
  EXPECT_EQ(*v.source_ports, (std::pair<uint16_t, uint16_t>{1000, 2000}));
  EXPECT_EQ(v.proxy, true);
  EXPECT_EQ(v.rsc, false);
  EXPECT_EQ(v.l2miss, true);
  EXPECT_EQ(v.l3miss, false);
  EXPECT_EQ(v.udp_csum, false);
  EXPECT_EQ(v.udp6_zero_csum_tx, true);
  EXPECT_EQ(v.udp6_zero_csum_rx, false);
  EXPECT_EQ(v.remcsum_tx, true);
  EXPECT_EQ(v.remcsum_rx, false);
  EXPECT_TRUE(v.gbp);
  EXPECT_FALSE(v.gpe);
  EXPECT_EQ(v.learning, true) << "a new device gets learning, as ip sends it";
  EXPECT_TRUE(c.warning.empty()) << "a dstport given: no warning";
}

TEST(IpVxlanGrammar, PrefixesResolveInIpsOrder) {
  auto v = vxlan_of(
      ok({"link", "add", "vx0", "type", "vxlan", "id", "1", "p", "1", "2", "n", "u", "rs", "dst", "0"}));
  EXPECT_TRUE(v.source_ports) << "p is port (srcport), tested before proxy";
  EXPECT_EQ(v.learning, false) << "n is nolearning";
  EXPECT_EQ(v.udp_csum, true) << "u is udpcsum";
  EXPECT_EQ(v.rsc, true);
  auto e = vxlan_of(ok({"link", "add", "vx0", "type", "vxlan", "e", "dstport", "4789"}));
  EXPECT_EQ(e.external, true) << "e is external, which needs no id";
  EXPECT_EQ(e.learning, false) << "external turns learning off, as ip's does";
  auto filtered =
      vxlan_of(ok({"link", "add", "vx0", "type", "vxlan", "external", "vnifilter", "dstport", "1"}));
  EXPECT_EQ(filtered.vnifilter, true);
  EXPECT_EQ(vxlan_of(ok({"link", "add", "vx0", "type", "vxlan", "id", "1", "gpe"})).dstport, 4790)
      << "GPE's port when none is given";
  auto warned = ok({"link", "add", "vx0", "type", "vxlan", "id", "1"});
  EXPECT_NE(warned.warning.find("vxlan: destination port not specified"), std::string::npos);
  // A change sends only what it names.
  auto set = ok({"link", "set", "vx0", "type", "vxlan", "ageing", "20"});
  const auto& s = std::get<netlink::VxlanOptions>(*set.link_set().kind);
  EXPECT_EQ(s.ageing, 20u);
  EXPECT_FALSE(s.learning);
  EXPECT_TRUE(set.warning.empty());
}

TEST(IpVxlanGrammar, BadValues) {
  auto bad = [](Words tail) {
    Words words = {"link", "add", "vx0", "type", "vxlan", "id", "1"};
    words.insert(words.end(), tail.begin(), tail.end());
    return error_of(words);
  };
  EXPECT_EQ(bad({"tos", "bogus"}).message, "Error: argument \"bogus\" is wrong: bad TOS value");
  EXPECT_EQ(bad({"df", "maybe"}).message,
            "Error: argument \"maybe\" is wrong: DF must be 'unset', 'set' or 'inherit'");
  EXPECT_EQ(bad({"flowlabel", "0x100000"}).message,
            "Error: argument \"0x100000\" is wrong: invalid flowlabel");
  EXPECT_EQ(bad({"ageing", "soon"}).message, "Error: argument \"soon\" is wrong: ageing timer");
  EXPECT_EQ(bad({"maxaddress", "-1"}).message, "Error: argument \"-1\" is wrong: max addresses");
  EXPECT_EQ(bad({"srcport", "x", "1"}).message, "Error: argument \"x\" is wrong: min port");
  EXPECT_EQ(bad({"srcport", "1", "70000"}).message, "Error: argument \"70000\" is wrong: max port");
  EXPECT_EQ(bad({"srcport", "1"}).message, "Command line is not complete. Try option \"help\"");
  EXPECT_EQ(bad({"tos", "1", "dsfield", "2"}).message, "either \"tos\" is duplicate, or \"2\" is a garbage");
  EXPECT_EQ(bad({"proxy", "noproxy"}).message,
            "either \"noproxy\" is duplicate, or \"noproxy\" is a garbage");
  for (const auto& e : {bad({"tos", "bogus"}), bad({"srcport", "1", "70000"})}) EXPECT_EQ(e.exit_code, 255);
  auto refused = [](const Words& words) {
    auto e = error_of(words);
    EXPECT_EQ(e.exit_code, 1) << ::testing::PrintToString(words);
    return e.message.substr(0, e.message.find('\n'));
  };
  EXPECT_EQ(refused({"link", "add", "vx0", "type", "vxlan", "id", "1", "external"}),
            "vxlan: both 'external' and vni cannot be specified");
  EXPECT_EQ(refused({"link", "add", "vx0", "type", "vxlan", "id", "1", "vnifilter"}),
            "vxlan: vnifilter is valid only when 'external' is set");
  EXPECT_EQ(refused({"link", "add", "vx0", "type", "vxlan", "id", "1", "group", "239.1.1.1"}),
            "vxlan: 'group' requires 'dev' to be specified");
  EXPECT_EQ(refused({"link", "add", "vx0", "type", "vxlan", "id", "1", "vnifilte"}),
            "vxlan: unknown command \"vnifilte\"?")
      << "vnifilter is a whole word";
}

// The vxlan line of `ip -d link show DEV` (what the options print as).
std::string vxlan_line(const Words& show, int ns) {
  std::string out = ip_run(show, ns).out;
  auto at = out.find("\n    vxlan ");
  if (at == std::string::npos) return "";
  return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

class IpVxlanOptions : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({{"link", "add", "v0", "type", "veth", "peer", "name", "v1"}});
  }
  // The device's kind options as the kernel holds them, here and in the twin, alike.
  void expect_same_device(const std::string& dev, const std::string& what) {
    auto data = [&](int ns) {
      auto links = cli_test::ip_json(ns, {"-d", "link", "show", dev});
      return links.empty() ? nlohmann::json() : links[0]["linkinfo"]["info_data"];
    };
    EXPECT_EQ(data(ns()), data(ip_ns())) << what;
    EXPECT_EQ(vxlan_line({"-d", "link", "show", dev}, ns()), vxlan_line({"-d", "link", "show", dev}, ip_ns()))
        << what;
  }
};

TEST_F(IpVxlanOptions, CreatedAsIpCreatesThem) {
  const std::vector<Words> lines = {
      {"link", "add",     "vx1",     "type", "vxlan",  "id",     "2",          "dstport", "4789",
       "tos",  "inherit", "df",      "set",  "ageing", "100",    "maxaddress", "50",      "srcport",
       "1000", "2000",    "noproxy", "rsc",  "l2miss", "l3miss", "noudpcsum",  "local",   "10.0.0.1"},
      {"link", "add", "vx2", "type", "vxlan", "external", "dstport", "4789"},
      {"link", "add", "vx3", "type", "vxlan", "external", "vnifilter", "dstport", "4790"},
      {"link",           "add",  "vx4",     "type",    "vxlan",     "id",      "4",
       "dstport",        "4791", "local",   "fd00::1", "flowlabel", "0x12345", "udp6zerocsumtx",
       "udp6zerocsumrx", "df",   "inherit", "tos",     "0x10",      "ttl",     "64"},
      {"link", "add", "vx5", "type", "vxlan", "id", "5", "dstport", "4792", "remcsumtx", "remcsumrx", "gbp",
       "proxy", "ageing", "none", "maxaddress", "unlimited"},
      {"link", "add", "vx7", "type", "vxlan", "vni", "7", "dstport", "4793", "dsfield", "0x20", "hoplimit",
       "3", "label", "5", "remote", "fd00::9"},
      {"link",
       "add",
       "vx8",
       "type",
       "vxlan",
       "id",
       "8",
       "dstport",
       "4794",
       "noexternal",
       "nol2miss",
       "nol3miss",
       "norsc",
       "noremcsumtx",
       "noremcsumrx",
       "noudp6zerocsumtx",
       "noudp6zerocsumrx",
       "udpcsum",
       "df",
       "unset"},
      {"link", "add", "vx9", "type", "vxlan", "id", "9", "dev", "v0", "group", "239.1.1.9", "srcport", "0",
       "0"},
      {"link", "add", "vx10", "type", "vxlan", "id", "10"},  // no dstport: ip's warning
      // Refused by the kernel, with its text:
      {"link", "add", "vx11", "type", "vxlan", "id", "11", "dstport", "4795", "flowlabel", "7", "local",
       "10.0.0.1"},
      {"link", "add", "vx12", "type", "vxlan", "id", "12", "gpe"},
      // Refused by the parser:
      {"link", "add", "vx13", "type", "vxlan", "id", "13", "external"},
      {"link", "add", "vx14", "type", "vxlan", "id", "14", "tos", "bogus"},
      {"link", "add", "vx15", "type", "vxlan", "id", "15", "frob"},
      {"link", "add", "vx16", "type", "vxlan", "id", "16", "group", "239.1.1.1"},
      {"link", "add", "vx17", "type", "vxlan", "vnifilter"}};
  for (const auto& line : lines) {
    same(line);
    expect_same_device(line[2], ::testing::PrintToString(line));
  }
  // With no address given, -6 makes an IPv6 device (ip sends the group ::)
  // and -4 sends 0.0.0.0; a local address picks the family itself.
  for (const Words& line :
       std::vector<Words>{{"-6", "link", "add", "vx18", "type", "vxlan", "id", "18", "dstport", "4796"},
                          {"-4", "link", "add", "vx19", "type", "vxlan", "id", "19", "dstport", "4797"},
                          {"-6", "link", "add", "vx20", "type", "vxlan", "id", "20", "dstport", "4798",
                           "local", "10.0.0.2"}}) {
    same(line);
    expect_same_device(line[3], ::testing::PrintToString(line));
  }
  // The kernel dumps no unspecified group, so the family shows in the UDP
  // socket an up device opens: udp6 for vx18, udp for vx19 and vx20.
  auto sockets = [](int ns) {
    std::string ports;
    for (const char* table : {"udp", "udp6"}) {
      std::istringstream rows(cli_test::run({"cat", std::string("/proc/net/") + table}, ns).out);
      std::string row;
      std::getline(rows, row);  // the header
      while (std::getline(rows, row)) {
        std::istringstream fields(row);
        std::string slot, local;
        fields >> slot >> local;
        ports += std::string(table) + ":" + local.substr(local.find(':') + 1) + " ";
      }
    }
    return ports;
  };
  for (int n : {ns(), ip_ns()})
    for (const char* dev : {"vx18", "vx19", "vx20"}) ASSERT_EQ(ip_run({"link", "set", dev, "up"}, n).code, 0);
  EXPECT_EQ(sockets(ns()), sockets(ip_ns()));
  EXPECT_NE(sockets(ns()).find("udp6:12BC"), std::string::npos) << sockets(ns());
  for (const char* dev : {"vx1", "vx3", "vx4", "vx5", "vx7", "vx18"}) {
    cli_test::expect_same_output({"-d", "link", "show", dev}, ns());
    cli_test::expect_same_output({"-d", "-j", "link", "show", dev}, ns());
  }
}

TEST_F(IpVxlanOptions, ChangedAsIpChangesThem) {
  for (int n : {ns(), ip_ns()})
    ASSERT_EQ(
        ip_run({"link", "add", "vx0", "type", "vxlan", "id", "1", "dstport", "4789", "local", "10.0.0.1"}, n)
            .code,
        0);
  for (const Words& change : std::vector<Words>{
           {"link", "set", "vx0", "type", "vxlan", "ageing", "200", "maxaddress", "10", "proxy", "rsc"},
           {"link", "set", "vx0", "type", "vxlan", "l2miss", "l3miss", "tos", "0x8", "ttl", "5"},
           {"link", "set", "vx0", "type", "vxlan", "noproxy", "norsc", "nol2miss", "nol3miss", "df", "set"},
           {"link", "set", "vx0", "type", "vxlan", "srcport", "3000", "4000"},
           {"link", "set", "vx0", "type", "vxlan", "noudpcsum"},
           {"link", "set", "vx0", "type", "vxlan", "external"},
           {"link", "set", "vx0", "type", "vxlan", "gbp"},
           {"link", "set", "vx0", "type", "vxlan", "flowlabel", "9"},
           {"link", "set", "vx0", "type", "vxlan", "ageing", "x"}}) {
    same(change);
    expect_same_device("vx0", ::testing::PrintToString(change));
  }
}

}  // namespace
}  // namespace brisk::ipcli
