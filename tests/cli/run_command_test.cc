// `brisk run`: options, exit codes, JSON, batches and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "brisk/command.h"
#include "support/test_support.h"

namespace brisk {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct CliRun {
  int code = -1;
  std::string out;
  std::string err;
};

CliRun brisk_run(std::vector<std::string> args, std::string input = {}) {
  Command c(BRISK_CLI_PATH);
  c.arg("run").args(args).stdin_from(Input::data(std::move(input))).check(false);
  Output out = c.output();
  return {out.status.exit.shell_code(), out.out, out.err};
}

std::string write_file(const test::TempDir& dir, const std::string& name, const std::string& text) {
  std::string path = dir.path() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CliRun, ExitCodeIsTheProgramsOwn) {
  EXPECT_EQ(brisk_run({"--", "true"}).code, 0);
  EXPECT_EQ(brisk_run({"--", "sh", "-c", "exit 7"}).code, 7);
}

TEST(CliRun, KillingBriskTerminatesTheProgram) {
  test::TempDir dir;
  std::string pid_file = dir.path() + "/pid";
  Process brisk =
      Command({BRISK_CLI_PATH, "run", "--", "sh", "-c", "echo $$ > " + pid_file + "; exec sleep 30"})
          .stdout_to(Sink::null())  // a pipe would keep wait() until sleep ends
          .stderr_to(Sink::null())
          .check(false)
          .spawn();
  pid_t program = 0;
  for (int i = 0; i < 500 && program == 0; ++i) {
    ::usleep(10000);
    std::ifstream in(pid_file);
    in >> program;
  }
  ASSERT_NE(program, 0);
  ::usleep(50000);  // let sh exec sleep
  ASSERT_TRUE(brisk.kill(SIGKILL));
  (void)brisk.wait();
  std::string state;
  for (int i = 0; i < 200; ++i) {
    std::ifstream stat("/proc/" + std::to_string(program) + "/stat");
    state.clear();
    std::getline(stat, state);
    if (state.empty() || state.find(") Z") != std::string::npos) break;
    ::usleep(10000);
  }
  EXPECT_TRUE(state.empty() || state.find(") Z") != std::string::npos) << state;
}

TEST(CliRun, OutputIsInheritedWithoutJson) {
  CliRun r = brisk_run({"--", "sh", "-c", "echo out; echo err >&2"});
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(CliRun, StdinIsInherited) { EXPECT_EQ(brisk_run({"--", "cat"}, "fed\n").out, "fed\n"); }

TEST(CliRun, SignalDeathIs128PlusTheSignal) {
  EXPECT_EQ(brisk_run({"--", "sh", "-c", "kill -KILL $$"}).code, 137);
}

TEST(CliRun, TimeoutIs124AndKillAfterEscalates) {
  EXPECT_EQ(brisk_run({"--timeout", "0.1", "--", "sleep", "10"}).code, 124);
  CliRun r = brisk_run(
      {"--timeout", "0.1", "--kill-after", "0.1", "--json", "--", "sh", "-c", "trap '' TERM; sleep 10"});
  EXPECT_EQ(r.code, 124);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["timed_out"], true);
  EXPECT_EQ(j["signal"], SIGKILL);
  EXPECT_EQ(j["signal_name"], "SIGKILL");
  EXPECT_EQ(j["status"], 124);
}

TEST(CliRun, NotFoundAndNotExecutable) {
  EXPECT_EQ(brisk_run({"--", "/nonexistent/program"}).code, 127);
  EXPECT_EQ(brisk_run({"--", "/etc/hostname"}).code, 126);
  EXPECT_EQ(brisk_run({"--cwd", "/nonexistent", "--", "true"}).code, 125);
}

TEST(CliRun, CwdEnvUnsetClearEnv) {
  EXPECT_EQ(brisk_run({"--cwd", "/usr", "--", "pwd"}).out, "/usr\n");
  EXPECT_EQ(brisk_run({"--env", "A=1", "--env", "B=x=y", "--", "sh", "-c", "echo $A $B"}).out, "1 x=y\n");
  EXPECT_EQ(brisk_run({"--env", "HOME=/x", "--unset", "HOME", "--", "sh", "-c", "echo ${HOME-unset}"}).out,
            "unset\n");
  EXPECT_EQ(brisk_run({"--clear-env", "--env", "ONLY=1", "--", "/usr/bin/env"}).out, "ONLY=1\n");
}

TEST(CliRun, AllowExitMakesListedCodesSucceed) {
  EXPECT_EQ(brisk_run({"--allow-exit", "0,3-4", "--", "sh", "-c", "exit 4"}).code, 0);
  EXPECT_EQ(brisk_run({"--allow-exit", "0,3-4", "--", "sh", "-c", "exit 5"}).code, 5);
  // A 0 the list does not allow is still a failure.
  EXPECT_EQ(brisk_run({"--allow-exit", "1", "--", "true"}).code, 1);
}

TEST(CliRun, UserAndChroot) {
  if (!test::is_root()) GTEST_SKIP() << "needs root";
  EXPECT_EQ(brisk_run({"--user", "nobody", "--", "id", "-u"}).out, "65534\n");
  EXPECT_EQ(brisk_run({"--user", "nobody:root", "--", "id", "-g"}).out, "0\n");
  test::TempDir root;
  test::build_minimal_root(root.path(), {"/bin/ls"});
  std::filesystem::create_directory(root.path() + "/inside");
  EXPECT_THAT(brisk_run({"--chroot", root.path(), "--", "/bin/ls", "/"}).out, HasSubstr("inside"));
}

TEST(CliRun, NetnsByName) {
  if (!test::can_unshare_net()) GTEST_SKIP() << "cannot create network namespaces";
  std::string name = "brisk-cli-test-" + std::to_string(::getpid());
  ASSERT_TRUE(Command({"ip", "netns", "add", name}).check(false).status().success());
  CliRun r = brisk_run({"--netns", name, "--", "ip", "-o", "link"});
  CliRun by_path = brisk_run({"--netns", "/run/netns/" + name, "--", "ip", "-o", "link"});
  // As Command::netns: the namespace's own /sys too (ip netns exec's view).
  CliRun sys = brisk_run({"--netns", name, "--", "ls", "/sys/class/net"});
  (void)Command({"ip", "netns", "del", name}).check(false).status();
  EXPECT_EQ(sys.out, "lo\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("lo:"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("eth")));
  EXPECT_EQ(by_path.out, r.out);
}

TEST(CliRun, JsonCarriesTheResult) {
  CliRun r = brisk_run({"--json", "--", "sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.code, 3);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["argv"], nlohmann::json({"sh", "-c", "echo out; echo err >&2; exit 3"}));
  EXPECT_EQ(j["status"], 3);
  EXPECT_EQ(j["exit_code"], 3);
  EXPECT_TRUE(j["signal"].is_null());
  EXPECT_EQ(j["timed_out"], false);
  EXPECT_EQ(j["success"], false);
  EXPECT_EQ(j["stdout"], "out\n");
  EXPECT_EQ(j["stderr"], "err\n");
  EXPECT_GT(j["durations"]["wall_s"].get<double>(), 0.0);
  EXPECT_TRUE(j["durations"].contains("user_s"));
  EXPECT_TRUE(j["durations"].contains("system_s"));
}

TEST(CliRun, JsonSurvivesBinaryOutput) {
  CliRun r = brisk_run({"--json", "--", "printf", "\\377\\376"});
  EXPECT_EQ(r.code, 0);
  EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << r.out;
}

// Each bad input: a one-line error naming the problem, code 2, nothing run.
TEST(CliRun, BadInputIsAUsageErrorAndRunsNothing) {
  test::TempDir dir;
  std::string marker = dir.path() + "/ran";
  std::string bad_batch = write_file(dir, "bad", "touch " + marker + "\necho 'unterminated\n");
  struct Case {
    std::vector<std::string> args;
    const char* names;
  } cases[] = {
      {{"--timeout", "-1", "--", "touch", marker}, "--timeout '-1'"},
      {{"--timeout", "soon", "--", "touch", marker}, "--timeout 'soon'"},
      {{"--kill-after", "-2", "--", "touch", marker}, "--kill-after '-2'"},
      {{"--env", "NOEQUALS", "--", "touch", marker}, "--env 'NOEQUALS'"},
      {{"--env", "=x", "--", "touch", marker}, "--env '=x'"},
      {{"--netns", "brisk-no-such-ns", "--", "touch", marker}, "/run/netns/brisk-no-such-ns"},
      {{"--netns", "/nonexistent/ns", "--", "touch", marker}, "--netns '/nonexistent/ns'"},
      {{"--user", "brisk-no-such-user", "--", "touch", marker}, "--user 'brisk-no-such-user'"},
      {{"--user", "root:brisk-no-such-group", "--", "touch", marker}, "--user 'root:brisk-no-such-group'"},
      {{"--allow-exit", "0,x", "--", "touch", marker}, "--allow-exit '0,x'"},
      {{"--batch", dir.path() + "/missing"}, "No such file or directory"},
      {{"--batch", dir.path()}, "is a directory"},
      {{"--batch", bad_batch}, "bad:2: column 6: unterminated single quote"},
      {{"--batch", bad_batch, "--", "touch", marker}, "--batch takes no PROGRAM"},
      {{}, "expected -- PROGRAM"},
  };
  for (const auto& c : cases) {
    CliRun r = brisk_run(c.args);
    EXPECT_EQ(r.code, 2) << c.names;
    EXPECT_THAT(r.err, StartsWith("brisk run: ")) << c.names;
    EXPECT_THAT(r.err, HasSubstr(c.names));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(std::filesystem::exists(marker)) << c.names;
  }
}

TEST(CliBatch, RunsEveryLineWithQuotingCommentsAndJsonArrays) {
  test::TempDir dir;
  std::string file = write_file(dir, "batch",
                                "# a comment\n"
                                "\n"
                                "printf '%s|' 'one two' \"three\\\"four\" five\\ six\n"
                                "   # indented comment\n"
                                "[\"printf\", \"%s|\", \"$HOME\", \"a b\"]\n");
  CliRun r = brisk_run({"--batch", file, "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["commands"].size(), 2u);
  EXPECT_EQ(j["commands"][0]["stdout"], "one two|three\"four|five six|");
  EXPECT_EQ(j["commands"][0]["line"], 3);
  EXPECT_EQ(j["commands"][1]["stdout"], "$HOME|a b|");
  EXPECT_EQ(j["commands"][1]["line"], 5);
  EXPECT_EQ(j["summary"]["succeeded"], 2);
  EXPECT_EQ(j["summary"]["failed"], 0);
}

TEST(CliBatch, ReadsStdinAndSummarises) {
  CliRun r = brisk_run({"--batch", "-"}, "echo a\necho b\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "a\nb\n");
  EXPECT_THAT(r.err, HasSubstr("2 commands: 2 succeeded, 0 failed, 0 not run"));
}

TEST(CliBatch, StopsAtTheFirstFailureUnlessKeepGoing) {
  std::string lines = "echo 1\nfalse\necho 3\n";
  CliRun stop = brisk_run({"--batch", "-"}, lines);
  EXPECT_EQ(stop.code, 1);
  EXPECT_EQ(stop.out, "1\n");
  EXPECT_THAT(stop.err, HasSubstr("line 2: false: exit code 1"));
  EXPECT_THAT(stop.err, HasSubstr("1 succeeded, 1 failed, 1 not run"));
  CliRun keep = brisk_run({"--batch", "-", "--keep-going"}, lines);
  EXPECT_EQ(keep.code, 1);
  EXPECT_EQ(keep.out, "1\n3\n");
  EXPECT_THAT(keep.err, HasSubstr("2 succeeded, 1 failed, 0 not run"));
}

TEST(CliBatch, RunsAtMostJAtOnce) {
  test::TempDir dir;
  std::string log = dir.path() + "/log";
  std::string lines;
  for (int i = 0; i < 6; ++i) lines += "sh -c 'echo + >> " + log + "; sleep 0.2; echo - >> " + log + "'\n";
  CliRun r = brisk_run({"--batch", "-", "-j", "2"}, lines);
  EXPECT_EQ(r.code, 0) << r.err;
  std::ifstream in(log);
  int running = 0, peak = 0;
  for (std::string mark; in >> mark;) {
    running += mark == "+" ? 1 : -1;
    peak = std::max(peak, running);
  }
  EXPECT_EQ(peak, 2);
}

TEST(CliBatch, OptionsApplyToEveryLineIncludingTimeouts) {
  CliRun r = brisk_run({"--batch", "-", "--json", "--keep-going", "--timeout", "0.1", "--env", "X=y"},
                       "sh -c 'echo $X'\nsleep 5\n");
  EXPECT_EQ(r.code, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["commands"][0]["stdout"], "y\n");
  EXPECT_EQ(j["commands"][1]["timed_out"], true);
  EXPECT_EQ(j["commands"][1]["status"], 124);
  EXPECT_EQ(j["summary"]["failed"], 1);
}

TEST(CliBatch, MalformedLinesAreReportedWithTheirNumber) {
  struct Case {
    const char* text;
    const char* error;
  } cases[] = {
      {"echo ok\n\necho \"open\n", "<stdin>:3: column 6: unterminated double quote"},
      {"echo ok\necho trailing\\\n", "<stdin>:2: column 14: backslash at end of line"},
      {"[\"echo\", 1]\n", "<stdin>:1: expected a JSON array of strings"},
      {"[]\n", "<stdin>:1: empty JSON array"},
      {"echo\n[\"unclosed\"\n", "<stdin>:2: invalid JSON array"},
  };
  for (const auto& c : cases) {
    CliRun r = brisk_run({"--batch", "-"}, c.text);
    EXPECT_EQ(r.code, 2) << c.text;
    EXPECT_EQ(r.err, std::string("brisk run: ") + c.error + "\n");
    EXPECT_EQ(r.out, "") << "something ran for: " << c.text;
  }
}

}  // namespace
}  // namespace brisk
