// ip addrlabel: the grammar (as ip 6.1's ipaddrlabel.c reads it, words it
// does not know skipped), then brisk against ip in twin throwaway
// namespaces: list, add, del and flush, their errors and end state, and a batch.
#include <gtest/gtest.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::ip_run;

TEST(IpAddrlabelGrammar, Forms) {
  EXPECT_EQ(ok({"addrlabel"}).verb, verb_named("addrlabel show"));
  EXPECT_EQ(ok({"addrl", "lst"}).verb, verb_named("addrlabel show"));
  EXPECT_EQ(ok({"addr"}).verb, verb_named("addr show")) << "ip's table: address first";
  EXPECT_EQ(ok({"addrlabel", "f"}).verb, verb_named("addrlabel flush"));
  auto add = ok({"addrlabel", "a", "prefix", "2001:db8::/32", "dev", "v0", "label", "0x10", "whatever"});
  EXPECT_EQ(add.verb, verb_named("addrlabel add"));
  EXPECT_TRUE(add.mutates());
  EXPECT_EQ(add.addrlabel().prefix, "2001:db8::/32");
  EXPECT_EQ(add.addrlabel().dev, "v0");
  EXPECT_EQ(add.addrlabel().label, 16u);
  EXPECT_EQ(add.addrlabel().family, AF_INET6) << "ip's default when no -4 or -6";
  Globals v4;
  v4.family = AF_INET;
  EXPECT_EQ(ok({"addrlabel", "add", "prefix", "10.0.0.0/8", "label", "1"}, v4).addrlabel().family, AF_INET);
  EXPECT_EQ(ok({"addrlabel", "del", "prefix", "2001:db8::/32", "label", "0"}).verb,
            verb_named("addrlabel del"));
  EXPECT_FALSE(ok({"addrlabel", "flush"}).mutates());
}

TEST(IpAddrlabelGrammar, ErrorsAsIp) {
  struct Case {
    Words words;
    std::string message;
    int exit_code;
    bool line_failure;
  };
  for (const auto& [words, message, exit_code, line_failure] : std::vector<Case>{
           {{"addrlabel", "add", "prefix", "2001:db8::/32", "label", "4294967295"},
            "Error: argument \"4294967295\" is wrong: label is invalid\n",
            255,
            false},
           {{"addrlabel", "add", "prefix", "2001:db8::/32", "label", "x"},
            "Error: argument \"x\" is wrong: label is invalid\n",
            255,
            false},
           {{"addrlabel", "add", "prefix", "zz", "label", "1"},
            "Error: any valid prefix is expected rather than \"zz\".",
            1,
            false},
           {{"addrlabel", "add", "prefix", "2001:db8::/32"},
            "Not enough information: \"label\" argument is required.",
            1,
            true},
           {{"addrlabel", "add", "label", "3"},
            "Not enough information: \"prefix\" argument is required.",
            1,
            true},
           {{"addrlabel", "show", "foo"}, "\"brisk addrlabel show\" does not take any arguments.", 1, true},
           {{"addrlabel", "flush", "x"}, "\"brisk addrlabel flush\" does not allow extra arguments", 1, true},
           {{"addrlabel", "foo"}, "Command \"foo\" is unknown, try \"brisk addrlabel help\".", 255, false}}) {
    auto e = error_of(words);
    EXPECT_EQ(e.message, message) << ::testing::PrintToString(words);
    EXPECT_EQ(e.exit_code, exit_code) << ::testing::PrintToString(words);
    EXPECT_EQ(e.line_failure, line_failure) << ::testing::PrintToString(words);
  }
  EXPECT_TRUE(error_of({"addrlabel", "help"}).help);
}

class IpAddrlabelGolden : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({{"link", "add", "v0", "type", "veth", "peer", "name", "v1"},
               {"addrlabel", "add", "prefix", "2001:db8::/32", "label", "99"},
               {"addrlabel", "add", "prefix", "2001:db9::/32", "dev", "v0", "label", "7"}});
  }
  void expect_same_table(const std::string& context) {
    EXPECT_EQ(ip_run({"addrlabel"}, ns()).out, ip_run({"addrlabel"}, ip_ns()).out) << context;
  }
};

// The table's listings as ip prints them are compared without root:
// recorded_cases.h's "addrlabel" is this state.

TEST_F(IpAddrlabelGolden, ChangesLeaveIpsTable) {
  for (const Words& args : std::vector<Words>{
           {"addrlabel", "add", "prefix", "2001:db8::/32", "label", "99"},  // EEXIST
           {"addrlabel", "add", "prefix", "2001:dba::/48", "dev", "v0", "label", "12"},
           {"addrlabel", "add", "prefix", "10.0.0.0/8", "label", "5"},  // the kernel's policy refusal
           {"-4", "addrlabel", "add", "prefix", "10.0.0.0/8", "label", "5"},
           {"addrlabel", "add", "prefix", "2001:dbb::1", "label", "010"},
           {"addrlabel", "add", "prefix", "2001:dbc::/32", "dev", "nosuch", "label",
            "3"},                                                           // ip's argument error
           {"addrlabel", "del", "prefix", "2001:db8::/32", "label", "1"},   // the label is not compared
           {"addrlabel", "del", "prefix", "2001:db8::/32", "label", "99"},  // ESRCH
           {"addrlabel", "del", "prefix", "2001:db9::/32", "label", "7"},   // on another device: ESRCH
           {"addrlabel", "del", "prefix", "2001:db9::/32", "dev", "v0", "label", "7"},
           {"-4", "addrlabel", "flush"},  // "Flush terminated", 1
           {"addrlabel", "flush"},
           {"addrlabel"}}) {
    same(args);
    expect_same_table(::testing::PrintToString(args));
  }
}

TEST(IpAddrlabelBatch, AsIpWithAndWithoutForce) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/addrlabel.batch";
  cli_test::write_file(file,
                       "link add v0 type veth peer name v1\n"
                       "addrlabel add prefix 2001:db8::/32 label 99\n"
                       "addrlabel add prefix 2001:db9::/32 dev v0 label 7\n"
                       "addrlabel add prefix 2001:db8::/32 label 99\n"  // EEXIST
                       "addrlabel add prefix 10.0.0.0/8 label 5\n"
                       "addrlabel add prefix 2001:dba::/48 label 12\n"
                       "addrlabel del prefix 2001:dbf::/32 label 99\n"  // ESRCH
                       "addrlabel show\n"
                       "addrlabel add prefix 2001:dbb::/48 label 13 extra words\n"
                       "addrlabel\n");
  for (bool force : {false, true}) {
    UniqueFd brisk_ns = brisk::test::make_netns();
    UniqueFd ip_ns = brisk::test::make_netns();
    cli_test::expect_same_batch(file, force, brisk_ns.get(), ip_ns.get());
    EXPECT_EQ(ip_run({"addrlabel"}, brisk_ns.get()).out, ip_run({"addrlabel"}, ip_ns.get()).out) << force;
  }
  // A failed list fails its line: the batch's status is 1, as ip's, not the
  // 255 of the same list on a command line.
  cli_test::write_file(file, "addrlabel\naddrlabel\n");
  for (bool force : {false, true}) {
    UniqueFd brisk_ns = brisk::test::make_netns();
    UniqueFd ip_ns = brisk::test::make_netns();
    for (const Words& args : {Words{"-4", "-batch", file}, Words{"-4", "-force", "-batch", file}}) {
      if ((args.size() == 4) != force) continue;
      auto theirs = ip_run(args, ip_ns.get());
      auto ours = cli_test::brisk_run(args, brisk_ns.get());
      EXPECT_EQ(theirs.code, 1);
      EXPECT_EQ(ours.code, theirs.code) << force;
      EXPECT_EQ(ours.err, theirs.err) << force;
    }
  }
  // A device missing while ip parses the line ends even a -force batch.
  cli_test::write_file(file,
                       "addrlabel add prefix 2001:db8::/32 label 9\n"
                       "addrlabel add prefix 2001:db9::/32 dev nosuch label 7\n"
                       "addrlabel add prefix 2001:dba::/32 label 9\n");
  UniqueFd brisk_ns = brisk::test::make_netns();
  UniqueFd ip_ns = brisk::test::make_netns();
  cli_test::expect_same_batch(file, true, brisk_ns.get(), ip_ns.get());
  EXPECT_EQ(ip_run({"addrlabel"}, brisk_ns.get()).out, ip_run({"addrlabel"}, ip_ns.get()).out);
}

}  // namespace
}  // namespace brisk::ipcli
