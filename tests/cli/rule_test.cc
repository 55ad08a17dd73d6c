// ip rule: the parser's keywords and errors, and golden comparisons with ip
// 6.1: every line's output, stderr and status, and batch end states.
#include <gtest/gtest.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpRuleGrammar, EveryKeyword) {
  auto r = ok({"rule",
               "add",
               "not",
               "from",
               "10.1.0.0/16",
               "to",
               "10.2.0.0/16",
               "tos",
               "10",
               "fwmark",
               "0x10/0xff",
               "iif",
               "v0",
               "oif",
               "v1",
               "pref",
               "200",
               "lookup",
               "300",
               "suppress_prefixlength",
               "8",
               "suppress_ifgroup",
               "3",
               "uidrange",
               "10-20",
               "ipproto",
               "tcp",
               "sport",
               "80",
               "dport",
               "1000-2000",
               "protocol",
               "static",
               "realms",
               "1/2",
               "tun_id",
               "7"});
  EXPECT_EQ(r.verb, verb_named("rule add"));
  EXPECT_TRUE(r.mutates());
  const auto& s = r.rule();
  EXPECT_EQ(s.family, AF_INET);
  EXPECT_TRUE(s.invert);
  EXPECT_EQ(s.from, "10.1.0.0/16");
  EXPECT_EQ(s.to, "10.2.0.0/16");
  EXPECT_EQ(s.tos, 0x10);  // hexadecimal, as ip reads a DS field
  EXPECT_EQ(s.fwmark, 0x10u);
  EXPECT_EQ(s.fwmask, 0xffu);
  EXPECT_EQ(s.iif, "v0");
  EXPECT_EQ(s.oif, "v1");
  EXPECT_EQ(s.priority, 200u);
  EXPECT_EQ(s.table, 300u);
  EXPECT_EQ(s.suppress_prefixlength, 8);
  EXPECT_EQ(s.suppress_ifgroup, 3u);
  EXPECT_EQ(s.uid_range, (netlink::UidRange{10, 20}));
  EXPECT_EQ(s.ip_proto, 6);
  EXPECT_EQ(s.sport, (netlink::PortRange{80, 80}));
  EXPECT_EQ(s.dport, (netlink::PortRange{1000, 2000}));
  EXPECT_EQ(s.protocol, RTPROT_STATIC);
  EXPECT_EQ(s.realms, (1u << 16) | 2u);
  EXPECT_EQ(s.tun_id, 7u);
  EXPECT_EQ(s.action, FR_ACT_TO_TBL);

  // The defaults of an add: main table, look it up; none for a delete.
  auto bare = ok({"rule", "add", "from", "10.0.0.0/8"});
  EXPECT_EQ(bare.rule().table, uint32_t(RT_TABLE_MAIN));
  EXPECT_EQ(bare.rule().action, FR_ACT_TO_TBL);
  auto del = ok({"rule", "del", "pref", "5"});
  EXPECT_EQ(del.verb, verb_named("rule del"));
  EXPECT_FALSE(del.rule().table);
  EXPECT_EQ(del.rule().action, FR_ACT_UNSPEC);
  // An action leaves the table unset, with or without "type".
  for (const Words& w : {Words{"rule", "add", "blackhole"}, Words{"rule", "add", "type", "blackhole"},
                         Words{"rule", "add", "black"}}) {
    auto b = ok(w);
    EXPECT_EQ(b.rule().action, FR_ACT_BLACKHOLE) << ::testing::PrintToString(w);
    EXPECT_FALSE(b.rule().table);
  }
  EXPECT_EQ(ok({"rule", "add", "goto", "400"}).rule().goto_target, 400u);
  EXPECT_EQ(ok({"rule", "add", "nop"}).rule().action, FR_ACT_NOP);
  EXPECT_EQ(ok({"rule", "add", "unreachable"}).rule().action, FR_ACT_UNREACHABLE);
  EXPECT_EQ(ok({"rule", "add", "prohibit"}).rule().action, FR_ACT_PROHIBIT);
  EXPECT_TRUE(ok({"rule", "add", "l3mdev"}).rule().l3mdev);
  EXPECT_FALSE(ok({"rule", "add", "l3mdev"}).rule().table);
  // pref, order and priority, by any prefix; table by name; tos by name.
  for (const char* key : {"pref", "preference", "order", "prio", "priority"})
    EXPECT_EQ(ok({"rule", "add", key, "0x20"}).rule().priority, 0x20u) << key;
  EXPECT_EQ(ok({"rule", "add", "table", "local"}).rule().table, uint32_t(RT_TABLE_LOCAL));
  EXPECT_EQ(ok({"rule", "add", "tos", "AF11"}).rule().tos, 0x28);
  EXPECT_EQ(ok({"rule", "add", "from", "fd00::/64"}, Globals{.family = AF_INET6}).rule().family, AF_INET6);
  // "from all" is the whole space.
  EXPECT_EQ(ok({"rule", "add", "from", "all", "table", "5"}).rule().from, "");
}

TEST(IpRuleGrammar, Selectors) {
  auto s = ok({"rule",   "show",     "pref",   "5",      "not", "from",     "10.0.0.0/8", "10.2.0.0/16",
               "tos",    "0",        "fwmark", "3",      "iif", "v0",       "oif",        "v1",
               "l3mdev", "uidrange", "1-2",    "tun_id", "9",   "table",    "main",       "ipproto",
               "udp",    "sport",    "53",     "dport",  "1-2", "protocol", "static"});
  EXPECT_EQ(s.verb, verb_named("rule show"));
  EXPECT_FALSE(s.mutates());
  EXPECT_EQ(s.rule().priority, 5u);
  EXPECT_TRUE(s.rule().invert);
  EXPECT_TRUE(s.filter().rule_from_filter);
  EXPECT_EQ(s.rule().from, "10.0.0.0/8");
  EXPECT_TRUE(s.filter().rule_to_filter);
  EXPECT_EQ(s.rule().to, "10.2.0.0/16");  // a bare prefix is the destination
  EXPECT_EQ(s.filter().rule_tos_filter, 0);
  EXPECT_EQ(s.rule().table, uint32_t(RT_TABLE_MAIN));
  EXPECT_EQ(s.rule().protocol, RTPROT_STATIC);
  EXPECT_FALSE(ok({"rule", "flush", "protocol", "all"}).rule().protocol);
  EXPECT_EQ(ok({"rule"}).verb, verb_named("rule show"));
  for (const char* verb : {"list", "lst", "show", "s", "l"})
    EXPECT_EQ(ok({"rule", verb}).verb, verb_named("rule show"));
  EXPECT_EQ(ok({"rule", "flush"}).verb, verb_named("rule flush"));
  EXPECT_FALSE(ok({"rule", "flush"}).mutates());
  EXPECT_EQ(ok({"ru", "add", "nop"}).verb, verb_named("rule add"));  // "r" is route, "ru" rule
  EXPECT_EQ(ok({"r"}).verb, verb_named("route show"));
}

TEST(IpRuleGrammar, Errors) {
  struct Case {
    Words words;
    std::string message;
    int exit_code;
  };
  for (const auto& c : std::vector<Case>{
           {{"rule", "add"}, "\"ip rule add\" requires arguments.", 1},
           {{"rule", "del"}, "\"ip rule del\" requires arguments.", 1},
           {{"rule", "add", "from", "foo"}, "Error: any valid prefix is expected rather than \"foo\".", 1},
           {{"rule", "add", "pref", "abc"},
            "Error: argument \"abc\" is wrong: preference value is invalid\n",
            255},
           {{"rule", "add", "pref", "4294967296"},
            "Error: argument \"4294967296\" is wrong: preference value is invalid\n",
            255},
           {{"rule", "add", "fwmark", "1/x"},
            "Error: argument \"x\" is wrong: fwmask value is invalid\n",
            255},
           {{"rule", "add", "fwmark", "y"}, "Error: argument \"y\" is wrong: fwmark value is invalid\n", 255},
           {{"rule", "add", "tos", "zz"}, "Error: argument \"zz\" is wrong: TOS value is invalid\n", 255},
           {{"rule", "add", "uidrange", "5"}, "Error: argument \"5\" is wrong: invalid UID range\n", 255},
           {{"rule", "add", "sport", "a-b"}, "Error: argument \"a-b\" is wrong: invalid port range\n", 255},
           {{"rule", "add", "dport", "x"}, "Error: argument \"x\" is wrong: invalid dport range\n", 255},
           {{"rule", "add", "ipproto", "nosuch"},
            "Error: argument \"nosuch\" is wrong: Invalid \"ipproto\" value\n",
            255},
           {{"rule", "add", "table", "nosuch"},
            "Error: argument \"nosuch\" is wrong: invalid table ID\n",
            255},
           {{"rule", "add", "goto", "x"}, "Error: argument \"x\" is wrong: invalid target\n", 255},
           {{"rule", "add", "protocol", "x"},
            "Error: argument \"x\" is wrong: \"protocol\" value is invalid\n",
            255},
           {{"rule", "add", "suppress_prefixlength", "-1"},
            "Error: argument \"-1\" is wrong: suppress_prefixlength value is invalid\n",
            255},
           {{"rule", "add", "suppress_ifgroup", "nosuch"},
            "Error: argument \"nosuch\" is wrong: Invalid \"suppress_ifgroup\" value\n",
            255},
           {{"rule", "add", "iif", "a/b"},
            "Error: argument \"a/b\" is wrong: \"iif\"/\"dev\" not a valid ifname",
            255},
           {{"rule", "add", "oif", "0123456789abcdef"},
            "Error: argument \"0123456789abcdef\" is wrong: \"oif\" not a valid ifname",
            255},
           {{"rule", "add", "realms", "x/y"}, "Error: argument \"x/y\" is wrong: invalid realms\n", 255},
           {{"rule", "add", "foo"}, "Error: argument \"foo\" is wrong: Failed to parse rule type", 255},
           {{"rule", "add", "nat", "foo"},
            "Warning: route NAT is deprecated\nError: an IP address is expected rather than \"foo\"",
            1},
           {{"rule", "add", "l3mdev", "table", "5"}, "table can not be specified for l3mdev rules", EINVAL},
           {{"rule", "bogus"}, "Command \"bogus\" is unknown, try \"brisk rule help\".", 255},
           {{"rule", "show", "pref", "x"},
            "Error: argument \"x\" is wrong: preference value is invalid\n",
            255},
           {{"rule", "show", "from", "fd00::/64"},
            "Error: inet prefix is expected rather than \"fd00::/64\".",
            1},
           {{"rule", "show", "lookup", "x"},
            "Error: argument \"x\" is wrong: table id value is invalid\n",
            255},
           {{"rule", "show", "protocol", "x"}, "Error: argument \"x\" is wrong: invalid \"protocol\"\n", 255},
       }) {
    auto e = error_of(c.words);
    EXPECT_EQ(format_error(e.message, e.exact), c.message) << ::testing::PrintToString(c.words);
    EXPECT_EQ(e.exit_code, c.exit_code) << ::testing::PrintToString(c.words);
  }
  // A keyword without its value.
  auto incomplete = error_of({"rule", "add", "pref"});
  EXPECT_EQ(incomplete.exit_code, 255);
  // Help is the rule grammar.
  auto help = error_of({"rule", "help"});
  EXPECT_TRUE(help.help);
  EXPECT_NE(help.message.find("suppress_prefixlength"), std::string::npos);
}

class IpRuleGolden : public cli_test::CliNetnsTest {};

// Each line through ip in one namespace and brisk in another: the same
// stdout, stderr and status, line after line, so every show also compares
// the state the lines before it left.
TEST_F(IpRuleGolden, EveryLineAsIpRunsIt) {
  UniqueFd ip_ns = brisk::test::make_netns();
  ASSERT_TRUE(ip_ns.valid());
  const std::vector<Words> lines = {
      {"rule"},
      {"-j", "rule"},
      {"-6", "rule"},
      {"rule", "add", "from", "10.0.0.0/8", "table", "100"},
      {"rule", "add", "from", "fd00::/64", "table", "100"},  // IPv4 without -6: the kernel refuses
      {"rule", "del", "pref", "5000"},
      {"rule",      "add",        "not",    "from",      "1.2.3.4",
       "to",        "5.6.7.0/24", "tos",    "10",        "fwmark",
       "0x10/0xff", "iif",        "lo",     "oif",       "eth0",
       "pref",      "200",        "lookup", "200",       "suppress_prefixlength",
       "0",         "uidrange",   "10-20",  "ipproto",   "tcp",
       "sport",     "80",         "dport",  "1000-2000", "protocol",
       "static"},
      {"rule", "add", "pref", "300", "blackhole"},
      {"rule", "add", "pref", "301", "goto", "400"},
      {"rule", "add", "pref", "302", "nop"},
      {"rule", "add", "pref", "303", "realms", "1/2", "table", "5"},
      {"rule", "add", "pref", "304", "fwmark", "5", "unreachable"},
      {"rule", "add", "prohibit", "pref", "305", "tun_id", "7"},
      {"rule", "add", "pref", "306", "suppress_ifgroup", "3", "table", "main"},
      {"rule", "add", "pref", "307", "l3mdev"},
      {"rule", "add", "to", "1.2.3.4"},
      {"rule", "add", "tos", "1", "table", "1"},  // ECN bits: the kernel's ext-ack text
      {"rule", "add", "nat", "1.2.3.4"},
      {"rule", "add", "ipproto", "udp", "dport", "53", "pref", "400", "table", "10"},
      {"rule", "add", "ipproto", "250", "pref", "401"},
      {"rule", "add", "from", "10.1.0.0/16", "to", "10.2.0.0/16", "pref", "402", "table", "1000"},
      {"rule", "add", "pref", "403", "fwmark", "0", "table", "7"},
      {"rule", "add", "pref", "404", "fwmark", "0/0xffffffff", "table", "7"},
      {"rule", "add", "pref", "405", "tos", "AF11", "table", "8"},
      {"rule", "add", "pref", "406", "realms", "cosmos", "table", "8"},
      {"rule", "add", "pref", "407", "realms", "3", "table", "8"},
      {"rule", "add", "pref", "409", "type", "unreachable"},
      {"rule", "add", "pref", "410", "protocol", "99", "table", "9"},
      {"rule", "add", "pref", "300", "blackhole"},  // the same rule again: File exists
      {"rule"},
      {"-j", "rule"},
      {"-j", "-p", "rule"},
      {"-d", "rule"},
      {"-d", "-j", "rule"},
      {"rule", "show", "table", "200"},
      {"rule", "show", "5.6.7.0/24"},
      {"rule", "show", "from", "10.0.0.0/8"},
      {"rule", "show", "from", "10.1.0.0/16"},
      {"rule", "show", "to", "10.2.0.0/16"},
      {"rule", "show", "pref", "402"},
      {"rule", "show", "not"},
      {"rule", "show", "tos", "10"},
      {"rule", "show", "fwmark", "0x10/0xff"},
      {"rule", "show", "iif", "lo"},
      {"rule", "show", "oif", "eth0"},
      {"rule", "show", "l3mdev"},
      {"rule", "show", "uidrange", "10-20"},
      {"rule", "show", "ipproto", "tcp"},
      {"rule", "show", "sport", "80"},
      {"rule", "show", "dport", "1000-2000"},
      {"rule", "show", "tun_id", "7"},
      {"rule", "show", "table", "main"},
      {"rule", "show", "lookup", "1000"},
      {"rule", "show", "protocol", "static"},
      {"rule", "del", "pref", "300"},
      {"rule", "del", "pref", "999"},
      {"rule", "del", "from", "10.1.0.0/16", "to", "10.2.0.0/16"},
      {"rule", "del", "table", "1000"},
      {"-6", "rule", "add", "from", "fd00::/64", "table", "100", "pref", "100"},
      {"-6", "rule", "add", "to", "fd01::1", "table", "101"},
      {"-6", "rule", "add", "from", "10.0.0.0/8", "table", "100"},
      {"-6", "rule"},
      {"-6", "-j", "rule"},
      {"rule", "flush", "protocol", "static"},
      {"rule"},
      {"rule", "flush", "table", "8"},
      {"rule"},
      {"-6", "rule", "flush"},
      {"-6", "rule"},
      {"rule", "flush"},
      {"rule"},
      {"-j", "rule"},
  };
  for (const auto& line : lines) {
    auto theirs = ip_run(line, ip_ns.get());
    auto ours = brisk_run(line, ns());
    EXPECT_EQ(ours.out, theirs.out) << ::testing::PrintToString(line);
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(line);
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(line);
  }
}

// A batch of rule lines with a failure in the middle: the same status,
// messages and end state as ip -batch, with and without -force.
TEST_F(IpRuleGolden, BatchStopsOrGoesOnAsIpDoes) {
  const std::string text =
      "rule add pref 100 from 10.1.0.0/16 table 10\n"
      "rule add pref 101 to 10.2.0.0/16 table 11\n"
      "rule add pref 102 from 10.3.0.0/16 table 12 protocol static\n"
      "rule add pref 100 from 10.1.0.0/16 table 10\n"  // exists
      "rule add pref 103 fwmark 3 table 13\n"
      "rule del pref 999\n"  // no such rule
      "rule add pref 104 blackhole\n"
      "rule del pref 101\n"
      "rule add pref 105 not to 10.5.0.0/16 lookup 15\n";
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/rules.batch";
  cli_test::write_file(file, text);
  for (bool force : {false, true}) {
    UniqueFd ip_ns = brisk::test::make_netns(), brisk_ns = brisk::test::make_netns();
    Words args = force ? Words{"-force", "-batch", file} : Words{"-batch", file};
    auto theirs = ip_run(args, ip_ns.get());
    auto ours = brisk_run(args, brisk_ns.get());
    EXPECT_EQ(ours.code, theirs.code) << "force " << force;
    EXPECT_EQ(ours.err, theirs.err) << "force " << force;
    for (const Words& show : {Words{"rule"}, Words{"-6", "rule"}})
      EXPECT_EQ(ip_run(show, brisk_ns.get()).out, ip_run(show, ip_ns.get()).out) << "force " << force;
  }
}

}  // namespace
}  // namespace brisk::ipcli
