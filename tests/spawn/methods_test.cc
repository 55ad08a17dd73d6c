// Every creation method the engine falls back to works the same: clone3,
// clone, vfork and fork each run programs and report child-side failures.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "brisk/spawn.h"
#include "support/test_support.h"

namespace brisk {
namespace {

class SpawnMethods : public ::testing::TestWithParam<SpawnMethod> {
 protected:
  void SetUp() override { testing::force_spawn_method(GetParam()); }
  void TearDown() override { testing::force_spawn_method(SpawnMethod::unknown); }
};

TEST_P(SpawnMethods, RunsProgramsWithTheirOutput) {
  auto got = test::run_capture({.argv = {"echo", "via", to_string(GetParam())}});
  EXPECT_TRUE(got.status.success());
  EXPECT_EQ(got.out, std::string("via ") + to_string(GetParam()) + "\n");
}

TEST_P(SpawnMethods, ReportsChildSideFailuresWithTheirStep) {
  SpawnOptions options{.argv = {"/bin/true"}};
  options.cwd = "/nonexistent";
  options.namespaces = {{CLONE_NEWNET, -1, "/proc/self/ns/net"}};  // skips the parent's cwd check
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().step, SpawnStep::chdir);
  EXPECT_EQ(child.error().code, ENOENT);

  auto missing = spawn({.argv = {"/nonexistent/prog"}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind(), SpawnError::Kind::program_not_found);
  EXPECT_EQ(missing.error().step, SpawnStep::exec);
}

TEST_P(SpawnMethods, FailuresAreReportedWhenTheMapCoversTheLowestFreeFds) {
  // The fork fallback's sync pipe would take the lowest free numbers; a map
  // that targets them must not close it early and hide the failure.
  int lowest = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
  ::close(lowest);
  SpawnOptions options{.argv = {"/bin/true"}};
  for (int fd = lowest; fd < lowest + 8; ++fd) options.fds.push_back({.child_fd = fd, .parent_fd = 2});
  options.cwd = "/nonexistent";
  options.namespaces = {{CLONE_NEWNET, -1, "/proc/self/ns/net"}};
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().step, SpawnStep::chdir);
}

TEST_P(SpawnMethods, NoDescriptorsLeak) {
  auto before = test::open_fds();
  for (int i = 0; i < 10; ++i) {
    auto child = spawn({.argv = {i % 2 ? "/bin/true" : "/nonexistent/prog"}, .inherit_stdio = false});
    if (child) (void)child->wait();
  }
  EXPECT_EQ(test::open_fds(), before);
}

INSTANTIATE_TEST_SUITE_P(All, SpawnMethods,
                         ::testing::Values(SpawnMethod::clone3, SpawnMethod::clone, SpawnMethod::vfork,
                                           SpawnMethod::fork),
                         [](const auto& info) { return std::string(to_string(info.param)); });

struct Refusals {
  int clone3 = 0;    // errno for clone3, 0 to allow
  int clone_vm = 0;  // errno for clone with CLONE_VM
  int vfork = 0;     // errno for vfork
};

// A seccomp program that refuses the given calls the way container
// runtimes' profiles and emulators do.
std::vector<sock_filter> refusal_filter(const Refusals& r) {
  auto ret_errno = [](int err) -> sock_filter {
    return BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | static_cast<unsigned>(err));
  };
  std::vector<sock_filter> prog = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr))};
  if (r.clone3) {
    prog.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
    prog.push_back(ret_errno(r.clone3));
  }
  if (r.vfork) {
    prog.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_vfork, 0, 1));
    prog.push_back(ret_errno(r.vfork));
  }
  if (r.clone_vm) {
    prog.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3));
    prog.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
    prog.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_VM, 0, 1));
    prog.push_back(ret_errno(r.clone_vm));
  }
  prog.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  return prog;
}

// In a forked copy of this process (the filter cannot be removed), refuse
// calls and check the probe lands on `expected` and still runs programs.
// Returns 0 on success, 77 when seccomp is unavailable.
int probe_under_seccomp(const Refusals& refusals, SpawnMethod expected) {
  pid_t pid = ::fork();
  if (pid == 0) {
    auto prog = refusal_filter(refusals);
    sock_fprog program{.len = static_cast<unsigned short>(prog.size()), .filter = prog.data()};
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ::_exit(77);
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) ::_exit(77);
    auto got = test::run_capture({.argv = {"echo", "ok"}});
    auto failed = spawn({.argv = {"/nonexistent/prog"}});
    bool reported = !failed && failed.error().step == SpawnStep::exec;
    ::_exit(got.out == "ok\n" && reported && spawn_engine_info().method == expected ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

struct FallbackCase {
  const char* name;
  Refusals refusals;
  SpawnMethod expected;
};
void PrintTo(const FallbackCase& c, std::ostream* os) { *os << c.name; }

class SpawnFallback : public ::testing::TestWithParam<FallbackCase> {};

TEST_P(SpawnFallback, ProbeMovesDownTheChain) {
  int verdict = probe_under_seccomp(GetParam().refusals, GetParam().expected);
  if (verdict == 77) GTEST_SKIP() << "cannot install a seccomp filter here";
  EXPECT_EQ(verdict, 0) << "expected to settle on " << to_string(GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Seccomp, SpawnFallback,
    ::testing::Values(
        FallbackCase{"Clone3Eperm", {.clone3 = EPERM}, SpawnMethod::clone},
        FallbackCase{"Clone3Enosys", {.clone3 = ENOSYS}, SpawnMethod::clone},
        FallbackCase{"CloneRefusedToo", {.clone3 = ENOSYS, .clone_vm = EPERM}, SpawnMethod::vfork},
        FallbackCase{
            "VforkEinvalToo", {.clone3 = ENOSYS, .clone_vm = EPERM, .vfork = EINVAL}, SpawnMethod::fork}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SpawnEngine, ProbeSettlesOnClone3OnThisKernel) {
  ASSERT_TRUE(spawn({.argv = {"/bin/true"}}));
  EXPECT_EQ(spawn_engine_info().method, SpawnMethod::clone3);
  EXPECT_TRUE(spawn_engine_info().clear_sighand);
}

}  // namespace
}  // namespace brisk
