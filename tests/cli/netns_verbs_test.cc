// ip netns identify, pids, set and attach: the same output, errors and
// status as ip 6.1, and the same namespace ids and names afterwards.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;
using cli_test::NamedNetns;
using Words = std::vector<std::string>;

void expect_same(const Words& args) {
  auto theirs = ip_run(args), ours = brisk_run(args);
  EXPECT_EQ(ours.out, theirs.out) << ::testing::PrintToString(args);
  EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
  EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args);
}

// A process parked in a namespace, killed and reaped at the end.
class Sleeper {
 public:
  explicit Sleeper(const std::string& netns) {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execlp("ip", "ip", "netns", "exec", netns.c_str(), "sleep", "60", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Until the exec into the namespace is done, /proc/PID/ns/net is ours.
    for (int i = 0; i < 200 && ip_run({"netns", "identify", pid()}).out != netns + "\n"; ++i) ::usleep(10000);
  }
  ~Sleeper() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  std::string pid() const { return std::to_string(pid_); }

 private:
  pid_t pid_;
};

class NetnsVerbs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  }
};

TEST_F(NetnsVerbs, IdentifyAndPidsAsIp) {
  NamedNetns a;
  ASSERT_EQ(ip_run({"netns", "add", a.name()}).code, 0);
  Sleeper inside(a.name());
  ASSERT_EQ(ip_run({"netns", "identify", inside.pid()}).out, a.name() + "\n");
  for (const Words& args : std::vector<Words>{
           {"netns", "identify"},                        // this process: the initial namespace, no name
           {"-n", a.name(), "netns", "identify"},        // ip moved itself there first
           {"netns", "identify", inside.pid()},
           {"netns", "identify", "x1"},                  // not a pid
           {"netns", "identify", "1", "2"},              // extra arguments
           {"netns", "identify", "999999999"},           // no such process
           {"netns", "pids", a.name()},
           {"netns", "pids"},
           {"netns", "pids", a.name(), "x"},
           {"netns", "pids", a.name() + "-none"},
       })
    expect_same(args);
  EXPECT_NE(brisk_run({"netns", "pids", a.name()}).out.find(inside.pid() + "\n"), std::string::npos);
}

TEST_F(NetnsVerbs, SetGivesTheIdsIpGives) {
  NamedNetns a, b;
  ASSERT_EQ(ip_run({"netns", "add", a.name()}).code, 0);
  ASSERT_EQ(ip_run({"netns", "add", b.name()}).code, 0);
  for (const Words& args : std::vector<Words>{
           {"netns", "set", a.name(), "x"},
           {"netns", "set", a.name(), "-1"},
           {"netns", "set", a.name()},
           {"netns", "set"},
           {"netns", "set", a.name() + "-none", "3"},
       })
    expect_same(args);
  // Each inside its own namespace (-n), so ip and brisk give ids in different
  // places and the two runs cannot collide.
  NamedNetns mine, theirs;
  ASSERT_EQ(ip_run({"netns", "add", mine.name()}).code, 0);
  ASSERT_EQ(ip_run({"netns", "add", theirs.name()}).code, 0);
  for (const Words& args : std::vector<Words>{{"netns", "set", a.name(), "7"},
                                              {"netns", "set", b.name(), "auto"},
                                              {"netns", "set", a.name(), "8"}}) {  // it has one: EEXIST
    Words ours = args, ips = args;
    ours.insert(ours.begin(), {"-n", mine.name()});
    ips.insert(ips.begin(), {"-n", theirs.name()});
    auto r = brisk_run(ours), i = ip_run(ips);
    EXPECT_EQ(r.err, i.err) << ::testing::PrintToString(args);
    EXPECT_EQ(r.code, i.code) << ::testing::PrintToString(args);
  }
  auto listed = [](const std::string& where) {
    auto text = ip_run({"-n", where, "netns", "list"}).out;
    return text;
  };
  EXPECT_EQ(listed(mine.name()), listed(theirs.name()));
  EXPECT_NE(listed(mine.name()).find(a.name() + " (id: 7)"), std::string::npos) << listed(mine.name());
}

TEST_F(NetnsVerbs, AttachNamesAProcesssNamespace) {
  NamedNetns a, named;
  ASSERT_EQ(ip_run({"netns", "add", a.name()}).code, 0);
  Sleeper inside(a.name());
  for (const Words& args : std::vector<Words>{
           {"netns", "attach"},
           {"netns", "attach", named.name()},
           {"netns", "attach", named.name(), "x"},
           {"netns", "attach", named.name(), "0"},
           {"netns", "attach", named.name(), "999999999"},  // no such process: nothing is left
           {"netns", "attach", a.name(), inside.pid()},      // the name is taken
       })
    expect_same(args);
  EXPECT_EQ(ip_run({"netns", "list"}).out.find(named.name()), std::string::npos);
  ASSERT_EQ(brisk_run({"netns", "attach", named.name(), inside.pid()}).code, 0);
  // Both names now lead to the one namespace.
  struct stat x {}, y {};
  ASSERT_EQ(::stat(("/run/netns/" + a.name()).c_str(), &x), 0);
  ASSERT_EQ(::stat(("/run/netns/" + named.name()).c_str(), &y), 0);
  EXPECT_EQ(x.st_ino, y.st_ino);
  EXPECT_EQ(brisk_run({"netns", "pids", named.name()}).out, ip_run({"netns", "pids", a.name()}).out);
}

}  // namespace
}  // namespace brisk::ipcli
