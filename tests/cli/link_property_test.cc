// The rest of ip 6.1's link grammar: altnames (`link property add|del`, and
// an altname wherever a device is named), `link set DEV type KIND ARGS`, and
// a netns move with its new name, address, MTU and state in one request.
// Parsed without a kernel, then run against ip in throwaway namespaces.
#include <gtest/gtest.h>

#include <regex>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;
using nlohmann::json;

const std::string kLong = "a-very-long-alternative-name-of-br0";  // past IFNAMSIZ

TEST(IpLinkProperty, AddAndDelete) {
  auto add = ok({"link", "property", "add", "dev", "br0", "altname", "a0", "altname", kLong});
  EXPECT_EQ(add.verb, verb_named("link prop add"));
  EXPECT_TRUE(add.mutates());
  EXPECT_EQ(add.altnames().name, "br0");
  EXPECT_EQ(add.altnames().altnames, (std::vector<std::string>{"a0", kLong}));
  // Abbreviated as ip matches them; the device bare, and itself an altname.
  auto del = ok({"link", "p", "de", kLong, "alt", "a0"});
  EXPECT_EQ(del.verb, verb_named("link prop del"));
  EXPECT_EQ(del.altnames().name, kLong);
  EXPECT_EQ(del.altnames().altnames, std::vector<std::string>{"a0"});
  // No altname at all is a request ip sends too (the kernel accepts it).
  EXPECT_TRUE(ok({"link", "property", "add", "dev", "br0"}).altnames().altnames.empty());
}

TEST(IpLinkProperty, ErrorsAsIp) {
  auto op = error_of({"link", "property", "delete", "dev", "br0", "altname", "x"});  // "del" only
  EXPECT_EQ(op.message, "Operator required");
  EXPECT_TRUE(op.exact);
  EXPECT_EQ(op.exit_code, 255);
  EXPECT_EQ(error_of({"link", "property", "frob"}).message, "Operator required");
  EXPECT_TRUE(error_of({"link", "property"}).help);
  EXPECT_TRUE(error_of({"link", "property", "add", "dev", "br0", "help"}).help);
  auto nodev = error_of({"link", "property", "add", "altname", "x"});
  EXPECT_EQ(nodev.message, "Not enough of information: \"dev\" argument is required.");
  EXPECT_EQ(nodev.exit_code, 255);
  EXPECT_EQ(error_of({"link", "property", "add", "dev", "br0", "dev", "br1"}).message,
            "either \"dev\" is duplicate, or \"br1\" is a garbage");
  EXPECT_EQ(error_of({"link", "property", "add", "dev", "br0", "foo"}).message,
            "either \"dev\" is duplicate, or \"foo\" is a garbage");
  EXPECT_NE(error_of({"link", "property", "add", "br0", "altname"}).message.find("not complete"),
            std::string::npos);
  auto bad = error_of({"link", "property", "add", "dev", "br0", "altname", "a/b"});
  EXPECT_EQ(bad.message, "Error: argument \"a/b\" is wrong: not a valid altname");
  EXPECT_EQ(bad.exit_code, 255);
  EXPECT_EQ(error_of({"link", "property", "add", "dev", "a b", "altname", "x"}).message,
            "Error: argument \"a b\" is wrong: \"dev\" not a valid ifname");
}

TEST(IpLinkProperty, AltnamesNameDevicesEverywhere) {
  // Longer than a device name: ip leaves the lookup to the kernel.
  EXPECT_EQ(ok({"link", "set", kLong, "up"}).link_set().name, kLong);
  EXPECT_EQ(ok({"link", "set", "dev", kLong, "mtu", "1400"}).link_set().name, kLong);
  EXPECT_EQ(ok({"link", "show", kLong}).filter().dev, kLong);
  EXPECT_EQ(ok({"link", "del", kLong}).name, kLong);
  EXPECT_EQ(ok({"addr", "add", "10.0.0.1/24", "dev", kLong}).addr().dev, kLong);
  EXPECT_EQ(ok({"addr", "show", "dev", kLong}).filter().dev, kLong);
  EXPECT_EQ(ok({"route", "add", "10.1.0.0/24", "dev", kLong}).route().dev, kLong);
  EXPECT_EQ(ok({"neigh", "show", "dev", kLong}).filter().dev, kLong);
  EXPECT_EQ(*ok({"link", "set", "v0", "master", kLong}).link_set().master, kLong);
  EXPECT_EQ(error_of({"link", "set", "dev", "a/b", "up"}).message,
            "Error: argument \"a/b\" is wrong: \"dev\" not a valid ifname");
  // A new name stays a device name, at most 15 bytes.
  EXPECT_NE(error_of({"link", "set", "v0", "name", kLong}).message.find("not a valid ifname"),
            std::string::npos);
  // link add leaves a bare name's 15-byte limit to the kernel, as ip does: a failed line.
  auto long_add = error_of({"link", "add", kLong, "type", "bridge"});
  EXPECT_EQ(long_add.message, "Error: Attribute failed policy validation.");
  EXPECT_TRUE(long_add.line_failure);
}

TEST(IpLinkSetType, BridgeOptionsThroughTheAddParser) {
  auto c = ok({"link",
               "set",
               "br0",
               "up",
               "type",
               "bridge",
               "stp_state",
               "1",
               "forward_delay",
               "400",
               "hello_time",
               "300",
               "max_age",
               "2500",
               "ageing_time",
               "6000",
               "priority",
               "100",
               "vlan_filtering",
               "1",
               "vlan_default_pvid",
               "7",
               "mcast_snooping",
               "0",
               "mcast_querier",
               "1",
               "nf_call_iptables",
               "0",
               "nf_call_ip6tables",
               "1",
               "nf_call_arptables",
               "0"});
  ASSERT_EQ(c.verb, verb_named("link set"));
  EXPECT_EQ(c.link_set().up, true);
  ASSERT_TRUE(c.link_set().kind);
  const auto& b = std::get<netlink::BridgeOptions>(*c.link_set().kind);
  EXPECT_EQ(b.stp, true);
  EXPECT_EQ(b.forward_delay, 400u);
  EXPECT_EQ(b.hello_time, 300u);
  EXPECT_EQ(b.max_age, 2500u);
  EXPECT_EQ(b.ageing_time, 6000u);
  EXPECT_EQ(b.priority, 100);
  EXPECT_EQ(b.vlan_filtering, true);
  EXPECT_EQ(b.vlan_default_pvid, 7);
  EXPECT_EQ(b.mcast_snooping, false);
  EXPECT_EQ(b.mcast_querier, true);
  EXPECT_EQ(b.nf_call_iptables, false);
  EXPECT_EQ(b.nf_call_ip6tables, true);
  EXPECT_EQ(b.nf_call_arptables, false);
  // The same parser serves `link add`.
  auto add = ok({"link", "add", "br1", "type", "bridge", "priority", "9", "stp_state", "2"});
  EXPECT_EQ(std::get<netlink::BridgeOptions>(add.link_add().kind).priority, 9);
  EXPECT_EQ(std::get<netlink::BridgeOptions>(add.link_add().kind).stp, true);  // any non-zero, as the kernel
}

TEST(IpLinkSetType, OtherKinds) {
  auto mv = ok({"link", "set", "mv0", "type", "macvlan", "mode", "private"});
  const auto& m = std::get<netlink::MacvlanOptions>(*mv.link_set().kind);
  EXPECT_EQ(m.mode, netlink::MacvlanMode::private_);
  EXPECT_TRUE(m.link.empty());  // no lower device in a change
  EXPECT_TRUE(std::get<netlink::MacvlanOptions>(
                  *ok({"link", "set", "t0", "type", "macvtap", "mode", "vepa"}).link_set().kind)
                  .tap);
  // The kind alone: sent as it is, for the kernel to check against the device.
  EXPECT_EQ(std::get<netlink::OtherKind>(*ok({"link", "set", "v0", "type", "veth"}).link_set().kind).kind,
            "veth");
  EXPECT_NE(
      error_of({"link", "set", "v0", "type", "veth", "peer", "name", "x"}).message.find("bridge, macvlan"),
      std::string::npos);
  // A vxlan change carries only what it names, as ip's does: no VNI needed.
  auto vx = ok({"link", "set", "vx0", "type", "vxlan", "ttl", "20", "nolearning", "remote", "192.0.2.9"});
  const auto& x = std::get<netlink::VxlanOptions>(*vx.link_set().kind);
  EXPECT_FALSE(x.id.has_value());
  EXPECT_FALSE(x.dstport.has_value());
  EXPECT_EQ(x.ttl, 20);
  EXPECT_EQ(x.learning, false);
  EXPECT_EQ(x.remote, "192.0.2.9");
  EXPECT_EQ(
      std::get<netlink::VxlanOptions>(*ok({"link", "set", "vx0", "type", "vxlan", "id", "7"}).link_set().kind)
          .id,
      7u);
  EXPECT_TRUE(std::get<netlink::VxlanOptions>(
                  *ok({"link", "set", "vx0", "type", "vxlan", "ttl", "inherit"}).link_set().kind)
                  .ttl_inherit);
  EXPECT_EQ(std::get<netlink::VxlanOptions>(
                *ok({"link", "set", "vx0", "type", "vxlan", "ttl", "auto"}).link_set().kind)
                .ttl,
            0);
  EXPECT_EQ(
      error_of({"link", "set", "vx0", "type", "vxlan", "id", "1", "vni", "2"}).message,
      "either \"id\" is duplicate, or \"2\" is a garbage");  // printed as ip prints it: SetTypeVxlanAsIp
  EXPECT_NE(error_of({"link", "add", "vx0", "type", "vxlan", "ttl", "2"})
                .message.find("missing virtual network identifier"),
            std::string::npos);  // creating one still needs it
  auto mode = error_of({"link", "set", "mv0", "type", "macvlan", "mode", "frob"});
  EXPECT_EQ(
      mode.message.substr(0, mode.message.find('\n')),
      "Error: argument of \"mode\" must be \"private\", \"vepa\", \"bridge\", \"passthru\" or \"source\", "
      "not \"frob\"");
  EXPECT_EQ(mode.exit_code, 1);  // ip's status for it
  auto link = error_of({"link", "set", "mv0", "type", "macvlan", "link", "v0"});
  EXPECT_EQ(link.message.substr(0, link.message.find('\n')), "macvlan: unknown option \"link\"?");
  EXPECT_EQ(link.exit_code, 1);
  EXPECT_NE(error_of({"link", "set", "v0", "type"}).message.find("not complete"), std::string::npos);
}

TEST(IpLinkSetType, BridgeErrorsAsIp) {
  for (const char* key : {"forward_delay", "stp_state", "priority", "hello_time", "vlan_filtering"}) {
    auto e = error_of({"link", "set", "br0", "type", "bridge", key, "x"});
    EXPECT_EQ(e.message, std::string("Error: argument \"x\" is wrong: invalid ") + key);
    EXPECT_EQ(e.exit_code, 255);
  }
  EXPECT_EQ(error_of({"link", "set", "br0", "type", "bridge", "priority", "70000"}).message,
            "Error: argument \"70000\" is wrong: invalid priority");
  EXPECT_EQ(error_of({"link", "set", "br0", "type", "bridge", "vlan_filtering", "256"}).message,
            "Error: argument \"256\" is wrong: invalid vlan_filtering");
  auto unknown = error_of({"link", "set", "br0", "type", "bridge", "foo", "1"});
  EXPECT_EQ(unknown.message.substr(0, unknown.message.find('\n')), "bridge: unknown command \"foo\"?");
  EXPECT_EQ(unknown.exit_code, 1);  // ip's status for it
  EXPECT_NE(error_of({"link", "set", "br0", "type", "bridge", "hello_time"}).message.find("not complete"),
            std::string::npos);
}

TEST(IpLinkHelp, ListsPropertyAndSetType) {
  std::string_view text = link_usage();
  for (const char* word : {"property add", "property del", "altname NAME",
                           "type { bridge | bridge_slave | macvlan | macvtap | vxlan }", "hello_time",
                           "mcast_snooping", "addrgenmode", "bridge_slave help"})
    EXPECT_NE(text.find(word), std::string_view::npos) << word;
}

// ---- against ip ----

// Two namespaces with the same bridge (the same MAC), one changed by brisk
// and one by ip with the same lines.
class IpLinkPropertyParity : public cli_test::CliNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    theirs_ = brisk::test::make_netns();
    ASSERT_TRUE(theirs_.valid());
    for (int ns : {ns(), theirs()}) {
      ASSERT_EQ(ip_run({"link", "add", "br0", "address", "02:00:00:00:00:01", "type", "bridge"}, ns).code, 0);
      ASSERT_EQ(ip_run({"link", "add", "v0", "address", "02:00:00:00:00:02", "type", "veth", "peer", "name",
                        "v1", "address", "02:00:00:00:00:03"},
                       ns)
                    .code,
                0);
    }
  }
  int theirs() const { return theirs_.get(); }
  // Runs the line with brisk here and with ip there; both must agree on success.
  void both(const std::vector<std::string>& args) {
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_EQ(ours.code == 0, ip.code == 0)
        << ::testing::PrintToString(args) << ": " << ours.err << " / " << ip.err;
  }
  // The same `ip` show in both namespaces prints the same, but for carrier
  // and operstate (which settle on their own schedule) and the namespaces' names.
  void expect_same_state(const std::vector<std::string>& show) {
    auto settled = [](std::string text) {
      static const std::regex timing("NO-CARRIER,|,LOWER_UP| state [A-Z]+| linkdown|link-netns [^ \\n]+");
      return std::regex_replace(text, timing, "");
    };
    EXPECT_EQ(settled(ip_run(show, ns()).out), settled(ip_run(show, theirs()).out))
        << ::testing::PrintToString(show);
  }
  UniqueFd theirs_;
};

TEST_F(IpLinkPropertyParity, AddDeleteAndShowAsIp) {
  both({"link", "property", "add", "dev", "br0", "altname", "alt0", "altname", kLong});
  both({"link", "property", "add", "v0", "altname", "vee"});
  both({"link", "prop", "add", "dev", "br0", "altname", "gone"});
  both({"link", "property", "del", "dev", kLong, "altname", "gone"});
  both({"link", "set", "br0", "alias", "hello"});
  expect_same_state({"-j", "link", "show"});
  expect_same_state({"link", "show"});
  ASSERT_EQ(ip_run({"addr", "add", "10.0.0.1/24", "dev", "br0"}, ns()).code, 0);
  // Every form of show prints the altnames where ip does, byte for byte.
  for (auto args : std::vector<std::vector<std::string>>{{"link", "show"},
                                                         {"-j", "link", "show"},
                                                         {"-d", "link", "show"},
                                                         {"-s", "link", "show", "br0"},
                                                         {"-s", "-j", "link", "show", "br0"},
                                                         {"-o", "link", "show"},
                                                         {"-br", "link", "show"},
                                                         {"-j", "-br", "link", "show"},
                                                         {"link", "show", "alt0"},
                                                         {"-j", "link", "show", kLong},
                                                         {"link", "show", "dev", "vee"},
                                                         {"addr", "show"},
                                                         {"-j", "addr", "show"},
                                                         {"-4", "addr", "show"},
                                                         {"-4", "-j", "addr", "show"},
                                                         {"-6", "addr", "show"},
                                                         {"-6", "-j", "addr", "show"},
                                                         {"addr", "show", "dev", kLong},
                                                         {"-o", "addr", "show"},
                                                         {"-s", "addr", "show", "alt0"}})
    cli_test::expect_same_output(args, ns());
}

TEST_F(IpLinkPropertyParity, AnAltnameNamesTheDeviceInEveryCommand) {
  both({"link", "property", "add", "dev", "br0", "altname", "alt0", "altname", kLong});
  both({"link", "property", "add", "dev", "v0", "altname", "v0-alternative-name"});
  both({"link", "set", "alt0", "mtu", "1400"});  // by a short altname: the device keeps its name
  both({"link", "set", kLong, "up"});
  both({"link", "set", "dev", "v0-alternative-name", "master", kLong});
  both({"link", "set", "v1", "up"});
  both({"link", "set", "v0-alternative-name", "up"});
  both({"addr", "add", "10.0.0.1/24", "dev", kLong});
  both({"addr", "add", "10.0.1.1/24", "dev", "alt0"});
  both({"route", "add", "10.1.0.0/24", "dev", "alt0"});
  both({"route", "add", "10.2.0.0/24", "dev", kLong, "metric", "5"});
  both({"neigh", "add", "10.0.0.9", "lladdr", "02:00:00:00:00:09", "dev", kLong});
  both({"addr", "del", "10.0.1.1/24", "dev", kLong});
  expect_same_state({"link", "show"});
  expect_same_state({"-4", "addr", "show"});
  expect_same_state({"route", "show"});
  expect_same_state({"neigh", "show"});
  cli_test::expect_same_output({"route", "show", "dev", kLong}, ns());
  cli_test::expect_same_output({"neigh", "show", "dev", "alt0"}, ns());
  cli_test::expect_same_output({"link", "show", "master", "alt0"}, ns());
  // Deleting by an altname, then the name is free.
  both({"link", "del", "v0-alternative-name"});
  expect_same_state({"link", "show"});
}

TEST_F(IpLinkPropertyParity, RefusalsAsIp) {
  both({"link", "property", "add", "dev", "br0", "altname", "alt0"});
  for (auto args : std::vector<std::vector<std::string>>{
           {"link", "property", "add", "dev", "br0", "altname", "alt0"},    // EEXIST
           {"link", "property", "add", "dev", "br0", "altname", "v0"},      // another device's name
           {"link", "property", "del", "dev", "br0", "altname", "nosuch"},  // ENOENT
           {"link", "property", "add", "dev", "nosuch", "altname", "x"},    // ENODEV
           {"link", "property", "add", "dev", "br0", "altname", std::string(128, 'x')},  // past ALTIFNAMSIZ
           {"link", "set", std::string(130, 'y'), "up"}}) {
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_NE(ip.code, 0) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.err, ip.err) << ::testing::PrintToString(args);
  }
  // The kernel's own words where it gives some.
  auto policy = brisk_run({"link", "property", "add", "dev", "br0", "altname", std::string(128, 'x')}, ns());
  EXPECT_EQ(policy.err, "Error: Attribute failed policy validation.\n");
  EXPECT_EQ(brisk_run({"link", "set", "nosuch-but-a-long-name", "up"}, ns()).err,
            "Cannot find device \"nosuch-but-a-long-name\"\n");
  expect_same_state({"link", "show"});
  // Usage errors: ip's text and status, and nothing sent.
  for (auto args :
       std::vector<std::vector<std::string>>{{"link", "property", "frob"},
                                             {"link", "property", "add", "altname", "x"},
                                             {"link", "property", "add", "dev", "br0", "altname", "a/b"},
                                             {"link", "property", "add", "dev", "br0", "x", "y"}}) {
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.err, ip.err) << ::testing::PrintToString(args);
  }
}

// `ip -d -j link show` of a link with the bridge timers left out (they run).
json kind_data(int ns, const std::string& dev) {
  auto all = cli_test::ip_json(ns, {"-d", "link", "show", "dev", dev});
  if (!all.is_array() || all.empty()) return nullptr;
  json data = all[0]["linkinfo"].value("info_data", json::object());
  for (auto it = data.begin(); it != data.end();) {
    if (it.key().ends_with("_timer"))
      it = data.erase(it);
    else
      ++it;
  }
  return data;
}

TEST_F(IpLinkPropertyParity, SetTypeBridgeAsIp) {
  both({"link", "set", "br0", "type", "bridge", "stp_state", "1", "forward_delay", "400", "hello_time", "300",
        "max_age", "2500", "ageing_time", "6000", "priority", "100"});
  both({"link", "set", "br0", "up", "type", "bridge", "mcast_snooping", "0", "mcast_querier", "1",
        "vlan_default_pvid", "7", "nf_call_iptables", "1", "nf_call_arptables", "1"});
  both({"link", "set", "br0", "type", "bridge", "vlan_filtering",
        "1"});                                     // EOPNOTSUPP without BRIDGE_VLAN_FILTERING
  both({"link", "set", "br0", "type", "bridge"});  // the kind alone: nothing changes
  auto data = kind_data(ns(), "br0");
  EXPECT_EQ(data, kind_data(theirs(), "br0"));
  EXPECT_EQ(data.value("forward_delay", 0), 400);
  EXPECT_EQ(data.value("priority", 0), 100);
  EXPECT_EQ(data.value("stp_state", 0), 1);
  EXPECT_EQ(data.value("mcast_snooping", 1), 0);
  // The kernel refuses: both fail and change nothing.
  for (auto args : std::vector<std::vector<std::string>>{
           {"link", "set", "br0", "type", "bridge", "max_age", "1"},      // ERANGE
           {"link", "set", "br0", "type", "macvlan", "mode", "private"},  // not its kind
           {"link", "set", "v0", "type", "bridge", "priority", "1"}}) {   // not a bridge
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_NE(ours.code, 0) << ::testing::PrintToString(args);
    EXPECT_NE(ip.code, 0) << ::testing::PrintToString(args);
  }
  EXPECT_EQ(kind_data(ns(), "br0"), kind_data(theirs(), "br0"));
  // Option errors: ip's text and status.
  for (auto args :
       std::vector<std::vector<std::string>>{{"link", "set", "br0", "type", "bridge", "priority", "70000"},
                                             {"link", "set", "br0", "type", "bridge", "stp_state", "on"}}) {
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.err, ip.err) << ::testing::PrintToString(args);
  }
  auto ours = brisk_run({"link", "set", "br0", "type", "bridge", "frob", "1"}, ns());
  auto ip = ip_run({"link", "set", "br0", "type", "bridge", "frob", "1"}, theirs());
  EXPECT_EQ(ours.code, ip.code);
  EXPECT_EQ(ours.err.substr(0, ours.err.find('\n')), ip.err.substr(0, ip.err.find('\n')));
}

TEST_F(IpLinkPropertyParity, SetTypeMacvlanModeAsIp) {
  for (int ns : {ns(), theirs()})
    ASSERT_EQ(ip_run({"link", "add", "mv0", "link", "v0", "type", "macvlan", "mode", "bridge"}, ns).code, 0);
  both({"link", "set", "mv0", "type", "macvlan", "mode", "private"});
  auto data = kind_data(ns(), "mv0");
  EXPECT_EQ(data, kind_data(theirs(), "mv0"));
  EXPECT_EQ(data.value("mode", ""), "private");
  both({"link", "set", "mv0", "type", "macvlan", "mode", "vepa"});
  EXPECT_EQ(kind_data(ns(), "mv0"), kind_data(theirs(), "mv0"));
  // Option errors: ip's first line and status.
  for (auto args :
       std::vector<std::vector<std::string>>{{"link", "set", "mv0", "type", "macvlan", "mode", "frob"},
                                             {"link", "set", "mv0", "type", "macvlan", "frob", "x"},
                                             {"link", "add", "mv1", "link", "v0", "type", "macvlan", "x"}}) {
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.err.substr(0, ours.err.find('\n')), ip.err.substr(0, ip.err.find('\n')))
        << ::testing::PrintToString(args);
  }
}

TEST_F(IpLinkPropertyParity, SetTypeVxlanAsIp) {
  for (int ns : {ns(), theirs()})
    ASSERT_EQ(
        ip_run({"link", "add", "vx0", "type", "vxlan", "id", "42", "dstport", "4789", "local", "10.0.0.1"},
               ns)
            .code,
        0);
  both({"link", "set", "vx0", "type", "vxlan", "ttl", "20", "nolearning"});
  both({"link", "set", "vx0", "type", "vxlan", "remote", "192.0.2.9", "local", "10.9.9.9"});
  both({"link", "set", "vx0", "type", "vxlan", "id", "42", "learning", "dev", "v0"});
  auto data = kind_data(ns(), "vx0");
  EXPECT_EQ(data, kind_data(theirs(), "vx0"));
  EXPECT_EQ(data.value("ttl", 0), 20);
  both({"link", "set", "vx0", "type", "vxlan", "ttl", "inherit"});
  EXPECT_EQ(kind_data(ns(), "vx0"), kind_data(theirs(), "vx0"));
  EXPECT_EQ(ip_run({"-d", "link", "show", "vx0"}, ns()).out.find("ttl inherit") != std::string::npos,
            ip_run({"-d", "link", "show", "vx0"}, theirs()).out.find("ttl inherit") != std::string::npos);
  both({"link", "set", "vx0", "type", "vxlan", "ttl", "20"});
  EXPECT_EQ(data.value("learning", false), true);
  EXPECT_EQ(data.value("remote", ""), "192.0.2.9");
  EXPECT_EQ(data.value("link", ""), "v0");
  // What the kernel keeps (the port), a device missing, and bad values:
  // ip's text and status, and nothing changed.
  for (auto args : std::vector<std::vector<std::string>>{
           {"link", "set", "vx0", "type", "vxlan", "dstport", "5000"},
           {"link", "set", "vx0", "type", "vxlan", "dev", "nosuch"},
           {"link", "set", "vx0", "type", "vxlan", "ttl", "300"},
           {"link", "set", "vx0", "type", "vxlan", "id", "16777216"},
           {"link", "set", "vx0", "type", "vxlan", "frob", "1"},
           {"link", "set", "vx0", "type", "vxlan", "ttl", "1", "ttl", "2"},
           {"link", "set", "vx0", "type", "vxlan", "remote", "239.1.1.1"},
           {"link", "set", "vx0", "type", "vxlan", "group", "10.0.0.9"},
           {"link", "set", "vx0", "type", "vxlan", "remote", "192.0.2.1", "group", "239.1.1.1"},
           {"link", "set", "vx0", "type", "vxlan", "dstport", "x"},
           {"link", "add", "vx1", "type", "vxlan", "ttl", "2"}}) {
    auto ours = brisk_run(args, ns());
    auto ip = ip_run(args, theirs());
    EXPECT_EQ(ours.code, ip.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.err.substr(0, ours.err.find('\n')), ip.err.substr(0, ip.err.find('\n')))
        << ::testing::PrintToString(args);
  }
  EXPECT_EQ(kind_data(ns(), "vx0"), kind_data(theirs(), "vx0"));
}

// What LXC's `lxc.network.type = phys` does: one request moves the device
// and gives it, in its new namespace, a name, a MAC, an MTU and "up".
TEST_F(IpLinkPropertyParity, NetnsMoveAppliesEverythingInTheTargetNamespace) {
  cli_test::NamedNetns ours_target, ip_target;
  ASSERT_EQ(cli_test::run({"ip", "netns", "add", ours_target.name()}).code, 0);
  ASSERT_EQ(cli_test::run({"ip", "netns", "add", ip_target.name()}).code, 0);
  auto line = [](const std::string& target) {
    return std::vector<std::string>{
        "link", "set",  "v1", "netns", target, "name", "eth0", "address", "02:00:00:00:00:42",
        "mtu",  "1400", "up"};
  };
  auto ours = brisk_run(line(ours_target.name()), ns());
  auto ip = ip_run(line(ip_target.name()), theirs());
  ASSERT_EQ(ours.code, 0) << ours.err;
  ASSERT_EQ(ip.code, 0) << ip.err;
  auto in = [](const cli_test::NamedNetns& target) {
    auto r = cli_test::run({"ip", "-n", target.name(), "-j", "link", "show", "eth0"});
    json links = cli_test::parse_json(r.out);
    if (!links.is_array() || links.empty()) return json();
    json l = links[0];
    return json{{"ifname", l["ifname"]},
                {"mtu", l["mtu"]},
                {"address", l["address"]},
                {"flags", l["flags"]},
                {"link_netnsid", l.contains("link_netnsid")}};
  };
  json moved = in(ours_target);
  EXPECT_EQ(moved, in(ip_target));
  EXPECT_EQ(moved.value("mtu", 0), 1400);
  EXPECT_EQ(moved.value("address", ""), "02:00:00:00:00:42");
  EXPECT_NE(moved.dump().find("\"UP\""), std::string::npos);
  expect_same_state({"link", "show"});  // gone from both sources alike
}

}  // namespace
}  // namespace brisk::ipcli
