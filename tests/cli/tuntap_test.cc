// ip tuntap: the grammar (kernel-free), then against ip 6.1 in throwaway
// named namespaces: the devices each flag combination makes, `show` and
// `-j show` byte for byte, del, the error texts and exit codes, and batches.
// The golden runs use `-n NAME` for both tools: ip reads tun_flags from
// sysfs, which is right for a namespace only once ip -n has remounted /sys.
#include <gtest/gtest.h>
#include <linux/if_tun.h>

#include <chrono>
#include <thread>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;
using cli_test::NamedNetns;

// ---- grammar ----

TEST(IpTuntapGrammar, ObjectAndVerbs) {
  EXPECT_EQ(ok({"tuntap"}).verb, verb_named("tuntap show"));
  EXPECT_EQ(ok({"tap"}).verb, verb_named("tuntap show"));
  EXPECT_EQ(ok({"ta", "show"}).verb, verb_named("tuntap show"));
  EXPECT_EQ(ok({"tunt", "list"}).verb, verb_named("tuntap show"));
  EXPECT_EQ(ok({"tuntap", "lst"}).verb, verb_named("tuntap show"));
  EXPECT_EQ(ok({"tuntap", "l"}).verb, verb_named("tuntap show"));
  EXPECT_EQ(ok({"tuntap", "show", "dev", "x", "whatever"}).verb,
            verb_named("tuntap show"));  // ip ignores the rest
  EXPECT_EQ(ok({"tuntap", "a", "t0", "mode", "tun"}).verb, verb_named("tuntap add"));
  EXPECT_EQ(ok({"tuntap", "d", "t0", "mode", "tun"}).verb, verb_named("tuntap del"));
  EXPECT_EQ(ok({"tuntap", "delete", "t0", "mode", "tun"}).verb, verb_named("tuntap del"));
  EXPECT_FALSE(ok({"tuntap"}).mutates());  // /dev/net/tun, never an engine batch
  // "t", "tu" and "tun" are ip's tunnel object, not this one.
  for (const char* word : {"t", "tu", "tun"}) EXPECT_FALSE(parse_command(Words{word}, Globals{})) << word;
}

TEST(IpTuntapGrammar, EveryKeyword) {
  auto a = ok({"tuntap", "add", "dev", "tap7", "mode", "tap", "user", "1000", "group", "1001", "one_queue",
               "pi", "vnet_hdr", "multi_queue"});
  EXPECT_EQ(a.name, "tap7");
  EXPECT_TRUE(a.tun().tap);
  EXPECT_EQ(a.tun().owner, 1000u);
  EXPECT_EQ(a.tun().group, 1001u);
  EXPECT_TRUE(a.tun().one_queue && a.tun().pi && a.tun().vnet_hdr && a.tun().multi_queue);
  auto defaults = ok({"tuntap", "add", "t0", "mode", "tun"});
  EXPECT_FALSE(defaults.tun().tap);
  EXPECT_FALSE(defaults.tun().owner || defaults.tun().group);
  EXPECT_FALSE(defaults.tun().pi || defaults.tun().vnet_hdr || defaults.tun().multi_queue ||
               defaults.tun().one_queue);
  // Prefixes as ip's matches() takes them, in ip's order: "m" is mode, "mu" multi_queue.
  auto p = ok({"tuntap", "add", "m", "ta", "p", "o", "v", "mu", "n", "x0", "u", "root", "g", "root"});
  EXPECT_TRUE(p.tun().tap && p.tun().pi && p.tun().one_queue && p.tun().vnet_hdr && p.tun().multi_queue);
  EXPECT_EQ(p.name, "x0");
  EXPECT_EQ(p.tun().owner, 0u);
  EXPECT_EQ(p.tun().group, 0u);
  EXPECT_EQ(ok({"tuntap", "add", "mode", "t"}).tun().tap, false);           // "t" is tun
  EXPECT_EQ(ok({"tuntap", "add", "mode", "tun", "mode", "tun"}).name, "");  // no name: the kernel picks
  EXPECT_EQ(ok({"tuntap", "add", "name", "tap%d", "mode", "tap"}).name, "tap%d");
  // dev may replace a name given before; a number wraps as strtol's does, and -1 is "none".
  EXPECT_EQ(ok({"tuntap", "add", "a0", "dev", "b0", "mode", "tun"}).name, "b0");
  EXPECT_EQ(ok({"tuntap", "add", "t0", "mode", "tun", "user", "4294967296"}).tun().owner, 0u);
  EXPECT_FALSE(ok({"tuntap", "add", "t0", "mode", "tun", "user", "5", "user", "-1"}).tun().owner);
  EXPECT_EQ(ok({"tuntap", "add", "t0", "mode", "tun", "group", " 7"}).tun().group, 7u);
  // del takes no user or group: those words are names, as in ip.
  EXPECT_EQ(ok({"tuntap", "del", "user", "mode", "tap"}).name, "user");
  auto d = ok({"tuntap", "del", "t0", "mode", "tap", "multi_queue"});
  EXPECT_TRUE(d.tun().tap && d.tun().multi_queue);
}

struct ErrorCase {
  Words words;
  std::string message;  // printed exactly
  int exit_code;
};

TEST(IpTuntapGrammar, ErrorsAsIpPrintsThem) {
  const std::vector<ErrorCase> cases = {
      {{"tuntap", "add", "t0"}, "You failed to specify a tunnel mode", 1},
      {{"tuntap", "del", "t0"}, "You failed to specify a tunnel mode", 1},
      {{"tuntap", "add", "t0", "mode", "foo"}, "Unknown tunnel mode \"foo\"", 255},
      {{"tuntap", "add", "t0", "mode", "tun", "mode", "tap"},
       "You managed to ask for more than one tunnel mode.",
       255},
      {{"tuntap", "add", "t0", "mode", "tap", "mode", "tun"},
       "You managed to ask for more than one tunnel mode.",
       255},
      {{"tuntap", "add", "t0", "mode"}, "Command line is not complete. Try option \"help\"", 255},
      {{"tuntap", "add", "t0", "mode", "tap", "user"},
       "Command line is not complete. Try option \"help\"",
       255},
      {{"tuntap", "add", "dev"}, "Command line is not complete. Try option \"help\"", 255},
      {{"tuntap", "add", "t0", "mode", "tap", "user", "nosuchuser-brisk"},
       "invalid user \"nosuchuser-brisk\"",
       255},
      {{"tuntap", "add", "t0", "mode", "tap", "user", ""}, "invalid user \"\"", 255},
      {{"tuntap", "add", "t0", "mode", "tap", "group", "nosuchgrp-brisk"},
       "invalid group \"nosuchgrp-brisk\"",
       255},
      {{"tuntap", "add", "t0", "t1", "mode", "tap"},
       "Error: either \"name\" is duplicate, or \"t1\" is a garbage.",
       255},
      {{"tuntap", "add", "t0", "name", "t1"},
       "Error: either \"name\" is duplicate, or \"t1\" is a garbage.",
       255},
      {{"tuntap", "del", "t0", "user", "5", "mode", "tap"},
       "Error: either \"name\" is duplicate, or \"user\" is a garbage.",
       255},
      {{"tuntap", "add", "dev", "a/b", "mode", "tap"},
       "Error: argument \"a/b\" is wrong: \"dev\" not a valid ifname",
       255},
      {{"tuntap", "add", "name", "a b", "mode", "tap"},
       "Error: argument \"a b\" is wrong: \"name\" not a valid ifname",
       255},
      {{"tuntap", "add", "0123456789abcdef", "mode", "tap"},
       "Error: argument \"0123456789abcdef\" is wrong: \"name\" not a valid ifname",
       255},
      {{"tuntap", "foo"}, "Command \"foo\" is unknown, try \"brisk tuntap help\".", 255},
  };
  for (const auto& c : cases) {
    auto e = error_of(c.words);
    EXPECT_EQ(format_error(e.message, e.exact), c.message) << ::testing::PrintToString(c.words);
    EXPECT_EQ(e.exit_code, c.exit_code) << ::testing::PrintToString(c.words);
  }
}

TEST(IpTuntapGrammar, HelpIsTheUsage) {
  for (const Words& words : std::vector<Words>{
           {"tuntap", "help"}, {"tap", "help"}, {"tuntap", "add", "help"}, {"tuntap", "del", "t0", "h"}}) {
    auto e = error_of(words);
    EXPECT_TRUE(e.help) << ::testing::PrintToString(words);
    EXPECT_EQ(e.exit_code, 255);
    EXPECT_NE(e.message.find("[ one_queue ] [ pi ] [ vnet_hdr ] [ multi_queue ] [ name NAME ]"),
              std::string::npos);
  }
  EXPECT_NE(general_usage().find("tuntap"), std::string::npos);
}

// ---- against ip ----

class IpTuntap : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
    if (::access("/dev/net/tun", R_OK | W_OK) != 0) GTEST_SKIP() << "no /dev/net/tun";
    for (auto* ns : {&ip_ns_, &brisk_ns_}) ASSERT_EQ(ip_run({"netns", "add", ns->name()}).code, 0);
  }
  cli_test::Run ip_in(const NamedNetns& ns, Words args) {
    args.insert(args.begin(), {"-n", ns.name()});
    return ip_run(args);
  }
  cli_test::Run brisk_in(const NamedNetns& ns, Words args) {
    args.insert(args.begin(), {"-n", ns.name()});
    return brisk_run(args);
  }
  // Runs `args` with ip in its namespace and brisk in the other: same exit code and stderr.
  void same_change(const Words& args) {
    auto theirs = ip_in(ip_ns_, args), ours = brisk_in(brisk_ns_, args);
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args) << "\n" << ours.err;
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
  }
  // Both namespaces show the same, in each form, by each tool.
  void same_show() {
    for (const Words& show : std::vector<Words>{{"tuntap", "show"},
                                                {"-j", "tuntap", "show"},
                                                {"-j", "-p", "tuntap", "show"},
                                                {"tap"},
                                                {"-d", "tuntap", "list"},
                                                {"-d", "-j", "tuntap", "show"}}) {
      // -d lists the processes that hold each device open, by name, from
      // every process's fdinfo on the host, as ip does: another test's
      // `tuntap add tap0` holds one for a moment, in its own namespace. A
      // difference is asked again, up to three times, before it fails.
      cli_test::Run theirs, ours, again;
      for (int attempt = 0; attempt < 3; ++attempt) {
        if (attempt) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        theirs = ip_in(ip_ns_, show), ours = brisk_in(brisk_ns_, show), again = ip_in(brisk_ns_, show);
        if (ours.code == theirs.code && ours.out == theirs.out && again.out == theirs.out) break;
      }
      EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(show);
      EXPECT_EQ(ours.out, theirs.out) << ::testing::PrintToString(show);
      // ip's show of the namespace brisk changed: the devices are the same ones.
      EXPECT_EQ(again.out, theirs.out) << ::testing::PrintToString(show);
    }
  }
  NamedNetns ip_ns_, brisk_ns_;
};

TEST_F(IpTuntap, AddEveryFlagCombinationThenShow) {
  std::vector<Words> adds = {
      {"tuntap", "add", "tap0", "mode", "tap"},
      {"tuntap", "add", "dev", "tun0", "mode", "tun"},
      {"tap", "add", "name", "tap1", "mode", "tap", "user", "1000", "group", "1001"},
      {"tuntap", "add", "tap2", "mode", "tap", "user", "root", "group", "root"},
      {"tuntap", "add", "tun1", "mode", "tun", "pi"},
      {"tuntap", "add", "tun2", "mode", "tun", "one_queue"},
      {"tuntap", "add", "tap3", "mode", "tap", "vnet_hdr"},
      {"tuntap", "add", "tap4", "mode", "tap", "multi_queue"},
      {"tuntap", "add", "tun3", "mode", "tun", "pi", "one_queue", "vnet_hdr", "multi_queue", "user", "7"},
      {"tuntap", "add", "mode", "tap"},                   // the kernel names it tap5
      {"tuntap", "add", "name", "tun%d", "mode", "tun"},  // a template: tun4
      {"tuntap", "add", "tap6", "mode", "tap", "user", "-1", "group", "-1"},
  };
  for (const auto& add : adds) same_change(add);
  same_show();
}

TEST_F(IpTuntap, DeleteAsIpDoes) {
  for (const Words& add : std::vector<Words>{{"tuntap", "add", "tap0", "mode", "tap"},
                                             {"tuntap", "add", "tap1", "mode", "tap", "multi_queue"},
                                             {"tuntap", "add", "tun0", "mode", "tun", "vnet_hdr"}})
    same_change(add);
  for (const Words& del :
       std::vector<Words>{{"tuntap", "del", "tap0", "mode", "tun"},    // wrong mode: EINVAL
                          {"tuntap", "del", "tap1", "mode", "tap"},    // multi_queue differs: EINVAL
                          {"tuntap", "del", "nosuch", "mode", "tap"},  // no such device: succeeds
                          {"tuntap", "del", "tap0", "mode", "tap"},
                          {"tuntap", "del", "dev", "tap1", "mode", "tap", "multi_queue"},
                          {"tuntap", "d", "tun0", "mode", "tun"}})  // vnet_hdr need not match
    same_change(del);
  same_show();
  EXPECT_EQ(brisk_in(brisk_ns_, {"tuntap"}).out, "");
}

TEST_F(IpTuntap, ErrorsMatchIp) {
  same_change({"tuntap", "add", "tap0", "mode", "tap"});
  for (const Words& bad : std::vector<Words>{
           {"tuntap", "add", "tap0", "mode", "tap"},  // exists: ioctl(TUNSETIFF): Device or resource busy
           {"tuntap", "add", "tap9"},
           {"tuntap", "del", "tap0"},
           {"tuntap", "add", "tap9", "mode", "foo"},
           {"tuntap", "add", "tap9", "mode", "tun", "mode", "tap"},
           {"tuntap", "add", "tap9", "mode", "tap", "user", "nosuchuser-brisk"},
           {"tuntap", "add", "tap9", "mode", "tap", "group", "nosuchgrp-brisk"},
           {"tuntap", "add", "tap9", "mode"},
           {"tuntap", "add", "tap9", "tap8", "mode", "tap"},
           {"tuntap", "add", "dev", "a/b", "mode", "tap"},
           {"tuntap", "add", "name", "a b", "mode", "tap"},
           {"tuntap", "add", "a:b", "mode", "tap"},  // the kernel refuses ':'
           {"tuntap", "del", "tap0", "user", "5", "mode", "tap"}})
    same_change(bad);
  // The usage and the unknown-command texts name the program.
  for (const Words& words :
       std::vector<Words>{{"tuntap", "help"}, {"tuntap", "foo"}, {"tuntap", "add", "help"}}) {
    auto theirs = ip_in(ip_ns_, words), ours = brisk_in(brisk_ns_, words);
    EXPECT_EQ(ours.code, theirs.code);
    std::string expected = theirs.err;
    for (std::size_t at; (at = expected.find("ip tuntap")) != std::string::npos;)
      expected.replace(at, 2, "brisk");
    if (words[1] != "foo") {
      auto tail = ours.err.find("brisk tap is the same object");
      EXPECT_EQ(ours.err.substr(0, tail), expected);
    } else {
      EXPECT_EQ(ours.err, expected);
    }
  }
  same_show();
}

TEST_F(IpTuntap, BatchStopsOrGoesOnAsIp) {
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/tuntap.batch";
  cli_test::write_file(file,
                       "tuntap add tap0 mode tap user 1000\n"
                       "tap add tun0 mode tun pi\n"
                       "tuntap add tap0 mode tap\n"  // fails: line 3
                       "tuntap add tap1 mode tap vnet_hdr\n"
                       "tuntap del tun0 mode tap\n"  // fails: line 5
                       "tuntap del tap0 mode tap\n"
                       "tuntap show\n");
  for (bool force : {false, true}) {
    Words args = {"-batch", file};
    if (force) args.insert(args.begin(), "-force");
    auto theirs = ip_in(ip_ns_, args), ours = brisk_in(brisk_ns_, args);
    EXPECT_EQ(ours.code, theirs.code) << "force " << force;
    EXPECT_EQ(ours.out, theirs.out) << "force " << force;
    EXPECT_EQ(ours.err, theirs.err) << "force " << force;
    same_show();
    for (const auto* ns : {&ip_ns_, &brisk_ns_})
      for (const char* dev : {"tap0", "tap1", "tun0"})
        for (const char* mode : {"tap", "tun"}) ip_in(*ns, {"tuntap", "del", dev, "mode", mode});
  }
}

}  // namespace
}  // namespace brisk::ipcli
