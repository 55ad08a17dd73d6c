// brisk's shows against recorded kernel replies, without root: each case
// of tests/cli/recorded/*.txt runs the CLI's runner in this process over a
// FakeKernel that answers with what the kernel answered at record time, and
// expects what ip 6.1 printed for that same state then. The recording
// itself (DISABLED_RecordKernelReplies, as root) is how the files are made;
// tests/cli/recorded/README.md says how to run it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include "cli/ip/objects.h"
#include "cli/ip/runner.h"
#include "cli_support.h"
#include "recorded_cases.h"
#include "support/recorded_kernel.h"

namespace brisk::cli_test::recorded {
namespace {

using brisk::test::RecordedCase;

std::string fixture_path(const std::string& scenario) {
  return std::string(BRISK_SOURCE_DIR) + "/tests/cli/recorded/" + scenario + ".txt";
}

// `ip ARGS` as brisk's CLI runs it (ip_main's single command), over `c`:
// its status, stdout and stderr.
Run run_over(netlink::Connection c, const Words& args) {
  Words argv = args;
  argv.insert(argv.begin(), "brisk");
  Run result;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  auto usage = [&](const ipcli::UsageError& e) {
    if (e.help) {
      std::fputs(e.message.c_str(), stderr);
      return 255;
    }
    std::fprintf(stderr, "%s\n", ipcli::format_error(e.message, e.exact).c_str());
    return e.exit_code;
  };
  if (auto inv = ipcli::parse_globals(argv); !inv) {
    result.code = usage(inv.error());
  } else if (auto cmd = ipcli::parse_command(inv->args, inv->globals); !cmd) {
    result.code = usage(cmd.error());
  } else {
    std::vector<ipcli::BatchCommand> cmds;
    const ipcli::Verb* verb = cmd->verb;
    cmds.push_back({.verb = verb, .held = std::make_unique<ipcli::IpCommand>(std::move(*cmd))});
    ipcli::Runner runner(inv->globals, "");
    runner.use_connection(std::move(c));
    result.code = runner.run(cmds);
    runner.flush_out();
  }
  std::fflush(stdout);
  result.out = ::testing::internal::GetCapturedStdout();
  result.err = ::testing::internal::GetCapturedStderr();
  return result;
}

std::string joined(const Words& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

// ---- replay, without root ----

struct ReplayParam {
  std::string scenario;
  Words args;
  std::size_t index = 0;  // in the scenario's shows
};

std::vector<ReplayParam> replay_params() {
  std::vector<ReplayParam> all;
  for (const auto& s : recorded_scenarios())
    for (std::size_t i = 0; i < s.shows.size(); ++i) all.push_back({s.name, s.shows[i], i});
  return all;
}

const std::vector<RecordedCase>& fixture(const std::string& scenario, std::string& error) {
  static std::map<std::string, brisk::test::ParsedFixture> read;
  auto it = read.find(scenario);
  if (it == read.end()) {
    std::string text = slurp(fixture_path(scenario));
    auto parsed = text.empty() ? brisk::test::ParsedFixture{.error = "missing or empty"}
                               : brisk::test::read_fixture(text);
    it = read.emplace(scenario, std::move(parsed)).first;
  }
  error = it->second.error;
  return it->second.cases;
}

void PrintTo(const ReplayParam& p, std::ostream* os) { *os << p.scenario << ": ip " << joined(p.args); }

class RecordedShow : public ::testing::TestWithParam<ReplayParam> {};

TEST_P(RecordedShow, PrintsWhatIpPrintedForTheRecordedState) {
  const auto& p = GetParam();
  std::string error;
  const auto& cases = fixture(p.scenario, error);
  ASSERT_EQ(error, "") << fixture_path(p.scenario) << ": record it again (tests/cli/recorded/README.md)";
  ASSERT_LT(p.index, cases.size()) << "not recorded: " << joined(p.args);
  const RecordedCase& recorded = cases[p.index];
  ASSERT_EQ(recorded.args, p.args) << fixture_path(p.scenario) << " is of other shows: record it again";
  auto misses = std::make_shared<brisk::test::ReplayMisses>();
  auto ours = run_over(netlink::Connection::over(brisk::test::replay(recorded, misses)), p.args);
  EXPECT_EQ(ours.out, recorded.out) << "brisk " << joined(p.args);
  EXPECT_EQ(ours.err, recorded.err) << "brisk " << joined(p.args);
  EXPECT_EQ(ours.code, recorded.status) << "brisk " << joined(p.args);
  EXPECT_TRUE(misses->requests.empty()) << "requests the recording has no reply for (brisk asks otherwise "
                                        << "now: record again), the first: " << misses->requests.front();
}

std::string case_name(const ::testing::TestParamInfo<ReplayParam>& info) {
  std::string name = info.param.scenario + "_" + std::to_string(info.param.index);
  for (const auto& a : info.param.args) {
    name += '_';
    for (char c : a)
      if (std::isalnum(static_cast<unsigned char>(c))) name += c;
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Replay, RecordedShow, ::testing::ValuesIn(replay_params()), case_name);

// ---- recording, as root ----

// One show in `ns`: ip's output, read before and after brisk's recorded
// run; retried while ip's two reads differ (a counter or timer moved).
RecordedCase record_show(int ns, const Words& args) {
  RecordedCase best{.args = args};
  for (int attempt = 0; attempt < 10; ++attempt) {
    auto before = ip_run(args, ns);
    auto inner = netlink::Connection::open_in(ns);
    if (!inner) {
      ADD_FAILURE() << inner.error().message();
      return best;
    }
    auto recorder = std::make_unique<brisk::test::Recorder>(std::move(*inner));
    auto notes = recorder->notes();
    auto ours = run_over(netlink::Connection::over(std::move(recorder)), args);
    auto after = ip_run(args, ns);
    best = {.args = args,
            .status = before.code,
            .out = before.out,
            .err = before.err,
            .lookups = notes->lookups,
            .exchanges = notes->exchanges};
    if (before.out != after.out || before.err != after.err) continue;
    EXPECT_EQ(ours.out, before.out) << "brisk " << joined(args) << " (recorded all the same)";
    EXPECT_EQ(ours.code, before.code) << "brisk " << joined(args);
    return best;
  }
  ADD_FAILURE() << "ip's output kept changing for " << joined(args);
  return best;
}

TEST(RecordKernelReplies, DISABLED_EveryScenario) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "recording needs CAP_SYS_ADMIN";
  // BRISK_RECORD=NAME,...: those scenarios alone (the others' files stay
  // as they are, with their own MACs and counters).
  const char* only = std::getenv("BRISK_RECORD");
  for (const auto& s : recorded_scenarios()) {
    if (only && *only && ("," + std::string(only) + ",").find("," + s.name + ",") == std::string::npos)
      continue;
    UniqueFd ns = brisk::test::make_netns();
    ASSERT_TRUE(ns.valid());
    for (const auto& argv : s.setup) {
      auto done = run(argv, ns.get());
      ASSERT_EQ(done.code, 0) << s.name << ": " << joined(argv) << ": " << done.err;
    }
    std::vector<RecordedCase> cases;
    for (const auto& args : s.shows) cases.push_back(record_show(ns.get(), args));
    brisk::test::drop_deviceless_proxies(ns.get());
    std::vector<std::string> header{
        "Kernel replies to brisk's requests, and what ip printed, for the state below.",
        "Recorded by tests/cli/recorded/README.md's command; the format is "
        "tests/support/recorded_kernel.h's.",
        "setup:"};
    for (const auto& argv : s.setup) header.push_back("  " + joined(argv));
    write_file(fixture_path(s.name), brisk::test::write_fixture(header, cases));
  }
}

}  // namespace
}  // namespace brisk::cli_test::recorded
