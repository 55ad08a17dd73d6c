// The benches through the CLI (BRISK_CLI_PATH): --json and --out produce
// what they promise, and nothing is left on the host afterwards, not even
// when the bench process is SIGKILLed halfway: its sandbox namespaces die
// with it. "Nothing" is checked where it would show: the host's links
// (`ip -j link`), /run/netns, and this mount namespace's mounts.
#include <dirent.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "brisk/command.h"
#include "brisk/spawn.h"
#include "support/test_support.h"
#include "sys/syscalls.h"

namespace brisk::bench {
namespace {

struct HostState {
  std::set<std::string> links;   // ifnames in `ip -j link`
  std::set<std::string> netns;   // entries of /run/netns
  std::set<std::string> mounts;  // "mount point source" of every mount seen from here
  bool operator==(const HostState&) const = default;
};

// The named namespaces other tests make and remove while these run beside
// them under ctest -j (cli_test::NamedNetns, the CLI's run tests, the CNI
// driver's pods): not the bench's doing, which keeps its own /run/netns.
bool another_tests(const std::string& entry) {
  for (const char* theirs : {"brisk-test-", "brisk-cli-test-", "brisk-cnitest-"})
    if (entry.find(theirs) != std::string::npos) return true;
  return false;
}

HostState host_state() {
  HostState s;
  auto out = brisk::test::run_capture({.argv = {"ip", "-j", "link", "show"}}).out;
  for (const auto& link : nlohmann::json::parse(out)) s.links.insert(link["ifname"].get<std::string>());
  if (DIR* dir = ::opendir("/run/netns")) {
    while (dirent* e = ::readdir(dir))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != ".." && !another_tests(e->d_name))
        s.netns.insert(e->d_name);
    ::closedir(dir);
  }
  std::ifstream mountinfo("/proc/self/mountinfo");
  for (std::string line; std::getline(mountinfo, line);) {
    std::istringstream fields(line);
    std::string id, parent, dev, root, point, word, source;
    fields >> id >> parent >> dev >> root >> point;
    while (fields >> word && word != "-") {
    }
    fields >> word >> source;
    if (!another_tests(point)) s.mounts.insert(point + " " + source);
  }
  return s;
}

std::string dump(const HostState& s) {
  std::string out = "links:";
  for (const auto& l : s.links) out += " " + l;
  out += "\nnetns:";
  for (const auto& n : s.netns) out += " " + n;
  out += "\nmounts with brisk-bench or netns:";
  for (const auto& m : s.mounts)
    if (m.find("brisk-bench") != std::string::npos || m.find("netns") != std::string::npos)
      out += " [" + m + "]";
  return out;
}

class BenchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
    before_ = host_state();
  }
  void TearDown() override {
    if (IsSkipped()) return;
    auto after = host_state();
    EXPECT_TRUE(after == before_) << "before:\n" << dump(before_) << "\nafter:\n" << dump(after);
  }
  HostState before_;
};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return nlohmann::json::parse(in, nullptr, false);
}

std::size_t csv_lines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

TEST_F(BenchCli, LinkWritesJsonAndCsvWithAFigureForEveryMethod) {
  brisk::test::TempDir dir;
  auto run = brisk::test::run_capture(
      {.argv = {BRISK_CLI_PATH, "bench", "link", "--n", "6", "--bucket", "3", "--ip-n", "2", "--delete-n",
                "2", "--netns-n", "1", "--settle-ms", "0", "--json", "--out", dir.path()}});
  ASSERT_TRUE(run.status.success()) << run.out;
  auto printed = nlohmann::json::parse(run.out);
  auto written = read_json(dir.path() + "/link.json");
  EXPECT_EQ(printed, written);
  std::set<std::string> methods;
  std::size_t buckets = 0;
  for (const auto& row : written["rows"]) {
    methods.insert(row["method"].get<std::string>());
    EXPECT_GT(row["us_per_op"].get<double>(), 0) << row.dump();
    EXPECT_EQ(row["failures"], 0) << row.dump();
    buckets += row["buckets"].size();
  }
  EXPECT_EQ(methods, (std::set<std::string>{"ip", "brisk-cli", "ip-batch", "brisk-batch", "raw", "brisk"}));
  EXPECT_EQ(csv_lines(dir.path() + "/link.csv"), buckets + 1);
}

TEST_F(BenchCli, ContainersWritesJsonAndCsvWithAFigureForEveryMethod) {
  brisk::test::TempDir dir;
  auto run = brisk::test::run_capture({.argv = {BRISK_CLI_PATH, "bench", "containers", "--n", "4", "--bucket",
                                                "2", "--settle-ms", "0", "--json", "--out", dir.path()}});
  ASSERT_TRUE(run.status.success()) << run.out;
  auto written = read_json(dir.path() + "/containers.json");
  EXPECT_EQ(nlohmann::json::parse(run.out), written);
  ASSERT_EQ(written["methods"].size(), 6u);  // brisk, floor, brisk-1core, brisk-2core, ip-batch, ip
  for (const auto& m : written["methods"]) {
    EXPECT_GT(m["total_s"].get<double>(), 0) << m.dump();
    EXPECT_GT(m["teardown_s"].get<double>(), 0) << m.dump();
    EXPECT_TRUE(m["verified"].get<bool>()) << m.dump();
    EXPECT_EQ(m["buckets"].size(), 2u);
    EXPECT_GT(m["growth"].get<double>(), 0) << m.dump();
  }
  EXPECT_EQ(written["methods"][1]["method"], "floor");
  EXPECT_TRUE(written.contains("floor_share_of_growth"));
  EXPECT_EQ(csv_lines(dir.path() + "/containers.csv"), 1u + 6u * (2u + 2u));
}

// Bad flags are refused by name, with the usage status, before any
// namespace exists (the fixture checks the host is as it was).
TEST_F(BenchCli, ContainersRefusesBadFlagsBeforeMakingAnything) {
  for (std::vector<std::string> bad : {std::vector<std::string>{"--n", "0"},
                                       {"--bucket", "-3"},
                                       {"--methods", "lxc"},
                                       {"--bridge-ports", "2000"},
                                       {"--shape", "foo"},
                                       {"--brisk-round", "-1"},
                                       {"--n", "many"},
                                       {"--schedule", "sometimes"}}) {
    std::vector<std::string> argv = {BRISK_CLI_PATH, "bench", "containers", "--settle-ms", "0"};
    argv.insert(argv.end(), bad.begin(), bad.end());
    brisk::Output o = brisk::Command(argv).check(false).output();
    EXPECT_EQ(o.status.exit.code(), std::optional<int>(2)) << bad[0] << ": " << o.err;
    EXPECT_EQ(o.out, "") << bad[0];
    EXPECT_NE(o.err.find(bad[0]), std::string::npos) << o.err;          // names the flag
    EXPECT_EQ(o.err.find("containers: "), std::string::npos) << o.err;  // no progress line: nothing ran
  }
}

// The table has every phase; the floor has a figure beside each batch phase
// but delete, and every run, the floor's requests included, succeeded (the
// bench exits 1 otherwise).
TEST_F(BenchCli, IpPrintsEveryPhaseWithTheFloorBesideTheBatches) {
  auto run = brisk::test::run_capture({.argv = {BRISK_CLI_PATH, "bench", "ip", "--n", "8", "--single-n", "2",
                                                "--version-n", "2", "--settle-ms", "0"}});
  ASSERT_TRUE(run.status.success()) << run.out;
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    for (const char* phase : {"veth add", "set up alone", "set up", "addr add", "route add", "name lookup",
                              "rule add", "one process", "-V start-up", "delete"}) {
      if (line.rfind(phase, 0) != 0) continue;
      std::istringstream words(line.substr(std::string(phase).size()));
      for (std::string w; words >> w;) rows[phase].push_back(w);
      break;  // "set up alone" before "set up", its prefix
    }
  }
  ASSERT_EQ(rows.size(), 10u) << run.out;
  // ops, ip, brisk, brisk -f, floor, ip/brisk, ip/-f, ip/floor, brisk/fl, -f/fl
  for (const char* phase : {"veth add", "set up", "addr add", "route add", "rule add"}) {
    ASSERT_GE(rows[phase].size(), 10u) << phase;
    EXPECT_EQ(rows[phase][0], "8") << phase;
    for (std::size_t k = 1; k <= 4; ++k) EXPECT_GT(std::stod(rows[phase][k]), 0) << phase << " column " << k;
    EXPECT_NE(rows[phase][7], "-") << phase;
    // brisk's time over the floor's: the figure the phase's target is on.
    for (std::size_t k : {8u, 9u}) {
      double brisk = std::stod(rows[phase][k == 8 ? 2 : 3]), floor = std::stod(rows[phase][4]);
      EXPECT_NEAR(std::stod(rows[phase][k]), brisk / floor, 0.01 + 0.1 * brisk / floor)
          << phase << " column " << k;
    }
  }
  EXPECT_EQ(rows["delete"][4], "-");
  EXPECT_EQ(rows["delete"][8], "-");
  // Against the floor of a line that names its device: addr and route add.
  auto with_lookup = run.out.find("over floor + name lookup");
  ASSERT_NE(with_lookup, std::string::npos) << run.out;
  std::string summary = run.out.substr(with_lookup, run.out.find('\n', with_lookup) - with_lookup);
  for (const char* figure :
       {"addr add brisk ", "addr add brisk -force ", "route add brisk ", "route add brisk -force "})
    EXPECT_NE(summary.find(figure), std::string::npos) << summary;
  // Set up one request per send, the floor of stop mode: the floor's column
  // alone, and brisk without -force set against it.
  ASSERT_GE(rows["set up alone"].size(), 5u);
  EXPECT_EQ(rows["set up alone"][1], "-");
  double alone = std::stod(rows["set up alone"][4]);
  EXPECT_GT(alone, 0);
  auto over_alone = run.out.find("over set up alone");
  ASSERT_NE(over_alone, std::string::npos) << run.out;
  std::string alone_line = run.out.substr(over_alone, run.out.find('\n', over_alone) - over_alone);
  auto figure = alone_line.find("set up brisk ");
  ASSERT_NE(figure, std::string::npos) << alone_line;
  double brisk_up = std::stod(rows["set up"][2]);
  EXPECT_NEAR(std::stod(alone_line.substr(figure + 13)), brisk_up / alone, 0.01 + 0.1 * brisk_up / alone)
      << alone_line;
  // The lookups a line naming its device costs: the floor's column alone.
  ASSERT_GE(rows["name lookup"].size(), 5u);
  EXPECT_EQ(rows["name lookup"][1], "-");
  EXPECT_GT(std::stod(rows["name lookup"][4]), 0);
  EXPECT_EQ(rows["one process"][0], "2");
  EXPECT_NE(run.out.find("; end state ok"), std::string::npos) << run.out;
}

// --json: every phase, each with the methods it measures, every figure
// positive and finite, the routes and rules verified; --out holds the same.
TEST_F(BenchCli, IpJsonHasEveryPhaseAndMethod) {
  brisk::test::TempDir dir;
  auto run = brisk::test::run_capture(
      {.argv = {BRISK_CLI_PATH, "bench", "ip", "--n", "4", "--single-n", "2", "--version-n", "2",
                "--settle-ms", "0", "--json", "--out", dir.path()}});
  ASSERT_TRUE(run.status.success()) << run.out;
  auto printed = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(printed.is_discarded()) << run.out;
  EXPECT_EQ(printed, read_json(dir.path() + "/ip.json"));
  EXPECT_EQ(printed["n"], 4);
  EXPECT_EQ(printed["failures"], 0);
  using Methods = std::set<std::string>;
  const Methods batch{"ip", "brisk", "brisk -force", "floor"};
  const std::map<std::string, Methods> expected{{"veth add", batch},
                                                {"set up", batch},
                                                {"addr add", batch},
                                                {"route add", batch},
                                                {"rule add", batch},
                                                {"one process", {"ip", "brisk"}},
                                                {"-V start-up", {"ip", "brisk"}},
                                                {"delete", {"ip", "brisk", "brisk -force"}},
                                                {"name lookup", {"floor"}},
                                                {"set up alone", {"floor"}},
                                                {"addr, no ACKs", {"floor"}},
                                                {"route, no ACKs", {"floor"}},
                                                {"rule, no ACKs", {"floor"}},
                                                {"addr parse", {"brisk"}},
                                                {"route parse", {"brisk"}},
                                                {"rule parse", {"brisk"}}};
  std::map<std::string, Methods> seen;
  for (const auto& phase : printed["phases"]) {
    std::string name = phase["phase"];
    EXPECT_GT(phase["ops"].get<int>(), 0) << name;
    EXPECT_GT(phase["rounds"].get<int>(), 0) << name;
    for (const auto& m : phase["methods"]) {
      seen[name].insert(m["method"].get<std::string>());
      for (const char* figure : {"seconds", "us_per_op", "ip_over_method"}) {
        bool alone = name == "name lookup" || name == "set up alone" || name.ends_with(" parse") ||
                     name.ends_with(", no ACKs");
        if (alone && std::string(figure) == "ip_over_method") {
          EXPECT_FALSE(m.contains(figure));  // ip has no such phase of its own
          continue;
        }
        double value = m[figure].get<double>();
        EXPECT_TRUE(value > 0 && std::isfinite(value)) << name << " " << m.dump();
      }
    }
    if (name == "route add" || name == "rule add") {
      EXPECT_EQ(phase["verified"], true) << name;
    }
    // The batch phases that are undone and run again give a median, and so
    // does the lookup set beside them.
    if (name == "set up" || name == "set up alone" || name == "addr add" || name == "route add" ||
        name == "rule add" || name == "name lookup") {
      EXPECT_EQ(phase["repeats"], printed["repeats"]) << name;
    }
    // Every brisk figure of a phase the floor ran in is set against it.
    const std::set<std::string> floored_phases{"veth add", "set up", "addr add", "route add", "rule add"};
    bool floored = floored_phases.count(name) != 0;
    for (const auto& m : phase["methods"]) {
      if (m["method"] == "floor" || m["method"] == "ip") continue;
      EXPECT_EQ(m.contains("over_floor"), floored) << name << " " << m.dump();
    }
  }
  EXPECT_EQ(seen, expected);
  std::set<std::pair<std::string, std::string>> with_lookup;
  for (const auto& o : printed["over_floor_with_lookup"]) {
    with_lookup.insert({o["phase"].get<std::string>(), o["method"].get<std::string>()});
    EXPECT_GT(o["ratio"].get<double>(), 0) << o.dump();
  }
  const std::set<std::pair<std::string, std::string>> expected_lookup{{"addr add", "brisk"},
                                                                      {"addr add", "brisk -force"},
                                                                      {"route add", "brisk"},
                                                                      {"route add", "brisk -force"}};
  EXPECT_EQ(with_lookup, expected_lookup);
  std::set<std::pair<std::string, std::string>> with_parse;
  for (const auto& o : printed["over_floor_with_parse"]) {
    with_parse.insert({o["phase"].get<std::string>(), o["method"].get<std::string>()});
    EXPECT_GT(o["ratio"].get<double>(), 0) << o.dump();
  }
  auto expected_parse = expected_lookup;
  expected_parse.insert({{"rule add", "brisk"}, {"rule add", "brisk -force"}});
  EXPECT_EQ(with_parse, expected_parse);
  std::set<std::pair<std::string, std::string>> without_acks;
  for (const auto& o : printed["over_floor_without_acks"]) {
    without_acks.insert({o["phase"].get<std::string>(), o["method"].get<std::string>()});
    EXPECT_GT(o["ratio"].get<double>(), 0) << o.dump();
  }
  EXPECT_EQ(without_acks, expected_parse);
  ASSERT_EQ(printed["over_floor_one_request_per_answer"].size(), 1u);
  EXPECT_EQ(printed["over_floor_one_request_per_answer"][0]["phase"], "set up");
  EXPECT_EQ(printed["over_floor_one_request_per_answer"][0]["method"], "brisk");
  EXPECT_GT(printed["over_floor_one_request_per_answer"][0]["ratio"].get<double>(), 0);
  // The least a line naming its device could cost, over the floor: above 1.
  std::set<std::string> ceilings;
  for (const auto& o : printed["floor_with_lookup_over_floor"]) {
    ceilings.insert(o["phase"].get<std::string>());
    EXPECT_GT(o["ratio"].get<double>(), 1.0) << o.dump();
  }
  EXPECT_EQ(ceilings, (std::set<std::string>{"addr add", "route add"}));
}

// `brisk bench cni` refuses each bad setting with a message before it makes
// anything: no table, no progress line, and (TearDown) no trace on the host.
TEST_F(BenchCli, CniRejectsBadFlagsBeforeMakingAnything) {
  brisk::test::TempDir empty;
  const std::vector<std::vector<std::string>> bad = {{"--n", "0"},
                                                     {"--n", "4", "--buckets", "5"},
                                                     {"--masq", "maybe"},
                                                     {"--parallel", "-1"},
                                                     {"--parallel-repeats", "0"},
                                                     {"--brisk-plugin", "/nonexistent/brisk-bridge"},
                                                     {"--timeout-ms", "0"},
                                                     {"--reference-dir", empty.path()},
                                                     {"--n", "many"}};
  for (const auto& flags : bad) {
    std::vector<std::string> argv{BRISK_CLI_PATH, "bench", "cni"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    brisk::Output o = brisk::Command(argv).check(false).output();
    std::string line = flags[0] + " " + flags[1];
    EXPECT_FALSE(o.status.success()) << line;
    EXPECT_EQ(o.out, "") << line;
    EXPECT_EQ(("\n" + o.err).find("\ncni: "), std::string::npos) << line << ": " << o.err;  // a progress line
    EXPECT_NE(o.err, "") << line;
  }
}

// Rows of the table, by pass, phase and side: {"ipMasq off ADD brisk": [runs, failures, mean, ...]}.
std::map<std::string, std::vector<std::string>> cni_rows(const std::string& table) {
  std::map<std::string, std::vector<std::string>> rows;
  std::string pass;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("== ", 0) == 0) pass = line.substr(3, line.size() - 6);
    for (const char* side : {"reference", "brisk", "in-process", "process start", "floor"})
      for (const char* phase : {"ADD", "DEL"}) {
        std::string head = fmt::format("{:<5} {:<13} ", phase, side);
        if (line.rfind(head, 0) != 0) continue;
        std::istringstream words(line.substr(head.size()));
        for (std::string w; words >> w;) rows[pass + " " + phase + " " + side].push_back(w);
      }
  }
  return rows;
}

TEST_F(BenchCli, CniTinyRunPrintsEveryRowAndSucceeds) {
  if (::access("/usr/lib/cni/bridge", X_OK) != 0) GTEST_SKIP() << "needs containernetworking-plugins";
  brisk::Output o = brisk::Command({BRISK_CLI_PATH, "bench", "cni", "--n", "4", "--buckets", "2",
                                    "--parallel", "3", "--parallel-repeats", "1", "--settle-ms", "0"})
                        .check(false)
                        .output();
  ASSERT_TRUE(o.status.success()) << o.out << o.err;
  auto rows = cni_rows(o.out);
  ASSERT_EQ(rows.size(), 20u) << o.out;
  for (const auto& [name, words] : rows) {
    ASSERT_GE(words.size(), 5u) << name;
    EXPECT_EQ(words[0], "4") << name;  // runs
    EXPECT_EQ(words[1], "0") << name;  // failures
    EXPECT_GT(std::stod(words[2]), 0) << name;
  }
  for (const char* text : {"ADD: reference / brisk", "ADD: brisk / floor", "DEL: brisk / floor",
                           "ADD per pod", "DEL per pod", "3 parallel ADDs: reference / brisk",
                           "3 parallel ADDs: brisk / floor", "3 parallel ADDs: reference / floor (ceiling)",
                           "every ADD and DEL succeeded, no duplicate address: yes"})
    EXPECT_NE(o.out.find(text), std::string::npos) << text;
  // A parallel row per side and pass, the floor's too, without failures.
  for (const char* side : {"reference", "brisk", "floor"}) {
    std::string head = fmt::format("\n  {:<10} ", side);
    std::size_t seen = 0;
    for (std::size_t at = o.out.find(head); at != std::string::npos; at = o.out.find(head, at + 1), ++seen) {
      std::string line = o.out.substr(at + 1, o.out.find('\n', at + 1) - at - 1);
      EXPECT_NE(line.find(" ms median ("), std::string::npos) << line;
      EXPECT_NE(line.find("failures 0, duplicate addresses 0"), std::string::npos) << line;
    }
    EXPECT_EQ(seen, 2u) << side << "\n" << o.out;
  }
}

// Exit 0 means every run succeeded: a plugin that always fails gives 1.
TEST_F(BenchCli, CniExitsNonZeroWhenAPluginFails) {
  if (::access("/usr/lib/cni/bridge", X_OK) != 0) GTEST_SKIP() << "needs containernetworking-plugins";
  brisk::Output o =
      brisk::Command({BRISK_CLI_PATH, "bench", "cni", "--n", "2", "--buckets", "1", "--masq", "off",
                      "--parallel", "0", "--settle-ms", "0", "--brisk-plugin", "/bin/false"})
          .check(false)
          .output();
  EXPECT_EQ(o.status.exit.code(), 1) << o.out << o.err;
  EXPECT_EQ(cni_rows(o.out)["ipMasq off ADD brisk"].at(1), "2") << o.out;
}

TEST_F(BenchCli, CniWritesJsonCsvAndCharts) {
  if (::access("/usr/lib/cni/bridge", X_OK) != 0) GTEST_SKIP() << "needs containernetworking-plugins";
  brisk::test::TempDir dir;
  brisk::Output o = brisk::Command({BRISK_CLI_PATH, "bench", "cni", "--n", "4", "--buckets", "2", "--masq",
                                    "on", "--parallel", "2", "--parallel-repeats", "1", "--settle-ms", "0",
                                    "--json", "--out", dir.path()})
                        .check(false)
                        .output();
  ASSERT_TRUE(o.status.success()) << o.out << o.err;
  auto written = read_json(dir.path() + "/cni.json");
  EXPECT_EQ(nlohmann::json::parse(o.out), written);
  EXPECT_TRUE(written["all_succeeded"].get<bool>());
  ASSERT_EQ(written["passes"].size(), 1u);
  const auto& pass = written["passes"][0];
  EXPECT_TRUE(pass["masq"].get<bool>());
  EXPECT_EQ(pass["rows"].size(), 10u);
  ASSERT_EQ(pass["parallel"].size(), 3u);
  for (const auto& p : pass["parallel"]) {  // the floor's row is last, with the others' keys
    EXPECT_EQ(p["pods"], 2) << p.dump();
    EXPECT_GT(p["wall_ms_median"].get<double>(), 0) << p.dump();
    EXPECT_EQ(p["wall_ms"].size(), 1u) << p.dump();
    EXPECT_EQ(p["failures"], 0) << p.dump();
    EXPECT_EQ(p["duplicates"], 0) << p.dump();
    EXPECT_TRUE(p.contains("first_error")) << p.dump();
  }
  EXPECT_EQ(pass["parallel"][2]["side"], "floor");
  EXPECT_EQ(pass["targets"].size(), 8u);
  for (const auto& row : pass["rows"]) EXPECT_GT(row["us_mean"].get<double>(), 0) << row.dump();
  EXPECT_EQ(csv_lines(dir.path() + "/cni.csv"), 1u + 10u * 2u + 3u);
  for (const char* stem : {"cni-add-masq", "cni-del-masq"})
    EXPECT_TRUE(::access((dir.path() + "/" + stem + ".png").c_str(), F_OK) == 0 ||
                ::access((dir.path() + "/" + stem + ".svg").c_str(), F_OK) == 0)
        << stem;
}

// Runs the CLI, SIGKILLs it once its stderr says `marker`; TearDown then
// compares the host with what it was before the bench started.
void kill_once_stderr_says(std::vector<std::string> argv, const std::string& marker) {
  auto pipe = sys::pipe();
  ASSERT_TRUE(pipe);
  argv.insert(argv.begin(), BRISK_CLI_PATH);
  SpawnOptions options{.argv = argv};
  options.inherit_stdio = false;
  options.fds.push_back({.child_fd = 2, .parent_fd = pipe->write.get()});
  auto child = spawn(options);
  ASSERT_TRUE(child) << child.error().message();
  pipe->write.reset();
  std::string err;
  char buffer[512];
  while (err.find(marker) == std::string::npos) {
    auto n = sys::read(pipe->read.get(), buffer);
    if (!n || *n == 0) break;
    err.append(buffer, *n);
  }
  ASSERT_NE(err.find(marker), std::string::npos) << err;
  ASSERT_TRUE(child->kill(SIGKILL));
  auto status = child->wait();
  ASSERT_TRUE(status);
  EXPECT_FALSE(status->success());
}

// Killed once its first round of containers exists (it says so on stderr).
TEST_F(BenchCli, SigkillHalfwayLeavesNothingBehind) {
  kill_once_stderr_says({"bench", "containers", "--n", "400", "--bucket", "20", "--settle-ms", "0"},
                        "round 1/");
}

// Killed with pods attached on every side, reference and brisk rules,
// leases and bridges among them: all of it lived in the sandbox.
TEST_F(BenchCli, CniSigkillHalfwayLeavesNothingBehind) {
  if (::access("/usr/lib/cni/bridge", X_OK) != 0) GTEST_SKIP() << "needs containernetworking-plugins";
  kill_once_stderr_says(
      {"bench", "cni", "--n", "400", "--buckets", "100", "--masq", "on", "--settle-ms", "0"}, "ADD, 8/400");
}

}  // namespace
}  // namespace brisk::bench
