// ip ntable: the neighbour tables and their devices' parameters, shown and
// changed, byte for byte and status for status as ip 6.1. The tables' own
// values belong to the initial namespace, which no test touches: changes
// here are a device's, and the kernel's refusal of the others.
#include <gtest/gtest.h>

#include <regex>

#include "cli_support.h"

namespace brisk::cli_test {
namespace {

using Words = std::vector<std::string>;

class IpNtable : public CliNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_EQ(ip_run({"link", "add", "d0", "type", "veth", "peer", "name", "d1"}, ns()).code, 0);
  }
};

TEST_F(IpNtable, ShowsAsIp) {
  // The rest of the shows, text and JSON, are compared with ip's without
  // root (recorded_cases.h's "netconf_ntable"); -s prints times of day
  // from ages, which move with the clock, so those are compared here.
  for (const Words& args : std::vector<Words>{
           {"-s", "ntable", "show", "name",
            "arp_cache"},  // config and counters: the host's, so they may move
           {"-s", "-6", "ntable", "show", "dev", "none"},
           {"-s", "-o", "ntable"},
       }) {
    for (bool json : {false, true}) {
      Words full = args;
      if (json) full.insert(full.begin(), "-j");
      expect_same_output(full, ns());
    }
  }
  auto shown = brisk_run({"ntable", "show", "dev", "d0"}, ns()).out;
  EXPECT_NE(shown.find("inet arp_cache \n    dev d0 \n    refcnt "), std::string::npos) << shown;
  EXPECT_NE(shown.find("inet6 ndisc_cache \n    dev d0 \n"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("thresh1"), std::string::npos) << "the tables' own records name no device";
}

// Every refusal: ip's text, on stderr, with ip's status; nothing changed.
TEST_F(IpNtable, RefusesAsIp) {
  auto before = ip_run({"-s", "ntable", "show", "dev", "d0"}, ns()).out;
  for (const Words& args : std::vector<Words>{
           {"ntable", "show", "dev", "nosuch"},
           {"ntable", "show", "bogus"},
           {"ntable", "show", "dev"},
           {"ntable", "show", "name"},
           {"ntable", "change"},
           {"ntable", "change", "dev", "d0", "queue", "3"},  // no name
           {"ntable", "change", "name", "arp_cache"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0"},  // a device alone changes nothing
           {"ntable", "change", "name", "arp_cache", "name", "ndisc_cache"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "queue", "x"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "queue", "4294967296"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "thresh1", "-1"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "gc_int", "18446744073709551616"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "retrans", ""},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "nosuch", "1"},
           {"ntable", "change", "name", "arp_cache", "dev", "d0", "locktime"},
           {"ntable", "change", "name", "arp_cache", "dev", "nosuch", "queue",
            "3"},                                                      // "Cannot find device", 1
           {"ntable", "change", "name", "arp_cache", "thresh1", "5"},  // the initial namespace's: ENOENT, 2
           {"ntable", "change", "name", "arp_cache", "queue", "5"},    // likewise its defaults
           {"ntable", "change", "name", "no_such_cache", "dev", "d0", "queue", "5"},
           {"-6", "ntable", "change", "name", "arp_cache", "dev", "d0", "queue",
            "5"},  // no such table in inet6
       }) {
    auto theirs = ip_run(args, ns()), ours = brisk_run(args, ns());
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.out, theirs.out) << ::testing::PrintToString(args);
  }
  std::regex moving(
      "(reachable|allocs|destroys|lookups|hits|entries|last_flush|last_rand|hash_grows|res_failed|"
      "periodic_gc_runs|forced_gc_runs|rcv_probes_mcast|rcv_probes_ucast) [^ ]+( [0-9:]+)?");
  auto masked = [&](const std::string& text) { return std::regex_replace(text, moving, "$1 N"); };
  EXPECT_EQ(masked(ip_run({"-s", "ntable", "show", "dev", "d0"}, ns()).out), masked(before))
      << "nothing changed";
  // An unknown command names brisk's help, with ip's status.
  auto bogus = brisk_run({"ntable", "bogus"}, ns());
  EXPECT_EQ(bogus.code, ip_run({"ntable", "bogus"}, ns()).code);
  EXPECT_EQ(bogus.err, "Command \"bogus\" is unknown, try \"brisk ntable help\".\n");
  auto help = brisk_run({"ntable", "help"}, ns());
  EXPECT_EQ(help.code, 255);
  EXPECT_EQ(help.err.rfind("Usage: brisk ntable change name NAME [ dev DEV ]\n", 0), 0u) << help.err;
}

// A device's parameters changed by ip in one namespace and by brisk in its
// twin end the same, every one of them, in either table, text and JSON.
TEST_F(IpNtable, ChangesADevicesParametersAsIp) {
  UniqueFd theirs = twin_netns(ns(), {});
  ASSERT_TRUE(theirs.valid());
  ASSERT_EQ(ip_run({"link", "add", "d0", "type", "veth", "peer", "name", "d1"}, theirs.get()).code, 0);
  for (const Words& args : std::vector<Words>{
           {"ntable",         "change", "name",         "arp_cache", "dev",           "d0",
            "base_reachable", "20000",  "retrans",      "0x7d0",     "gc_stale",      "0165140",
            "delay_probe",    "3000",   "queue",        "7",         "app_probes",    "1",
            "ucast_probes",   "4",      "mcast_probes", "2",         "anycast_delay", "500",
            "proxy_delay",    "600",    "proxy_queue",  "33",        "locktime",      "1500"},
           {"ntable", "chg", "name", "ndisc_cache", "dev", "d1", "dev", "d0", "queue", "9", "locktime", "-1"},
           {"-6", "ntable", "change", "name", "ndisc_cache", "dev", "d1", "mcast_probes", "0", "retrans",
            "+250"},
       }) {
    auto ip = ip_run(args, theirs.get()), ours = brisk_run(args, ns());
    ASSERT_EQ(ip.code, 0) << ::testing::PrintToString(args) << ip.err;
    EXPECT_EQ(ours.code, 0) << ours.err;
    EXPECT_EQ(ours.err, "");
  }
  // `reachable` is drawn at random around base_reachable, per device.
  std::regex reachable("reachable\"?:? ?[0-9]+");
  for (const Words& show :
       std::vector<Words>{{"ntable", "show", "dev", "d0"}, {"-j", "ntable", "show", "dev", "d1"}}) {
    auto ip = ip_run(show, theirs.get()).out, ours = brisk_run(show, ns()).out;
    EXPECT_EQ(std::regex_replace(ours, reachable, "reachable N"),
              std::regex_replace(ip, reachable, "reachable N"))
        << ::testing::PrintToString(show);
  }
  auto d0 = brisk_run({"ntable", "show", "name", "arp_cache", "dev", "d0"}, ns()).out;
  // Times in whole jiffies at any HZ (100, 250, 300, 1000), so they read back as set.
  EXPECT_NE(d0.find("base_reachable 20000 retrans 2000 \n    gc_stale 60000 delay_probe 3000 queue 7 \n"
                    "    app_probes 1 ucast_probes 4 mcast_probes 2 \n"
                    "    anycast_delay 500 proxy_delay 600 proxy_queue 33 locktime 1500 \n"),
            std::string::npos)
      << d0;
}

// In a batch: a show or change that fails ends the batch or not as in ip,
// with ip's words; the lines before and after apply as in ip.
TEST_F(IpNtable, BatchLinesAsIp) {
  brisk::test::TempDir dir;
  std::string failed_lines = dir.path() + "/failed-lines", refused = dir.path() + "/refused";
  write_file(failed_lines,
             "ntable change name arp_cache dev d0 queue 11\n"
             "ntable change name arp_cache dev nosuch queue 3\n"  // Cannot find device: a failed line
             "ntable change name arp_cache dev d1 ucast_probes 6\n"
             "ntable show name no_such_cache\n"
             "ntable show dev nosuch\n"  // ip's argument error: the batch ends, -force or not
             "ntable change name arp_cache dev d1 mcast_probes 7\n");
  write_file(refused,
             "ntable change name arp_cache dev d0 queue 12\n"
             "ntable change name arp_cache thresh1 5\n"  // the kernel's ENOENT: ip exits 2, -force or not
             "ntable change name arp_cache dev d1 queue 13\n");
  for (const auto& [file, force] : std::vector<std::pair<std::string, bool>>{
           {failed_lines, false}, {failed_lines, true}, {refused, false}, {refused, true}}) {
    UniqueFd theirs = twin_netns(ns(), {});
    ASSERT_TRUE(theirs.valid());
    UniqueFd ours = twin_netns(ns(), {});
    ASSERT_TRUE(ours.valid());
    for (int n : {theirs.get(), ours.get()})
      ASSERT_EQ(ip_run({"link", "add", "d0", "type", "veth", "peer", "name", "d1"}, n).code, 0);
    expect_same_batch(file, force, ours.get(), theirs.get());
    std::regex reachable("reachable [0-9]+");
    Words show{"ntable", "show", "name", "arp_cache"};
    EXPECT_EQ(std::regex_replace(ip_run(show, ours.get()).out, reachable, "reachable N"),
              std::regex_replace(ip_run(show, theirs.get()).out, reachable, "reachable N"))
        << file << " force " << force;
  }
}

}  // namespace
}  // namespace brisk::cli_test
