// A child that fails, for real, at each step of its setup (SpawnStep), and
// one killed by a signal during setup. Each failure names its step and
// errno, the child is reaped, and no descriptor is left.
//
// Not reachable from outside, so not tested here: `signals` (rt_sigaction
// and rt_sigprocmask with the arguments the parent prepared cannot fail),
// `close_fds` (close_range on a valid range cannot fail), `umask` (cannot
// fail) and `parent_death_signal` (prctl with a validated signal cannot fail;
// the ESRCH check needs the parent to die during the spawn).
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "brisk/spawn.h"
#include "fault/fault_support.h"

namespace brisk::fault_test {
namespace {

struct StepCase {
  const char* name;
  SpawnStep step;
  int code;
};

// Spawns and expects the failure `expected` with nothing left behind.
void expect_step_failure(const SpawnOptions& options, SpawnStep step, int code, const char* what) {
  LeakCheck leaks;
  auto child = spawn(options);
  ASSERT_FALSE(child) << what << ": spawned";
  EXPECT_EQ(child.error().step, step) << what << ": " << child.error().message();
  EXPECT_EQ(child.error().code, code) << what << ": " << child.error().message();
  EXPECT_FALSE(child.error().message().empty());
  leaks.expect_clean(what);
}

// The mount namespace entry moves path checks from the parent to the child
// (paths mean something else there), so chroot and chdir fail in the child.
NamespaceEntry own_mount_namespace() { return {.type = CLONE_NEWNS, .path = "/proc/self/ns/mnt"}; }

TEST(ChildSteps, ProcessGroupThatDoesNotExist) {
  expect_step_failure({.argv = {"/bin/true"}, .process_group = 0x3fffffff}, SpawnStep::process_group, EPERM,
                      "setpgid");
}

TEST(ChildSteps, FdMapOntoANumberAboveTheLimit) {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  int target = static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
  expect_step_failure({.argv = {"/bin/true"}, .fds = {{.child_fd = target, .parent_fd = 1}}},
                      SpawnStep::fd_map, EINVAL, "dup above the limit");
}

TEST(ChildSteps, SetnsIntoSomethingThatIsNoNamespace) {
  if (!test::is_root()) GTEST_SKIP() << "setns needs CAP_SYS_ADMIN";
  UniqueFd not_ns(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  expect_step_failure({.argv = {"/bin/true"}, .namespaces = {{.type = 0, .fd = not_ns.get()}}},
                      SpawnStep::setns, EINVAL, "setns");
}

TEST(ChildSteps, CgroupThatRefusesTheChild) {
  if (!test::is_root()) GTEST_SKIP() << "needs root to make a cgroup";
  // A cgroup v1 cpuset with no CPUs: attaching a task fails with ENOSPC.
  std::filesystem::path dir = "/sys/fs/cgroup/cpuset/brisk-fault-" + std::to_string(::getpid());
  if (::mkdir(dir.c_str(), 0755) < 0) GTEST_SKIP() << "no cgroup v1 cpuset hierarchy";
  struct Remove {
    std::filesystem::path dir;
    ~Remove() { ::rmdir(dir.c_str()); }
  } remove{dir};
  // Without CLONE_INTO_CGROUP (cgroup v2 only), the child writes cgroup.procs.
  testing::force_spawn_method(SpawnMethod::clone);
  expect_step_failure({.argv = {"/bin/true"}, .cgroup = dir}, SpawnStep::cgroup, ENOSPC, "cgroup.procs");
  testing::force_spawn_method(SpawnMethod::unknown);
  // clone3 with CLONE_INTO_CGROUP refuses a v1 directory: a clone error.
  LeakCheck leaks;
  auto child = spawn({.argv = {"/bin/true"}, .cgroup = dir});
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().step, SpawnStep::clone) << child.error().message();
  leaks.expect_clean("clone into v1");
}

TEST(ChildSteps, ChrootToAMissingDirectory) {
  if (!test::is_root()) GTEST_SKIP() << "chroot needs CAP_SYS_CHROOT";
  expect_step_failure(
      {.argv = {"/bin/true"}, .chroot = "/nonexistent-root", .namespaces = {own_mount_namespace()}},
      SpawnStep::chroot, ENOENT, "chroot");
}

TEST(ChildSteps, ChdirToAFile) {
  if (!test::is_root()) GTEST_SKIP() << "setns needs CAP_SYS_ADMIN";
  expect_step_failure({.argv = {"/bin/true"}, .cwd = "/etc/hostname", .namespaces = {own_mount_namespace()}},
                      SpawnStep::chdir, ENOTDIR, "chdir");
}

TEST(ChildSteps, RlimitAboveNrOpen) {
  std::ifstream nr_open_file("/proc/sys/fs/nr_open");
  rlim_t nr_open = 0;
  nr_open_file >> nr_open;
  ASSERT_GT(nr_open, 0u);
  // Even root cannot raise RLIMIT_NOFILE past fs.nr_open.
  expect_step_failure({.argv = {"/bin/true"}, .rlimits = {{RLIMIT_NOFILE, nr_open + 1, nr_open + 1}}},
                      SpawnStep::rlimit, EPERM, "prlimit");
}

// The credential steps fail for a caller without CAP_SETUID/CAP_SETGID: run
// them in a forked copy that has dropped to nobody.
TEST(ChildSteps, CredentialStepsWithoutPrivilege) {
  if (!test::is_root()) GTEST_SKIP() << "needs root to become nobody";
  int code = in_forked_process([] {
    if (!drop_to_nobody()) return 10;
    expect_step_failure(
        {.argv = {"/bin/true"}, .credentials = Credentials{.uid = 65534, .gid = 65534, .groups = {0}}},
        SpawnStep::setgroups, EPERM, "setgroups");
    expect_step_failure(
        {.argv = {"/bin/true"}, .credentials = Credentials{.uid = 65534, .gid = 0, .groups = {}}},
        SpawnStep::setgid, EPERM, "setgid");
    expect_step_failure(
        {.argv = {"/bin/true"}, .credentials = Credentials{.uid = 0, .gid = 65534, .groups = {}}},
        SpawnStep::setuid, EPERM, "setuid");
    return ::testing::Test::HasFailure() ? 11 : 0;
  });
  EXPECT_EQ(code, 0);
}

TEST(ChildSteps, ExecOfFilesThatCannotRun) {
  test::TempDir dir;
  std::string plain = dir.path() + "/plain", garbage = dir.path() + "/garbage";
  std::ofstream(plain) << "data\n";
  std::ofstream(garbage) << "\x7f"
                            "ELF garbage";
  ::chmod(plain.c_str(), 0644);
  ::chmod(garbage.c_str(), 0755);
  // Root may read a 0644 file but never execute it without an x bit.
  expect_step_failure({.argv = {plain}}, SpawnStep::exec, EACCES, "exec non-executable");
  expect_step_failure({.argv = {garbage}}, SpawnStep::exec, ENOEXEC, "exec garbage");
  expect_step_failure({.argv = {dir.path()}}, SpawnStep::exec, EACCES, "exec a directory");
}

// A child killed (SIGKILL from outside) while paused in its setup: spawn()
// returns the Child, and its status says how it died. The parent thread is
// released by the kernel (the vfork completion fires on exit).
TEST(ChildSteps, AChildKilledDuringSetupIsReportedAndReaped) {
  LeakCheck leaks;
  {
    PausedSpawn paused({.argv = {"/bin/true"}});
    ASSERT_EQ(::kill(paused.pid(), SIGKILL), 0);
    auto child = paused.release();
    ASSERT_TRUE(child) << child.error().message();
    auto status = child->wait();
    ASSERT_TRUE(status);
    EXPECT_EQ(status->kind, ExitStatus::Kind::signaled);
    EXPECT_EQ(status->signal().value_or(0), SIGKILL);
  }
  leaks.expect_clean("killed in setup");
}

}  // namespace
}  // namespace brisk::fault_test
