// The ip grammar without a kernel: global options, every object and verb with
// ip's abbreviations and defaults, batch-file splitting, and every error case.
#include <gtest/gtest.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include <string>
#include <vector>

#include "cli/ip/ip.h"
#include "cli/ip/objects.h"

namespace brisk::ipcli {
namespace {

using Words = std::vector<std::string>;

Parsed<IpCommand> parse(const Words& words, Globals g = {}) { return parse_command(words, g); }

IpCommand parse_ok(const Words& words, Globals g = {}) {
  auto cmd = parse(words, g);
  EXPECT_TRUE(cmd) << (cmd ? "" : cmd.error().message);
  return cmd ? *cmd : IpCommand{};
}

std::string parse_error_text(const Words& words, Globals g = {}) {
  auto cmd = parse(words, g);
  EXPECT_FALSE(cmd) << "accepted";
  return cmd ? "" : cmd.error().message;
}

TEST(IpGlobals, OptionsBeforeTheObject) {
  auto inv =
      parse_globals(Words{"brisk", "-n", "blue", "-j", "-p", "-force", "-d", "-s", "-4", "link", "show"});
  ASSERT_TRUE(inv) << inv.error().message;
  EXPECT_EQ(inv->globals.netns, "blue");
  EXPECT_TRUE(inv->globals.json);
  EXPECT_TRUE(inv->globals.pretty);
  EXPECT_TRUE(inv->globals.force);
  EXPECT_TRUE(inv->globals.details);
  EXPECT_TRUE(inv->globals.stats);
  EXPECT_EQ(inv->globals.family, AF_INET);
  EXPECT_EQ(inv->args, (Words{"link", "show"}));
}

// -s counts (-s -s adds the error counters); -br, -b and -o as ip reads them.
// -f|-family NAME, as ip's read_family() reads it ("ip -f inet addr show eth0" is an everyday form).
TEST(IpGlobals, FamilyByName) {
  auto family = [](std::vector<std::string> words) {
    words.insert(words.begin(), "brisk");
    words.insert(words.end(), {"addr", "show"});
    auto inv = parse_globals(words);
    EXPECT_TRUE(inv) << (inv ? "" : inv.error().message);
    return inv ? inv->globals.family : -1;
  };
  EXPECT_EQ(family({"-f", "inet"}), AF_INET);
  EXPECT_EQ(family({"-family", "inet6"}), AF_INET6);
  EXPECT_EQ(family({"-fam", "inet", "-force"}), AF_INET);  // -force stays -force
  auto bad = parse_globals(Words{"brisk", "-f", "foo", "addr"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "Error: argument \"foo\" is wrong: invalid protocol family");
  EXPECT_EQ(family({"-f", "link"}), AF_PACKET);
  EXPECT_EQ(family({"-f", "mpls"}), AF_MPLS);
  EXPECT_EQ(family({"-f", "bridge"}), AF_BRIDGE);
  EXPECT_EQ(family({"-0"}), AF_PACKET);
  EXPECT_EQ(family({"-M"}), AF_MPLS);
  EXPECT_EQ(family({"-B"}), AF_BRIDGE);
  EXPECT_FALSE(parse_globals(Words{"brisk", "-f", "ipx", "addr"}));  // ip 6.1 has no ipx
  EXPECT_FALSE(parse_globals(Words{"brisk", "-f"}));
}

TEST(IpGlobals, RepeatedStatsBriefAndOneline) {
  auto inv = parse_globals(Words{"brisk", "-s", "-stat", "-br", "-o", "link"});
  ASSERT_TRUE(inv) << inv.error().message;
  EXPECT_EQ(inv->globals.stats, 2);
  EXPECT_TRUE(inv->globals.brief);
  EXPECT_TRUE(inv->globals.oneline);
  auto one = parse_globals(Words{"brisk", "-s", "link"});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->globals.stats, 1);
  EXPECT_FALSE(one->globals.brief || one->globals.oneline);
  auto batch = parse_globals(Words{"brisk", "-b", "-"});  // "-b" is -batch, not -brief
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_TRUE(batch->globals.batch.has_value());
}

// addr show/flush scope and to: parsed values, "to" giving its family, and mismatches refused.
TEST(IpAddr, ShowScopeAndTo) {
  auto cmd =
      parse_command(Words{"addr", "show", "dev", "v0", "scope", "link", "to", "10.1.0.0/16"}, Globals{});
  ASSERT_TRUE(cmd) << cmd.error().message;
  EXPECT_EQ(cmd->filter().scope, uint8_t(RT_SCOPE_LINK));
  ASSERT_TRUE(cmd->filter().to.has_value());
  EXPECT_EQ(cmd->filter().to->length, 16);
  EXPECT_EQ(cmd->family, AF_INET);
  EXPECT_EQ(parse_command(Words{"a", "s", "scope", "200"}, Globals{})->filter().scope, uint8_t(200));
  EXPECT_FALSE(parse_command(Words{"addr", "show", "scope", "bogus"}, Globals{}));
  EXPECT_FALSE(parse_command(Words{"addr", "show", "to", "10.0.0.300"}, Globals{}));
  EXPECT_FALSE(parse_command(Words{"addr", "show", "to", "2001:db8::/32"}, Globals{.family = AF_INET}));
  auto flush = parse_command(Words{"addr", "flush", "dev", "v0", "scope", "global"}, Globals{});
  ASSERT_TRUE(flush) << flush.error().message;
  EXPECT_EQ(flush->verb, verb_named("addr flush"));
  EXPECT_EQ(flush->filter().scope, uint8_t(RT_SCOPE_UNIVERSE));
}

TEST(IpLink, SetFlagsOnOff) {
  auto cmd = parse_command(
      Words{"link", "set", "v0", "promisc", "on", "arp", "off", "multicast", "off", "allmulticast", "on"},
      Globals{});
  ASSERT_TRUE(cmd) << cmd.error().message;
  EXPECT_EQ(cmd->link_set().tuning.promisc, true);
  EXPECT_EQ(cmd->link_set().tuning.arp, false);
  EXPECT_EQ(cmd->link_set().tuning.multicast, false);
  EXPECT_EQ(cmd->link_set().tuning.allmulticast, true);
  EXPECT_FALSE(parse_command(Words{"link", "set", "v0", "promisc"}, Globals{}));
  EXPECT_FALSE(parse_command(Words{"link", "set", "v0", "arp", "maybe"}, Globals{}));
  // iplink.c compares the words "on" and "off" exactly, unlike the kinds' options.
  EXPECT_FALSE(parse_command(Words{"link", "set", "v0", "multicast", "0"}, Globals{}));
}

TEST(IpGlobals, LongFormsAndBatch) {
  auto inv = parse_globals(
      Words{"brisk", "-netns", "x", "-json", "-pretty", "-details", "-stats", "-6", "-batch", "-"});
  ASSERT_TRUE(inv) << inv.error().message;
  EXPECT_EQ(inv->globals.netns, "x");
  EXPECT_TRUE(inv->globals.json && inv->globals.pretty && inv->globals.details && inv->globals.stats);
  EXPECT_EQ(inv->globals.family, AF_INET6);
  EXPECT_EQ(inv->globals.batch, "-");
  EXPECT_TRUE(inv->args.empty());
  auto version = parse_globals(Words{"brisk", "-V"});
  ASSERT_TRUE(version);
  EXPECT_TRUE(version->globals.version);
}

TEST(IpGlobals, Errors) {
  EXPECT_FALSE(parse_globals(Words{"brisk", "-n"}));
  EXPECT_FALSE(parse_globals(Words{"brisk", "-batch"}));
  EXPECT_FALSE(parse_globals(Words{"brisk", "-j"}));  // no object
  EXPECT_FALSE(parse_globals(Words{"brisk", "-bogus", "link"}));
  EXPECT_TRUE(
      parse_globals(Words{"brisk", "-n", "../etc", "link"}));    // /run/netns/../etc, as ip opens it when run
  auto empty = parse_globals(Words{"brisk", "-n", "", "link"});  // /run/netns itself, refused when entered
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->globals.netns, std::optional<std::string>(""));
  EXPECT_FALSE(parse_globals(Words{"brisk", "-batch", "f", "link", "show"}));  // both
}

TEST(IpGlobals, DispatchDecision) {
  for (const char* yes :
       {"link", "l",         "li",    "address", "addr", "a",    "route", "r",      "ro",     "neigh",
        "n",    "neighbour", "netns", "net",     "fdb",  "-j",   "-n",    "-batch", "-force", "-V",
        "-4",   "-6",        "-d",    "-s",      "-p",   "-zzz", "-br"})  // unknown ip options: refused the
                                                                          // ip way
    EXPECT_TRUE(is_ip_invocation(yes)) << yes;
  for (const char* no : {"bench", "demo", "run", "--help", "--zzz", "help", "x", "linkx", "fd", "", "-"})
    EXPECT_FALSE(is_ip_invocation(no)) << no;
  // brisk's own help alone; before an object they are ip's -human and -help.
  EXPECT_FALSE(is_ip_invocation("-h", true));
  EXPECT_FALSE(is_ip_invocation("-help", true));
  EXPECT_TRUE(is_ip_invocation("-h", false));
  EXPECT_TRUE(is_ip_invocation("-help", false));
  EXPECT_TRUE(is_ip_invocation("-c", true));
}

TEST(IpObjects, AbbreviationsPickWhatIpPicks) {
  EXPECT_EQ(parse_ok({"l"}).verb, verb_named("link show"));
  EXPECT_EQ(parse_ok({"a"}).verb, verb_named("addr show"));
  EXPECT_EQ(parse_ok({"r"}).verb, verb_named("route show"));
  EXPECT_EQ(parse_ok({"n"}).verb, verb_named("neigh show"));  // ip's table has neighbor before netns
  EXPECT_EQ(parse_ok({"net"}).verb, verb_named("netns list"));
  EXPECT_EQ(parse_ok({"link", "sh"}).verb, verb_named("link show"));
  EXPECT_EQ(parse_ok({"link", "s", "x", "up"}).verb,
            verb_named("link set"));                                 // "s" is set for link, as in ip
  EXPECT_EQ(parse_ok({"addr", "s"}).verb, verb_named("addr show"));  // ...and show for addr
  EXPECT_EQ(parse_ok({"link", "lst"}).verb, verb_named("link show"));
  EXPECT_EQ(parse_ok({"link", "d", "x"}).verb, verb_named("link del"));
  EXPECT_EQ(parse_ok({"route", "d", "10.0.0.0/8"}).verb, verb_named("route del"));
  EXPECT_EQ(parse_ok({"neigh", "del", "10.0.0.1", "dev", "x"}).verb, verb_named("neigh del"));
}

TEST(IpObjects, UnknownObjectsAndCommands) {
  EXPECT_EQ(parse_error_text({"bogus"}), "Object \"bogus\" is unknown, try \"brisk help\".");
  EXPECT_EQ(parse_error_text({"link", "frob"}), "Command \"frob\" is unknown, try \"brisk link help\".");
  EXPECT_NE(parse_error_text({"addr", "frob"}).find("unknown"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "frob"}).find("unknown"), std::string::npos);
  EXPECT_NE(parse_error_text({"neigh", "frob"}).find("unknown"), std::string::npos);
  EXPECT_NE(parse_error_text({"netns", "frob", "x"}).find("unknown"), std::string::npos);
  EXPECT_NE(parse_error_text({"fdb", "frob"}).find("unknown"), std::string::npos);
}

TEST(IpLink, AddVeth) {
  auto c = parse_ok(
      {"link", "add", "v0", "mtu", "1400", "up", "type", "veth", "peer", "name", "v1", "mtu", "1300"});
  ASSERT_EQ(c.verb, verb_named("link add"));
  EXPECT_EQ(c.link_add().name, "v0");
  EXPECT_EQ(c.link_add().common.mtu, 1400u);
  EXPECT_TRUE(c.link_add().common.up);
  auto& veth = std::get<netlink::VethOptions>(c.link_add().kind);
  EXPECT_EQ(veth.peer, "v1");
  EXPECT_EQ(veth.peer_common.mtu, 1300u);
  // "name NAME", "dev NAME", a bare peer name, and the peer's netns. (As in
  // ip, a bare "a" or "b" would be the keyword it abbreviates: address, broadcast.)
  auto d = parse_ok({"link", "add", "name", "va", "type", "veth", "peer", "vb", "netns", "blue"});
  EXPECT_EQ(d.link_add().name, "va");
  EXPECT_EQ(std::get<netlink::VethOptions>(d.link_add().kind).peer, "vb");
  EXPECT_EQ(d.peer_netns, "blue");
  EXPECT_EQ(parse_ok({"link", "add", "dev", "va", "type", "veth", "peer", "name", "vb"}).link_add().name,
            "va");
}

TEST(IpLink, AddOtherKinds) {
  auto br = parse_ok({"link", "add", "br0", "type", "bridge", "stp_state", "1", "forward_delay", "400",
                      "vlan_filtering", "0"});
  auto& b = std::get<netlink::BridgeOptions>(br.link_add().kind);
  EXPECT_EQ(b.stp, true);
  EXPECT_EQ(b.forward_delay, 400u);
  EXPECT_EQ(b.vlan_filtering, false);
  auto mv = parse_ok({"link", "add", "link", "eth0", "name", "mv0", "type", "macvlan", "mode", "vepa"});
  auto& m = std::get<netlink::MacvlanOptions>(mv.link_add().kind);
  EXPECT_EQ(m.link, "eth0");
  EXPECT_EQ(m.mode, netlink::MacvlanMode::vepa);
  auto vx = parse_ok({"link", "add", "vx0", "type", "vxlan", "id", "42", "dstport", "4789", "remote",
                      "192.0.2.1", "nolearning"});
  auto& x = std::get<netlink::VxlanOptions>(vx.link_add().kind);
  EXPECT_EQ(x.id, 42u);
  EXPECT_EQ(x.dstport, 4789);
  EXPECT_EQ(x.remote, "192.0.2.1");
  EXPECT_EQ(x.learning, false);
  auto vl = parse_ok({"link", "add", "link", "eth0", "name", "eth0.5", "type", "vlan", "id", "5"});
  EXPECT_EQ(std::get<netlink::VlanOptions>(vl.link_add().kind).id, 5);
  auto dummy = parse_ok({"link", "add", "d0", "type", "dummy"});
  EXPECT_EQ(std::get<netlink::OtherKind>(dummy.link_add().kind).kind, "dummy");
}

TEST(IpLink, AddErrors) {
  EXPECT_NE(parse_error_text({"link", "add", "v0"}).find("\"type\""), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "type", "bridge"}).find("\"name\""), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "v0", "type"}).find("not complete"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "v0", "mtu"}).find("not complete"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "v0", "mtu", "big", "type", "bridge"}).find("\"mtu\""),
            std::string::npos);
  // Past 15 bytes ip leaves the name to the kernel, whose policy refuses it.
  EXPECT_NE(parse_error_text({"link", "add", "a23456789012345x", "type", "bridge"}).find("policy"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "a/b", "type", "bridge"}).find("ifname"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "v0", "address", "zz:00", "type", "bridge"})
                .find("\"zz\" is invalid lladdr"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "v0", "v1", "type", "bridge"}).find("garbage"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "br0", "type", "bridge", "stp_state", "on"}).find("stp_state"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "br0", "type", "bridge", "bogus", "1"}).find("bogus"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "mv0", "type", "macvlan"}).find("link"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "vx0", "type", "vxlan"}).find("identifier"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "vx0", "type", "vxlan", "id", "16777216"}).find("id"),
            std::string::npos);
  EXPECT_NE(
      parse_error_text({"link", "add", "link", "e", "name", "e.5", "type", "vlan", "id", "4096"}).find("id"),
      std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "d0", "type", "dummy", "trailing"}).find("trailing"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"link", "add", "link", "e", "b0", "type", "bridge"}).find("link"),
            std::string::npos);
}

TEST(IpLink, Set) {
  auto c =
      parse_ok({"link", "set",   "dev",    "v0",  "up",    "mtu",   "9000",   "address", "02:00:00:00:00:01",
                "name", "v9",    "master", "br0", "alias", "hello", "txqlen", "5",       "group",
                "7",    "netns", "blue"});
  ASSERT_EQ(c.verb, verb_named("link set"));
  EXPECT_EQ(c.link_set().name, "v0");
  EXPECT_EQ(c.link_set().up, true);
  EXPECT_EQ(c.link_set().mtu, 9000u);
  EXPECT_EQ(c.link_set().address, "02:00:00:00:00:01");
  EXPECT_EQ(c.link_set().new_name, "v9");
  EXPECT_EQ(c.link_set().master, "br0");
  EXPECT_EQ(c.link_set().alias, "hello");
  EXPECT_EQ(c.link_set().txqueuelen, 5u);
  EXPECT_EQ(c.link_set().group, 7u);
  EXPECT_EQ(c.set_netns, "blue");
  auto n = parse_ok({"link", "set", "v0", "down", "nomaster"});
  EXPECT_EQ(n.link_set().up, false);
  EXPECT_EQ(n.link_set().master, "");
  EXPECT_EQ(parse_ok({"link", "change", "v0", "up"}).verb, verb_named("link set"));
}

TEST(IpLink, SetErrors) {
  EXPECT_NE(parse_error_text({"link", "set", "up"}).find("\"dev\""), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "set", "v0"}).find("nothing to change"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "set", "v0", "up", "extra"}).find("garbage"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "set", "v0", "mtu", "-1"}).find("mtu"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "set", "v0", "mtu", "4294967296"}).find("mtu"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "set", "v0", "master"}).find("not complete"), std::string::npos);
}

TEST(IpLink, DeleteAndShow) {
  EXPECT_EQ(parse_ok({"link", "del", "v0"}).name, "v0");
  EXPECT_EQ(parse_ok({"link", "delete", "dev", "v0", "type", "veth"}).name, "v0");
  auto g = parse_ok({"link", "del", "group", "9"});
  EXPECT_EQ(g.verb, verb_named("link del group"));
  EXPECT_EQ(g.group, 9u);
  EXPECT_NE(parse_error_text({"link", "del"}).find("\"dev\""), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "del", "a", "b"}).find("garbage"), std::string::npos);
  EXPECT_NE(parse_error_text({"link", "del", "group", "x"}).find("group"), std::string::npos);
  auto s = parse_ok({"link", "show", "dev", "v0", "up"});
  EXPECT_EQ(s.filter().dev, "v0");
  EXPECT_TRUE(s.filter().up_only);
  auto m = parse_ok({"link", "list", "master", "br0", "type", "veth"});
  EXPECT_EQ(m.filter().master, "br0");
  EXPECT_EQ(m.filter().kind, "veth");
  EXPECT_NE(parse_error_text({"link", "show", "a", "b"}).find("garbage"), std::string::npos);
}

TEST(IpAddr, AddReplaceDelete) {
  auto a = parse_ok({"addr", "add", "10.0.0.1/24", "brd", "10.0.0.255", "dev", "v0", "label", "v0:1", "scope",
                     "link", "noprefixroute"});
  ASSERT_EQ(a.verb, verb_named("addr add"));
  EXPECT_EQ(a.addr().prefix, "10.0.0.1/24");
  EXPECT_EQ(a.addr().broadcast, "10.0.0.255");
  EXPECT_EQ(a.addr().dev, "v0");
  EXPECT_EQ(a.addr().label, "v0:1");
  EXPECT_EQ(a.addr().scope, RT_SCOPE_LINK);
  EXPECT_TRUE(a.addr().noprefixroute);
  auto l = parse_ok({"a", "a", "local", "fd00::1/64", "dev", "v0", "nodad"});
  EXPECT_EQ(l.addr().prefix, "fd00::1/64");
  EXPECT_TRUE(l.addr().nodad);
  EXPECT_EQ(parse_ok({"address", "replace", "10.0.0.1/24", "dev", "v0"}).verb, verb_named("addr replace"));
  EXPECT_EQ(parse_ok({"address", "del", "10.0.0.1/24", "dev", "v0"}).verb, verb_named("addr del"));
}

TEST(IpAddr, Errors) {
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.1/24"}).find("\"dev\""), std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "dev", "v0"}).find("address"), std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.256/24", "dev", "v0"}).find("10.0.0.256/24"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.1/33", "dev", "v0"}).find("prefix is expected"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.1/24", "dev"}).find("not complete"), std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.1/24", "dev", "v0", "junk"}).find("garbage"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.1/24", "brd", "fd00::1", "dev", "v0"}).find("fd00::1"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"addr", "add", "10.0.0.1/24", "dev", "v0", "label", "0123456789abcdef"})
                .find("label"),
            std::string::npos);
  Globals v6{.family = AF_INET6};
  EXPECT_NE(
      parse_error_text({"addr", "add", "10.0.0.1/24", "dev", "v0"}, v6).find("inet6 prefix is expected"),
      std::string::npos);
  EXPECT_EQ(parse_error_text({"addr", "flush"}),
            "Flush requires arguments.");  // ip's text, before any selector
}

TEST(IpAddr, ShowAndFlush) {
  EXPECT_EQ(parse_ok({"addr"}).verb, verb_named("addr show"));
  EXPECT_EQ(parse_ok({"addr", "show", "dev", "v0"}).filter().dev, "v0");
  EXPECT_EQ(parse_ok({"addr", "list", "v0"}).filter().dev, "v0");
  auto f = parse_ok({"addr", "flush", "dev", "v0"}, Globals{.family = AF_INET});
  EXPECT_EQ(f.verb, verb_named("addr flush"));
  EXPECT_EQ(f.family, AF_INET);
}

TEST(IpRoute, AddForms) {
  auto r = parse_ok({"route", "add", "10.2.0.0/16", "via", "10.0.0.1", "dev", "v0", "metric", "100", "table",
                     "7", "proto", "static", "src", "10.0.0.5", "onlink"});
  ASSERT_EQ(r.verb, verb_named("route add"));
  EXPECT_EQ(r.route().prefix, "10.2.0.0/16");
  EXPECT_EQ(r.route().via, "10.0.0.1");
  EXPECT_EQ(r.route().dev, "v0");
  EXPECT_EQ(r.route().metric, 100u);
  EXPECT_EQ(r.route().table, 7u);
  EXPECT_EQ(r.route().protocol, RTPROT_STATIC);
  EXPECT_EQ(r.route().src, "10.0.0.5");
  EXPECT_TRUE(r.route().onlink);
  EXPECT_EQ(parse_ok({"route", "add", "default", "via", "10.0.0.1"}).route().prefix, "default");
  EXPECT_EQ(parse_ok({"route", "add", "to", "10.3.0.0/16", "dev", "v0"}).route().prefix, "10.3.0.0/16");
  auto bh = parse_ok({"route", "add", "blackhole", "192.0.2.0/24"});
  EXPECT_EQ(bh.route().type, netlink::RouteType::blackhole);
  EXPECT_EQ(bh.route().prefix, "192.0.2.0/24");
  EXPECT_EQ(parse_ok({"route", "replace", "10.2.0.0/16", "dev", "v0"}).verb, verb_named("route replace"));
  EXPECT_EQ(parse_ok({"route", "del", "10.2.0.0/16"}).verb, verb_named("route del"));
  EXPECT_EQ(parse_ok({"route", "show", "table", "main"}).verb, verb_named("route show"));
}

TEST(IpHelp, EveryObjectHasAUsageTextNamingItsCommands) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> objects{
      {"link", {"link add", "link set", "link del", "link show", "veth", "vxlan"}},
      {"address", {"address { add", "address show", "address flush", "nodad"}},
      {"route", {"route { add", "route show", "route get"}},
      {"neigh", {"neigh { add", "neigh show"}},
      {"netns", {"netns add", "netns del", "netns exec", "netns list", "netns monitor", "netns list-id"}},
      {"fdb", {"fdb { add", "fdb show"}}};
  for (const auto& [object, commands] : objects) {
    for (const char* word : {"help", "h"}) {
      std::vector<std::string> args{object, word};
      auto parsed = parse_command(args, Globals{});
      ASSERT_FALSE(parsed) << object;
      EXPECT_TRUE(parsed.error().help) << object;
      EXPECT_EQ(parsed.error().message.rfind("Usage: brisk " + object, 0), 0u) << parsed.error().message;
      for (const auto& command : commands)
        EXPECT_NE(parsed.error().message.find(command), std::string::npos) << object << ": " << command;
    }
  }
}

TEST(IpRoute, Get) {
  auto g = parse_ok({"route", "get", "10.0.0.2", "from", "10.0.0.9", "iif", "v1", "mark", "5"});
  ASSERT_EQ(g.verb, verb_named("route get"));
  EXPECT_EQ(g.route_query().to, "10.0.0.2");
  EXPECT_EQ(g.route_query().from, "10.0.0.9");
  EXPECT_EQ(g.route_query().iif, "v1");
  EXPECT_TRUE(g.route_query().oif.empty());
  EXPECT_EQ(g.route_query().mark, 5u);
  auto o = parse_ok({"r", "g", "to", "fd00::1", "oif", "v0"});
  EXPECT_EQ(o.route_query().to, "fd00::1");
  EXPECT_EQ(o.route_query().oif, "v0");
  EXPECT_TRUE(o.route_query().iif.empty());
  EXPECT_EQ(parse_ok({"route", "get", "10.0.0.2", "dev", "v0"}).route_query().oif, "v0");
  EXPECT_FALSE(g.mutates());
  EXPECT_NE(parse_error_text({"route", "get"}).find("destination"), std::string::npos);
  // ip's get_prefix() reads "10.0.0" as 10.0.0.0 (components fill from the left); 256 is no byte.
  EXPECT_EQ(parse_ok({"route", "get", "10.0.0"}).route_query().to, "10.0.0.0");
  EXPECT_NE(parse_error_text({"route", "get", "10.0.0.256"}).find("10.0.0.256"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "get", "10.0.0.2", "from", "x"}).find("\"x\""), std::string::npos);
  // As ip: a second address is the destination asked about (ip sends both; the kernel reads the last).
  EXPECT_EQ(parse_ok({"route", "get", "10.0.0.2", "10.0.0.3"}).route_query().to, "10.0.0.3");
  EXPECT_NE(parse_error_text({"route", "get", "10.0.0.2", "mark", "lots"}).find("lots"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "get", "10.0.0.2", "iif"}).find("not complete"), std::string::npos);
}

// The rest of ip's route get grammar: each keyword, and ip's error for each bad value.
TEST(IpRoute, GetKeywords) {
  auto q = parse_ok({"route",  "get",       "fibmatch", "10.0.0.2", "tos", "0x10",  "uid",
                     "1000",   "ipproto",   "tcp",      "sport",    "80",  "dport", "443",
                     "notify", "connected", "vrf",      "blue",     "as",  "to",    "10.0.0.9"});
  const auto& query = q.route_query();
  EXPECT_TRUE(query.fib_match);
  EXPECT_EQ(query.tos, 0x10);
  EXPECT_EQ(query.uid, 1000u);
  EXPECT_EQ(query.ip_proto, 6);
  EXPECT_EQ(query.sport, 80);
  EXPECT_EQ(query.dport, 443);
  EXPECT_TRUE(query.notify);
  EXPECT_TRUE(q.route_get().connected);
  EXPECT_EQ(q.route_get().vrf, "blue");
  EXPECT_EQ(query.oif, "blue");  // the lookup goes out of the VRF device
  EXPECT_EQ(query.as, "10.0.0.9");
  EXPECT_EQ(parse_ok({"route", "get", "10.0.0.2", "dsfield", "0x28"}).route_query().tos, 0x28);
  EXPECT_EQ(parse_ok({"route", "get", "10.0.0.2", "ipproto", "17"}).route_query().ip_proto, 17);
  EXPECT_EQ(parse_ok({"route", "get", "10.0.0.2", "mark", "0x20"}).route_query().mark, 0x20u);
  // A prefix is looked up as its address, with ip's warning; a source prefix goes to the kernel as it is.
  auto prefix = parse_ok({"route", "get", "to", "10.0.0.2/24", "from", "10.0.0.0/24"});
  EXPECT_EQ(prefix.route_query().to, "10.0.0.2");
  EXPECT_EQ(prefix.route_query().from, "10.0.0.0/24");
  EXPECT_EQ(prefix.warning, "Warning: /24 as prefix is invalid, only /32 (or none) is supported.");
  EXPECT_EQ(parse_ok({"route", "get", "fd00::1/64"}).warning,
            "Warning: /64 as prefix is invalid, only /128 (or none) is supported.");
  EXPECT_TRUE(parse_ok({"route", "get", "10.0.0.2"}).warning.empty());

  auto message = [](std::vector<std::string> words) {
    std::vector<std::string> args{"route", "get", "10.0.0.2"};
    args.insert(args.end(), words.begin(), words.end());
    return parse_error_text(args);
  };
  EXPECT_EQ(message({"tos", "zz"}), "Error: argument \"zz\" is wrong: TOS value is invalid\n");
  EXPECT_EQ(message({"uid", "x"}), "Error: argument \"x\" is wrong: invalid UID\n");
  EXPECT_EQ(message({"uid", "99999999999"}), "Error: argument \"99999999999\" is wrong: invalid UID\n");
  EXPECT_EQ(message({"sport", "70000"}), "Error: argument \"70000\" is wrong: invalid sport\n");
  EXPECT_EQ(message({"dport", "-1"}), "Error: argument \"-1\" is wrong: invalid dport\n");
  EXPECT_EQ(message({"ipproto", "999"}), "Error: argument \"999\" is wrong: Invalid \"ipproto\" value\n");
  EXPECT_EQ(message({"ipproto", "nosuchproto"}),
            "Error: argument \"nosuchproto\" is wrong: Invalid \"ipproto\" value\n");
  EXPECT_EQ(message({"mark", "x"}), "Error: argument \"x\" is wrong: invalid mark value");
  EXPECT_NE(message({"as", "x"}).find("address is expected rather than \"x\""), std::string::npos);
  EXPECT_NE(message({"from", "fd00::1"}).find("inet prefix is expected rather than \"fd00::1\""),
            std::string::npos);
  for (const char* key :
       {"tos", "from", "iif", "oif", "mark", "vrf", "uid", "as", "sport", "dport", "ipproto"})
    EXPECT_NE(message({key}).find("not complete"), std::string::npos) << key;
  EXPECT_EQ(parse_error_text({"route", "get", "fibmatch"}), "need at least a destination address");
}

TEST(IpRoute, Errors) {
  EXPECT_NE(parse_error_text({"route", "add"}).find("destination"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "add", "10.2.0.0/16"}).find("via"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "add", "10.2.0.0/16", "via", "nope"}).find("nope"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "add", "10.2.0.0/16", "via"}).find("not complete"), std::string::npos);
  EXPECT_NE(parse_error_text({"route", "add", "10.2.0.0/16", "dev", "v0", "xx"}).find("garbage"),
            std::string::npos);
  // "x" abbreviates the type xresolve, which ip reads before the second
  // destination it then wants: the line ends first.
  EXPECT_NE(parse_error_text({"route", "add", "10.2.0.0/16", "dev", "v0", "x"}).find("not complete"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"route", "add", "10.2.0.0/16", "dev", "v0", "metric", "m"}).find("metric"),
            std::string::npos);
  EXPECT_NE(parse_error_text({"route", "show", "junk"}).find("prefix is expected rather than \"junk\""),
            std::string::npos);
}

TEST(IpNeigh, Forms) {
  auto n =
      parse_ok({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "v0", "nud", "reachable"});
  ASSERT_EQ(n.verb, verb_named("neigh add"));
  EXPECT_EQ(n.neigh().address, "10.0.0.2");
  EXPECT_EQ(n.neigh().lladdr, "02:00:00:00:00:02");
  EXPECT_EQ(n.neigh().dev, "v0");
  EXPECT_EQ(n.neigh().state, NUD_REACHABLE);
  EXPECT_EQ(
      parse_ok({"neigh", "add", "to", "fd00::2", "lladdr", "02:00:00:00:00:02", "dev", "v0"}).neigh().state,
      NUD_PERMANENT);
  EXPECT_EQ(parse_ok({"neigh", "replace", "10.0.0.2", "lladdr", "02:00:00:00:00:03", "dev", "v0"}).verb,
            verb_named("neigh replace"));
  EXPECT_EQ(parse_ok({"neigh", "del", "10.0.0.2", "dev", "v0"}).verb, verb_named("neigh del"));
  EXPECT_EQ(parse_ok({"neigh", "show", "dev", "v0"}).filter().dev, "v0");
  // No lladdr is the kernel's to refuse, as with ip.
  EXPECT_TRUE(parse_ok({"neigh", "add", "10.0.0.2", "dev", "v0"}).neigh().lladdr.empty());
  EXPECT_EQ(parse_error_text({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02"}),
            "Device and destination are required arguments.");
  EXPECT_EQ(parse_error_text({"neigh", "add", "lladdr", "02:00:00:00:00:02", "dev", "v0"}),
            "Device and destination are required arguments.");
  EXPECT_NE(parse_error_text({"neigh", "add", "10.0.0.2", "lladdr", "xx", "dev", "v0"}).find("xx"),
            std::string::npos);
  EXPECT_NE(
      parse_error_text({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "v0", "nud", "odd"})
          .find("odd"),
      std::string::npos);
}

TEST(IpNetns, Forms) {
  EXPECT_EQ(parse_ok({"netns"}).verb, verb_named("netns list"));
  EXPECT_EQ(parse_ok({"netns", "list"}).verb, verb_named("netns list"));
  EXPECT_EQ(parse_ok({"netns", "add", "blue"}).name, "blue");
  EXPECT_EQ(parse_ok({"netns", "del", "blue"}).verb, verb_named("netns del"));
  auto e = parse_ok({"netns", "exec", "blue", "ip", "-j", "link"});
  EXPECT_EQ(e.verb, verb_named("netns exec"));
  EXPECT_EQ(e.exec_argv, (Words{"ip", "-j", "link"}));
  EXPECT_NE(parse_error_text({"netns", "add"}).find("name"), std::string::npos);
  EXPECT_EQ(parse_error_text({"netns", "add", "../x"}),
            "Invalid netns name \"../x\"");  // ip's words, exactly
  EXPECT_EQ(parse_error_text({"netns", "add", ".."}), "Invalid netns name \"..\"");
  EXPECT_NE(parse_error_text({"netns", "add", "a", "b"}).find("garbage"), std::string::npos);
  EXPECT_NE(parse_error_text({"netns", "exec", "blue"}).find("command"), std::string::npos);
  EXPECT_NE(parse_error_text({"netns", "add", std::string(300, 'x')}).find("Invalid netns name"),
            std::string::npos);
}

// list-id's two ids, by ip's abbreviations; list and monitor read no more words.
TEST(IpNetns, ListIdAndMonitor) {
  auto l = parse_ok({"netns", "list-id", "target-nsid", "3", "nsid", "0x10"});
  EXPECT_EQ(l.verb, verb_named("netns list id"));
  EXPECT_EQ(l.target_nsid, 3);
  EXPECT_EQ(l.nsid, 16);
  EXPECT_FALSE(l.mutates());
  auto all = parse_ok({"netns", "list-"});
  EXPECT_EQ(all.verb, verb_named("netns list id"));
  EXPECT_FALSE(all.nsid || all.target_nsid);
  EXPECT_EQ(parse_ok({"netns", "li"}).verb, verb_named("netns list"));  // list comes first
  EXPECT_EQ(parse_ok({"netns", "list", "x"}).verb, verb_named("netns list"));
  EXPECT_EQ(parse_ok({"netns", "mon"}).verb, verb_named("netns monitor"));
  EXPECT_EQ(parse_ok({"netns", "monitor", "x"}).verb, verb_named("netns monitor"));
  EXPECT_EQ(parse_error_text({"netns", "list-id", "nsid", "x"}),
            "Error: argument \"x\" is wrong: \"nsid\" value is invalid");
  EXPECT_EQ(parse_error_text({"netns", "list-id", "nsid", "-1"}),
            "Error: argument \"(null)\" is wrong: \"nsid\" value should be >= 0");
  EXPECT_EQ(parse_error_text({"netns", "list-id", "target-nsid", "-1", "nsid"}),
            "Error: argument \"nsid\" is wrong: \"target-nsid\" value should be >= 0");
  EXPECT_EQ(parse_error_text({"netns", "list-id", "nsid", "1", "nsid", "2"}),
            "Error: duplicate \"nsid\": \"nsid\" is the second value.");
  EXPECT_NE(parse_error_text({"netns", "list-id", "nsid"}).find("not complete"), std::string::npos);
  EXPECT_NE(parse_error_text({"netns", "list-id", "pid", "1"}).find("Usage: brisk netns"), std::string::npos);
  EXPECT_EQ(parse_error_text({"netns", "list", "a/b"}), "Invalid netns name \"a/b\"");
}

TEST(IpFdb, Forms) {
  auto f = parse_ok({"fdb", "add", "02:00:00:00:00:09", "dev", "v1", "master", "static", "vlan", "5"});
  ASSERT_EQ(f.verb, verb_named("fdb add"));
  EXPECT_EQ(f.fdb().lladdr, "02:00:00:00:00:09");
  EXPECT_TRUE(f.fdb().master);
  EXPECT_FALSE(f.fdb().self);
  EXPECT_EQ(f.fdb().state, NUD_NOARP);
  EXPECT_EQ(f.fdb().vlan, 5);
  // bridge fdb's default is the device's own table.
  auto s = parse_ok({"fdb", "add", "00:00:00:00:00:00", "dev", "vx0", "dst", "192.0.2.1"});
  EXPECT_TRUE(s.fdb().self);
  EXPECT_FALSE(s.fdb().master);
  EXPECT_EQ(s.fdb().dst, "192.0.2.1");
  EXPECT_EQ(parse_ok({"fdb", "del", "02:00:00:00:00:09", "dev", "v1", "master"}).verb, verb_named("fdb del"));
  EXPECT_EQ(parse_ok({"fdb", "show", "br", "br0"}).filter().master, "br0");
  EXPECT_NE(parse_error_text({"fdb", "show"}).find("br"), std::string::npos);
  EXPECT_NE(parse_error_text({"fdb", "add", "dev", "v1"}).find("lladdr"), std::string::npos);
  EXPECT_NE(parse_error_text({"fdb", "add", "02:00:00:00:00:09"}).find("dev"), std::string::npos);
  EXPECT_NE(parse_error_text({"fdb", "add", "nomac", "dev", "v1"}).find("nomac"), std::string::npos);
  EXPECT_NE(parse_error_text({"fdb", "add", "02:00:00:00:00:09", "dev", "v1", "vlan", "4095"}).find("vlan"),
            std::string::npos);
}

TEST(IpBatchSplit, CommentsQuotesContinuations) {
  auto lines = split_batch(
      "link add v0 type veth peer name v1\n"
      "\n"
      "   # a comment line\n"
      "link set v0 up # trailing comment\n"
      "link set v0 alias \"two words\" \n"
      "link set v0 alias 'single quoted'\n"
      "addr add 10.0.0.1/24 \\\n"
      "  dev v0\n"
      "\t\r\n"
      "link show");
  ASSERT_TRUE(lines) << lines.error().message;
  ASSERT_EQ(lines->size(), 6u);
  EXPECT_EQ((*lines)[0].line, 1);
  EXPECT_EQ((*lines)[0].args.size(), 8u);
  EXPECT_EQ((*lines)[1].line, 4);
  EXPECT_EQ((*lines)[1].args, (Words{"link", "set", "v0", "up"}));
  EXPECT_EQ((*lines)[2].args, (Words{"link", "set", "v0", "alias", "two words"}));
  EXPECT_EQ((*lines)[3].args, (Words{"link", "set", "v0", "alias", "single quoted"}));
  EXPECT_EQ((*lines)[4].line, 8);  // a continued command is numbered by its last line, as ip does
  EXPECT_EQ((*lines)[4].args, (Words{"addr", "add", "10.0.0.1/24", "dev", "v0"}));
  EXPECT_EQ((*lines)[5].line, 10);
  // Where each command's text ends (what a `rule restore` there reads after it).
  EXPECT_EQ((*lines)[0].end, 35u);
  EXPECT_EQ((*lines)[4].end,
            std::string_view("link add v0 type veth peer name v1\n\n   # a comment line\n"
                             "link set v0 up # trailing comment\nlink set v0 alias \"two words\" \n"
                             "link set v0 alias 'single quoted'\naddr add 10.0.0.1/24 \\\n  dev v0\n")
                .size());
  EXPECT_EQ((*lines)[5].end, (*lines)[4].end + 3 + 9) << "the last, without a newline: the end of the text";
}

TEST(IpBatchSplit, Errors) {
  auto unterminated = split_batch("link show\nlink set v0 alias \"oops\n");
  ASSERT_FALSE(unterminated);
  EXPECT_EQ(unterminated.error().line, 2);
  auto dangling = split_batch("link show \\\n");
  ASSERT_FALSE(dangling);
  EXPECT_EQ(dangling.error().line, 1);
  auto empty = split_batch("");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  auto only_comments = split_batch("# nothing\n\n   \n");
  ASSERT_TRUE(only_comments);
  EXPECT_TRUE(only_comments->empty());
}

TEST(IpErrors, FormatAddsTheFinalPeriodOnce) {
  EXPECT_EQ(format_error("no such thing"), "Error: no such thing.");
  EXPECT_EQ(format_error("done."), "Error: done.");
}

}  // namespace
}  // namespace brisk::ipcli
