// ip neigh get, show and flush's master, vrf, nomaster, protocol and unused
// selectors, and an entry's protocol: the grammar, then brisk against ip 6.1
// in twin throwaway namespaces, on the command line and in batches.
#include <gtest/gtest.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpNeighGetGrammar, GetForms) {
  for (const char* verb : {"get", "ge", "g"}) {
    auto c = ok({"neigh", verb, "10.0.0.2", "dev", "v0"});
    EXPECT_EQ(c.verb, verb_named("neigh get")) << verb;
    EXPECT_FALSE(c.mutates());
    EXPECT_EQ(c.neigh().address, "10.0.0.2");
    EXPECT_EQ(c.neigh().dev, "v0");
    EXPECT_EQ(c.neigh().flags, 0);
  }
  EXPECT_EQ(ok({"neigh", "get", "to", "fd00::2", "dev", "v0"}).neigh().address, "fd00::2");
  EXPECT_EQ(ok({"neigh", "get", "10.0.0.2", "dev", "v0", "dev", "v1"}).neigh().dev, "v1")
      << "as ip: the last dev";
  auto proxy = ok({"neigh", "get", "proxy", "10.0.0.7"});  // the entry for every device
  EXPECT_EQ(proxy.neigh().flags, NTF_PROXY);
  EXPECT_TRUE(proxy.neigh().dev.empty());
  EXPECT_EQ(ok({"neigh", "get", "p", "10.0.0.7", "dev", "v0"}).neigh().dev, "v0");

  for (const Words& lone :
       {Words{"neigh", "get", "10.0.0.2"}, Words{"neigh", "get", "dev", "v0"}, Words{"neigh", "get"}}) {
    auto e = error_of(lone);
    EXPECT_EQ(e.message, "Device and address are required arguments.") << ::testing::PrintToString(lone);
    EXPECT_EQ(e.exit_code, 1);
  }
  auto twice = error_of({"neigh", "get", "10.0.0.2", "dev", "v0", "10.0.0.3"});
  EXPECT_EQ(twice.message, "either \"to\" is duplicate, or \"10.0.0.3\" is a garbage");
  EXPECT_EQ(twice.exit_code, 255);
  EXPECT_EQ(error_of({"neigh", "get", "10.0.0.2", "proxy", "10.0.0.3"}).message,
            "Error: duplicate \"address\": \"10.0.0.3\" is the second value.");
  auto bad = error_of({"neigh", "get", "10.0.0.300", "dev", "v0"});
  EXPECT_EQ(bad.message, "Error: any valid address is expected rather than \"10.0.0.300\".");
  EXPECT_EQ(bad.exit_code, 1);
  Globals v4;
  v4.family = AF_INET;
  EXPECT_EQ(error_of({"neigh", "get", "fe80::1", "dev", "v0"}, v4).message,
            "Error: inet address is expected rather than \"fe80::1\".");
  EXPECT_EQ(error_of({"neigh", "get", "10.0.0.2", "dev"}).message,
            "Command line is not complete. Try option \"help\"");
  auto help = error_of({"neigh", "help"});
  EXPECT_TRUE(help.help);
  EXPECT_TRUE(error_of({"neigh", "get", "help"}).help);
  EXPECT_TRUE(error_of({"neigh", "get", "proxy", "help"}).help);
  for (const char* shown :
       {"brisk neigh get", "nomaster", "unused", "protocol { PROTO | all }", "[ protocol PROTO ]"})
    EXPECT_NE(help.message.find(shown), std::string::npos) << shown;
}

TEST(IpNeighGetGrammar, ShowSelectors) {
  auto m = ok({"neigh", "show", "master", "br0", "unused", "proto", "dhcp"});
  EXPECT_EQ(m.filter().master, "br0");
  EXPECT_TRUE(m.filter().neigh_unused);
  EXPECT_EQ(m.filter().protocol, RTPROT_DHCP);
  EXPECT_EQ(ok({"neigh", "show", "vrf", "blue"}).filter().vrf, "blue");
  EXPECT_TRUE(ok({"neigh", "flush", "nomaster"}).filter().no_master);
  EXPECT_EQ(ok({"neigh", "show", "p", "42"}).filter().protocol, 42) << "protocol may be cut short";
  EXPECT_FALSE(ok({"neigh", "show", "protocol", "all"}).filter().protocol) << "all: any protocol";
  EXPECT_TRUE(ok({"neigh", "show", "proxy"}).filter().neigh_proxy) << "proxy, whole, before protocol";
  auto bogus = error_of({"neigh", "show", "proto", "bogus"});
  EXPECT_EQ(bogus.message, "Error: argument \"bogus\" is wrong: invalid \"protocol\"\n");
  EXPECT_EQ(bogus.exit_code, 255);
  EXPECT_EQ(error_of({"neigh", "show", "proto", "256"}).exit_code, 255);
  EXPECT_EQ(error_of({"neigh", "show", "dev", "d0", "dev", "d1"}).message,
            "Error: duplicate \"dev\": \"d1\" is the second value.");

  // Any other word is a prefix, as ip's get_prefix() reads it.
  auto to = ok({"neigh", "show", "10.9.0.0/24"});
  ASSERT_TRUE(to.filter().to);
  EXPECT_EQ(to.filter().to->to_string(), "10.9.0.0/24");
  EXPECT_EQ(to.family, AF_INET) << "the prefix's family becomes the command's";
  EXPECT_FALSE(ok({"neigh", "show", "to", "default"}).filter().to);
  EXPECT_FALSE(ok({"neigh", "show", "all"}).filter().to);
  auto garbage = error_of({"neigh", "show", "garbage"});
  EXPECT_EQ(garbage.message, "Error: any valid prefix is expected rather than \"garbage\".");
  EXPECT_EQ(garbage.exit_code, 1);
  Globals v6;
  v6.family = AF_INET6;
  EXPECT_EQ(error_of({"neigh", "flush", "10.9.0.0/24"}, v6).message,
            "Error: inet6 prefix is expected rather than \"10.9.0.0/24\".");
}

TEST(IpNeighGetGrammar, AddWithAProtocol) {
  EXPECT_EQ(ok({"neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "v0", "protocol", "dhcp"})
                .neigh()
                .protocol,
            RTPROT_DHCP);
  EXPECT_EQ(ok({"neigh", "replace", "10.0.0.2", "dev", "v0", "prot", "99"}).neigh().protocol, 99);
  // "pro" is still proxy, which ip tests first.
  EXPECT_EQ(ok({"neigh", "add", "pro", "10.0.0.7", "dev", "v0"}).neigh().flags, NTF_PROXY);
  auto bad = error_of({"neigh", "add", "10.0.0.2", "dev", "v0", "protocol", "nonesuch"});
  EXPECT_EQ(bad.message, "Error: argument \"nonesuch\" is wrong: \"protocol\" value is invalid\n");
  EXPECT_EQ(bad.exit_code, 255);
  EXPECT_EQ(error_of({"neigh", "add", "10.0.0.2", "dev", "v0", "protocol", "300"}).exit_code, 255);
}

// Twin namespaces: d0 up with 10.9.0.1/24 and fd00:9::1/64, its peer d1 a
// port of br0, and entries of several protocols on both and in the proxy table.
class IpNeighGetGolden : public cli_test::TwinNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    const std::vector<Words> setup = {
        {"link", "add", "d0", "type", "veth", "peer", "name", "d1"},
        {"link", "add", "br0", "type", "bridge"},
        {"link", "set", "d1", "master", "br0"},
        {"link", "set", "d0", "up"},
        {"link", "set", "d1", "up"},
        {"link", "set", "br0", "up"},
        {"addr", "add", "10.9.0.1/24", "dev", "d0"},
        {"addr", "add", "fd00:9::1/64", "dev", "d0", "nodad"},
        {"neigh", "add", "10.9.0.2", "lladdr", "02:00:00:00:00:02", "dev", "d0", "protocol", "dhcp"},
        {"neigh", "add", "10.9.0.3", "lladdr", "02:00:00:00:00:03", "dev", "d1", "nud", "reachable"},
        {"neigh", "add", "10.9.0.4", "lladdr", "02:00:00:00:00:04", "dev", "d1", "nud", "stale", "proto",
         "static"},
        {"neigh", "add", "fd00:9::2", "lladdr", "02:00:00:00:00:12", "dev", "d0", "nud", "noarp", "router"},
        {"neigh", "add", "proxy", "10.9.0.7", "dev", "d0", "protocol", "static"},
        {"neigh", "add", "proxy", "10.9.0.8"}};
    make_twin(setup);
  }
};

// get, and show with each selector, as ip prints them (and their
// refusals) are compared without root: recorded_cases.h's "neigh_get" is
// this state.

// ip 6.1 prints text for `-j neigh get`; 6.2 made it JSON (iproute2
// 94fc813b), the array show prints. brisk prints that array, so it is read
// against show's JSON for the same entry.
TEST_F(IpNeighGetGolden, GetJsonIsShowsRecord) {
  for (const auto& [get, show] : std::vector<std::pair<Words, Words>>{
           {{"-j", "neigh", "get", "10.9.0.2", "dev", "d0"}, {"-j", "neigh", "show", "to", "10.9.0.2"}},
           {{"-j", "neigh", "get", "proxy", "10.9.0.7", "dev", "d0"},
            {"-j", "neigh", "show", "proxy", "to", "10.9.0.7"}},
           {{"-j", "-p", "neigh", "get", "10.9.0.3", "dev", "d1"},
            {"-j", "-p", "neigh", "show", "to", "10.9.0.3"}}}) {
    auto ours = brisk_run(get, ns());
    EXPECT_EQ(ours.code, 0) << ours.err;
    EXPECT_EQ(ours.out, ip_run(show, ns()).out) << ::testing::PrintToString(get);
  }
}

TEST_F(IpNeighGetGolden, FlushBySelectorsAsIp) {
  for (const Words& flush : std::vector<Words>{{"neigh", "flush", "master", "br0", "proto", "static"},
                                               {"neigh", "flush", "nomaster", "nud", "all", "proto", "dhcp"},
                                               {"neigh", "flush", "proxy", "proto", "static"},
                                               {"neigh", "flush", "master", "br0"}}) {
    same(flush);
    // Not "nud all": the kernel adds br0's own NOARP multicast entries
    // (224.0.0.22) in each namespace in its own time.
    for (const Words& show : {Words{"-4", "neigh", "show"}, Words{"neigh", "show", "proxy"}})
      EXPECT_EQ(cli_test::sorted_lines(show, ns()), cli_test::sorted_lines(show, ip_ns()))
          << ::testing::PrintToString(flush);
  }
  EXPECT_EQ(ip_run({"-4", "neigh", "show", "dev", "d1"}, ns()).out, "") << "br0's ports flushed";
}

// A batch reading and choosing entries, failing in the middle: ip -batch's
// status, stdout, stderr and end state, with and without -force; a missing
// master ends even a -force batch, as ip's argument error does.
TEST_F(IpNeighGetGolden, BatchAsIp) {
  const std::string reads =
      "neigh add 10.9.0.5 lladdr 02:00:00:00:00:05 dev d0 protocol kernel\n"
      "neigh get 10.9.0.5 dev d0\n"
      "neigh get 10.9.0.99 dev d0\n"  // none
      "neigh show proto kernel\n"
      "neigh get proxy 10.9.0.7 dev d0\n"
      "neigh get 10.9.0.5 dev d1\n"  // not on that device
      "neigh show master br0\n"
      "neigh flush nomaster proto kernel\n"
      "neigh get 10.9.0.5 dev d0\n";  // flushed
  const std::string ends =
      "neigh show nomaster\nneigh show master nope0\nneigh add 10.9.0.6 lladdr 02:00:00:00:00:06 dev d0\n";
  brisk::test::TempDir dir;
  for (const auto& text : {reads, ends}) {
    std::string file = dir.path() + "/neigh.batch";
    cli_test::write_file(file, text);
    for (bool force : {false, true}) {
      UniqueFd brisk_ns = brisk::test::make_netns();
      UniqueFd ip_ns = cli_test::twin_netns(
          brisk_ns.get(), {{"link", "add", "d0", "type", "veth", "peer", "name", "d1"},
                           {"link", "add", "br0", "type", "bridge"},
                           {"link", "set", "d1", "master", "br0"},
                           {"link", "set", "d0", "up"},
                           {"neigh", "add", "proxy", "10.9.0.7", "dev", "d0"},
                           {"neigh", "add", "10.9.0.3", "lladdr", "02:00:00:00:00:03", "dev", "d1"}});
      ASSERT_TRUE(ip_ns.valid());
      Words args = force ? Words{"-force", "-batch", file} : Words{"-batch", file};
      auto theirs = ip_run(args, ip_ns.get());
      auto ours = brisk_run(args, brisk_ns.get());
      std::string what = std::string(force ? "-force " : "") + text.substr(0, 20);
      EXPECT_EQ(ours.code, theirs.code) << what;
      EXPECT_EQ(ours.err, theirs.err) << what;
      EXPECT_EQ(ours.out, theirs.out) << what;
      for (const Words& show : {Words{"-4", "neigh", "show"}, Words{"neigh", "show", "proxy"}})
        EXPECT_EQ(cli_test::sorted_lines(show, brisk_ns.get()), cli_test::sorted_lines(show, ip_ns.get()))
            << what;
    }
  }
}

}  // namespace
}  // namespace brisk::ipcli
