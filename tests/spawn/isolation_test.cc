// Options that change where and as whom the child runs: chroot, setns,
// credentials, rlimits, sessions and groups, parent-death signal, cgroups.
#include <grp.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "brisk/spawn.h"
#include "support/test_support.h"
#include "sys/syscalls.h"

namespace brisk {
namespace {

using test::run_capture;
using test::status_field;

TEST(SpawnChroot, RunsInsideAMinimalRootAndStartsAtItsTop) {
  if (!test::is_root()) GTEST_SKIP() << "chroot needs root";
  test::TempDir root;
  test::build_minimal_root(root.path(), {"/bin/sh", "/bin/ls", "/bin/pwd"});
  std::filesystem::create_directories(root.path() + "/only-in-root/sub");
  SpawnOptions options{.argv = {"sh", "-c", "pwd; ls /"}};
  options.chroot = root.path();
  auto got = run_capture(options);
  ASSERT_TRUE(got.status.success()) << got.status.to_string();
  EXPECT_EQ(got.out.substr(0, 2), "/\n");
  EXPECT_NE(got.out.find("only-in-root"), std::string::npos);
  EXPECT_EQ(got.out.find("proc"), std::string::npos) << "saw the host's root: " << got.out;

  options.cwd = "/only-in-root/sub";
  options.argv = {"/bin/pwd"};
  EXPECT_EQ(run_capture(options).out, "/only-in-root/sub\n");
}

TEST(SpawnChroot, ProgramsAreSearchedInsideTheRoot) {
  if (!test::is_root()) GTEST_SKIP() << "chroot needs root";
  test::TempDir root;
  test::build_minimal_root(root.path(), {"/bin/echo"});
  SpawnOptions options{.argv = {"echo", "inside"}};
  options.chroot = root.path();
  options.env = {{"PATH", "/nowhere:/bin"}};
  EXPECT_EQ(run_capture(options).out, "inside\n");

  options.argv = {"ls"};  // on the host, but not in this root
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::program_not_found);
}

TEST(SpawnSetns, ChildSeesOnlyTheTestsNetworkNamespace) {
  if (!test::can_unshare_net()) GTEST_SKIP() << "cannot create network namespaces here";
  UniqueFd netns = test::make_netns();
  ASSERT_TRUE(netns);
  auto got = run_capture({.argv = {"cat", "/proc/net/dev"}, .namespaces = {{CLONE_NEWNET, netns.get(), {}}}});
  ASSERT_TRUE(got.status.success());
  std::istringstream lines(got.out);
  std::vector<std::string> devices;
  for (std::string line; std::getline(lines, line);) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    name.erase(0, name.find_first_not_of(' '));
    devices.push_back(name);
  }
  EXPECT_EQ(devices, std::vector<std::string>{"lo"});
  // The parent is still in its own namespace.
  auto host = sys::stat("/proc/self/ns/net");
  auto theirs = sys::fstat(netns.get());
  EXPECT_NE(host->st_ino, theirs->st_ino);
}

TEST(SpawnSetns, NamespaceByPathAndWrongTypeIsReported) {
  auto got = run_capture({.argv = {"true"}, .namespaces = {{CLONE_NEWNET, -1, "/proc/self/ns/net"}}});
  EXPECT_TRUE(got.status.success());
  auto child = spawn({.argv = {"true"}, .namespaces = {{CLONE_NEWIPC, -1, "/proc/self/ns/net"}}});
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().step, SpawnStep::setns);
  EXPECT_EQ(child.error().code, EINVAL);
  EXPECT_EQ(child.error().object, "/proc/self/ns/net");
}

TEST(SpawnCredentials, ChildRunsAsTheGivenUserGroupAndGroups) {
  if (!test::is_root()) GTEST_SKIP() << "switching credentials needs root";
  SpawnOptions options{.argv = {"cat", "/proc/self/status"}};
  options.credentials = Credentials{.uid = 65534, .gid = 65533, .groups = {100, 65533}};
  auto got = run_capture(options);
  ASSERT_TRUE(got.status.success());
  EXPECT_EQ(status_field(got.out, "Uid:"), "Uid:\t65534\t65534\t65534\t65534");
  EXPECT_EQ(status_field(got.out, "Gid:"), "Gid:\t65533\t65533\t65533\t65533");
  EXPECT_EQ(status_field(got.out, "Groups:"), "Groups:\t100 65533 ");
  // The parent kept its own identity.
  EXPECT_EQ(::getuid(), 0u);
  EXPECT_EQ(::getgid(), 0u);
}

TEST(SpawnCredentials, EmptyGroupsDropsTheParentsSupplementaryGroups) {
  if (!test::is_root()) GTEST_SKIP() << "switching credentials needs root";
  // In a forked copy of this process (so the test binary keeps its own
  // identity), take supplementary groups, then spawn with none.
  pid_t pid = ::fork();
  if (pid == 0) {
    gid_t mine[] = {4, 27};
    if (::setgroups(2, mine) != 0) ::_exit(2);
    SpawnOptions options{.argv = {"cat", "/proc/self/status"}};
    options.credentials = Credentials::for_user("nobody").value();
    options.credentials->groups.clear();
    auto got = run_capture(options);
    ::_exit(status_field(got.out, "Groups:") == "Groups:\t " ? 0 : 1);  // the kernel's "none"
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the parent's groups reached the child";
}

TEST(SpawnLimits, RlimitsAreSetInTheChildOnly) {
  auto before = sys::getrlimit(RLIMIT_CORE);
  SpawnOptions options{.argv = {"cat", "/proc/self/limits"}};
  options.rlimits = {{RLIMIT_CORE, 4096, 8192}, {RLIMIT_NOFILE, 256, 512}};
  auto got = run_capture(options);
  EXPECT_NE(got.out.find("Max core file size        4096                 8192                 bytes"),
            std::string::npos)
      << got.out;
  EXPECT_NE(got.out.find("Max open files            256                  512                  files"),
            std::string::npos)
      << got.out;
  auto after = sys::getrlimit(RLIMIT_CORE);
  EXPECT_EQ(before->rlim_cur, after->rlim_cur);
}

TEST(SpawnLimits, RaisingAboveTheHardLimitIsReportedAsRlimitStep) {
  if (test::is_root()) {
    auto hard = sys::getrlimit(RLIMIT_NOFILE)->rlim_max;
    SpawnOptions options{.argv = {"true"}};
    options.rlimits = {{RLIMIT_NOFILE, hard, 1u << 30}};  // above fs.nr_open: EPERM even for root
    auto child = spawn(options);
    ASSERT_FALSE(child);
    EXPECT_EQ(child.error().step, SpawnStep::rlimit);
    EXPECT_EQ(child.error().object, "resource " + std::to_string(RLIMIT_NOFILE));
  }
}

// Fields 1 (pid), 5 (pgrp) and 6 (session) of /proc/self/stat, read by cat itself.
std::array<long, 3> ids_of_child(SpawnOptions options) {
  options.argv = {"cat", "/proc/self/stat"};
  auto got = run_capture(options);
  std::string text = got.out.substr(got.out.rfind(')') + 2);
  std::istringstream words(text);
  std::string state;
  long ppid, pgrp, session;
  words >> state >> ppid >> pgrp >> session;
  long pid = std::stol(got.out);
  return {pid, pgrp, session};
}

TEST(SpawnProcessGroup, SetsidMakesASessionLeader) {
  auto [pid, pgrp, session] = ids_of_child({.setsid = true});
  EXPECT_EQ(pgrp, pid);
  EXPECT_EQ(session, pid);
}

TEST(SpawnProcessGroup, NewGroupLedByTheChild) {
  SpawnOptions options;
  options.process_group = 0;
  auto [pid, pgrp, session] = ids_of_child(options);
  EXPECT_EQ(pgrp, pid);
  EXPECT_EQ(session, ::getsid(0));
}

TEST(SpawnProcessGroup, ByDefaultTheChildStaysInOurGroup) {
  auto [pid, pgrp, session] = ids_of_child({});
  EXPECT_EQ(pgrp, ::getpgrp());
}

TEST(SpawnParentDeath, ChildIsSignalledWhenTheSpawningThreadExits) {
  UniqueFd pidfd;
  std::thread([&pidfd] {
    auto child = spawn({.argv = {"sleep", "30"}, .parent_death_signal = SIGKILL});
    ASSERT_TRUE(child) << child.error().message();
    pidfd = child->release();  // keep it running past this thread
  }).join();
  ASSERT_TRUE(pidfd);
  pollfd pfd{.fd = pidfd.get(), .events = POLLIN, .revents = 0};
  ASSERT_EQ(::poll(&pfd, 1, 10000), 1) << "child outlived the thread that spawned it";
  auto waited = sys::waitid_pidfd(pidfd.get(), WEXITED);
  ASSERT_TRUE(waited);
  EXPECT_EQ(ExitStatus::from_siginfo(waited->info), ExitStatus::from_signal(SIGKILL));
}

// Runs body in a forked process with its own mount namespace, where cgroup2
// can be mounted without touching the host. Exit code 77 means "skip".
int in_private_mount_ns(const std::function<int(const std::string&)>& body) {
  test::TempDir mountpoint;
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::unshare(CLONE_NEWNS) != 0) ::_exit(77);
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) ::_exit(77);
    if (::mount("cgroup2", mountpoint.path().c_str(), "cgroup2", 0, nullptr) != 0) ::_exit(77);
    ::_exit(body(mountpoint.path()));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST(SpawnCgroup, ChildStartsInTheGivenCgroup) {
  if (!test::is_root()) GTEST_SKIP() << "mounting cgroup2 needs root";
  std::string name = "brisk-test-" + std::to_string(::getpid());
  int rc = in_private_mount_ns([&](const std::string& mnt) {
    std::string dir = mnt + "/" + name;
    if (::mkdir(dir.c_str(), 0755) != 0) return 77;
    SpawnOptions options{.argv = {"cat", "/proc/self/cgroup"}};
    options.cgroup = dir;
    auto got = run_capture(options);
    // The cgroup is empty again once cat is reaped; remove it in every case.
    ::rmdir(dir.c_str());
    return got.out.find("0::/" + name + "\n") != std::string::npos ? 0 : 1;
  });
  if (rc == 77) GTEST_SKIP() << "cgroup2 cannot be mounted here";
  EXPECT_EQ(rc, 0);
}

TEST(SpawnCgroup, MissingCgroupIsReportedBeforeCloning) {
  SpawnOptions options{.argv = {"true"}};
  options.cgroup = "/nonexistent/brisk-cgroup";
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().step, SpawnStep::prepare);
  EXPECT_EQ(child.error().object, "/nonexistent/brisk-cgroup");
}

}  // namespace
}  // namespace brisk
