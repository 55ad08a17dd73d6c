// ip's flush rounds and what -s makes them say ("*** Round 1, deleting 2
// addresses ***", "Nothing to flush."), -s -s's entries, -s's neighbour
// ages, and the words after a dump the kernel refused ("Dump terminated").
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>

#include "cli_support.h"

namespace brisk::ipcli {
namespace {

using Words = std::vector<std::string>;

// The kernel dumps neighbours in hash order, which differs between two
// namespaces: their lines are compared sorted.
std::string sorted(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// A neighbour's ages ("used 2/62/2") count seconds since the twin was
// built, and the two twins are built seconds apart (more under ASan): the
// ages are compared as numbers here, and to the second by NeighbourAgesAsIp,
// which reads one namespace.
std::string ages_masked(const std::string& text) {
  static const std::regex ages("used [0-9]+/[0-9]+/[0-9]+probes");
  return std::regex_replace(text, ages, "used N/N/Nprobes");
}

class FlushStats : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    TwinNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({cli_test::fixed_veth_pair(),
               {"link", "set", "v0", "up"},
               {"link", "set", "v1", "up"},
               {"addr", "add", "10.0.1.1/24", "dev", "v0"},
               {"addr", "add", "10.0.1.2/24", "dev", "v0"},
               {"addr", "add", "10.0.2.1/24", "dev", "v1", "label", "v1:x"},
               {"neigh", "add", "10.0.1.9", "lladdr", "02:00:00:00:00:09", "dev", "v0", "nud", "reachable"},
               {"neigh", "add", "10.0.1.8", "lladdr", "02:00:00:00:00:08", "dev", "v0", "nud", "stale"},
               {"route", "add", "10.9.0.0/16", "via", "10.0.1.5"},
               {"route", "add", "10.8.0.0/16", "via", "10.0.1.5", "table", "5"}});
  }
  // `args` by both: the same status and stderr, and stdout (sorted where
  // the kernel's order is its hash's).
  void same_sorted(const Words& args) {
    auto theirs = cli_test::ip_run(args, ip_ns());
    auto ours = cli_test::brisk_run(args, ns());
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args) << ours.err;
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
    EXPECT_EQ(ages_masked(sorted(ours.out)), ages_masked(sorted(theirs.out)))
        << ::testing::PrintToString(args);
  }
};

TEST_F(FlushStats, RoundsAndEntriesAsIpPrintsThem) {
  for (const Words& args : std::vector<Words>{
           {"-s", "route", "flush", "table", "5"},
           {"-s", "-s", "route", "flush", "10.9.0.0/16"},
           {"-s", "route", "flush", "10.9.0.0/16"},  // gone: nothing to flush
           {"-s", "-s", "neigh", "flush", "dev", "v0"},
           {"-s", "neigh", "flush", "dev", "v0"},
           {"-s", "-s", "addr", "flush", "label", "v1:x"},
           {"-s", "-s", "-o", "addr", "flush", "dev", "v0", "to", "10.0.1.2"},
           {"-l", "1", "-s", "addr", "flush", "dev", "v0"},
           {"-s", "addr", "flush", "dev", "v0"},
       })
    same_sorted(args);
  EXPECT_EQ(cli_test::brisk_run({"-4", "-s", "addr", "flush", "dev", "v1"}, ns()).out, "Nothing to flush.\n");
}

// ip -s neigh's users, ages in seconds and probes are compared without
// root: recorded_cases.h's "neigh_ages".

// A table that does not exist: the kernel refuses the dump (strict
// checking), which brisk used to take for an empty one.
TEST_F(FlushStats, ARefusedDumpEndsAsIpEndsIt) {
  for (const Words& args : std::vector<Words>{{"route", "show", "table", "77"},
                                              {"-6", "route", "show", "table", "77"},
                                              {"route", "flush", "table", "77"},
                                              {"-s", "route", "flush", "table", "77"}}) {
    same(args);
  }
  auto shown = cli_test::brisk_run({"route", "show", "table", "77"}, ns());
  EXPECT_EQ(shown.err, "Error: ipv4: FIB table does not exist.\nDump terminated\n");
  EXPECT_EQ(shown.code, 2);
}

}  // namespace
}  // namespace brisk::ipcli
