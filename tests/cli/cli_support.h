// Shared by the CLI tests: run `brisk` and `ip` (the oracle) inside a
// throwaway network namespace, capturing stdout, stderr and the exit status.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "brisk/spawn.h"
#include "support/test_support.h"

namespace brisk::cli_test {

struct Run {
  int code = -1;  // exit code; -1 when killed
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// Runs argv with stdout and stderr in files (no pipe-size deadlock), in `ns` when ns >= 0;
// stdin from `in` and stdout to `out_to` instead when those are given (the caller's fds).
inline Run run(std::vector<std::string> argv, int ns = -1, int in = -1, int out_to = -1) {
  brisk::test::TempDir dir;
  std::string out_path = dir.path() + "/out", err_path = dir.path() + "/err";
  int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  SpawnOptions options{.argv = std::move(argv)};
  options.fds = {{.child_fd = 1, .parent_fd = out_to >= 0 ? out_to : out}, {.child_fd = 2, .parent_fd = err}};
  if (in >= 0) options.fds.push_back({.child_fd = 0, .parent_fd = in});
  if (ns >= 0) options.namespaces = {{.type = CLONE_NEWNET, .fd = ns}};
  Run result;
  auto child = spawn(options);
  ::close(out);
  ::close(err);
  if (!child) {
    ADD_FAILURE() << child.error().message();
    return result;
  }
  auto status = child->wait();
  if (status && status->code()) result.code = *status->code();
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  return result;
}

inline Run brisk_run(std::vector<std::string> args, int ns = -1) {
  args.insert(args.begin(), BRISK_CLI_PATH);
  return run(std::move(args), ns);
}

inline Run ip_run(std::vector<std::string> args, int ns = -1) {
  args.insert(args.begin(), "ip");
  return run(std::move(args), ns);
}

inline nlohmann::json parse_json(const std::string& text) {
  if (text.empty()) return nlohmann::json::array();
  return nlohmann::json::parse(text, nullptr, false);
}

inline nlohmann::json ip_json(int ns, std::vector<std::string> args) {
  args.insert(args.begin(), "-j");
  return parse_json(ip_run(std::move(args), ns).out);
}

inline nlohmann::json brisk_json(int ns, std::vector<std::string> args) {
  args.insert(args.begin(), "-j");
  return parse_json(brisk_run(std::move(args), ns).out);
}

// brisk prints what ip prints, and exits as ip does. The kernel's state may
// move between two reads (DAD, carrier, counters, lifetimes), so brisk's
// read is taken between two of ip's: it must be one of them, and when they
// differ and it is neither, the three are read again. (A lifetime ticks
// each second, and a sanitized brisk can take most of one to start.)
inline void expect_same_output(const std::vector<std::string>& args, int ns) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    auto before = ip_run(args, ns);
    auto ours = brisk_run(args, ns);
    auto after = ip_run(args, ns);
    if (before.out != after.out && ours.out != before.out && ours.out != after.out) continue;
    const Run& seen = ours.out == after.out ? after : before;
    EXPECT_EQ(ours.code, seen.code) << ours.err;
    EXPECT_EQ(ours.out, seen.out) << "brisk " << ::testing::PrintToString(args);
    return;
  }
  ADD_FAILURE() << "ip's output kept changing for " << ::testing::PrintToString(args);
}

// ip's line making the veth pair v0/v1 with fixed MACs, so that twin
// namespaces show the same addresses.
inline std::vector<std::string> fixed_veth_pair() {
  return {"link", "add",  "v0",   "address", "02:00:00:00:00:01", "type",
          "veth", "peer", "name", "v1",      "address",           "02:00:00:00:00:02"};
}

// `-batch FILE` (after -force when `force`) by brisk in `brisk_ns` and by
// ip in `ip_ns`: the same status, stderr and stdout.
inline void expect_same_batch(const std::string& file, bool force, int brisk_ns, int ip_ns) {
  std::vector<std::string> args =
      force ? std::vector<std::string>{"-force", "-batch", file} : std::vector<std::string>{"-batch", file};
  auto theirs = ip_run(args, ip_ns);
  auto ours = brisk_run(args, brisk_ns);
  EXPECT_EQ(ours.code, theirs.code) << "force " << force;
  EXPECT_EQ(ours.err, theirs.err) << "force " << force;
  EXPECT_EQ(ours.out, theirs.out) << "force " << force;
}

// A fresh namespace per test; skips when namespaces cannot be made.
class CliNetnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
    ns_ = brisk::test::make_netns();
    ASSERT_TRUE(ns_.valid());
  }
  void TearDown() override { brisk::test::drop_deviceless_proxies(ns()); }
  int ns() const { return ns_.get(); }
  UniqueFd ns_;
};

// A namespace for ip beside `ours`, both made alike by the ip commands of
// `setup`; an invalid fd (and a test failure) when that fails.
inline UniqueFd twin_netns(int ours, const std::vector<std::vector<std::string>>& setup) {
  UniqueFd theirs = brisk::test::make_netns();
  for (int ns : {ours, theirs.get()}) {
    for (const auto& args : setup) {
      if (ip_run(args, ns).code == 0) continue;
      ADD_FAILURE() << "setup failed: " << ::testing::PrintToString(args);
      return UniqueFd{};
    }
  }
  return theirs;
}

// brisk's namespace (ns()) and a twin for ip, made alike by make_twin's ip
// commands; device-less proxy entries are dropped from both at the end.
class TwinNetnsTest : public CliNetnsTest {
 protected:
  void make_twin(const std::vector<std::vector<std::string>>& setup) {
    ip_ns_ = twin_netns(ns(), setup);
    ASSERT_TRUE(ip_ns_.valid());
  }
  void TearDown() override {
    brisk::test::drop_deviceless_proxies(ip_ns());
    CliNetnsTest::TearDown();
  }
  // `args` with brisk here and with ip in the twin: the same status, stderr and stdout.
  void same(const std::vector<std::string>& args) {
    auto theirs = ip_run(args, ip_ns());
    auto ours = brisk_run(args, ns());
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args) << ours.err;
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.out, theirs.out) << ::testing::PrintToString(args);
  }
  int ip_ns() const { return ip_ns_.get(); }
  UniqueFd ip_ns_;
};

// `ip ARGS` in `ns`, its lines sorted: the kernel dumps some tables in hash order.
inline std::string sorted_lines(const std::vector<std::string>& args, int ns) {
  std::vector<std::string> lines;
  std::istringstream out(ip_run(args, ns).out);
  for (std::string line; std::getline(out, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  std::string all;
  for (const auto& line : lines) all += line + "\n";
  return all;
}

// The messages of a saved stream (ip rule/route save), each with its
// sequence number and port id zeroed: those are the saving socket's, the
// rest is the kernel's object.
inline std::vector<std::string> saved_messages(const std::string& stream) {
  std::vector<std::string> out;
  if (stream.size() < 4) return out;
  for (std::size_t at = 4; at + sizeof(nlmsghdr) <= stream.size();) {
    nlmsghdr h;
    std::memcpy(&h, stream.data() + at, sizeof h);
    if (h.nlmsg_len < sizeof h || at + h.nlmsg_len > stream.size()) break;
    h.nlmsg_seq = 0;
    h.nlmsg_pid = 0;
    std::string m = stream.substr(at, h.nlmsg_len);
    std::memcpy(m.data(), &h, sizeof h);
    out.push_back(m);
    at += NLMSG_ALIGN(h.nlmsg_len);
  }
  return out;
}

// brisk's saved stream beside ip's: it succeeded quietly, starts with
// `magic` and holds the kernel's same messages.
inline void expect_same_stream(const Run& ours, const Run& theirs, uint32_t magic, const std::string& what) {
  ASSERT_EQ(ours.code, 0) << what << ours.err;
  EXPECT_EQ(ours.err, "") << what;
  ASSERT_GE(ours.out.size(), 4u) << what;
  uint32_t found;
  std::memcpy(&found, ours.out.data(), 4);
  EXPECT_EQ(found, magic) << what;
  EXPECT_EQ(saved_messages(ours.out), saved_messages(theirs.out)) << what << ": the kernel's same messages";
  EXPECT_EQ(ours.out.size(), theirs.out.size()) << what;
}

// A unique name for a named namespace, deleted (with its /etc/netns dir) even when a test fails.
class NamedNetns {
 public:
  NamedNetns() {
    static int counter = 0;
    name_ = "brisk-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  }
  ~NamedNetns() {
    run({"ip", "netns", "del", name_});
    run({"rm", "-rf", "/etc/netns/" + name_});
  }
  NamedNetns(const NamedNetns&) = delete;
  NamedNetns& operator=(const NamedNetns&) = delete;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

}  // namespace brisk::cli_test
