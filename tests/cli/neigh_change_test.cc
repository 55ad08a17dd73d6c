// ip neigh change, proxy entries, the entry flags (router, use, managed,
// extern_learn) and every nud state: the grammar, then brisk against ip 6.1
// in throwaway namespaces, on the command line and in batches.
#include <gtest/gtest.h>
#include <linux/neighbour.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::expect_same_output;
using cli_test::ip_run;

TEST(IpNeighChangeGrammar, ChangeAndProxy) {
  for (const char* verb : {"change", "ch", "chg"}) {
    auto c = ok({"neigh", verb, "10.0.0.2", "dev", "v0", "nud", "stale"});
    EXPECT_EQ(c.verb, verb_named("neigh change")) << verb;
    EXPECT_TRUE(c.mutates());
    EXPECT_EQ(c.neigh().state, NUD_STALE);
    EXPECT_TRUE(c.neigh().lladdr.empty());  // a change may keep the entry's
  }
  auto p = ok({"neigh", "add", "proxy", "10.0.0.7", "dev", "v0"});
  EXPECT_EQ(p.verb, verb_named("neigh add"));
  EXPECT_EQ(p.neigh().address, "10.0.0.7");
  EXPECT_EQ(p.neigh().flags, NTF_PROXY);
  EXPECT_EQ(ok({"neigh", "del", "pr", "fd00::7"}).neigh().flags, NTF_PROXY);  // on no device, as ip allows
  EXPECT_EQ(error_of({"neigh", "add", "proxy", "10.0.0.7", "proxy", "10.0.0.8", "dev", "v0"}).message,
            "Error: duplicate \"address\": \"10.0.0.8\" is the second value.");
  EXPECT_EQ(error_of({"neigh", "add", "10.0.0.7", "proxy", "10.0.0.8", "dev", "v0"}).exit_code, 255);
  auto lone = error_of({"neigh", "change", "10.0.0.2"});
  EXPECT_EQ(lone.message, "Device and destination are required arguments.");
  EXPECT_EQ(lone.exit_code, 255);
  EXPECT_TRUE(ok({"neigh", "replace", "10.0.0.2", "lladdr", "null", "dev", "v0"}).neigh().lladdr.empty());
  EXPECT_EQ(error_of({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "ll", "02:00:00:00:00:03",
                      "dev", "v0"})
                .message,
            "Error: duplicate \"lladdr\": \"02:00:00:00:00:03\" is the second value.");
}

TEST(IpNeighChangeGrammar, FlagsAndStates) {
  auto f =
      ok({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "v0", "router", "ext", "use"});
  EXPECT_EQ(f.neigh().flags, NTF_ROUTER | NTF_EXT_LEARNED | NTF_USE);
  EXPECT_FALSE(f.neigh().managed);
  auto m = ok({"neigh", "add", "10.0.0.2", "dev", "v0", "managed"});
  EXPECT_TRUE(m.neigh().managed);
  EXPECT_EQ(m.neigh().state, NUD_NONE);
  // router, use and managed are whole words in ip; extern_learn may be cut short.
  EXPECT_EQ(error_of({"neigh", "add", "10.0.0.2", "dev", "v0", "rout"}).message,
            "either \"to\" is duplicate, or \"rout\" is a garbage");
  const std::vector<std::pair<std::string, int>> states = {
      {"permanent", NUD_PERMANENT}, {"perm", NUD_PERMANENT},        {"reachable", NUD_REACHABLE},
      {"r", NUD_REACHABLE},         {"noarp", NUD_NOARP},           {"none", NUD_NONE},
      {"stale", NUD_STALE},         {"incomplete", NUD_INCOMPLETE}, {"delay", NUD_DELAY},
      {"probe", NUD_PROBE},         {"failed", NUD_FAILED},         {"fail", NUD_FAILED},
      {"0x40", NUD_NOARP},          {"2", NUD_REACHABLE},           {"0", NUD_NONE}};
  for (const auto& [word, state] : states)
    EXPECT_EQ(ok({"neigh", "change", "10.0.0.2", "dev", "v0", "nud", word}).neigh().state, state) << word;
  for (const char* bad : {"odd", "3", "0x100", "inc", "no", "all"}) {
    auto e = error_of({"neigh", "add", "10.0.0.2", "dev", "v0", "nud", bad});
    EXPECT_EQ(e.message, std::string("Error: argument \"") + bad + "\" is wrong: nud state is bad") << bad;
    EXPECT_EQ(e.exit_code, 255);
  }
}

TEST(IpNeighChangeGrammar, ShowAndFlushSelectors) {
  auto s = ok({"neigh", "show", "proxy", "dev", "v0"});
  EXPECT_EQ(s.verb, verb_named("neigh show"));
  EXPECT_TRUE(s.filter().neigh_proxy);
  EXPECT_EQ(s.filter().dev, "v0");
  auto f = ok({"neigh", "flush", "proxy"});
  EXPECT_EQ(f.verb, verb_named("neigh flush"));
  EXPECT_TRUE(f.filter().neigh_proxy);
  EXPECT_EQ(ok({"neigh", "show", "nud", "none"}).filter().nud, 0x100u);
  EXPECT_EQ(ok({"neigh", "show", "nud", "incomplete", "nud", "0x20"}).filter().nud,
            uint32_t(NUD_INCOMPLETE | NUD_FAILED));
  EXPECT_EQ(ok({"neigh", "show", "nud", "all"}).filter().nud, ~0u);
  EXPECT_EQ(error_of({"neigh", "show", "nud", "odd"}).message,
            "Error: argument \"odd\" is wrong: nud state is bad");
}

// Two namespaces alike: a veth pair up, d0 with 10.9.0.1/24 and fd00:9::1/64.
class IpNeighChangeGolden : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    make_twin({{"link", "add", "d0", "type", "veth", "peer", "name", "d1"},
               {"link", "set", "d0", "up"},
               {"link", "set", "d1", "up"},
               {"addr", "add", "10.9.0.1/24", "dev", "d0"},
               {"addr", "add", "fd00:9::1/64", "dev", "d0", "nodad"}});
  }
};

// The IPv4 cache (IPv6 has the kernel's own ff02:: entries coming and
// going) and every proxy entry.
void expect_same_tables(int ours, int theirs, const std::string& what) {
  for (const Words& show : {Words{"-4", "neigh", "show", "nud", "all"}, Words{"neigh", "show", "proxy"}})
    EXPECT_EQ(cli_test::sorted_lines(show, ours), cli_test::sorted_lines(show, theirs))
        << what << " " << ::testing::PrintToString(show);
}

TEST_F(IpNeighChangeGolden, ChangeOfAnEntryAndOfNone) {
  for (const Words& args : std::vector<Words>{
           {"neigh", "change", "10.9.0.2", "lladdr", "02:00:00:00:00:02", "dev", "d0"},  // none yet
           {"neigh", "add", "10.9.0.2", "lladdr", "02:00:00:00:00:02", "dev", "d0"},
           {"neigh", "change", "10.9.0.2", "lladdr", "02:00:00:00:00:03", "dev", "d0", "nud", "stale"},
           {"neigh", "chg", "10.9.0.2", "dev", "d0", "nud", "permanent", "router"},
           {"neigh", "change", "fd00:9::2", "dev", "d0", "nud", "noarp"},  // none
           {"neigh", "change", "10.9.0.2", "dev", "nope0"},
           {"neigh", "add", "10.9.0.3", "dev",
            "d0"},  // no lladdr: the kernel's "No link layer address given"
           {"neigh", "add", "10.9.0.4", "dev", "d0", "nud", "none"},
           {"neigh", "add", "10.9.0.5", "lladdr", "02:00:00:00:00:05", "dev", "d0", "extern_learn"},
           {"neigh", "replace", "10.9.0.6", "lladdr", "02:00:00:00:00:06", "dev", "d0", "nud", "noarp",
            "router"}}) {
    same(args);
    expect_same_tables(ns(), ip_ns(), ::testing::PrintToString(args));
  }
  for (const Words& show : {Words{"neigh", "show", "nud", "all"}, Words{"-j", "neigh", "show", "nud", "all"},
                            Words{"-4", "neigh", "show", "nud", "none"}, Words{"neigh", "show", "dev", "d0"},
                            Words{"-j", "-4", "neigh", "show", "nud", "noarp"}})
    expect_same_output(show, ns());
}

TEST_F(IpNeighChangeGolden, ManagedAndUseAsIpHasThem) {
  for (const Words& args :
       std::vector<Words>{{"neigh", "add", "10.9.0.11", "dev", "d0", "managed"},
                          {"neigh", "add", "10.9.0.12", "lladdr", "02:00:00:00:00:12", "dev", "d0", "use"}})
    same(args);
  // Both resolve on their own, so read brisk's show between two of ip's.
  for (const Words& show :
       {Words{"-4", "neigh", "show", "nud", "all"}, Words{"-j", "-4", "neigh", "show", "nud", "all"}})
    expect_same_output(show, ns());
}

TEST_F(IpNeighChangeGolden, ProxyEntries) {
  for (const Words& args :
       std::vector<Words>{{"neigh", "add", "proxy", "10.9.0.7", "dev", "d0"},
                          {"neigh", "add", "proxy", "10.9.0.7", "dev", "d0"},  // again: fine
                          {"neigh", "add", "proxy", "fd00:9::7", "dev", "d0"},
                          {"neigh", "add", "proxy", "10.9.0.8", "dev", "d1"},
                          {"neigh", "add", "proxy", "10.9.0.9"}}) {  // on no device
    same(args);
    expect_same_tables(ns(), ip_ns(), ::testing::PrintToString(args));
  }
  for (const Words& show :
       {Words{"neigh", "show", "proxy"}, Words{"-j", "neigh", "show", "proxy"},
        Words{"neigh", "show", "proxy", "dev", "d0"}, Words{"-j", "neigh", "show", "proxy", "dev", "d0"},
        Words{"-4", "neigh", "show", "proxy"}, Words{"-br", "neigh", "show", "proxy"},
        Words{"neigh", "show", "proxy", "to", "10.9.0.8"}, Words{"neigh", "show"}})
    expect_same_output(show, ns());
  for (const Words& args : std::vector<Words>{{"neigh", "del", "proxy", "10.9.0.7", "dev", "d0"},
                                              {"neigh", "del", "proxy", "10.9.0.7", "dev", "d0"},  // gone
                                              {"neigh", "del", "proxy", "10.9.0.9"},
                                              {"neigh", "flush", "proxy", "dev", "d1"},
                                              {"neigh", "flush", "proxy"}}) {
    same(args);
    expect_same_tables(ns(), ip_ns(), ::testing::PrintToString(args));
  }
  EXPECT_EQ(ip_run({"neigh", "show", "proxy"}, ns()).out, "");
}

// A batch of these lines failing in the middle: ip -batch's status, stderr
// and end state, with and without -force.
TEST_F(IpNeighChangeGolden, BatchStopsOrGoesOnAsIpDoes) {
  const std::string text =
      "neigh add 10.9.0.2 lladdr 02:00:00:00:00:02 dev d0\n"
      "neigh add proxy 10.9.0.7 dev d0\n"
      "neigh change 10.9.0.2 lladdr 02:00:00:00:00:03 dev d0 nud stale\n"
      "neigh change 10.9.0.99 lladdr 02:00:00:00:00:99 dev d0\n"  // no such entry
      "neigh add proxy fd00:9::8 dev d0 router\n"
      "neigh chg 10.9.0.2 dev d0 nud reachable router\n"
      "neigh del proxy 10.9.0.70 dev d0\n"  // no such proxy entry
      "neigh replace 10.9.0.4 lladdr 02:00:00:00:00:04 dev d0 nud noarp\n"
      "neigh add 10.9.0.5 dev d0 nud none\n"
      "neigh del proxy 10.9.0.7 dev d0\n";
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/neigh.batch";
  cli_test::write_file(file, text);
  for (bool force : {false, true}) {
    UniqueFd brisk_ns = brisk::test::make_netns();
    UniqueFd ip_ns = cli_test::twin_netns(
        brisk_ns.get(),
        {{"link", "add", "d0", "type", "veth", "peer", "name", "d1"}, {"link", "set", "d0", "up"}});
    ASSERT_TRUE(ip_ns.valid());
    cli_test::expect_same_batch(file, force, brisk_ns.get(), ip_ns.get());
    expect_same_tables(brisk_ns.get(), ip_ns.get(), force ? "-force" : "no -force");
  }
}

}  // namespace
}  // namespace brisk::ipcli
