// ip rule save and restore: brisk's stream is ip's (each tool restores the
// other's file to the same rules), and every bad stream, terminal and
// kernel refusal ends as ip's does, in twin throwaway namespaces.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <stdlib.h>

#include <cstring>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

constexpr uint32_t kRuleSaveMagic = 0x71706986;

TEST(IpRuleSaveGrammar, VerbsAndArguments) {
  EXPECT_EQ(ok({"rule", "restore"}).verb, verb_named("rule restore"));
  EXPECT_EQ(ok({"rule", "r", "anything"}).verb, verb_named("rule restore"))
      << "as ip, restore reads no words";
  EXPECT_EQ(ok({"rule", "s"}).verb, verb_named("rule show")) << "s is show, which ip tests first";
  EXPECT_FALSE(ok({"rule", "save"}).mutates());
  auto args = error_of({"rule", "sa", "pref", "100"});
  EXPECT_EQ(args.message, "\"ip rule save\" does not take any arguments.");
  EXPECT_EQ(args.exit_code, 1);
  auto help = error_of({"rule", "help"});
  EXPECT_TRUE(help.help);
  EXPECT_NE(help.message.find("brisk rule save > FILE"), std::string::npos);
  EXPECT_NE(help.message.find("brisk rule restore < FILE"), std::string::npos);
}

class IpRuleSave : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin(kRules);
  }
  static inline const std::vector<Words> kRules = {
      {"rule", "add", "from", "10.1.0.0/16", "table", "100", "pref", "100"},
      {"rule", "add", "fwmark", "0x10/0xff", "lookup", "200", "pref", "200", "proto", "static"},
      {"rule", "add", "not", "to", "10.2.0.0/16", "iif", "lo", "uidrange", "100-200", "table", "300"},
      {"rule", "add", "ipproto", "tcp", "dport", "80-90", "goto", "32766", "pref", "50"},
      {"-6", "rule", "add", "from", "fd00::/8", "table", "300", "pref", "300"}};

  // Both namespaces' rules, both families, as ip shows them.
  void expect_same_rules(const std::string& what) {
    for (const Words& show :
         {Words{"rule", "show"}, Words{"-6", "rule", "show"}, Words{"-d", "rule", "show"}})
      EXPECT_EQ(cli_test::ip_run(show, ns()).out, cli_test::ip_run(show, ip_ns()).out)
          << what << " " << ::testing::PrintToString(show);
  }
  // `tool ARGS` in `ns` with stdin from the file `path`; ARGS `rule restore` by default.
  static cli_test::Run restore(const char* tool, const std::string& path, int ns,
                               Words args = {"rule", "restore"}) {
    UniqueFd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    args.insert(args.begin(), tool);
    return cli_test::run(args, ns, in.get());
  }
  brisk::test::TempDir dir_;
};

TEST_F(IpRuleSave, TheStreamIsIps) {
  for (const Words& family : {Words{}, Words{"-4"}, Words{"-6"}}) {
    Words save = family;
    save.insert(save.end(), {"rule", "save"});
    auto ours = cli_test::brisk_run(save, ns());
    cli_test::expect_same_stream(ours, cli_test::ip_run(save, ns()), kRuleSaveMagic,
                                 ::testing::PrintToString(save));
    EXPECT_EQ(cli_test::saved_messages(ours.out).size(), family == Words{"-6"} ? 3u : 7u)
        << "the default rules and ours";
  }
}

TEST_F(IpRuleSave, EachRestoresTheOthersFile) {
  std::string v4 = dir_.path() + "/v4", v6 = dir_.path() + "/v6";
  cli_test::write_file(v4, cli_test::brisk_run({"rule", "save"}, ns()).out);
  cli_test::write_file(v6, cli_test::ip_run({"-6", "rule", "save"}, ns()).out);
  for (int n : {ns(), ip_ns()}) {
    for (const Words& flush : {Words{"rule", "flush"}, Words{"-6", "rule", "flush"}})
      ASSERT_EQ(cli_test::ip_run(flush, n).code, 0);
  }
  // brisk restores ip's IPv6 file and its own IPv4 one; ip the same files.
  for (const std::string& file : {v4, v6, v4}) {  // the second v4: rules added again, as ip adds them
    auto ours = restore(BRISK_CLI_PATH, file, ns());
    auto theirs = restore("ip", file, ip_ns());
    EXPECT_EQ(ours.code, theirs.code) << ours.err;
    EXPECT_EQ(ours.code, 0) << ours.err;
    EXPECT_EQ(ours.err, theirs.err);
    EXPECT_EQ(ours.out, theirs.out);
    expect_same_rules(file);
  }
  EXPECT_NE(cli_test::ip_run({"rule", "show"}, ns()).out.find("100:\tfrom 10.1.0.0/16 lookup 100"),
            std::string::npos);
}

TEST_F(IpRuleSave, BadStreamsEndAsIpsDo) {
  std::string good = cli_test::ip_run({"rule", "save"}, ns()).out;
  ASSERT_GT(good.size(), 40u);
  std::string bad_family = good;
  uint32_t first;
  std::memcpy(&first, good.data() + 4, 4);
  bad_family[4 + NLMSG_ALIGN(first) + sizeof(nlmsghdr)] = 99;  // the second rule's family: refused mid-stream
  std::string huge = good.substr(0, 4);
  nlmsghdr h{.nlmsg_len = 20000, .nlmsg_type = 32, .nlmsg_flags = 0, .nlmsg_seq = 0, .nlmsg_pid = 0};
  huge.append(reinterpret_cast<const char*>(&h), sizeof h);
  huge.append(64, '\0');
  const std::vector<std::pair<std::string, std::string>> streams = {
      {"garbage", "garbage\n"},
      {"empty", ""},
      {"short", "\x86\x69"},
      {"magic only", good.substr(0, 4)},  // no rules: fine
      {"truncated header", good.substr(0, 4 + 10)},
      {"truncated body", good.substr(0, 4 + first - 8)},
      {"huge", huge},
      {"bad family", bad_family}};
  for (const auto& [what, bytes] : streams) {
    UniqueFd ours_ns = brisk::test::make_netns(), theirs_ns = brisk::test::make_netns();
    std::string path = dir_.path() + "/stream";
    cli_test::write_file(path, bytes);
    auto ours = restore(BRISK_CLI_PATH, path, ours_ns.get());
    auto theirs = restore("ip", path, theirs_ns.get());
    EXPECT_EQ(ours.code, theirs.code) << what;
    EXPECT_EQ(ours.err, theirs.err) << what;
    for (const Words& show : {Words{"rule", "show"}, Words{"-6", "rule", "show"}})
      EXPECT_EQ(cli_test::ip_run(show, ours_ns.get()).out, cli_test::ip_run(show, theirs_ns.get()).out)
          << what << ": what was applied before the failure stays, as with ip";
  }
}

// A pseudo-terminal, for the two checks ip makes of one: the child gets `slave`.
struct Terminal {
  UniqueFd master, slave;
};
Terminal terminal() {
  Terminal t{UniqueFd(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)), {}};
  if (!t.master.valid() || ::grantpt(t.master.get()) || ::unlockpt(t.master.get())) return {};
  t.slave = UniqueFd(::open(::ptsname(t.master.get()), O_RDWR | O_NOCTTY | O_CLOEXEC));
  return t;
}

TEST_F(IpRuleSave, NoBinaryToATerminalNorFromOne) {
  Terminal tty = terminal();
  ASSERT_TRUE(tty.slave.valid()) << std::strerror(errno);
  auto save = cli_test::run({BRISK_CLI_PATH, "rule", "save"}, ns(), -1, tty.slave.get());
  auto ip_save = cli_test::run({"ip", "rule", "save"}, ns(), -1, tty.slave.get());
  EXPECT_EQ(save.code, ip_save.code);
  EXPECT_EQ(save.code, 1);
  EXPECT_EQ(save.err, ip_save.err);
  auto restore = cli_test::run({BRISK_CLI_PATH, "rule", "restore"}, ns(), tty.slave.get());
  auto ip_restore = cli_test::run({"ip", "rule", "restore"}, ns(), tty.slave.get());
  EXPECT_EQ(restore.code, ip_restore.code);
  EXPECT_EQ(restore.code, 255);
  EXPECT_EQ(restore.err, ip_restore.err);
}

// ip's restore ends the process: a batch stops after it, with its status.
TEST_F(IpRuleSave, RestoreEndsABatchAsIpsDoes) {
  std::string saved = dir_.path() + "/saved";
  cli_test::write_file(saved, cli_test::ip_run({"rule", "save"}, ns()).out);
  std::string batch = dir_.path() + "/batch";
  cli_test::write_file(batch,
                       "rule add from 10.7.0.0/16 table 7 pref 7\n"
                       "rule del pref 12345\n"  // none: fails
                       "rule restore\n"
                       "rule add from 10.8.0.0/16 table 8 pref 8\n");
  for (bool force : {false, true}) {
    UniqueFd ours_ns = brisk::test::make_netns(), theirs_ns = brisk::test::make_netns();
    Words args = force ? Words{"-force", "-batch", batch} : Words{"-batch", batch};
    auto ours = restore(BRISK_CLI_PATH, saved, ours_ns.get(), args);
    auto theirs = restore("ip", saved, theirs_ns.get(), args);
    EXPECT_EQ(ours.code, theirs.code) << "force " << force;
    EXPECT_EQ(ours.err, theirs.err) << "force " << force;
    EXPECT_EQ(cli_test::ip_run({"rule", "show"}, ours_ns.get()).out,
              cli_test::ip_run({"rule", "show"}, theirs_ns.get()).out)
        << "force " << force;
  }
}

}  // namespace
}  // namespace brisk::ipcli
