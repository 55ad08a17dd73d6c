// ip neigh flush: the entries ip's flush removes (every state but permanent
// and noarp by default, or the nud states given; dev and to narrow it).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpNeighGrammar, Flush) {
  auto f = ok({"neigh", "flush", "dev", "d0", "nud", "stale", "to", "10.9.0.0/24"});
  EXPECT_EQ(f.verb, verb_named("neigh flush"));
  EXPECT_FALSE(f.mutates());
  EXPECT_EQ(f.filter().dev, "d0");
  ASSERT_TRUE(f.filter().to);
  EXPECT_EQ(f.filter().to->to_string(), "10.9.0.0/24");
  EXPECT_EQ(ok({"neigh", "show", "10.9.0.2"}).filter().to->to_string(), "10.9.0.2/32");
  auto bare = error_of({"neigh", "flush"});
  EXPECT_EQ(bare.message, "Flush requires arguments.");
  EXPECT_EQ(bare.exit_code, 1);
  EXPECT_FALSE(parse_command(Words{"neigh", "flush", "to", "10.9.0.300"}, Globals{}));
}

class IpNeighFlush : public cli_test::CliNetnsTest {};

// The entries left, one per line, sorted: the kernel dumps them in hash order.
std::vector<std::string> entries(int ns) {
  std::vector<std::string> lines;
  std::istringstream out(ip_run({"neigh", "show", "nud", "all"}, ns).out);
  for (std::string line; std::getline(out, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_F(IpNeighFlush, RemovesWhatIpRemoves) {
  UniqueFd ip_ns = brisk::test::make_netns();
  for (const Words& flush : std::vector<Words>{{"neigh", "flush", "dev", "d0"},
                                               {"neigh", "flush", "dev", "d0", "nud", "permanent"},
                                               {"neigh", "flush", "to", "10.9.0.4/31", "nud", "all"},
                                               {"neigh", "flush", "nud", "stale"},
                                               {"neigh", "flush"}}) {
    for (int ns : {ns(), ip_ns.get()}) {
      ip_run({"link", "del", "d0"}, ns);
      for (const Words& setup : std::vector<Words>{
               {"link", "add", "d0", "type", "veth", "peer", "name", "d1"},
               {"link", "set", "d0", "up"},
               {"addr", "add", "10.9.0.1/24", "dev", "d0"},
               {"neigh", "add", "10.9.0.2", "lladdr", "02:00:00:00:00:02", "dev", "d0", "nud", "reachable"},
               {"neigh", "add", "10.9.0.3", "lladdr", "02:00:00:00:00:03", "dev", "d0", "nud", "permanent"},
               {"neigh", "add", "10.9.0.4", "lladdr", "02:00:00:00:00:04", "dev", "d0", "nud", "stale"},
               {"neigh", "add", "10.9.0.5", "lladdr", "02:00:00:00:00:05", "dev", "d0", "nud", "noarp"}})
        ASSERT_EQ(ip_run(setup, ns).code, 0) << ::testing::PrintToString(setup);
    }
    auto theirs = ip_run(flush, ip_ns.get());
    auto ours = brisk_run(flush, ns());
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(flush) << ours.err;
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(flush);
    EXPECT_EQ(entries(ns()), entries(ip_ns.get())) << ::testing::PrintToString(flush);
  }
}

}  // namespace
}  // namespace brisk::ipcli
