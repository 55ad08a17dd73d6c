// Descriptors: the child gets exactly the declared map, the parent leaks
// nothing on any path (success, failed exec, failed chroot, failed cwd), and
// closing stays cheap at RLIMIT_NOFILE 1048576.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

#include "brisk/spawn.h"
#include "support/test_support.h"
#include "sys/syscalls.h"

namespace brisk {
namespace {

std::set<int> parse_fd_list(const std::string& text) {
  std::set<int> fds;
  std::istringstream words(text);
  for (int fd; words >> fd;) fds.insert(fd);
  return fds;
}

// The child's own fds, listed by ls (which opens one for the directory itself).
std::set<int> child_fds(SpawnOptions options) {
  options.argv = {"/bin/ls", "/proc/self/fd"};
  auto got = test::run_capture(options);
  EXPECT_TRUE(got.status.success());
  auto fds = parse_fd_list(got.out);
  fds.erase(3);  // ls's own directory handle
  return fds;
}

TEST(SpawnFds, ChildGetsOnlyStdioAndTheDeclaredMap) {
  // Open plenty of descriptors, none of them mapped; some not even CLOEXEC.
  std::vector<UniqueFd> noise;
  for (int i = 0; i < 20; ++i) noise.emplace_back(::open("/dev/null", O_RDONLY));  // no O_CLOEXEC on purpose
  auto extra = sys::open("/dev/null", O_RDONLY);
  SpawnOptions options;
  options.fds = {{.child_fd = 7, .parent_fd = extra->get()}};
  EXPECT_EQ(child_fds(options), (std::set<int>{0, 1, 2, 7}));
}

TEST(SpawnFds, MappingsMaySwapDescriptors) {
  // child X <- parent Y and child Y <- parent X: a naive dup2 in order would
  // overwrite the second source before using it.
  auto a = sys::pipe();
  auto b = sys::pipe();
  UniqueFd x(::fcntl(a->write.get(), F_DUPFD_CLOEXEC, 100));
  UniqueFd y(::fcntl(b->write.get(), F_DUPFD_CLOEXEC, 100));
  a->write.reset();
  b->write.reset();
  std::string fx = std::to_string(x.get()), fy = std::to_string(y.get());
  auto child = spawn(
      {.argv = {"bash", "-c", "echo A >&" + fx + "; echo B >&" + fy},
       .fds = {{.child_fd = x.get(), .parent_fd = y.get()}, {.child_fd = y.get(), .parent_fd = x.get()}}});
  ASSERT_TRUE(child) << child.error().message();
  x.reset();
  y.reset();
  ASSERT_TRUE(child->wait()->success());
  char buf[8] = {};
  ASSERT_EQ(*sys::read(a->read.get(), buf), 2u);
  EXPECT_EQ(std::string(buf, 2), "B\n");
  ASSERT_EQ(*sys::read(b->read.get(), buf), 2u);
  EXPECT_EQ(std::string(buf, 2), "A\n");
}

TEST(SpawnFds, StdioCanBeNullInsteadOfInherited) {
  // With inherit_stdio off, unmapped 0..2 read and write /dev/null.
  auto pipe = sys::pipe();
  auto child = spawn({.argv = {"sh", "-c", "readlink /proc/self/fd/0 >&3; readlink /proc/self/fd/2 >&3"},
                      .fds = {{.child_fd = 3, .parent_fd = pipe->write.get()}},
                      .inherit_stdio = false});
  ASSERT_TRUE(child) << child.error().message();
  pipe->write.reset();
  char buf[128] = {};
  size_t total = 0;
  while (auto n = sys::read(pipe->read.get(), std::span(buf + total, sizeof buf - total))) {
    if (*n == 0) break;
    total += *n;
  }
  EXPECT_EQ(std::string(buf, total), "/dev/null\n/dev/null\n");
  EXPECT_TRUE(child->wait()->success());
}

struct LeakCase {
  const char* name;
  SpawnOptions options;
  bool succeeds;
};

void PrintTo(const LeakCase& c, std::ostream* os) { *os << c.name; }

class SpawnLeaks : public ::testing::TestWithParam<LeakCase> {};

TEST_P(SpawnLeaks, NoDescriptorOrChildLeftBehind) {
  auto extra = sys::open("/dev/null", O_RDONLY);
  SpawnOptions options = GetParam().options;
  options.fds.push_back({.child_fd = 9, .parent_fd = extra->get()});
  options.inherit_stdio = false;  // opens /dev/null internally: must be closed too
  auto before = test::open_fds();
  for (int i = 0; i < 20; ++i) {
    auto child = spawn(options);
    ASSERT_EQ(bool(child), GetParam().succeeds) << (child ? "" : child.error().message());
    if (child) {
      ASSERT_TRUE(child->wait());
    }
  }
  EXPECT_EQ(test::open_fds(), before);
  // Every child was reaped: nothing is left to wait for.
  siginfo_t info{};
  EXPECT_EQ(::waitid(P_ALL, 0, &info, WEXITED | WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

INSTANTIATE_TEST_SUITE_P(
    Paths, SpawnLeaks,
    ::testing::Values(LeakCase{"Success", {.argv = {"/bin/true"}}, true},
                      LeakCase{"FailedExec", {.argv = {"/nonexistent/prog"}}, false},
                      LeakCase{"NotExecutable", {.argv = {"/etc/passwd"}}, false},
                      LeakCase{"FailedChroot", {.argv = {"/bin/true"}, .chroot = "/etc/passwd"}, false},
                      LeakCase{"FailedCwdInChild",
                               {.argv = {"/bin/true"},
                                .cwd = "/nonexistent",
                                .namespaces = {{CLONE_NEWNET, -1, "/proc/self/ns/net"}}},
                               false},
                      LeakCase{
                          "FailedSetns",
                          {.argv = {"/bin/true"}, .namespaces = {{CLONE_NEWUTS, -1, "/proc/self/ns/net"}}},
                          false},
                      LeakCase{"FailedNamespaceOpen",
                               {.argv = {"/bin/true"}, .namespaces = {{CLONE_NEWNET, -1, "/nonexistent/ns"}}},
                               false}),
    [](const auto& info) { return info.param.name; });

TEST(SpawnFds, HugeNofileClosesWithCloseRange) {
  // 1048576 where the hard limit allows it (CAP_SYS_RESOURCE may raise it);
  // otherwise the hard limit itself, which shows the same: the top fd is
  // closed without a loop over the range.
  auto saved = sys::getrlimit(RLIMIT_NOFILE);
  ASSERT_TRUE(saved);
  rlim_t wanted = 1048576;
  if (!sys::setrlimit(RLIMIT_NOFILE, {wanted, wanted})) wanted = saved->rlim_max;
  if (wanted < 4096) GTEST_SKIP() << "RLIMIT_NOFILE hard limit is only " << wanted;
  struct Restore {
    rlimit limit;
    ~Restore() { (void)sys::setrlimit(RLIMIT_NOFILE, limit); }
  } restore{*saved};
  ASSERT_TRUE(sys::setrlimit(RLIMIT_NOFILE, {wanted, wanted}));

  // A descriptor at the very top of the range, without CLOEXEC: it must not reach the child.
  int top = static_cast<int>(wanted - 1);
  ASSERT_EQ(::dup2(1, top), top);
  UniqueFd hold(top);
  EXPECT_EQ(child_fds({}), (std::set<int>{0, 1, 2}));
  EXPECT_TRUE(spawn_engine_info().close_range);
}

TEST(SpawnFds, ProcWalkFallbackAlsoClosesEverything) {
  testing::force_proc_fd_walk(true);
  struct Reset {
    ~Reset() { testing::force_proc_fd_walk(false); }
  } reset;
  UniqueFd leaky(::open("/dev/null", O_RDONLY));  // no O_CLOEXEC
  auto extra = sys::open("/dev/null", O_RDONLY);
  SpawnOptions options;
  options.fds = {{.child_fd = 4, .parent_fd = extra->get()}};
  EXPECT_EQ(child_fds(options), (std::set<int>{0, 1, 2, 4}));
  EXPECT_FALSE(spawn_engine_info().close_range);
}

}  // namespace
}  // namespace brisk
