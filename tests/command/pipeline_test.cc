// Pipelines, timeouts, large interleaved I/O and logging.
#include "brisk/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "brisk/command.h"
#include "brisk/command_errors.h"
#include "brisk/command_log.h"
#include "support/test_support.h"

namespace brisk {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

using brisk::test::sh;

TEST(Pipeline, TwoCommandsConnectStdoutToStdin) {
  Output out = (Command({"printf", "b\\na\\nc\\n"}) | Command("sort")).output();
  EXPECT_EQ(out.out, "a\nb\nc\n");
  ASSERT_EQ(out.processes.size(), 2u);
  EXPECT_TRUE(out.processes[0].status.success());
  EXPECT_TRUE(out.processes[1].status.success());
}

TEST(Pipeline, FiveCommands) {
  Pipeline p = Command({"seq", "1", "100"}) | Command({"grep", "7"}) | Command({"sort", "-rn"}) |
               Command({"head", "-n", "3"}) | Command({"tr", "\\n", " "});
  EXPECT_EQ(p.read(), "97 87 79 ");
  EXPECT_EQ(p.output().processes.size(), 5u);
}

TEST(Pipeline, StatusIsTheLastMembersByDefault) {
  Pipeline p = sh("echo x; exit 3") | Command("cat");
  Output out = p.output();
  EXPECT_TRUE(out.status.success());
  EXPECT_EQ(out.processes[0].status, ExitStatus::from_code(3));
  EXPECT_EQ(out.status.exit, ExitStatus::from_code(0));
  EXPECT_THROW((void)(Command("true") | Command("false")).status(), ExecutionFailed);
}

TEST(Pipeline, PipefailTakesTheFirstFailure) {
  Pipeline p = sh("exit 3") | sh("cat; exit 4") | Command("cat");
  p.pipefail().check(false);
  Output out = p.output();
  EXPECT_EQ(out.status.exit, ExitStatus::from_code(3));
  EXPECT_FALSE(out.status.success());
  EXPECT_THAT(std::vector<int>({*out.processes[0].status.code(), *out.processes[1].status.code(),
                                *out.processes[2].status.code()}),
              ElementsAre(3, 4, 0));
}

TEST(Pipeline, FiveCommandsUnderBothModes) {
  auto build = [] {
    return Command({"seq", "1", "5"}) | Command("cat") | sh("cat; exit 5") | Command("cat") | Command("wc");
  };
  Output last = build().output();
  EXPECT_TRUE(last.status.success());
  EXPECT_THAT(last.out, HasSubstr("5"));
  Pipeline failing = build();
  failing.pipefail();
  try {
    (void)failing.output();
    FAIL() << "no exception";
  } catch (const ExecutionFailed& e) {
    EXPECT_EQ(e.status().exit, ExitStatus::from_code(5));
    ASSERT_EQ(e.commands().size(), 5u);
    EXPECT_EQ(e.commands()[4][0], "wc");
    EXPECT_THAT(std::string(e.what()), HasSubstr("seq 1 5 | cat | /bin/sh -c 'cat; exit 5' | cat | wc"));
  }
  Pipeline allowed = build();
  allowed.pipefail().allow_exit({0, 5});
  EXPECT_TRUE(allowed.status().success());
}

TEST(Pipeline, StdinFeedsTheFirstAndStderrIsShared) {
  Pipeline p = sh("cat; echo one >&2") | sh("tr a-z A-Z; echo two >&2");
  p.stdin_from(Input::data("hello\n"));
  Output out = p.output();
  EXPECT_EQ(out.out, "HELLO\n");
  EXPECT_THAT(out.err, HasSubstr("one\n"));
  EXPECT_THAT(out.err, HasSubstr("two\n"));
}

TEST(Pipeline, MembersKeepTheirOwnEnvironmentAndCwd) {
  Pipeline p = sh("echo $A; pwd").env("A", "first").cwd("/") | sh("cat; echo $A").env("A", "second");
  EXPECT_EQ(p.read(), "first\n/\nsecond\n");
}

TEST(Pipeline, SigpipeEndsTheWriterLikeAShell) {
  Pipeline p = Command("yes") | Command({"head", "-n", "2"});
  Output out = p.output();
  EXPECT_EQ(out.out, "y\ny\n");
  EXPECT_EQ(out.processes[0].status.signal(), SIGPIPE);
  p.pipefail();
  EXPECT_THROW((void)p.output(), ExecutionFailed);
}

TEST(Pipeline, AMemberThatCannotStartLeavesNothingRunning) {
  (void)Command("true").status();  // opens brisk's shared /dev/null before the count
  auto before = test::open_fds();
  Pipeline p = Command({"sleep", "10"}) | Command("/nonexistent/prog");
  EXPECT_THROW((void)p.status(), ProgramNotFound);
  EXPECT_EQ(test::open_fds(), before);
}

// A child that writes `mib` MiB to both streams, interleaved, while reading
// all of stdin: cat copies stdin to stdout, and a second process writes stderr.
TEST(BigIo, InterleavedStreamsAndLargeStdinNeverDeadlock) {
  const std::size_t mib = 64;
  std::string input(mib << 20, 'i');
  for (std::size_t i = 0; i < input.size(); i += 4096) input[i] = '\n';
  std::string script = "head -c " + std::to_string(mib << 20) +
                       " /dev/zero | tr '\\0' e >&2 & "
                       "cat; "
                       "wait";
  Output out = sh(script).stdin_from(Input::data(input)).output();
  EXPECT_EQ(out.out.size(), input.size());
  EXPECT_TRUE(out.out == input);
  EXPECT_EQ(out.err.size(), mib << 20);
  EXPECT_EQ(out.err.find_first_not_of('e'), std::string::npos);
}

TEST(BigIo, CallbackStdinAndLineSinksOnLargeData) {
  std::size_t fed = 0;
  const std::size_t total = 16 << 20;
  auto source = [&fed, total]() -> std::optional<std::string> {
    if (fed >= total) return std::nullopt;
    fed += 1 << 16;
    return std::string((1 << 16) - 1, 'z') + "\n";
  };
  std::size_t lines = 0, bytes = 0;
  (void)Command("cat")
      .stdin_from(Input::callback(source))
      .stdout_to(Sink::lines([&](std::string_view l) {
        ++lines;
        bytes += l.size();
      }))
      .status();
  EXPECT_EQ(lines, total >> 16);
  EXPECT_EQ(bytes, total - lines);
}

TEST(Timeout, PoliteSignalFirst) {
  auto start = std::chrono::steady_clock::now();
  try {
    (void)Command({"sleep", "10"}).timeout(100ms).status();
    FAIL() << "no exception";
  } catch (const TimedOut& e) {
    EXPECT_TRUE(e.status().timed_out);
    EXPECT_FALSE(e.status().success());
    EXPECT_EQ(e.status().exit.signal(), SIGTERM);
    EXPECT_THAT(std::string(e.what()), HasSubstr("timed out"));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(Timeout, KillsAChildThatIgnoresSigterm) {
  Command c = sh("trap '' TERM; echo ready; sleep 10; echo survived");
  c.timeout(100ms).kill_after(200ms).check(false);
  Output out = c.output();
  EXPECT_TRUE(out.status.timed_out);
  EXPECT_EQ(out.status.exit.signal(), SIGKILL);
  EXPECT_EQ(out.out, "ready\n");
}

TEST(Timeout, ReachesGrandchildrenInTheCommandsGroup) {
  test::TempDir dir;
  std::string pids = dir.path() + "/pids";
  // The grandchildren ignore nothing but hold stdout open; without the group
  // signal they would survive, and the run would wait for their EOF.
  Command c = sh("sleep 30 & echo $! >> " + pids + "; sleep 30 & echo $! >> " + pids + "; wait");
  c.timeout(150ms).kill_after(300ms).new_process_group().check(false);
  auto start = std::chrono::steady_clock::now();
  // The timeout is enforced by wait(): start it only once both grandchildren
  // exist, so that a slow machine cannot time out the shell before it forks.
  Process p = c.spawn();
  std::vector<pid_t> grandchildren;
  for (int i = 0; i < 500 && grandchildren.size() < 2; ++i) {
    ::usleep(10000);
    grandchildren.clear();
    std::ifstream in(pids);
    for (pid_t pid; in >> pid;) grandchildren.push_back(pid);
  }
  ASSERT_EQ(grandchildren.size(), 2u);
  Output out = p.wait();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_TRUE(out.status.timed_out);
  for (pid_t pid : grandchildren) {
    // Gone, or a zombie waiting for init; give a dying process time to get there.
    std::string fields;
    for (int i = 0; i < 200; ++i) {
      std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
      fields.clear();
      std::getline(stat, fields);
      if (fields.empty() || fields.find(") Z") != std::string::npos) break;
      ::usleep(10000);
    }
    EXPECT_TRUE(fields.empty() || fields.find(") Z") != std::string::npos) << fields;
  }
}

TEST(Timeout, GrandchildrenOutsideAGroupDoNotHangTheRun) {
  // Without a group of its own, only the child is signalled; its grandchild
  // keeps stdout open, and the run must still end after the kill phase.
  Command c = sh("sleep 3 & echo started");
  c.timeout(100ms).kill_after(100ms).check(false);
  auto start = std::chrono::steady_clock::now();
  Output out = c.output();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2900ms);
  EXPECT_TRUE(out.status.timed_out);
  EXPECT_EQ(out.out, "started\n");
}

TEST(Timeout, AppliesToEveryPipelineMember) {
  Pipeline p = Command({"sleep", "10"}) | Command({"sleep", "10"});
  p.timeout(100ms).check(false).new_process_group();
  Output out = p.output();
  EXPECT_TRUE(out.status.timed_out);
  EXPECT_EQ(out.processes[0].status.signal(), SIGTERM);
  EXPECT_EQ(out.processes[1].status.signal(), SIGTERM);
}

TEST(Timeout, FastCommandsAreNotMarked) {
  CommandStatus status = Command("true").timeout(10s).status();
  EXPECT_FALSE(status.timed_out);
  EXPECT_TRUE(status.success());
}

TEST(Timeout, CustomPoliteSignal) {
  CommandStatus status = Command({"sleep", "10"}).timeout(50ms).timeout_signal(SIGINT).check(false).status();
  EXPECT_EQ(status.exit.signal(), SIGINT);
}

struct Recorded {
  std::mutex mutex;
  std::vector<std::pair<LogLevel, std::string>> lines;
};

TEST(Logging, CheetahLevelsAndContent) {
  auto recorded = std::make_shared<Recorded>();
  auto recorder = log_recorder([recorded](LogLevel level, std::string_view line) {
    std::lock_guard lock(recorded->mutex);
    recorded->lines.emplace_back(level, std::string(line));
  });
  // The echo ends stdout's last line before stderr is written, so the order is fixed.
  (void)sh("cat; echo; echo problem >&2; exit 1")
      .stdin_from(Input::data("in-line\nsecond"))
      .recorder(recorder)
      .check(false)
      .output();
  using P = std::pair<LogLevel, std::string>;
  EXPECT_THAT(
      recorded->lines,
      ElementsAre(P{LogLevel::info, "Executing \"/bin/sh -c 'cat; echo; echo problem >&2; exit 1'\"."},
                  P{LogLevel::info, "Standard input: in-line"}, P{LogLevel::info, "Standard input: second"},
                  P{LogLevel::info, "Standard output: in-line"}, P{LogLevel::info, "Standard output: second"},
                  P{LogLevel::error, "Error output: problem"}, P{LogLevel::error, "Status: exit code 1"}));
  recorded->lines.clear();
  (void)Command({"echo", "ok"}).recorder(recorder).status();
  EXPECT_THAT(recorded->lines, ElementsAre(P{LogLevel::info, "Executing \"echo ok\"."},
                                           P{LogLevel::info, "Standard output: ok"},
                                           P{LogLevel::info, "Status: exit code 0"}));
}

TEST(Logging, CallbackStdinIsRecordedLineByLine) {
  auto recorded = std::make_shared<Recorded>();
  auto recorder = log_recorder([recorded](LogLevel, std::string_view line) {
    std::lock_guard lock(recorded->mutex);
    if (line.rfind("Standard input: ", 0) == 0)
      recorded->lines.emplace_back(LogLevel::info, std::string(line));
  });
  std::vector<std::string> chunks{"a\nb", "c\n", "tail"};
  std::size_t next = 0;
  (void)Command("cat")
      .stdin_from(Input::callback([&]() -> std::optional<std::string> {
        if (next == chunks.size()) return std::nullopt;
        return chunks[next++];
      }))
      .recorder(recorder)
      .status();
  std::vector<std::string> lines;
  for (const auto& entry : recorded->lines) lines.push_back(entry.second);
  EXPECT_THAT(lines, ElementsAre("Standard input: a", "Standard input: bc", "Standard input: tail"));
}

TEST(Logging, ProcessWideDefaultsApplyToNewCommands) {
  auto recorded = std::make_shared<Recorded>();
  CommandDefaults defaults;
  defaults.run.recorder = log_recorder([recorded](LogLevel, std::string_view line) {
    std::lock_guard lock(recorded->mutex);
    recorded->lines.emplace_back(LogLevel::info, std::string(line));
  });
  defaults.env = {{"BRISK_DEFAULT", "from-defaults"}};
  set_command_defaults(defaults);
  std::string out = sh("echo $BRISK_DEFAULT").read();
  set_command_defaults({});
  EXPECT_EQ(out, "from-defaults\n");
  ASSERT_FALSE(recorded->lines.empty());
  EXPECT_EQ(recorded->lines[0].second,
            "Executing \"BRISK_DEFAULT=from-defaults /bin/sh -c 'echo $BRISK_DEFAULT'\".");
  recorded->lines.clear();
  (void)Command("true").status();
  EXPECT_TRUE(recorded->lines.empty());
}

}  // namespace
}  // namespace brisk
