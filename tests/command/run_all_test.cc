// run_all, shell words, and leaks after many runs.
#include "brisk/run_all.h"

#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "brisk/command.h"
#include "brisk/command_errors.h"
#include "brisk/shell_words.h"
#include "support/test_support.h"

namespace brisk {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using namespace std::chrono_literals;

using brisk::test::sh;

// The pids of this process's children, from /proc (threads included).
std::vector<pid_t> children() {
  std::vector<pid_t> kids;
  DIR* dir = ::opendir("/proc/self/task");
  if (!dir) return kids;
  while (dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream in(std::string("/proc/self/task/") + entry->d_name + "/children");
    for (pid_t pid; in >> pid;) kids.push_back(pid);
  }
  ::closedir(dir);
  return kids;
}

TEST(RunAll, ResultsComeBackInInputOrder) {
  std::vector<Command> commands;
  // Later commands finish first.
  for (int i = 0; i < 6; ++i)
    commands.push_back(
        sh("sleep 0." + std::to_string(6 - i) + "; echo " + std::to_string(i)).stdout_to(Sink::capture()));
  auto results = run_all(commands, {.max_parallel = 6});
  ASSERT_EQ(results.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(results[i]);
    EXPECT_EQ(results[i]->out, std::to_string(i) + "\n");
  }
}

TEST(RunAll, NeverRunsMoreThanTheLimit) {
  test::TempDir dir;
  // Each command marks its start and end in one file; count overlap after.
  std::string log = dir.path() + "/log";
  std::vector<Command> commands;
  // 0.2 s each: long enough that three overlap even on a loaded machine.
  for (int i = 0; i < 9; ++i) commands.push_back(sh("echo + >> " + log + "; sleep 0.2; echo - >> " + log));
  std::atomic<int> done{0};
  auto results =
      run_all(commands, {.max_parallel = 3, .on_done = [&done](std::size_t, const auto&) { ++done; }});
  EXPECT_EQ(done.load(), 9);
  std::ifstream in(log);
  int running = 0, peak = 0;
  for (std::string mark; in >> mark;) {
    running += mark == "+" ? 1 : -1;
    peak = std::max(peak, running);
  }
  EXPECT_EQ(running, 0);
  EXPECT_EQ(peak, 3);
}

TEST(RunAll, HonoursEachCommandsTimeout) {
  std::vector<Command> commands;
  commands.push_back(Command({"sleep", "10"}).timeout(100ms));
  commands.push_back(Command({"echo", "quick"}).stdout_to(Sink::capture()));
  commands.push_back(Command({"sleep", "10"}).timeout(200ms).timeout_signal(SIGKILL));
  auto start = std::chrono::steady_clock::now();
  auto results = run_all(commands, {.max_parallel = 3});
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  ASSERT_TRUE(results[0] && results[1] && results[2]);
  EXPECT_TRUE(results[0]->status.timed_out);
  EXPECT_EQ(results[1]->out, "quick\n");
  EXPECT_FALSE(results[1]->status.timed_out);
  EXPECT_EQ(results[2]->status.exit.signal(), SIGKILL);
}

TEST(RunAll, SpawnFailuresAreResultsAndOthersRunOn) {
  std::vector<Command> commands{Command("/nonexistent/x"), Command("true"), Command("false")};
  auto results = run_all(commands);
  ASSERT_FALSE(results[0]);
  EXPECT_EQ(results[0].error().kind(), SpawnError::Kind::program_not_found);
  ASSERT_TRUE(results[1]);
  EXPECT_TRUE(results[1]->status.success());
  ASSERT_TRUE(results[2]);
  EXPECT_FALSE(results[2]->status.success());
}

TEST(RunAll, StopOnFailureCancelsTheRest) {
  std::vector<Command> commands{Command("false"), Command("true"), Command("true")};
  auto results = run_all(commands, {.max_parallel = 1, .stop_on_failure = true});
  ASSERT_TRUE(results[0]);
  EXPECT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, ECANCELED);
  EXPECT_FALSE(results[2]);
}

TEST(RunAll, PipesNobodyCanTakeDoNotBlock) {
  std::vector<Command> commands{
      Command({"head", "-c", "1000000", "/dev/zero"}).stdout_to(Sink::pipe()).stdin_from(Input::pipe())};
  auto results = run_all(commands);
  ASSERT_TRUE(results[0]);
  EXPECT_EQ(results[0]->status.exit.signal(), SIGPIPE);
}

TEST(RunAll, RunsPipelines) {
  std::vector<Pipeline> pipelines{Command({"echo", "a"}) | Command({"tr", "a", "b"}),
                                  Command({"echo", "c"}) | Command({"tr", "c", "d"})};
  for (auto& p : pipelines) p.stdout_to(Sink::capture());
  auto results = run_all(pipelines, {.max_parallel = 2});
  ASSERT_TRUE(results[0] && results[1]);
  EXPECT_EQ(results[0]->out, "b\n");
  EXPECT_EQ(results[1]->out, "d\n");
}

TEST(RunAll, UsesOneThread) {
  std::vector<Command> commands(8, Command({"sleep", "0.05"}));
  std::size_t threads_before = 0, threads_during = 0;
  auto count_threads = [] {
    std::size_t n = 0;
    DIR* dir = ::opendir("/proc/self/task");
    while (dirent* e = ::readdir(dir)) n += e->d_name[0] != '.';
    ::closedir(dir);
    return n;
  };
  threads_before = count_threads();
  (void)run_all(commands, {.max_parallel = 8, .on_done = [&](std::size_t, const auto&) {
                             threads_during = std::max(threads_during, count_threads());
                           }});
  EXPECT_EQ(threads_during, threads_before);
}

TEST(Leaks, NoDescriptorOrZombieAfterManyRuns) {
  (void)Command("true").status();  // opens brisk's shared /dev/null before the count
  auto fds_before = test::open_fds();
  const int runs = 10000;
  int failures = 0;
  for (int i = 0; i < runs; ++i) {
    // Alternate the paths that open pipes, files and stdin writers.
    Command c = Command("true");
    if (i % 4 == 1) c.stdin_from(Input::data("x"));
    if (i % 4 == 2) c.stdout_to(Sink::null()).stderr_to(Sink::merge());
    Output out = i % 4 == 3 ? (Command("true") | Command("true")).output() : c.output();
    failures += !out.status.success();
  }
  // Failures and timeouts take other paths.
  for (int i = 0; i < 20; ++i) {
    (void)Command("false").check(false).status();
    (void)Command({"sleep", "1"}).timeout(1ms).check(false).status();
    EXPECT_THROW((void)Command("/nonexistent").status(), ProgramNotFound);
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(test::open_fds(), fds_before);
  EXPECT_THAT(children(), ::testing::IsEmpty());
}

TEST(Leaks, DroppingARunningProcessKillsAndReapsIt) {
  (void)Command("true").status();  // opens brisk's shared /dev/null before the count
  auto fds_before = test::open_fds();
  {
    Process p = Command({"sleep", "30"}).stdin_from(Input::pipe()).stdout_to(Sink::capture()).spawn();
    (void)p;
  }
  EXPECT_EQ(test::open_fds(), fds_before);
  EXPECT_THAT(children(), ::testing::IsEmpty());
}

TEST(Leaks, DroppingAProcessInItsOwnGroupKillsItsDescendants) {
  test::TempDir dir;
  std::string pid_file = dir.path() + "/pid";
  {
    Process p =
        sh("sleep 30 > /dev/null 2>&1 & echo $! > " + pid_file + "; exit 0").new_process_group().spawn();
    // Wait until the grandchild exists and its parent has exited.
    for (int i = 0; i < 500 && !std::filesystem::exists(pid_file); ++i) ::usleep(10000);
    ::usleep(100000);
  }
  std::ifstream in(pid_file);
  pid_t grandchild = 0;
  ASSERT_TRUE(in >> grandchild);
  std::string state;
  for (int i = 0; i < 100; ++i) {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::getline(stat, state);
    if (state.empty() || state.find(") Z") != std::string::npos) break;
    ::usleep(10000);
  }
  EXPECT_TRUE(state.empty() || state.find(") Z") != std::string::npos) << state;
}

struct SplitCase {
  const char* line;
  std::vector<std::string> words;
};

TEST(ShellWords, TrickyLines) {
  const SplitCase cases[] = {
      {"", {}},
      {"   \t ", {}},
      {"# a comment", {}},
      {"  # indented comment", {}},
      {"ls -l /", {"ls", "-l", "/"}},
      {"a  b\tc", {"a", "b", "c"}},
      {"echo 'single quoted'", {"echo", "single quoted"}},
      {"echo \"double quoted\"", {"echo", "double quoted"}},
      {"echo ''", {"echo", ""}},
      {"echo \"\" x", {"echo", "", "x"}},
      {"echo a'b'\"c\"d", {"echo", "abcd"}},
      {"echo 'it'\\''s'", {"echo", "it's"}},
      {"echo \"say \\\"hi\\\"\"", {"echo", "say \"hi\""}},
      {"echo \"back\\\\slash\"", {"echo", "back\\slash"}},
      {"echo \"\\n stays\"", {"echo", "\\n stays"}},
      {"echo '\\n literal'", {"echo", "\\n literal"}},
      {"echo a\\ b", {"echo", "a b"}},
      {"echo \\'", {"echo", "'"}},
      {"echo $HOME ~ *", {"echo", "$HOME", "~", "*"}},
      {"echo \"$HOME `id`\"", {"echo", "$HOME `id`"}},
      {"echo \"\\$HOME\"", {"echo", "$HOME"}},
      {"echo a|b ; c > d && e", {"echo", "a|b", ";", "c", ">", "d", "&&", "e"}},
      {"echo a#b", {"echo", "a#b"}},
      {"echo a #comment", {"echo", "a"}},
      {"echo '#not comment'", {"echo", "#not comment"}},
      {"echo 'multi word' \"more words\" plain", {"echo", "multi word", "more words", "plain"}},
      {"echo 'ünïcødé'", {"echo", "ünïcødé"}},
  };
  for (const auto& c : cases) {
    auto words = split_shell_words(c.line);
    ASSERT_TRUE(words) << c.line << ": " << words.error().message();
    EXPECT_EQ(*words, c.words) << c.line;
  }
}

TEST(ShellWords, MalformedLinesSayWhereAndWhy) {
  struct Bad {
    const char* line;
    std::size_t column;
    const char* what;
  } cases[] = {
      {"echo 'open", 6, "unterminated single quote"},
      {"echo \"open", 6, "unterminated double quote"},
      {"echo \"a\\\"", 6, "unterminated double quote"},
      {"echo trailing\\", 14, "backslash at end of line"},
  };
  for (const auto& c : cases) {
    auto words = split_shell_words(c.line);
    ASSERT_FALSE(words) << c.line;
    EXPECT_EQ(words.error().column, c.column) << c.line;
    EXPECT_EQ(words.error().what, c.what) << c.line;
  }
}

TEST(ShellWords, QuoteRoundTrips) {
  std::vector<std::string> args{"plain",       "",          "two words", "it's", "$HOME", "a\"b",
                                "back\\slash", "tab\there", "#x"};
  auto back = split_shell_words(join_quoted(args));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, args);
  EXPECT_EQ(quote("safe-/path_1.2:x=y@z%+,"), "safe-/path_1.2:x=y@z%+,");
}

}  // namespace
}  // namespace brisk
