// `brisk bench spawn` and `brisk demo` at tiny sizes: every method produces
// a number, the JSON and CSV have their shape, plots are written, and no
// temp root or ballast is left behind, even when the run is stopped.
#include "bench/spawn_bench.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "bench/interrupt.h"
#include "bench/plot.h"
#include "bench/spawn_methods.h"
#include "bench/spawn_report.h"
#include "bench/spawn_sweep.h"
#include "brisk/command.h"
#include "support/test_support.h"

namespace brisk::bench {
namespace {

namespace fs = std::filesystem;

using brisk::test::slurp;

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

TEST(SpawnBench, EveryMethodProducesANumber) {
  SpawnBenchConfig config;
  config.n = 4;
  config.rounds = 2;
  auto report = run_spawn_bench(config);
  ASSERT_FALSE(report.results.empty());
  EXPECT_EQ(report.results[0].name, "brisk");
  EXPECT_DOUBLE_EQ(report.results[0].ratio_to_brisk, 1.0);
  EXPECT_EQ(report.results.size() + report.skipped.size(), spawn_methods().size());
  for (const auto& r : report.results) {
    EXPECT_GT(r.us_per_spawn, 0) << r.name;
    EXPECT_GT(r.ratio_to_brisk, 0) << r.name;
    EXPECT_EQ(r.failures, 0) << r.name;
    EXPECT_EQ(r.round_us.size(), 2u) << r.name;
    EXPECT_EQ(r.calls, 4) << r.name;  // no time budget: every call made
  }
  for (const auto& s : report.skipped) EXPECT_FALSE(s.reason.empty()) << s.name;
  if (test::is_root() && find_program("ruby")) {
    auto has = [&](const char* name) {
      return std::any_of(report.results.begin(), report.results.end(),
                         [&](auto& r) { return r.name == name; });
    };
    EXPECT_TRUE(has("ruby_root"));
    EXPECT_TRUE(has("ruby_nobody"));
  }
}

TEST(SpawnBench, JsonSchema) {
  SpawnBenchConfig config;
  config.n = 2;
  config.rounds = 1;
  config.methods = {"fork", "popen"};
  auto json = to_json(run_spawn_bench(config));
  for (const char* key : {"bench", "sweep", "label", "program", "env", "captured", "n", "rounds", "heap_mb",
                          "nofile", "nofile_requested", "nofile_hard", "nofile_note", "chroot",
                          "engine_method", "unit", "methods", "skipped"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["bench"], "spawn");
  ASSERT_EQ(json["methods"].size(), 3u);  // brisk always runs
  for (const auto& m : json["methods"]) {
    for (const char* key :
         {"name", "description", "us_per_spawn", "ratio_to_brisk", "round_us", "failures", "calls"})
      EXPECT_TRUE(m.contains(key)) << key;
    EXPECT_TRUE(m["us_per_spawn"].is_number());
    EXPECT_GT(m["us_per_spawn"].get<double>(), 0);
  }
  EXPECT_THROW(
      [] {
        SpawnBenchConfig bad;
        bad.methods = {"teleport"};
        (void)run_spawn_bench(bad);
      }(),
      std::runtime_error);
}

// Asking beyond the hard limit without CAP_SYS_RESOURCE gets as far as
// allowed and says so; never a silent substitution.
TEST(SpawnBench, NofileReportsWhatWasReached) {
  rlimit before{};
  ::getrlimit(RLIMIT_NOFILE, &before);
  {
    NofileScope scope(1048576);
    const auto& out = scope.outcome();
    EXPECT_EQ(out.requested, 1048576u);
    if (out.reached == out.requested) {
      EXPECT_TRUE(out.note.empty());
    } else {
      EXPECT_EQ(out.reached, out.hard);
      EXPECT_NE(out.note.find("hard limit"), std::string::npos) << out.note;
    }
  }
  {
    NofileScope scope(64);
    EXPECT_EQ(scope.outcome().reached, 64u);
    EXPECT_TRUE(scope.outcome().note.empty());
  }
  rlimit after{};
  ::getrlimit(RLIMIT_NOFILE, &after);
  EXPECT_EQ(after.rlim_cur, before.rlim_cur);
  EXPECT_EQ(after.rlim_max, before.rlim_max);
}

TEST(SpawnBench, WorkloadShapeCapturesWithEveryMethod) {
  SpawnBenchConfig config;
  config.workload = true;
  config.argv = workload_argv();
  config.env = {{"LANG", "C"}};
  config.n = 3;
  config.rounds = 1;
  auto report = run_spawn_bench(config);
  ASSERT_EQ(report.results.size(), workload_methods().size());
  for (const auto& r : report.results) {
    EXPECT_EQ(r.failures, 0) << r.name;  // a method that captured nothing counts as a failure
    EXPECT_GT(r.us_per_spawn, 0) << r.name;
  }
}

TEST(SpawnSweep, WritesJsonCsvAndPlotsAndRemovesItsRoot) {
  test::TempDir out;  // made before TMPDIR moves, so only the sweep's own files land there
  test::ScopedTmpdir tmp;
  SpawnSweepConfig config;
  config.n = 2;
  config.rounds = 1;
  config.heaps_mb = {1, 4};
  config.nofiles = {64, 1048576};
  config.workload_n = 2;
  config.methods = {"fork", "vfork"};
  int seen = 0;
  auto sweep = run_spawn_sweep(config, [&](const SpawnBenchReport&) { ++seen; });
  EXPECT_EQ(seen, static_cast<int>(sweep.points.size()));
  std::size_t expected = 4 + (test::is_root() ? 3 : 1);  // heaps, nofiles, chroot, workload x2
  EXPECT_EQ(sweep.points.size(), expected);
  if (!test::is_root()) {
    EXPECT_EQ(sweep.skipped.size(), 2u);
  }
  EXPECT_TRUE(entries(tmp.path()).empty()) << "left behind: " << entries(tmp.path())[0];

  auto files = write_spawn_outputs(sweep, out.path());
  auto json = nlohmann::json::parse(slurp(out.path() + "/spawn.json"));
  EXPECT_EQ(json["bench"], "spawn-sweep");
  EXPECT_EQ(json["points"].size(), expected);
  EXPECT_EQ(json["points"][3]["nofile_requested"], 1048576);

  std::string csv = slurp(out.path() + "/spawn.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "sweep,point,program,captured,calls,heap_MiB,nofile_requested,nofile_reached,chroot,method,"
            "us_per_call,ratio_to_brisk,failures");
  std::size_t rows = std::count(csv.begin(), csv.end(), '\n') - 1;
  std::size_t results = 0;
  for (const auto& p : sweep.points) results += p.results.size();
  EXPECT_EQ(rows, results);

  std::string ext = find_gnuplot().empty() ? ".svg" : ".png";
  EXPECT_TRUE(fs::exists(out.path() + "/spawn-heap" + ext));
  EXPECT_TRUE(fs::exists(out.path() + "/spawn-nofile" + ext));
  EXPECT_TRUE(fs::exists(out.path() + "/spawn.txt"));
  EXPECT_EQ(files.size(), 5u);
}

TEST(Interrupt, SignalUnwindsInsteadOfKilling) {
  {
    InterruptScope scope;
    EXPECT_NO_THROW(throw_if_interrupted());
    ::raise(SIGINT);
    EXPECT_EQ(interrupt_signal(), SIGINT);
    try {
      throw_if_interrupted();
      ADD_FAILURE() << "no Interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(e.signal(), SIGINT);
    }
  }
  struct sigaction now {};
  ::sigaction(SIGINT, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

TEST(Demo, TinyNetworkSectionsAddTheirRowsAndCharts) {
  if (!test::is_root()) GTEST_SKIP() << "network namespaces need root";
  test::TempDir out;
  Output run = Command({BRISK_CLI_PATH, "demo", "--out", out.path() + "/demo", "--spawn-n", "1", "--heaps",
                        "1", "--workload-n", "0", "--link-n", "40", "--containers-n", "20", "--cni-n", "4"})
                   .output();
  for (const char* row :
       {"link: veth add", "link: delete", "container setup", "container teardown", "CNI ADD ", "CNI DEL ",
        "CNI ADD, ipMasq", "CNI DEL, ipMasq", "20 parallel CNI ADDs"})
    EXPECT_NE(run.out.find(row), std::string::npos) << row << "\n" << run.out;
  std::string ext = find_gnuplot().empty() ? ".svg" : ".png";
  for (const char* name : {"link.json", "containers.json", "cni.json", "cni.csv"})
    EXPECT_TRUE(fs::exists(out.path() + "/demo/" + name)) << name;
  for (const char* chart : {"link-veth-add", "link-set-up", "link-addr-add", "containers", "cni-add",
                            "cni-del", "cni-add-masq", "cni-del-masq"})
    EXPECT_TRUE(fs::exists(out.path() + "/demo/" + chart + ext)) << chart;
  auto summary = nlohmann::json::parse(slurp(out.path() + "/demo/summary.json"));
  for (const auto& row : summary["rows"]) EXPECT_GT(row["brisk_us"].get<double>(), 0) << row;
  // Each container baseline once, named as the containers bench names it.
  std::multiset<std::string> setups;
  for (const auto& row : summary["rows"])
    if (row["operation"] == "container setup") setups.insert(row["baseline"].get<std::string>());
  EXPECT_EQ(setups, (std::multiset<std::string>{"floor", "brisk-1core", "brisk-2core", "ip -batch",
                                                "ip per command"}));
}

TEST(Demo, TinyRunWritesItsDirectoryAndLeavesNoTemp) {
  test::TempDir tmp, out;
  Output run = Command({BRISK_CLI_PATH, "demo", "--out", out.path() + "/demo", "--spawn-n", "2", "--heaps",
                        "1,4", "--workload-n", "2", "--link-n", "0", "--containers-n", "0", "--cni-n", "0"})
                   .env("TMPDIR", tmp.path())
                   .output();
  EXPECT_NE(run.out.find("speed-up"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(out.path() + "/demo"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("fork + execve"), std::string::npos) << run.out;
  for (const char* name : {"summary.json", "summary.csv", "spawn.json", "spawn.csv"})
    EXPECT_TRUE(fs::exists(out.path() + "/demo/" + name)) << name;
  std::string ext = find_gnuplot().empty() ? ".svg" : ".png";
  EXPECT_TRUE(fs::exists(out.path() + "/demo/spawn-heap" + ext));
  auto summary = nlohmann::json::parse(slurp(out.path() + "/demo/summary.json"));
  ASSERT_GE(summary["rows"].size(), 4u);
  for (const auto& row : summary["rows"]) {
    EXPECT_GT(row["baseline_us"].get<double>(), 0);
    EXPECT_GT(row["brisk_us"].get<double>(), 0);
  }
  EXPECT_TRUE(entries(tmp.path()).empty());
}

// Runs the CLI with TMPDIR in a fresh directory, stops it with SIGTERM once
// its minimal root exists there, and checks that it removed the root and
// then died by the signal.
void expect_cleanup_on_sigterm(std::vector<std::string> argv) {
  test::TempDir tmp;
  argv.insert(argv.begin(), BRISK_CLI_PATH);
  Command command(argv);
  command.env("TMPDIR", tmp.path()).stdout_to(Sink::null()).stderr_to(Sink::capture()).check(false);
  Process process = command.spawn();
  bool root_seen = false;
  for (int i = 0; i < 6000 && !root_seen; ++i) {  // waits for an event, not a time: up to 60 s
    root_seen = !entries(tmp.path()).empty();
    if (!root_seen) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(root_seen) << "the run never built its root";
  ASSERT_TRUE(process.kill(SIGTERM));
  Output out = process.wait();
  EXPECT_EQ(out.status.exit.signal(), std::optional<int>(SIGTERM))
      << out.status.to_string() << " " << out.err;
  EXPECT_NE(out.err.find("cleaned up"), std::string::npos) << out.err;
  EXPECT_TRUE(entries(tmp.path()).empty()) << "left behind: " << entries(tmp.path())[0];
}

TEST(SpawnSweep, SigtermMidRunRemovesTheTempRoot) {
  if (!test::is_root()) GTEST_SKIP() << "the sweep builds its chroot root only as root";
  expect_cleanup_on_sigterm({"bench", "spawn", "--sweep", "--n", "2", "--rounds", "1", "--heaps", "1",
                             "--nofiles", "64", "--methods", "fork", "--workload-n", "1000000"});
}

TEST(Demo, SigtermMidRunRemovesTheTempRoot) {
  if (!test::is_root()) GTEST_SKIP() << "the demo builds its chroot root only as root";
  test::TempDir out;
  expect_cleanup_on_sigterm({"demo", "--out", out.path() + "/demo", "--spawn-n", "2", "--heaps", "1",
                             "--workload-n", "1000000", "--link-n", "0", "--containers-n", "0", "--cni-n",
                             "0"});
}

}  // namespace
}  // namespace brisk::bench
