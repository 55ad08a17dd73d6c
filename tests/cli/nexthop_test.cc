// ip nexthop: the grammar (add, replace, del, show, get, flush and their
// errors, as ip 6.1's ipnexthop.c reads them), then brisk against ip in twin
// throwaway namespaces: shows, changes and their end state, and batches.
#include <gtest/gtest.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include <regex>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpNexthopGrammar, VerbsAndObjectName) {
  EXPECT_EQ(ok({"nexthop"}).verb, verb_named("nexthop show"));
  EXPECT_EQ(ok({"nex", "show"}).verb, verb_named("nexthop show"));
  EXPECT_EQ(ok({"nexthop", "lst"}).verb, verb_named("nexthop show"));
  EXPECT_EQ(ok({"nexthop", "a", "id", "1", "blackhole"}).verb, verb_named("nexthop add"));
  EXPECT_EQ(ok({"nexthop", "r", "id", "1", "blackhole"}).verb, verb_named("nexthop replace"));
  EXPECT_EQ(ok({"nexthop", "d", "id", "1"}).verb, verb_named("nexthop del"));
  EXPECT_EQ(ok({"nexthop", "f"}).verb, verb_named("nexthop flush"));
  EXPECT_TRUE(ok({"nexthop", "add", "id", "1", "blackhole"}).mutates());
  EXPECT_FALSE(ok({"nexthop", "flush"}).mutates()) << "a dump, then its deletes";
  EXPECT_EQ(ok({"ne"}).verb, verb_named("neigh show")) << "ip's table: neigh before nexthop";
  auto unknown = error_of({"nexthop", "foo"});
  EXPECT_EQ(unknown.message, "Command \"foo\" is unknown, try \"brisk nexthop help\".");
  EXPECT_EQ(unknown.exit_code, 255);
  for (const Words& help :
       {Words{"nexthop", "help"}, Words{"nexthop", "get"}, Words{"nexthop", "get", "id", "1", "dev", "v0"},
        Words{"nexthop", "add", "id", "1", "help"}, Words{"nexthop", "show", "help"}})
    EXPECT_TRUE(error_of(help).help) << ::testing::PrintToString(help);
  for (const char* shown : {"brisk nexthop { add | replace } id ID NH", "group GROUP [ fdb ]", "resilient"})
    EXPECT_NE(error_of({"nexthop", "help"}).message.find(shown), std::string::npos) << shown;
}

TEST(IpNexthopGrammar, AddReadsWhatIpSends) {
  auto gw = ok({"nexthop", "add", "id", "7", "via", "10.0.0.1", "dev", "v0", "onlink", "proto", "static"})
                .nexthop();
  EXPECT_EQ(gw.id, 7u);
  EXPECT_EQ(gw.via, "10.0.0.1");
  EXPECT_EQ(gw.dev, "v0");
  EXPECT_EQ(gw.family, AF_INET);
  EXPECT_TRUE(gw.onlink);
  EXPECT_EQ(gw.protocol, RTPROT_STATIC);
  EXPECT_EQ(ok({"nexthop", "add", "id", "7", "via", "fd00::1", "dev", "v0"}).nexthop().family, AF_INET6);
  EXPECT_EQ(ok({"nexthop", "add", "id", "7", "via", "inet6", "fd00::1"}).nexthop().family, AF_INET6);
  EXPECT_EQ(ok({"nexthop", "add", "id", "7", "dev", "v0"}).nexthop().family, AF_INET)
      << "a device alone is inet";
  EXPECT_EQ(ok({"nexthop", "add", "id", "7", "blackhole"}).nexthop().family, AF_INET);
  Globals v6;
  v6.family = AF_INET6;
  EXPECT_EQ(ok({"nexthop", "add", "id", "7", "blackhole"}, v6).nexthop().family, AF_INET6);
  EXPECT_EQ(ok({"nexthop", "add", "id", "010", "dev", "v0"}).nexthop().id, 8u) << "strtoul's bases";
  EXPECT_EQ(ok({"nexthop", "add", "id", "0x20", "dev", "v0"}).nexthop().id, 32u);
  EXPECT_FALSE(ok({"nexthop", "add", "via", "10.0.0.1", "dev", "v0"}).nexthop().id) << "the kernel picks one";

  auto group = ok({"nexthop", "add", "id", "10", "group", "1/4,5/0x9,256", "fdb"}).nexthop();
  ASSERT_EQ(group.group.size(), 3u);
  EXPECT_EQ(group.group[0], (netlink::NexthopGroupMember{.id = 1, .weight = 1}));
  EXPECT_EQ(group.group[1], (netlink::NexthopGroupMember{.id = 4, .weight = 5}));
  EXPECT_EQ(group.group[2], (netlink::NexthopGroupMember{.id = 9, .weight = 256}));
  EXPECT_EQ(group.family, AF_UNSPEC);
  EXPECT_TRUE(group.fdb);
  EXPECT_FALSE(group.group_type);

  auto res = ok({"nexthop", "add", "id", "11", "group", "1/2", "type", "resilient", "buckets", "32",
                 "idle_timer", "10", "unbalanced_timer", "3", "proto", "99"})
                 .nexthop();
  EXPECT_EQ(res.group_type, NEXTHOP_GRP_TYPE_RES);
  EXPECT_EQ(res.buckets, 32);
  EXPECT_EQ(res.idle_timer, 1000u) << "seconds sent in clock ticks";
  EXPECT_EQ(res.unbalanced_timer, 300u);
  EXPECT_EQ(res.protocol, 99) << "the word after the resilient arguments is read again";
  EXPECT_EQ(ok({"nexthop", "add", "id", "11", "group", "1", "type", "mpath"}).nexthop().group_type,
            NEXTHOP_GRP_TYPE_MPATH);
}

TEST(IpNexthopGrammar, BadValuesGetIpsTexts) {
  struct Case {
    Words words;
    std::string message;
    int exit_code;
  };
  for (const auto& [words, message, exit_code] : std::vector<Case>{
           {{"nexthop", "add", "id", "abc", "dev", "v0"},
            "Error: argument \"abc\" is wrong: invalid id value",
            255},
           {{"nexthop", "add", "id", "4294967296"},
            "Error: argument \"4294967296\" is wrong: invalid id value",
            255},
           {{"nexthop", "add", "id", "5", "group", "1,0"},
            "Error: argument \"0\" is wrong: \"weight\" is invalid\n",
            255},
           {{"nexthop", "add", "id", "5", "group", "1,257"},
            "Error: argument \"257\" is wrong: \"weight\" is invalid\n",
            255},
           {{"nexthop", "add", "id", "5", "group", "x"},
            "Error: argument \"x\" is wrong: \"group\" value is invalid\n",
            255},
           // ip cuts the word at its separators as it reads: what is left is named.
           {{"nexthop", "add", "id", "5", "group", "1,2/x"},
            "Error: argument \"1\" is wrong: \"group\" value is invalid\n",
            255},
           {{"nexthop", "add", "id", "5", "group", "4/"},
            "Error: argument \"4\" is wrong: \"group\" value is invalid\n",
            255},
           {{"nexthop", "add", "id", "5", "group"}, "Command line is not complete. Try option \"help\"", 255},
           {{"nexthop", "add", "id", "5", "type", "foo"},
            "Error: argument \"foo\" is wrong: \"type\" value is invalid\n",
            255},
           {{"nexthop", "add", "id", "5", "group", "1", "type", "resilient", "buckets", "70000"},
            "Error: argument \"70000\" is wrong: invalid buckets value",
            255},
           {{"nexthop", "add", "id", "5", "group", "1", "type", "resilient", "idle_timer", "42949673"},
            "Error: argument \"42949673\" is wrong: invalid idle timer value",
            255},
           {{"nexthop", "add", "id", "5", "group", "1", "type", "resilient", "unbalanced_timer", "x"},
            "Error: argument \"x\" is wrong: invalid unbalanced timer value",
            255},
           {{"nexthop", "add", "id", "5", "bogus"}, "Error: argument \"bogus\" is wrong: ", 255},
           {{"nexthop", "add", "id", "5", "dev", "v0", "proto", "foo"},
            "Error: argument \"foo\" is wrong: \"protocol\" value is invalid\n",
            255},
           {{"nexthop", "add", "id", "5", "via", "zz"},
            "Error: any valid address is expected rather than \"zz\".",
            1},
           {{"nexthop", "add", "id", "5", "via", "inet", "zz"},
            "Error: inet address is expected rather than \"zz\".",
            1},
           // A device first makes the family inet, so an IPv6 gateway is refused, as by ip.
           {{"nexthop", "add", "id", "5", "dev", "v0", "via", "fd00::1"},
            "Error: inet address is expected rather than \"fd00::1\".",
            1},
           {{"nexthop", "add", "id", "5", "dev", "v0", "via", "inet6", "fd00::1"},
            "Error: argument \"fd00::1\" is wrong: address family mismatch\n",
            255},
           {{"nexthop", "show", "proto", "static"},
            "Error: argument \"static\" is wrong: invalid protocol value",
            255},
           {{"nexthop", "show", "bogus"}, "Error: argument \"bogus\" is wrong: ", 255},
       }) {
    auto e = error_of(words);
    EXPECT_EQ(e.message, message) << ::testing::PrintToString(words);
    EXPECT_EQ(e.exit_code, exit_code) << ::testing::PrintToString(words);
  }
}

TEST(IpNexthopGrammar, SelectorsAndId) {
  auto s = ok({"nexthop", "show", "d", "v0", "g", "m", "br0", "p", "4", "f"});
  EXPECT_EQ(s.filter().dev, "v0");
  EXPECT_TRUE(s.filter().nexthop_groups);
  EXPECT_EQ(s.filter().master, "br0");
  EXPECT_EQ(s.filter().nexthop_protocol, 4u);
  EXPECT_TRUE(s.filter().nexthop_fdb);
  EXPECT_EQ(ok({"nexthop", "show", "vrf", "blue"}).filter().vrf, "blue");
  // `id` ends the selectors: what follows it is not read, as in ip.
  auto one = ok({"nexthop", "flush", "id", "4", "whatever"});
  EXPECT_EQ(one.verb, verb_named("nexthop flush"));
  EXPECT_EQ(one.nexthop().id, 4u);
  EXPECT_EQ(ok({"nexthop", "get", "id", "11"}).nexthop().id, 11u);
  Globals v6;
  v6.family = AF_INET6;
  EXPECT_EQ(ok({"nexthop", "show"}, v6).family, AF_INET6);
}

TEST(IpNexthopGrammar, Buckets) {
  auto all = ok({"nexthop", "bucket"});
  EXPECT_EQ(all.verb, verb_named("nexthop bucket show"));
  EXPECT_FALSE(all.mutates());
  auto list = ok({"nexthop", "b", "lst", "id", "11", "nhid", "2", "d", "v0"});
  EXPECT_EQ(list.nexthop().id, 11u);
  EXPECT_EQ(list.filter().nexthop_bucket_nhid, 2u);
  EXPECT_EQ(list.filter().dev, "v0");
  auto get = ok({"nexthop", "bucket", "get", "id", "11", "index", "0x3"});
  EXPECT_EQ(get.filter().nexthop_bucket_index, 3);
  EXPECT_EQ(error_of({"nexthop", "bucket", "get", "id", "11", "index", "70000"}).message,
            "Error: argument \"70000\" is wrong: invalid bucket index value");
  for (const Words& help :
       {Words{"nexthop", "bucket", "get", "id", "11"}, Words{"nexthop", "bucket", "get", "index", "1"},
        Words{"nexthop", "bucket", "help"}})
    EXPECT_TRUE(error_of(help).help) << ::testing::PrintToString(help);
  EXPECT_EQ(error_of({"nexthop", "bucket", "show", "bogus"}).message, "Error: argument \"bogus\" is wrong: ");
  EXPECT_EQ(error_of({"nexthop", "bucket", "foo"}).message,
            "Command \"foo\" is unknown, try \"brisk nexthop help\".");
}

// Twin namespaces with gateways of both families, a blackhole, groups of
// both types, fdb nexthops and a route through a group.
class IpNexthopGolden : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    if (ip_run({"nexthop", "show"}, ns()).code != 0) GTEST_SKIP() << "this kernel has no nexthop objects";
    make_twin(setup());
  }
  static std::vector<Words> setup() {
    return {{"link", "set", "lo", "up"},
            {"link", "add", "v0", "type", "veth", "peer", "name", "v1"},
            {"link", "set", "v0", "up"},
            {"link", "set", "v1", "up"},
            {"addr", "add", "10.0.0.2/24", "dev", "v0"},
            {"addr", "add", "2001:db8::2/64", "dev", "v0", "nodad"},
            {"nexthop", "add", "id", "1", "via", "10.0.0.1", "dev", "v0"},
            {"nexthop", "add", "id", "2", "via", "2001:db8::1", "dev", "v0"},
            {"nexthop", "add", "id", "3", "blackhole"},
            {"nexthop", "add", "id", "4", "dev", "v0"},
            {"nexthop", "add", "id", "10", "group", "1/4,5"},
            {"nexthop", "add", "id", "11", "group", "1,3/4", "type", "resilient", "buckets", "32",
             "idle_timer", "10"},
            {"nexthop", "add", "id", "12", "via", "10.0.0.9", "dev", "v0", "onlink", "proto", "static"},
            {"nexthop", "add", "id", "22", "fdb", "via", "10.0.0.3"},
            {"nexthop", "add", "id", "23", "group", "22", "fdb"},
            {"route", "add", "10.9.0.0/16", "nhid", "10"}};
  }
  void expect_same_state(const std::string& context) {
    for (const Words& show : {Words{"-d", "nexthop", "show"}, Words{"route", "show"}})
      EXPECT_EQ(ip_run(show, ns()).out, ip_run(show, ip_ns()).out) << context;
  }
};

// Every show and get as ip prints them is compared without root:
// recorded_cases.h's "nexthop" is this state. Buckets stay here: their idle
// time moves with the clock.

// A bucket's idle time moves between two reads, so it is left out of the comparison.
TEST_F(IpNexthopGolden, BucketsAsIp) {
  const std::regex idle(R"((idle_time"?:? ?)[0-9.e+-]+)");
  auto steady = [&](std::string text) { return std::regex_replace(text, idle, "$1T"); };
  for (const Words& args :
       std::vector<Words>{{"nexthop", "bucket"},
                          {"nexthop", "bucket", "show", "id", "11"},
                          {"nexthop", "bucket", "lst", "nhid", "4"},
                          {"nexthop", "bucket", "show", "dev", "v0"},
                          {"nexthop", "bucket", "show", "dev", "nosuch"},
                          {"-j", "nexthop", "bucket"},
                          {"-j", "-p", "nexthop", "bucket", "get", "id", "11", "index", "1"},
                          {"nexthop", "bucket", "get", "id", "11", "index", "31"},
                          {"nexthop", "bucket", "get", "id", "11", "index", "32"},  // ERANGE
                          {"nexthop", "bucket", "get", "id", "77", "index", "0"}}) {
    auto theirs = ip_run(args, ip_ns());
    auto ours = brisk_run(args, ns());
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
    EXPECT_EQ(steady(ours.out), steady(theirs.out)) << ::testing::PrintToString(args);
  }
}

TEST_F(IpNexthopGolden, ChangesLeaveIpsState) {
  for (const Words& args :
       std::vector<Words>{{"nexthop", "add", "id", "5", "via", "10.0.0.1", "dev", "v0"},
                          {"nexthop", "add", "id", "5", "via", "10.0.0.1", "dev", "v0"},  // EEXIST, status 2
                          {"nexthop", "add", "id", "6", "via", "10.0.0.1"},  // the kernel wants a device
                          {"nexthop", "add", "id", "6", "dev", "nosuch"},    // ip's argument error, 255
                          {"nexthop", "add", "id", "6", "group", "99"},
                          {"nexthop", "add", "id", "6", "group", "1/1"},
                          {"-6", "nexthop", "add", "id", "7", "blackhole"},
                          {"nexthop", "add", "id", "8", "group", "1/4", "type", "resilient", "buckets", "16",
                           "idle_timer", "3", "unbalanced_timer", "9", "proto", "7"},
                          {"nexthop", "add", "id", "9", "group", "2", "type", "mpath"},
                          {"nexthop", "add", "via", "10.0.0.1", "dev", "v0"},  // the kernel picks the id
                          {"nexthop", "replace", "id", "4", "via", "10.0.0.7", "dev", "v0"},
                          {"nexthop", "replace", "id", "40", "via", "10.0.0.7", "dev", "v0"},
                          {"nexthop", "add", "id", "41", "via", "10.0.0.1", "dev", "v0", "fdb"},
                          {"nexthop", "del", "id", "1", "dev", "v0"},  // a delete takes the id alone
                          {"nexthop", "del"},
                          {"nexthop", "del", "id", "12"},
                          {"nexthop", "del", "id", "77"},
                          {"nexthop", "flush", "id", "77"},  // status 1
                          {"nexthop", "flush", "id", "41"},
                          {"nexthop", "flush", "dev", "v0", "proto", "7"},
                          {"nexthop", "flush", "fdb"},
                          {"nexthop", "flush", "groups"},
                          {"nexthop", "flush", "dev", "v0"},
                          {"nexthop", "flush"},
                          {"nexthop", "flush"}}) {
    same(args);
    expect_same_state(::testing::PrintToString(args));
  }
}

// A batch of nexthop changes failing in the middle: ip -batch's status,
// stderr, stdout and end state, with and without -force. (Each line's
// selectors are its own: ip's flush and show keep theirs from line to line,
// so a batch with two of them differs, by design.)
TEST(IpNexthopBatch, StopsOrGoesOnAsIpDoes) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  const std::string text =
      "link set lo up\n"
      "link add v0 type veth peer name v1\n"
      "link set v0 up\n"
      "link set v1 up\n"
      "addr add 10.0.0.2/24 dev v0\n"
      "nexthop add id 1 via 10.0.0.1 dev v0\n"
      "nexthop add id 2 blackhole\n"
      "nexthop add id 10 group 1/2,3\n"
      "nexthop add id 1 via 10.0.0.1 dev v0\n"  // EEXIST
      "nexthop add id 5 group 99\n"
      "nexthop add id 11 group 1 type resilient buckets 8 proto 99\n"
      "route add 10.9.0.0/16 nhid 10\n"
      "nexthop replace id 2 via 10.0.0.8 dev v0\n"
      "nexthop del id 77\n"
      "nexthop add via 10.0.0.1 dev v0 onlink\n"
      "nexthop del id 11\n"
      "nexthop flush groups\n";
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/nexthop.batch";
  cli_test::write_file(file, text);
  for (bool force : {false, true}) {
    UniqueFd brisk_ns = brisk::test::make_netns();
    UniqueFd ip_ns = brisk::test::make_netns();
    if (ip_run({"nexthop", "show"}, ip_ns.get()).code != 0)
      GTEST_SKIP() << "this kernel has no nexthop objects";
    cli_test::expect_same_batch(file, force, brisk_ns.get(), ip_ns.get());
    for (const Words& show : {Words{"-d", "nexthop", "show"}, Words{"route", "show"}})
      EXPECT_EQ(ip_run(show, brisk_ns.get()).out, ip_run(show, ip_ns.get()).out) << "force " << force;
  }
  // A device missing while ip parses the line ends even a -force batch.
  cli_test::write_file(
      file, "nexthop add id 1 blackhole\nnexthop add id 2 dev nosuch\nnexthop add id 3 blackhole\n");
  UniqueFd brisk_ns = brisk::test::make_netns();
  UniqueFd ip_ns = brisk::test::make_netns();
  auto theirs = ip_run({"-force", "-batch", file}, ip_ns.get());
  auto ours = brisk_run({"-force", "-batch", file}, brisk_ns.get());
  EXPECT_EQ(ours.code, 255);
  EXPECT_EQ(ours.code, theirs.code);
  EXPECT_EQ(ours.err, theirs.err);
  EXPECT_EQ(ip_run({"nexthop"}, brisk_ns.get()).out, ip_run({"nexthop"}, ip_ns.get()).out);
}

}  // namespace
}  // namespace brisk::ipcli
