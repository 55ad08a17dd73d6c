// ip address's grammar beyond the basics: brd +|-, lifetimes, the IPv6
// flags, and show/flush selectors; parsed without a kernel, then printed and
// applied as ip 6.1 prints and applies them.
#include <gtest/gtest.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "cli/ip/ip.h"
#include "cli/ip/objects.h"
#include "cli_support.h"
#include "parse_support.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;

TEST(IpAddrGrammar, BroadcastPlusAndMinus) {
  EXPECT_EQ(ok({"addr", "add", "10.1.0.3/24", "brd", "+", "dev", "br0"}).addr().broadcast, "10.1.0.255");
  EXPECT_EQ(ok({"addr", "add", "brd", "-", "10.1.0.3/24", "dev", "br0"}).addr().broadcast, "10.1.0.0");
  EXPECT_EQ(ok({"addr", "add", "10.4.7.1/13", "broadcast", "+", "dev", "br0"}).addr().broadcast,
            "10.7.255.255");
  EXPECT_EQ(ok({"addr", "add", "10.5.0.1/31", "brd", "+", "dev", "br0"}).addr().broadcast,
            "");  // as ip: none past /30
  EXPECT_EQ(ok({"addr", "del", "10.1.0.3/24", "brd", "+", "dev", "br0"}).addr().broadcast, "");
  auto v6 = error_of({"addr", "add", "fd00::1/64", "brd", "+", "dev", "br0"});
  EXPECT_EQ(format_error(v6.message, v6.exact), "Broadcast can be set only for IPv4 addresses");
  EXPECT_EQ(v6.exit_code, 1);
}

TEST(IpAddrGrammar, Lifetimes) {
  auto c = ok({"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "100", "preferred_lft", "50"});
  EXPECT_EQ(c.addr().valid_lifetime, 100u);
  EXPECT_EQ(c.addr().preferred_lifetime, 50u);
  auto f = ok({"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "forever", "preferred_lft", "0"});
  EXPECT_EQ(f.addr().valid_lifetime, netlink::AddressInfo::kForever);
  EXPECT_EQ(f.addr().preferred_lifetime, 0u);
  EXPECT_FALSE(ok({"addr", "add", "10.3.0.3/24", "dev", "d0"}).addr().valid_lifetime);
  auto big = error_of({"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "4294967296"});
  EXPECT_EQ(format_error(big.message, big.exact), "Error: argument \"4294967296\" is wrong: valid_lft value");
  EXPECT_EQ(big.exit_code, 255);
  EXPECT_FALSE(
      parse_command(Words{"addr", "add", "10.3.0.3/24", "dev", "d0", "preferred_lft", "soon"}, Globals{}));
  auto longer =
      error_of({"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "10", "preferred_lft", "100"});
  EXPECT_EQ(longer.message, "preferred_lft is greater than valid_lft");
  EXPECT_EQ(longer.exit_code, 1);
  EXPECT_EQ(error_of({"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "0"}).message,
            "valid_lft is zero");
}

TEST(IpAddrGrammar, Ipv6Flags) {
  auto c = ok({"addr", "add", "fd00::5/64", "dev", "d0", "home", "mngtmpaddr", "noprefixroute", "nodad"});
  EXPECT_TRUE(c.addr().home);
  EXPECT_TRUE(c.addr().mngtmpaddr);
  EXPECT_TRUE(c.addr().noprefixroute);
  EXPECT_TRUE(c.addr().nodad);
}

TEST(IpAddrGrammar, PeerMetricAnycastAndChange) {
  auto p = ok({"addr", "add", "10.8.0.1", "peer", "10.8.0.2", "dev", "tun0"});
  EXPECT_EQ(p.addr().prefix, "10.8.0.1");
  EXPECT_EQ(p.addr().peer, "10.8.0.2");
  EXPECT_EQ(ok({"addr", "add", "10.9.0.1/24", "remote", "10.9.0.0/24", "dev", "d0"}).addr().peer,
            "10.9.0.0/24");
  // brd + is derived from the peer's prefix, as ip derives it.
  EXPECT_EQ(ok({"addr", "add", "10.9.0.1", "peer", "10.9.0.0/24", "brd", "+", "dev", "d0"}).addr().broadcast,
            "10.9.0.255");
  auto m = ok({"addr", "add", "10.6.0.1/24", "dev", "d0", "metric", "50", "anycast", "10.6.0.9"});
  EXPECT_EQ(m.addr().metric, 50u);
  EXPECT_EQ(m.addr().anycast, "10.6.0.9");
  EXPECT_EQ(ok({"addr", "add", "10.6.0.1/24", "dev", "d0", "pri", "7"}).addr().metric,
            7u);  // matches(), as ip
  EXPECT_EQ(ok({"addr", "change", "10.6.0.1/24", "dev", "d0", "metric", "60"}).verb,
            verb_named("addr change"));
  EXPECT_EQ(ok({"addr", "chg", "10.6.0.1/24", "dev", "d0"}).verb, verb_named("addr change"));
  EXPECT_EQ(ok({"addr", "add", "127.0.0.2/8", "dev", "lo"}).addr().scope, uint8_t(RT_SCOPE_HOST));
  EXPECT_EQ(ok({"addr", "add", "127.0.0.2/8", "dev", "lo", "scope", "global"}).addr().scope,
            uint8_t(RT_SCOPE_UNIVERSE));
  EXPECT_FALSE(ok({"addr", "del", "127.0.0.2/8", "dev", "lo"}).addr().scope);
  auto o = ok({"addr", "add", "fd00::7/64", "dev", "d0", "optimistic"});
  EXPECT_TRUE(o.addr().optimistic);
  EXPECT_TRUE(ok({"addr", "add", "239.1.1.1/32", "dev", "d0", "autojoin"}).addr().autojoin);
}

TEST(IpAddrGrammar, WarningsAndWildcardDeletion) {
  // An IPv4 delete without a length: ip's wildcard deletion, and its warning.
  auto w = ok({"addr", "del", "10.0.0.1", "dev", "d0"});
  EXPECT_TRUE(w.addr().any_length);
  EXPECT_EQ(w.warning,
            "Warning: Executing wildcard deletion to stay compatible with old scripts.\n"
            "         Explicitly specify the prefix length (10.0.0.1/32) to avoid this warning.\n"
            "         This special behaviour is likely to disappear in further releases,\n"
            "         fix your scripts!");
  EXPECT_FALSE(ok({"addr", "del", "10.0.0.1/24", "dev", "d0"}).addr().any_length);
  EXPECT_FALSE(ok({"addr", "del", "fd00::1", "dev", "d0"}).addr().any_length);
  EXPECT_FALSE(ok({"addr", "add", "10.0.0.1", "dev", "d0"}).addr().any_length);
  // Flags the kernel sets alone, and IPv6 flags on IPv4, are warned of and left out.
  auto r = ok({"addr", "add", "10.0.0.1/24", "dev", "d0", "permanent", "nodad"});
  EXPECT_EQ(r.warning,
            "Warning: permanent option is not mutable from userspace\n"
            "Warning: nodad option can be set only for IPv6 addresses");
  EXPECT_FALSE(r.addr().nodad);
  // Before the address the family is not known yet: an IPv6 flag is refused
  // there too, unless -6 said so.
  EXPECT_FALSE(ok({"addr", "add", "nodad", "fd00::1/64", "dev", "d0"}).addr().nodad);
  EXPECT_TRUE(
      ok({"addr", "add", "nodad", "fd00::1/64", "dev", "d0"}, Globals{.family = AF_INET6}).addr().nodad);
  EXPECT_FALSE(
      ok({"addr", "add", "nodad", "10.0.0.1/24", "dev", "d0"}, Globals{.family = AF_INET}).addr().nodad);
}

TEST(IpAddrGrammar, PeerMetricAndLifetimeErrors) {
  auto dup = error_of({"addr", "add", "10.8.0.1", "peer", "10.8.0.2", "peer", "10.8.0.3", "dev", "t"});
  EXPECT_EQ(format_error(dup.message, dup.exact),
            "Error: duplicate \"peer\": \"10.8.0.3\" is the second value.");
  EXPECT_EQ(dup.exit_code, 255);
  auto brd = error_of({"addr", "add", "10.8.0.1/24", "brd", "+", "broadcast", "10.8.0.255", "dev", "t"});
  EXPECT_EQ(format_error(brd.message, brd.exact),
            "Error: duplicate \"broadcast\": \"10.8.0.255\" is the second value.");
  auto lft = error_of({"addr", "add", "10.8.0.1/24", "valid_lft", "5", "valid_lft", "6", "dev", "t"});
  EXPECT_EQ(format_error(lft.message, lft.exact),
            "Error: duplicate \"valid_lft\": \"valid_lft\" is the second value.");
  auto metric = error_of({"addr", "add", "10.8.0.1/24", "dev", "t", "metric", "4294967296"});
  EXPECT_EQ(format_error(metric.message, metric.exact),
            "Error: argument \"4294967296\" is wrong: \"metric\" value is invalid\n");
  EXPECT_EQ(metric.exit_code, 255);
  auto family = error_of({"addr", "add", "10.8.0.1", "peer", "fd00::2", "dev", "t"});
  EXPECT_EQ(format_error(family.message, family.exact),
            "Error: inet prefix is expected rather than \"fd00::2\".");
  EXPECT_EQ(family.exit_code, 1);
  auto join = error_of({"addr", "add", "10.0.0.1/24", "dev", "d0", "autojoin"});
  EXPECT_EQ(join.message, "autojoin needs multicast address");
  EXPECT_EQ(join.exit_code, 1);
}

TEST(IpAddrGrammar, Selectors) {
  auto d = ok({"addr", "show", "dynamic"});
  EXPECT_EQ(d.filter().addr_flag_mask, uint32_t(IFA_F_PERMANENT));
  EXPECT_EQ(d.filter().addr_flags, 0u);
  auto p = ok({"addr", "show", "dev", "d0", "permanent", "primary"});
  EXPECT_EQ(p.filter().addr_flag_mask, uint32_t(IFA_F_PERMANENT | IFA_F_SECONDARY));
  EXPECT_EQ(p.filter().addr_flags, uint32_t(IFA_F_PERMANENT));
  EXPECT_EQ(p.filter().dev, "d0");
  auto s = ok({"addr", "flush", "dev", "d0", "secondary", "-tentative"});
  EXPECT_EQ(s.filter().addr_flags, uint32_t(IFA_F_SECONDARY));
  EXPECT_EQ(s.filter().addr_flag_mask, uint32_t(IFA_F_SECONDARY | IFA_F_TENTATIVE));
  auto l = ok({"addr", "show", "label", "d0:*", "up"});
  EXPECT_EQ(l.filter().label_pattern, "d0:*");
  EXPECT_TRUE(l.filter().up_only);
  EXPECT_TRUE(l.filter().dev.empty());
  EXPECT_NE(error_of({"addr", "show", "label"}).message.find("not complete"), std::string::npos);
}

// The same addresses in ip's namespace and in brisk's: brisk's lines are
// the ones ip's would be.
class IpAddrParity : public cli_test::CliNetnsTest {
 protected:
  void add_both(const Words& args) {
    Words ip_args{"addr", "add"}, ours{"addr", "add"};
    ip_args.insert(ip_args.end(), args.begin(), args.end());
    ASSERT_EQ(ip_run(ip_args, ip_ns_.get()).code, 0) << ::testing::PrintToString(args);
    auto r = brisk_run(ip_args, ns());
    ASSERT_EQ(r.code, 0) << r.err;
  }
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    ip_ns_ = brisk::test::make_netns();
    for (int ns : {ns(), ip_ns_.get()}) {
      ASSERT_EQ(ip_run({"link", "add", "d0", "type", "veth", "peer", "name", "d1"}, ns).code, 0);
      ASSERT_EQ(ip_run({"link", "add", "e0", "type", "veth", "peer", "name", "e1"}, ns).code, 0);
    }
  }
  UniqueFd ip_ns_;
};

TEST_F(IpAddrParity, AddsWhatIpAddsAndShowsWhatIpShows) {
  add_both({"10.1.0.3/24", "brd", "+", "dev", "d0"});
  add_both({"10.2.0.3/24", "broadcast", "-", "dev", "d0"});
  add_both({"10.3.0.3/24", "dev", "d0", "valid_lft", "1000", "preferred_lft", "500"});
  add_both({"10.3.0.4/24", "dev", "d0", "preferred_lft", "0"});
  add_both({"10.3.0.9/24", "dev", "d0", "label", "d0:x"});
  add_both({"fd00::5/64", "dev", "d0", "home", "mngtmpaddr", "noprefixroute", "nodad", "valid_lft", "2000",
            "preferred_lft", "1000"});
  add_both({"10.4.0.1/24", "dev", "e0"});
  // The state brisk made is the state ip made (lifetimes count down: not compared).
  auto strip = [](nlohmann::json links) {
    for (auto& l : links) {
      l.erase("address");
      for (auto& a : l["addr_info"]) {
        a.erase("valid_life_time");
        a.erase("preferred_life_time");
      }
    }
    return links;
  };
  EXPECT_EQ(strip(cli_test::brisk_json(ns(), {"addr", "show"})),
            strip(cli_test::ip_json(ip_ns_.get(), {"addr", "show"})));
  // And brisk prints each selector's view of it as ip does.
  for (const Words& show : std::vector<Words>{
           {"addr", "show"},
           {"addr", "show", "dynamic"},
           {"addr", "show", "dev", "d0", "permanent"},
           {"addr", "show", "primary"},
           {"addr", "show", "dev", "d0", "secondary"},
           {"addr", "show", "dev", "e0", "secondary"},
           {"addr", "show", "-dynamic"},
           {"addr", "show", "deprecated"},
           {"addr", "show", "label", "d0:*"},
           {"addr", "show", "label", "d0*"},
           {"addr", "show", "to", "10.3.0.9/32"},
           {"addr", "show", "up"},
       }) {
    Words json = show, brief = show, oneline = show;
    json.insert(json.begin(), "-j");
    brief.insert(brief.begin(), "-br");
    oneline.insert(oneline.begin(), "-o");
    for (const Words& args : {show, json, brief, oneline}) cli_test::expect_same_output(args, ns());
  }
}

// Point-to-point addresses, metrics, anycast, loopback scope, change and
// the wildcard delete: ip's state and ip's text, -j, -br and -o.
TEST_F(IpAddrParity, PeerMetricChangeAndWildcardDeleteAsIps) {
  add_both({"10.8.0.1", "peer", "10.8.0.2", "dev", "d0"});
  add_both({"10.9.0.1", "peer", "10.9.0.0/24", "brd", "+", "dev", "d0"});
  add_both({"10.7.0.1/24", "remote", "10.7.0.2", "dev", "e0"});
  add_both({"10.6.0.1/24", "dev", "e0", "metric", "50"});
  add_both({"127.0.0.2/8", "dev", "e0"});
  add_both({"fd00::1/64", "dev", "d0", "nodad", "anycast", "fd00::"});
  add_both({"10.5.0.1/24", "dev", "d0", "permanent"});
  for (const Words& change : std::vector<Words>{
           {"addr", "change", "10.6.0.1/24", "dev", "e0", "metric", "60"},
           {"addr", "del", "10.5.0.1", "dev", "d0"},         // no length: whatever its length
           {"addr", "change", "10.99.0.1/24", "dev", "e0"},  // none such: ENOENT, as ip's
       }) {
    auto theirs = ip_run(change, ip_ns_.get());
    auto ours = brisk_run(change, ns());
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(change) << ours.err;
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(change);
  }
  auto strip = [](nlohmann::json links) {
    for (auto& l : links) l.erase("address");
    return links;
  };
  EXPECT_EQ(strip(cli_test::brisk_json(ns(), {"addr", "show"})),
            strip(cli_test::ip_json(ip_ns_.get(), {"addr", "show"})));
  EXPECT_EQ(ip_run({"route", "show", "table", "all"}, ns()).out,
            ip_run({"route", "show", "table", "all"}, ip_ns_.get()).out);
  for (const Words& show :
       std::vector<Words>{{"addr", "show"}, {"addr", "show", "dev", "d0"}, {"-6", "addr", "show"}}) {
    Words json = show, brief = show, oneline = show;
    json.insert(json.begin(), "-j");
    brief.insert(brief.begin(), "-br");
    oneline.insert(oneline.begin(), "-o");
    for (const Words& args : {show, json, brief, oneline}) cli_test::expect_same_output(args, ns());
  }
  // A flush takes the point-to-point addresses too (deleted by their peer).
  auto ours = brisk_run({"addr", "flush", "dev", "d0"}, ns());
  EXPECT_EQ(ours.code, 0) << ours.err;
  ip_run({"addr", "flush", "dev", "d0"}, ip_ns_.get());
  EXPECT_EQ(ip_run({"-br", "addr", "show", "dev", "d0"}, ns()).out,
            ip_run({"-br", "addr", "show", "dev", "d0"}, ip_ns_.get()).out);
  EXPECT_EQ(ip_run({"-4", "addr", "show", "dev", "d0"}, ns()).out, "");
}

TEST_F(IpAddrParity, FlushWithSelectorsRemovesWhatIpRemoves) {
  for (const Words& flush : std::vector<Words>{
           {"addr", "flush", "dev", "d0", "dynamic"},
           {"addr", "flush", "label", "d0:*"},
           {"addr", "flush", "dev", "d0", "secondary"},
           {"addr", "flush", "dev", "e0", "primary"},
       }) {
    for (int ns : {ns(), ip_ns_.get()})
      for (const char* dev : {"d0", "e0"}) ip_run({"addr", "flush", "dev", dev}, ns);
    add_both({"10.3.0.3/24", "dev", "d0", "valid_lft", "1000", "preferred_lft", "500"});
    add_both({"10.3.0.4/24", "dev", "d0"});
    add_both({"10.3.0.9/24", "dev", "d0", "label", "d0:x"});
    add_both({"10.4.0.1/24", "dev", "e0"});
    add_both({"10.4.0.2/24", "dev", "e0"});
    auto theirs = ip_run(flush, ip_ns_.get());
    auto ours = brisk_run(flush, ns());
    EXPECT_EQ(ours.code, theirs.code) << ours.err;
    EXPECT_EQ(ip_run({"-br", "addr"}, ns()).out, ip_run({"-br", "addr"}, ip_ns_.get()).out)
        << ::testing::PrintToString(flush);
  }
}

TEST_F(IpAddrParity, RefusalsReadAsIps) {
  for (const Words& args : std::vector<Words>{
           {"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "10", "preferred_lft", "100"},
           {"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "0"},
           {"addr", "add", "10.3.0.3/24", "dev", "d0", "valid_lft", "4294967296"},
           {"addr", "add", "fd00::1/64", "brd", "+", "dev", "d0"},
       }) {
    auto theirs = ip_run(args, ip_ns_.get());
    auto ours = brisk_run(args, ns());
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args);
  }
}

}  // namespace
}  // namespace brisk::ipcli
