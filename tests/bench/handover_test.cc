// brisk carries no benchmark code: `brisk bench ...` and `brisk demo` exec
// brisk-bench with argv unchanged, found beside brisk (the build tree) or in
// $libexecdir/brisk (installed); without it brisk says where it looked.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "brisk/command.h"
#include "support/test_support.h"

namespace brisk {
namespace {

namespace fs = std::filesystem;

Output run(const std::string& program, std::vector<std::string> args) {
  args.insert(args.begin(), program);
  return Command(args).stdout_to(Sink::capture()).stderr_to(Sink::capture()).check(false).output();
}

// A scratch directory beside the build's binaries, so that they can be hard-linked in.
class Layout : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::path(BRISK_CLI_PATH).parent_path() / "handover-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Places `from` at dir/relative (hard link, or a copy across filesystems).
  std::string place(const std::string& from, const std::string& relative) {
    fs::path to = dir_ / relative;
    fs::create_directories(to.parent_path());
    std::error_code ec;
    fs::create_hard_link(from, to, ec);
    if (ec) fs::copy_file(from, to);
    return to.string();
  }
  fs::path dir_;
};

// argv[0] included: brisk-bench run directly as "brisk" prints what brisk does.
TEST(Handover, BenchHelpIsBriskBenchsWithArgvUnchanged) {
  for (std::vector<std::string> args : {std::vector<std::string>{"bench", "--help"},
                                        {"bench", "ip", "--help"},
                                        {"demo", "--help"},
                                        {"bench", "startup", "--help"}}) {
    Output via_brisk = run(BRISK_CLI_PATH, args);
    args.insert(args.begin(), BRISK_CLI_PATH);
    auto direct = test::run_capture({.argv = args, .program = BRISK_BENCH_PATH});
    EXPECT_EQ(via_brisk.status.exit.code(), std::optional<int>(0)) << args[1] << "\n" << via_brisk.err;
    EXPECT_EQ(direct.status.code(), std::optional<int>(0));
    EXPECT_EQ(via_brisk.out, direct.out) << args[1];
    EXPECT_NE(via_brisk.out.find(std::string("Usage: ") + BRISK_CLI_PATH + " " + args[1]), std::string::npos)
        << via_brisk.out;
  }
}

TEST(Handover, UsageErrorsKeepTheirMessageAndExitCode) {
  Output bad = run(BRISK_CLI_PATH, {"bench", "spawn", "--no-such-option"});
  EXPECT_EQ(bad.status.exit.code(), std::optional<int>(2));
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(
      bad.err,
      "The following argument was not expected: --no-such-option\nRun with --help for more information.\n");
  Output none = run(BRISK_CLI_PATH, {"bench"});
  EXPECT_EQ(none.status.exit.code(), std::optional<int>(2));
  EXPECT_NE(none.err.find("subcommand is required"), std::string::npos) << none.err;
}

TEST(Handover, BriskHelpStillListsBenchAndDemo) {
  Output help = run(BRISK_CLI_PATH, {"--help"});
  EXPECT_EQ(help.status.exit.code(), std::optional<int>(0));
  for (const char* line : {"bench", "demo", "run"})
    EXPECT_NE(help.out.find(line), std::string::npos) << help.out;
}

TEST_F(Layout, WithoutBriskBenchBriskSaysWhereItLookedAndExits127) {
  std::string brisk = place(BRISK_CLI_PATH, "bin/brisk");
  Output out = run(brisk, {"demo", "--help"});
  EXPECT_EQ(out.status.exit.code(), std::optional<int>(127));
  EXPECT_EQ(out.out, "");
  std::string beside = (dir_ / "bin" / "brisk-bench").string();
  std::string installed = (dir_ / "libexec" / "brisk" / "brisk-bench").string();
  EXPECT_NE(out.err.find("brisk: `demo` is in brisk-bench, which is not installed"), std::string::npos)
      << out.err;
  EXPECT_NE(out.err.find(beside + " or " + installed), std::string::npos) << out.err;
  // Everything else of brisk needs no brisk-bench.
  Output version = run(brisk, {"-V"});
  EXPECT_EQ(version.status.exit.code(), std::optional<int>(0)) << version.err;
}

TEST_F(Layout, ABriskBenchThatCannotBeExecutedIs126) {
  std::string brisk = place(BRISK_CLI_PATH, "bin/brisk");
  fs::path bench = dir_ / "bin" / "brisk-bench";
  { std::ofstream(bench) << "not a program\n"; }
  fs::permissions(bench, fs::perms::owner_read | fs::perms::owner_write);
  Output out = run(brisk, {"bench", "--help"});
  if (test::is_root() && out.status.exit.code() == std::optional<int>(0))
    GTEST_SKIP() << "root may exec anything";
  EXPECT_EQ(out.status.exit.code(), std::optional<int>(126));
  EXPECT_NE(out.err.find("cannot run `brisk-bench bench`"), std::string::npos) << out.err;
  EXPECT_NE(out.err.find(bench.string()), std::string::npos) << out.err;
}

// The install's layout: $prefix/bin/brisk hands over to $prefix/libexec/brisk/brisk-bench.
TEST_F(Layout, TheInstalledLayoutWorks) {
  std::string brisk = place(BRISK_CLI_PATH, "bin/brisk");
  place(BRISK_BENCH_PATH, "libexec/brisk/brisk-bench");
  Output out = run(brisk, {"bench", "--help"});
  EXPECT_EQ(out.status.exit.code(), std::optional<int>(0)) << out.err;
  EXPECT_NE(out.out.find("startup"), std::string::npos) << out.out;
  // And brisk-bench finds that brisk back, by the reverse path.
  if (!test::is_root()) GTEST_SKIP() << "the start-up bench's namespace needs root";
  Output bench = run(brisk, {"bench", "startup", "--n", "1", "--json"});
  ASSERT_EQ(bench.status.exit.code(), std::optional<int>(0)) << bench.err;
  auto report = nlohmann::json::parse(bench.out);
  EXPECT_EQ(report["rows"][1]["path"], brisk) << report.dump(2);
}

}  // namespace
}  // namespace brisk
