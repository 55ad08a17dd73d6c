// Every creation method the engine falls back to works the same: clone3,
// clone, vfork and fork each run programs and report child-side failures.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

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

TEST(SpawnEngine, ProbeSettlesOnClone3OnThisKernel) {
  ASSERT_TRUE(spawn({.argv = {"/bin/true"}}));
  EXPECT_EQ(spawn_engine_info().method, SpawnMethod::clone3);
  EXPECT_TRUE(spawn_engine_info().clear_sighand);
}

}  // namespace
}  // namespace brisk
