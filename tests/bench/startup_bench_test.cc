// `brisk bench startup` at a tiny N: a row per program and command, every
// figure there and positive, the JSON keys docs/performance.md's figures come from,
// and --brisk measuring other builds side by side.
#include "bench/startup_bench.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "brisk/command.h"
#include "support/test_support.h"

namespace brisk::bench {
namespace {

Output run(std::vector<std::string> args) {
  args.insert(args.begin(), BRISK_CLI_PATH);
  return Command(args).stdout_to(Sink::capture()).stderr_to(Sink::capture()).check(false).output();
}

class StartupBench : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::can_unshare_net()) GTEST_SKIP() << "the bench's namespace needs CAP_SYS_ADMIN";
  }
};

TEST_F(StartupBench, JsonHasARowPerProgramAndCommandWithEveryKey) {
  Output out = run({"bench", "startup", "--n", "3", "--json"});
  ASSERT_EQ(out.status.exit.code(), std::optional<int>(0)) << out.err;
  auto report = nlohmann::json::parse(out.out);
  EXPECT_EQ(report["bench"], "startup");
  EXPECT_EQ(report["n"], 3);
  ASSERT_EQ(report["rows"].size(), 4u) << report.dump(2);
  std::vector<std::string> seen;
  for (const auto& row : report["rows"]) {
    for (const char* key : {"program", "path", "command", "runs", "failures", "median_us", "mean_us",
                            "user_us", "system_us", "task_clock_us", "ratio_to_ip", "size_bytes"})
      EXPECT_TRUE(row.contains(key)) << key << " in " << row;
    seen.push_back(row["program"].get<std::string>() + " " + row["command"].get<std::string>());
    EXPECT_EQ(row["runs"], 3) << row;
    EXPECT_EQ(row["failures"], 0) << row;
    EXPECT_GT(row["median_us"].get<double>(), 0) << row;
    EXPECT_GT(row["mean_us"].get<double>(), 0) << row;
    EXPECT_GT(row["task_clock_us"].get<double>(), 0) << row;
    EXPECT_DOUBLE_EQ(row["task_clock_us"].get<double>(),
                     row["user_us"].get<double>() + row["system_us"].get<double>());
    EXPECT_GT(row["size_bytes"].get<long long>(), 0) << row;
    if (row["program"] == "ip") {
      EXPECT_DOUBLE_EQ(row["ratio_to_ip"].get<double>(), 1.0);
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"ip -V", "brisk -V", "ip link show", "brisk link show"}));
  // The default brisk is the one beside brisk-bench: this build's.
  EXPECT_EQ(report["rows"][1]["path"], BRISK_CLI_PATH);
}

TEST_F(StartupBench, RepeatedBriskComparesBuildsInOneTable) {
  Output out = run({"bench", "startup", "--n", "2", "--brisk", BRISK_CLI_PATH, "--brisk", BRISK_BENCH_PATH});
  // brisk-bench is no brisk: `brisk-bench link show` fails, and the run says so with exit 1.
  EXPECT_EQ(out.status.exit.code(), std::optional<int>(1)) << out.err;
  std::istringstream lines(out.out);
  std::vector<std::string> labels;
  for (std::string line; std::getline(lines, line);)
    for (std::string program :
         {std::string("ip"), std::string(BRISK_CLI_PATH), std::string(BRISK_BENCH_PATH)})
      for (const char* command : {" -V ", " link show "})
        if (line.rfind(program + command, 0) == 0) labels.push_back(program + command);
  EXPECT_EQ(labels.size(), 6u) << out.out;
  EXPECT_NE(out.out.find("median µs"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("task-clock µs"), std::string::npos) << out.out;
}

TEST_F(StartupBench, AMissingBriskIsAnErrorNamingIt) {
  Output out = run({"bench", "startup", "--n", "1", "--brisk", "/nonexistent/brisk"});
  EXPECT_EQ(out.status.exit.code(), std::optional<int>(1));
  EXPECT_NE(out.err.find("brisk bench startup: cannot run /nonexistent/brisk"), std::string::npos) << out.err;
}

TEST(StartupBenchTable, HasAHeaderAndALinePerRow) {
  StartupBenchReport report{.n = 2};
  report.rows.push_back({.program = "ip",
                         .path = "/bin/ip",
                         .command = "-V",
                         .runs = 2,
                         .median_us = 500,
                         .mean_us = 510,
                         .user_us = 100,
                         .system_us = 200,
                         .ratio_to_ip = 1});
  report.rows.push_back({.program = "brisk",
                         .path = "/b/brisk",
                         .command = "-V",
                         .runs = 2,
                         .median_us = 250,
                         .mean_us = 260,
                         .user_us = 50,
                         .system_us = 100,
                         .ratio_to_ip = 0.5});
  std::string table = format_table(report);
  EXPECT_NE(table.find("2 runs of each"), std::string::npos) << table;
  EXPECT_NE(table.find("ip -V          500.0       510.0           300.0    1.00x"), std::string::npos)
      << table;
  EXPECT_NE(table.find("brisk -V       250.0       260.0           150.0    0.50x"), std::string::npos)
      << table;
  EXPECT_EQ(report.failures(), 0);
}

}  // namespace
}  // namespace brisk::bench
