// The spawn engine's basic contract: it runs the program with the argv, env,
// cwd and umask asked for, and reports every failure as a typed error.
#include "brisk/spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/test_support.h"

namespace brisk {
namespace {

using test::run_capture;

TEST(Spawn, ExitCodeComesBackThroughThePidfd) {
  auto child = spawn({.argv = {"sh", "-c", "exit 7"}});
  ASSERT_TRUE(child) << child.error().message();
  EXPECT_GT(child->pid(), 0);
  EXPECT_GE(child->pidfd(), 0);
  auto status = child->wait();
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, ExitStatus::from_code(7));
  EXPECT_FALSE(status->success());
}

TEST(Spawn, ArgumentsArrivePreciselyWithoutAShell) {
  auto got = run_capture({.argv = {"printf", "%s|", "a b", "$HOME", "'q'", "*", ""}});
  EXPECT_TRUE(got.status.success());
  EXPECT_EQ(got.out, "a b|$HOME|'q'|*||");
}

TEST(Spawn, ProgramOverridesArgvZero) {
  auto got = run_capture({.argv = {"custom-name", "-c", "echo $0"}, .program = "/bin/sh"});
  EXPECT_EQ(got.out, "custom-name\n");
}

TEST(Spawn, PathSearchFindsProgramsByName) {
  auto got = run_capture({.argv = {"echo", "found"}});
  EXPECT_EQ(got.out, "found\n");
}

TEST(Spawn, PathSearchUsesTheChildsPathWhenSet) {
  test::TempDir dir;
  std::string script = dir.path() + "/brisk-only-here";
  std::ofstream(script) << "#!/bin/sh\necho from-child-path\n";
  ::chmod(script.c_str(), 0755);
  auto got = run_capture({.argv = {"brisk-only-here"}, .env = {{"PATH", dir.path()}}});
  EXPECT_EQ(got.out, "from-child-path\n");
}

// What spawn() would run, for a caller that wants to know first.
TEST(FindProgram, SearchesPathAsExecvpWouldAndChecksAPathAsIs) {
  auto sh = find_program("sh");
  ASSERT_TRUE(sh) << sh.error().message();
  EXPECT_EQ(::access(sh->c_str(), X_OK), 0) << *sh;
  EXPECT_EQ(*find_program("sh", "/nonexistent:/bin"), "/bin/sh");
  auto missing = find_program("sh", "/nonexistent");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ENOENT);
  EXPECT_EQ(missing.error().object, "sh");

  test::TempDir dir;
  std::string file = dir.path() + "/tool";
  std::ofstream(file) << "#!/bin/sh\n";
  ::chmod(file.c_str(), 0644);
  EXPECT_EQ(find_program("tool", dir.path()).error().code, EACCES);  // even root needs an x bit
  EXPECT_EQ(find_program(file).error().code, EACCES);
  ::chmod(file.c_str(), 0755);
  EXPECT_EQ(*find_program("tool", dir.path()), file);
  EXPECT_EQ(*find_program(file), file);
  EXPECT_EQ(find_program(dir.path() + "/").error().code, ENOENT);  // a directory is no program
}

TEST(Spawn, EnvironmentCanBeSetUnsetAndCleared) {
  ::setenv("BRISK_TEST_INHERITED", "yes", 1);
  ::setenv("BRISK_TEST_UNSET_ME", "present", 1);
  auto got = run_capture(
      {.argv = {"/usr/bin/env"}, .env = {{"BRISK_TEST_SET", "1"}, {"BRISK_TEST_UNSET_ME", std::nullopt}}});
  EXPECT_NE(got.out.find("BRISK_TEST_INHERITED=yes\n"), std::string::npos);
  EXPECT_NE(got.out.find("BRISK_TEST_SET=1\n"), std::string::npos);
  EXPECT_EQ(got.out.find("BRISK_TEST_UNSET_ME"), std::string::npos);

  auto cleared = run_capture({.argv = {"/usr/bin/env"}, .inherit_env = false, .env = {{"ONLY", "this"}}});
  EXPECT_EQ(cleared.out, "ONLY=this\n");
}

TEST(Spawn, CwdAndUmaskApplyInTheChild) {
  test::TempDir dir;
  SpawnOptions options{.argv = {"sh", "-c", "pwd; umask"}};
  options.cwd = dir.path();
  options.umask = 027;
  auto got = run_capture(options);
  EXPECT_EQ(got.out, std::filesystem::canonical(dir.path()).string() + "\n0027\n");
}

TEST(Spawn, MissingProgramIsProgramNotFoundNot127) {
  auto child = spawn({.argv = {"brisk-no-such-program"}});
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::program_not_found);
  EXPECT_EQ(child.error().code, ENOENT);
  EXPECT_EQ(child.error().step, SpawnStep::resolve_program);
  EXPECT_NE(child.error().message().find("brisk-no-such-program"), std::string::npos);
  EXPECT_THROW((void)spawn({.argv = {"brisk-no-such-program"}}).value(), ProgramNotFound);
}

TEST(Spawn, MissingAbsoluteProgramFailsAtExecWithENOENT) {
  auto child = spawn({.argv = {"/nonexistent/brisk-prog"}});
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::program_not_found);
  EXPECT_EQ(child.error().step, SpawnStep::exec);
  EXPECT_EQ(child.error().object, "/nonexistent/brisk-prog");
}

TEST(Spawn, NonExecutableProgramIsPermissionDenied) {
  test::TempDir dir;
  std::string file = dir.path() + "/not-executable";
  std::ofstream(file) << "#!/bin/sh\n";
  ::chmod(file.c_str(), 0644);
  auto child = spawn({.argv = {file}});
  ASSERT_FALSE(child);
  // Root may execute anything with an x bit; with none at all even root gets EACCES.
  EXPECT_EQ(child.error().code, EACCES);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::permission_denied);
  EXPECT_THROW(throw_error(child.error()), PermissionDenied);
}

TEST(Spawn, CwdThatIsAFileIsBadCwdWithENOTDIR) {
  SpawnOptions options{.argv = {"true"}};
  options.cwd = "/etc/passwd";
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().code, ENOTDIR);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::bad_cwd);
  EXPECT_THROW(throw_error(child.error()), BadWorkingDirectory);
}

TEST(Spawn, MissingCwdIsBadCwdBeforeAnythingRuns) {
  SpawnOptions options{.argv = {"true"}};
  options.cwd = "/nonexistent/brisk-dir";
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().code, ENOENT);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::bad_cwd);
  EXPECT_EQ(child.error().object, "/nonexistent/brisk-dir");
}

TEST(Spawn, MissingChrootIsBadRoot) {
  SpawnOptions options{.argv = {"/bin/true"}};
  options.chroot = "/nonexistent/brisk-root";
  auto child = spawn(options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::bad_chroot);
  EXPECT_THROW(throw_error(child.error()), BadRoot);
}

struct BadInput {
  const char* name;
  SpawnOptions options;
  const char* expected_text;
};

void PrintTo(const BadInput& input, std::ostream* os) { *os << input.name; }

class SpawnRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(SpawnRejects, BeforeAnythingRuns) {
  const auto& input = GetParam();
  auto before = test::open_fds();
  auto child = spawn(input.options);
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().kind(), SpawnError::Kind::invalid_argument) << child.error().message();
  EXPECT_NE(child.error().message().find(input.expected_text), std::string::npos) << child.error().message();
  EXPECT_THROW(throw_error(child.error()), InvalidSpawnOptions);
  EXPECT_EQ(test::open_fds(), before);
}

SpawnOptions with_group_conflict() {
  SpawnOptions o{.argv = {"true"}, .setsid = true};
  o.process_group = 0;
  return o;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, SpawnRejects,
    ::testing::Values(
        BadInput{"EmptyArgv", {}, "argv is empty"},
        BadInput{"NulInArgument", {.argv = {"echo", std::string("a\0b", 3)}}, "NUL"},
        BadInput{"NulInEnvValue", {.argv = {"true"}, .env = {{"K", std::string("v\0w", 3)}}}, "NUL"},
        BadInput{"EnvNameWithEquals",
                 {.argv = {"true"}, .env = {{"A=B", "c"}}},
                 "invalid environment variable name"},
        BadInput{"EmptyEnvName", {.argv = {"true"}, .env = {{"", "c"}}}, "invalid environment variable name"},
        BadInput{"FdMapToClosedFd",
                 {.argv = {"true"}, .fds = {{.child_fd = 5, .parent_fd = 987654}}},
                 "is not open"},
        BadInput{"FdMappedTwice", {.argv = {"true"}, .fds = {{3, 1}, {3, 2}}}, "mapped twice"},
        BadInput{"NegativeFd", {.argv = {"true"}, .fds = {{-1, 1}}}, "negative"},
        BadInput{"SetsidWithProcessGroup", with_group_conflict(), "conflict"},
        BadInput{"SoftAboveHard", {.argv = {"true"}, .rlimits = {{RLIMIT_CORE, 10, 5}}}, "soft"},
        BadInput{"BadDeathSignal", {.argv = {"true"}, .parent_death_signal = 999}, "parent_death_signal"},
        BadInput{"NamespaceWithoutTarget", {.argv = {"true"}, .namespaces = {{}}}, "neither fd nor path"}),
    [](const auto& info) { return info.param.name; });

TEST(Credentials, UnknownUserIsAClearError) {
  auto creds = Credentials::for_user("brisk-no-such-user");
  ASSERT_FALSE(creds);
  EXPECT_EQ(creds.error().code, ENOENT);
  EXPECT_NE(creds.error().message().find("no such user"), std::string::npos);
  EXPECT_FALSE(Credentials::for_user("nobody", "brisk-no-such-group"));
}

TEST(Credentials, ResolvesNobodyWithItsGroups) {
  auto creds = Credentials::for_user("nobody");
  ASSERT_TRUE(creds) << creds.error().message();
  EXPECT_EQ(creds->uid, 65534u);
  EXPECT_EQ(creds->gid, 65534u);
  auto numeric = Credentials::for_user("65534", "0");
  ASSERT_TRUE(numeric);
  EXPECT_EQ(numeric->gid, 0u);
}

}  // namespace
}  // namespace brisk
