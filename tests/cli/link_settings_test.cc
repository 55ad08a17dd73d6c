// The settings ip's iplink_parse reads for a new device, for a veth's peer
// and for `link set`: interface flags, state, mode, index, link-netnsid,
// protodown_reason, and the name rules of `name` against `dev` or a bare
// word. Parsed as ip reads them, then applied and shown as after ip.
#include <gtest/gtest.h>
#include <linux/if.h>
#include <linux/if_link.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

TEST(IpLinkSettings, AddTakesWhatSetTakes) {
  auto a = ok({"link",         "add",   "x0",      "arp",          "off",   "multicast",        "off",
               "allmulticast", "on",    "promisc", "on",           "state", "dormant",          "mode",
               "DORMANT",      "index", "77",      "link-netnsid", "0x2",   "protodown_reason", "3",
               "on",           "down",  "type",    "veth"});
  const auto& common = a.link_add().common;
  EXPECT_FALSE(common.up);
  EXPECT_EQ(common.index, 77);
  EXPECT_EQ(common.tuning.arp, false);
  EXPECT_EQ(common.tuning.multicast, false);
  EXPECT_EQ(common.tuning.allmulticast, true);
  EXPECT_EQ(common.tuning.promisc, true);
  EXPECT_EQ(common.tuning.operstate, uint8_t(IF_OPER_DORMANT));
  EXPECT_EQ(common.tuning.link_mode, uint8_t(IF_LINK_MODE_DORMANT));
  EXPECT_EQ(common.tuning.link_netnsid, 2);
  EXPECT_EQ(common.tuning.protodown_reason, (std::pair<uint8_t, bool>{3, true}));
  // `master X nomaster`: the last one counts, as the kernel reads ip's two attributes.
  EXPECT_EQ(ok({"link", "add", "x0", "master", "br0", "nomaster", "type", "veth"}).link_add().common.master,
            "");
  // The kernel ignores an alias at creation; ip sends it, brisk drops it.
  EXPECT_EQ(ok({"link", "add", "x0", "alias", "hello", "type", "veth"}).link_add().common.alias, "");
}

TEST(IpLinkSettings, PeerTakesTheDevicesGrammar) {
  auto a = ok({"link",
               "add",
               "x0",
               "type",
               "veth",
               "peer",
               "name",
               "y0",
               "txqueuelen",
               "7",
               "numtxqueues",
               "3",
               "group",
               "4",
               "arp",
               "off",
               "index",
               "99",
               "brd",
               "11:22:33:44:55:66",
               "addrgenmode",
               "none",
               "mtu",
               "1000",
               "address",
               "02:00:00:00:00:09",
               "up",
               "master",
               "br0",
               "alias",
               "a"});
  const auto& veth = std::get<netlink::VethOptions>(a.link_add().kind);
  EXPECT_EQ(veth.peer, "y0");
  const auto& p = veth.peer_common;
  EXPECT_EQ(p.txqueuelen, 7u);
  EXPECT_EQ(p.tuning.num_tx_queues, 3u);
  EXPECT_EQ(p.group, 4u);
  EXPECT_EQ(p.tuning.arp, false);
  EXPECT_EQ(p.index, 99);
  EXPECT_EQ(p.tuning.broadcast, "11:22:33:44:55:66");
  EXPECT_EQ(p.tuning.addr_gen_mode, uint8_t(IN6_ADDR_GEN_MODE_NONE));
  EXPECT_EQ(p.mtu, 1000u);
  EXPECT_EQ(p.address, "02:00:00:00:00:09");
  EXPECT_TRUE(p.up);  // the kernel's ENOTCONN, as for ip
  EXPECT_EQ(p.master, "") << "the kernel ignores a peer's master";
  EXPECT_EQ(p.alias, "");
  EXPECT_EQ(std::get<netlink::VethOptions>(
                ok({"link", "add", "x0", "type", "veth", "peer", "dev", "y1"}).link_add().kind)
                .peer,
            "y1");
  EXPECT_EQ(ok({"link", "set", "v0", "netns", "blue", "index", "5"}).link_set().new_index, 5);
}

TEST(IpLinkSettings, ErrorsAsIp) {
  struct Case {
    Words words;
    std::string text;  // as printed
    int exit_code;
  };
  const std::vector<Case> cases = {
      {{"link", "set", "v0", "multicast", "0"},
       "Error: argument of \"multicast\" must be \"on\" or \"off\", not \"0\"",
       1},
      {{"link", "set", "v0", "state", "bogus"},
       "Error: argument \"bogus\" is wrong: Invalid operstate\n",
       255},
      {{"link", "set", "v0", "mode", "testing"},
       "Error: argument \"testing\" is wrong: Invalid link mode\n",
       255},
      {{"link", "set", "v0", "link-netnsid", "x"},
       "Error: argument \"x\" is wrong: Invalid \"link-netnsid\" value\n",
       255},
      {{"link", "set", "v0", "link-netnsid", "1", "link-netnsid", "2"},
       "Error: duplicate \"link-netns/link-netnsid\": \"2\" is the second value.",
       255},
      {{"link", "set", "v0", "protodown_reason", "32", "on"},
       "Error: argument \"32\" is wrong: invalid protodown reason\n",
       255},
      {{"link", "set", "v0", "protodown_reason", "3", "maybe"},
       "Error: argument of \"protodown_reason\" must be \"on\" or \"off\", not \"maybe\"",
       1},
      {{"link", "set", "v0", "index", "5"},
       "index can be used only when creating devices or when moving device to another netns.",
       255},
      {{"link", "add", "x0", "index", "0", "type", "veth"},
       "Error: argument \"0\" is wrong: Invalid \"index\" value",
       255},
      {{"link", "add", "x0", "index", "5", "index", "6", "type", "veth"},
       "Error: duplicate \"index\": \"6\" is the second value.",
       255},
      {{"link", "add", "x0", "mtu", "1", "mtu", "2", "type", "veth"},
       "Error: duplicate \"mtu\": \"2\" is the second value.",
       255},
      {{"link", "add", "x0", "y0", "type", "veth"},
       "Error: either \"dev\" is duplicate, or \"y0\" is a garbage.",
       255},
      {{"link", "add", "name", "x0", "y0", "type", "veth"},
       "both \"name\" and \"dev\" cannot be used when creating devices.",
       255},
      {{"link", "add", "x0", "type", "veth", "peer", "y0", "arp", "off", "y1"},
       "Error: either \"dev\" is duplicate, or \"y1\" is a garbage.",
       255},
      {{"link", "add", "x0", "type", "veth", "peer", "name", "y0", "name", "y1"},
       "Error: duplicate \"name\": \"y1\" is the second value.",
       255},
      {{"link", "add", "x0", "type", "veth", "peer", "name", "y0", "type", "veth"},
       "Error: duplicate \"type\": \"veth\" is the second value.",
       255},
      {{"link", "add", "x0", "alias", std::string(256, 'a'), "type", "veth"},
       "Error: argument \"" + std::string(256, 'a') + "\" is wrong: alias too long\n",
       255},
  };
  for (const auto& c : cases) {
    auto e = error_of(c.words);
    EXPECT_EQ(format_error(e.message, e.exact), c.text) << ::testing::PrintToString(c.words);
    EXPECT_EQ(e.exit_code, c.exit_code) << ::testing::PrintToString(c.words);
  }
}

class IpLinkSettingsParity : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    TwinNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({cli_test::fixed_veth_pair(),
               {"link", "add", "br0", "address", "02:00:00:00:00:03", "type", "bridge"}});
  }
  // The devices as `-d -j link show` gives them, without what the kernel
  // makes up (random MACs of the devices made here).
  static nlohmann::json links(int ns) {
    auto all = cli_test::ip_json(ns, {"-d", "link", "show"});
    for (auto& l : all) {
      if (l["ifname"] != "v0" && l["ifname"] != "v1" && l["ifname"] != "br0") {
        l.erase("address");
        l.erase("perm_address");
      }
      if (l.contains("linkinfo") && l["linkinfo"].contains("info_data"))
        l["linkinfo"].erase("info_data");  // bridge timers
    }
    return all;
  }
  void expect_same_links() { EXPECT_EQ(links(ns()).dump(1), links(ip_ns()).dump(1)); }
};

// Each line by brisk here and ip in the twin: the same status, stderr and
// stdout, and then the same devices.
TEST_F(IpLinkSettingsParity, EachLineAsIp) {
  for (const Words& args : std::vector<Words>{
           {"link", "add", "x0", "arp", "off", "promisc", "on", "allmulticast", "on", "type", "veth"},
           {"link", "add", "x1", "multicast", "off", "mode", "dormant", "index", "77", "group", "3", "type",
            "veth"},
           {"link", "add", "x2", "alias", "dropped", "master", "br0", "nomaster", "down", "type", "veth"},
           {"link",       "add",  "x3",          "type",
            "veth",       "peer", "name",        "y3",
            "txqueuelen", "7",    "numtxqueues", "3",
            "group",      "4",    "arp",         "off",
            "index",      "99",   "brd",         "11:22:33:44:55:66",
            "mtu",        "1400", "master",      "br0",
            "alias",      "z"},
           {"link", "add", "x4", "type", "veth", "peer", "y4", "up"},  // ENOTCONN
           {"link", "add", "x5", "type", "veth", "peer", "name", "y5", "addrgenmode",
            "none"},                                                    // EAFNOSUPPORT
           {"link", "add", "x6", "link-netnsid", "0", "type", "veth"},  // no such nsid
           {"link", "set", "v0", "state", "dormant", "mode", "dormant", "arp", "off", "multicast", "off"},
           {"link", "set", "v1", "protodown_reason", "0", "on"},  // veth: not supported
           {"link", "set", "v1", "index", "9"},
           {"link", "set", "v1", "multicast", "1"},
       }) {
    same(args);
    expect_same_links();
  }
}

// A file with these lines, failures among them, with and without -force.
TEST_F(IpLinkSettingsParity, BatchAsIp) {
  std::string file = "/tmp/brisk-link-settings-" + std::to_string(::getpid()) + ".batch";
  cli_test::write_file(file,
                       "link add x0 arp off promisc on type veth peer name y0 txqueuelen 9 group 2\n"
                       "link set y0 state dormant multicast off\n"
                       "link add x1 type veth peer y1 up\n"
                       "link add x2 index 50 alias gone type veth peer name y2 index 51 numrxqueues 2\n"
                       "link set x2 protodown_reason 1 on\n"
                       "link set x0 mode dormant allmulticast on\n");
  for (bool force : {false, true}) {
    // Each pass starts from the twin's own setup: the first pass's devices go.
    for (const char* dev : {"x0", "x1", "x2"}) {
      (void)cli_test::ip_run({"link", "del", dev}, ns());
      (void)cli_test::ip_run({"link", "del", dev}, ip_ns());
    }
    cli_test::expect_same_batch(file, force, ns(), ip_ns());
    expect_same_links();
  }
  ::unlink(file.c_str());
}

// `link add NAME netns NS ... peer NAME netns NS2`: each end made in its
// namespace, named or by a process; a namespace that is not there is ip's
// argument error, which ends even a -force batch.
TEST_F(IpLinkSettingsParity, DevicesMadeInOtherNamespaces) {
  cli_test::NamedNetns mine, theirs, peers_mine, peers_theirs;
  for (const auto* n : {&mine, &theirs, &peers_mine, &peers_theirs})
    ASSERT_EQ(cli_test::ip_run({"netns", "add", n->name()}).code, 0);
  auto line = [](const std::string& at, const std::string& peer_at) {
    return Words{"link", "add", "n0", "netns", at, "type", "veth", "peer", "n1", "netns", peer_at};
  };
  auto ours = cli_test::brisk_run(line(mine.name(), peers_mine.name()), ns());
  auto ips = cli_test::ip_run(line(theirs.name(), peers_theirs.name()), ip_ns());
  EXPECT_EQ(ours.code, ips.code) << ours.err;
  EXPECT_EQ(ours.err, ips.err);
  auto names = [](const std::string& netns) {
    std::string out;
    for (const auto& l : cli_test::ip_json(-1, {"-n", netns, "link", "show"}))
      out += l["ifname"].get<std::string>() + " ";
    return out;
  };
  EXPECT_EQ(names(mine.name()), "lo n0 ");
  EXPECT_EQ(names(peers_mine.name()), "lo n1 ");
  EXPECT_EQ(names(mine.name()), names(theirs.name()));
  expect_same_links();  // nothing made here
  // A peer left here, its device elsewhere; then the names ip cannot open.
  for (const Words& args :
       std::vector<Words>{{"link", "add", "n2", "netns", "brisk-no-such-ns", "type", "veth"},
                          {"link", "add", "n2", "type", "veth", "peer", "n3", "netns", "brisk-no-such-ns"},
                          {"link", "set", "v1", "netns", "brisk-no-such-ns"},
                          {"link", "add", "n2", "netns", mine.name(), "netns", "b", "type", "veth"}})
    same(args);
  std::string file = "/tmp/brisk-link-netns-" + std::to_string(::getpid()) + ".batch";
  cli_test::write_file(
      file, "link add n4 type veth peer n5\nlink set n4 netns brisk-no-such-ns\nlink add n6 type veth\n");
  cli_test::expect_same_batch(file, true, ns(), ip_ns());
  expect_same_links();
  ::unlink(file.c_str());
}

}  // namespace
}  // namespace brisk::ipcli
