// NamePrefetch: which runs it looks ahead in, what it finds for each line
// (against a scripted transport, no kernel), that it stops when let go; then
// a long batch whose devices it looks up, one of them missing, against
// ip -batch in twin namespaces.
#include "cli/ip/name_prefetch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli/ip/objects.h"
#include "cli_support.h"
#include "support/fake_kernel.h"

namespace brisk::ipcli {
namespace {

using cli_test::ip_run;

// A plain change kept as the batch parser keeps it: its verb and a view of its text.
BatchCommand plain(const Verb* verb, std::string_view text) {
  return BatchCommand{.verb = verb, .line = 1, .text = text};
}

// n address lines, line k naming dev<k % devices>.
std::vector<std::string> address_lines(int n, int devices) {
  std::vector<std::string> lines;
  for (int k = 0; k < n; ++k)
    lines.push_back("addr add 10.9." + std::to_string(k / 250) + "." + std::to_string(k % 250 + 1) +
                    "/32 dev dev" + std::to_string(k % devices) + "\n");
  return lines;
}

// The commands view `lines`, which must outlive them.
std::vector<BatchCommand> plain_run(const std::vector<std::string>& lines,
                                    const Verb* verb = verb_named("addr add")) {
  std::vector<BatchCommand> run;
  for (const auto& line : lines) run.push_back(plain(verb, line));
  return run;
}

// Waits until the helper has reached line k (found its device or not) by
// looking for a later line's known answer; gives up after a few seconds.
bool wait_for(const NamePrefetch& prefetch, std::size_t k) {
  for (int i = 0; i < 5000; ++i) {
    if (prefetch.take(k)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

TEST(NamePrefetch, NamedDeviceIsTheWordAfterTheFirstDev) {
  EXPECT_EQ(named_device("addr add 10.0.0.1/24 dev eth0\n"), "eth0");
  EXPECT_EQ(named_device("route add 10.0.0.0/8 via 10.1.1.1 dev v0 onlink"), "v0");
  EXPECT_EQ(named_device("route add 10.0.0.0/8 nexthop via 1.1.1.1 dev a nexthop via 1.1.1.2 dev b"), "a");
  EXPECT_EQ(named_device("neigh add 10.0.0.2 lladdr 02:00:00:00:00:01 dev \"v 1\" # a comment\n"), "v 1");
  EXPECT_EQ(named_device("addr add 10.0.0.1/24 dev"), std::nullopt) << "no word after it";
  EXPECT_EQ(named_device("rule add from 10.0.0.0/8 lookup 100"), std::nullopt);
  EXPECT_EQ(named_device("addr add 10.0.0.1/24 device eth0"), std::nullopt) << "only the keyword itself";
  EXPECT_EQ(named_device(""), std::nullopt);
}

TEST(NamePrefetch, OnlyLongRunsThatKeepEveryName) {
  auto lines = address_lines(600, 7);
  auto run = plain_run(lines);
  EXPECT_TRUE(worth_prefetching(run));
  EXPECT_FALSE(worth_prefetching(std::span(run).first(511))) << "too short for the send thread to start";
  EXPECT_TRUE(worth_prefetching(std::span(run).first(512)));
  for (const Verb* verb : {verb_named("route add"), verb_named("route append"), verb_named("rule add"),
                           verb_named("neigh replace"), verb_named("fdb del"), verb_named("nexthop add"),
                           verb_named("addrlabel add"), verb_named("addr del")})
    EXPECT_TRUE(worth_prefetching(plain_run(lines, verb))) << verb->name;
  // One line that may make, rename, move or remove a device anywhere in the run.
  for (const Verb* verb : {verb_named("link add"), verb_named("link set"), verb_named("link del"),
                           verb_named("link del group"), verb_named("link prop add"),
                           verb_named("link prop del"), verb_named("tuntap add"), verb_named("tuntap del")}) {
    auto mixed = plain_run(lines);
    mixed[300].verb = verb;
    EXPECT_FALSE(worth_prefetching(mixed)) << verb->name;
  }
  auto held = plain_run(lines);
  held[599].held = std::make_unique<IpCommand>(IpCommand{.verb = verb_named("addr add")});
  EXPECT_FALSE(worth_prefetching(held)) << "a held command is not a plain change";
}

TEST(NamePrefetch, FindsEachLinesDeviceAndNothingElse) {
  auto lines = address_lines(600, 7);
  lines[100] = "addr add 10.8.0.1/32 dev nosuch\n";
  lines[200] =
      "addr add 10.8.0.2/32 dev " + std::string(IFNAMSIZ, 'x') + "\n";  // an altname: the engine's GETLINK
  lines[300] = "rule add from 10.8.0.0/16 lookup 7\n";
  auto run = plain_run(lines);
  test::FakeKernel kernel([](const nlmsghdr&) { return test::FakeKernel::Answer{}; });
  kernel.concurrent = true;
  for (int d = 0; d < 7; ++d) kernel.devices["dev" + std::to_string(d)] = 40 + d;
  kernel.devices[std::string(IFNAMSIZ, 'x')] = 99;  // too long for the ioctl: never looked up
  NamePrefetch prefetch(kernel, run);
  ASSERT_TRUE(prefetch.started());
  ASSERT_TRUE(wait_for(prefetch, 599));
  for (std::size_t k = 0; k < run.size(); ++k) {
    auto found = prefetch.take(k);
    if (k == 100 || k == 200 || k == 300) {
      EXPECT_FALSE(found) << "line " << k;
      continue;
    }
    ASSERT_TRUE(found) << "line " << k;
    EXPECT_EQ(found->name, "dev" + std::to_string(k % 7));
    EXPECT_EQ(found->ifindex, 40 + static_cast<int>(k % 7));
  }
}

TEST(NamePrefetch, NotStartedWhereTheTransportCannotLookUpBesideASend) {
  auto lines = address_lines(600, 7);
  auto run = plain_run(lines);
  test::FakeKernel kernel([](const nlmsghdr&) { return test::FakeKernel::Answer{}; });
  kernel.devices["dev0"] = 5;
  NamePrefetch prefetch(kernel, run);  // concurrent stays false
  EXPECT_FALSE(prefetch.started());
  EXPECT_FALSE(prefetch.take(0));
  test::FakeKernel willing([](const nlmsghdr&) { return test::FakeKernel::Answer{}; });
  willing.concurrent = true;
  NamePrefetch short_run(willing, std::span(run).first(100));
  EXPECT_FALSE(short_run.started());
}

// A transport whose lookups take a millisecond each, counted.
class SlowLookups final : public netlink::Transport {
 public:
  netlink::NlResult<void> send(std::span<const iovec>) override { return netlink::NetlinkError{.code = EIO}; }
  netlink::NlResult<std::size_t> receive(std::span<char>, bool) override {
    return netlink::NetlinkError{.code = EIO};
  }
  netlink::NlResult<int> interface_index(const std::string&) override {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return 3;
  }
  int receive_buffer() const override { return 1 << 20; }
  int send_buffer() const override { return 1 << 20; }
  bool concurrent_lookups() const override { return true; }
  std::atomic<int> calls{0};
};

TEST(NamePrefetch, StopsWhereItIsWhenLetGo) {
  auto lines = address_lines(2000, 7);
  auto run = plain_run(lines);
  SlowLookups transport;
  auto start = std::chrono::steady_clock::now();
  {
    NamePrefetch prefetch(transport, run);
    ASSERT_TRUE(prefetch.started());
    while (transport.calls.load() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  int seen = transport.calls.load();
  EXPECT_LT(seen, 2000) << "the helper went on to the end";
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(transport.calls.load(), seen) << "a lookup after the object was gone";
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

// A batch of 600 address lines over 300 devices, long enough for the helper,
// with line 401 naming a device that does not exist: brisk and ip -batch, with
// and without -force, fail that line alike and leave the same addresses.
class NamePrefetchBatch : public cli_test::TwinNetnsTest {};

TEST_F(NamePrefetchBatch, LongAddressBatchEndsAsIpsWithTheSameAddresses) {
  brisk::test::TempDir dir;
  std::string setup = dir.path() + "/setup.batch";
  std::string devices;
  for (int d = 0; d < 300; ++d)
    devices += "link add dev" + std::to_string(d) + " type veth peer name peer" + std::to_string(d) + "\n";
  cli_test::write_file(setup, devices);
  auto lines = address_lines(600, 300);
  lines[400] = "addr add 10.8.0.1/32 dev nosuch\n";
  std::string text;
  for (const auto& line : lines) text += line;
  std::string file = dir.path() + "/addresses.batch";
  cli_test::write_file(file, text);
  std::string undo = dir.path() + "/undo.batch";
  std::string undo_text;
  for (int d = 0; d < 300; ++d) undo_text += "addr flush dev dev" + std::to_string(d) + "\n";
  cli_test::write_file(undo, undo_text);
  make_twin({{"-batch", setup}});
  for (bool force : {false, true}) {
    cli_test::expect_same_batch(file, force, ns(), ip_ns());
    std::string ours = cli_test::sorted_lines({"-4", "-o", "addr", "show"}, ns());
    EXPECT_EQ(ours, cli_test::sorted_lines({"-4", "-o", "addr", "show"}, ip_ns())) << "force " << force;
    // ip fails the line (Cannot find device) and stops there, or reads on with -force.
    EXPECT_EQ(std::count(ours.begin(), ours.end(), '\n'), force ? 599 : 400) << "force " << force;
    for (int n : {ns(), ip_ns()}) ASSERT_EQ(ip_run({"-batch", undo}, n).code, 0);
  }
}

}  // namespace
}  // namespace brisk::ipcli
