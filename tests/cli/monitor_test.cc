// ip monitor: brisk and ip listen side by side in one namespace while links,
// addresses, routes and neighbours change; both are stopped with a signal
// and must have printed the same lines in the same order.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/icmp6.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "brisk/netlink/netns.h"
#include "cli_support.h"
#include "parse_support.h"
#include "sys/namespaces.h"

namespace brisk::ipcli {
namespace {

using cli_test::brisk_run;
using cli_test::ip_run;
using cli_test::slurp;

// ---- grammar ----

TEST(IpMonitorGrammar, ObjectsAndAbbreviations) {
  auto all = ok({"monitor"});
  EXPECT_EQ(all.verb, verb_named("monitor"));
  EXPECT_FALSE(all.mutates());
  EXPECT_FALSE(all.monitor().link || all.monitor().address || all.monitor().route || all.monitor().neigh ||
               all.monitor().label);
  auto some = ok({"mo", "li", "a", "r", "n"});
  EXPECT_TRUE(some.monitor().link && some.monitor().address && some.monitor().route && some.monitor().neigh);
  EXPECT_FALSE(some.monitor().label);
  EXPECT_TRUE(ok({"monitor", "l", "link"}).monitor().label);  // "l" is label, as in ip
  EXPECT_TRUE(ok({"monitor", "all"}).monitor().label);
  EXPECT_TRUE(ok({"monitor", "ru"}).monitor().rule);   // "r" is route
  EXPECT_TRUE(ok({"monitor", "ne"}).monitor().neigh);  // neigh is tested before netconf, as in ip
  EXPECT_TRUE(ok({"monitor", "net"}).monitor().netconf);
  EXPECT_TRUE(ok({"monitor", "ns"}).monitor().nsid);
  EXPECT_FALSE(ok({"monitor", "nsid"}).monitor().neigh);
  // ip's order: "m" is mroute (after route), "p" prefix, "nex" nexthop; stats only whole.
  EXPECT_TRUE(ok({"monitor", "m"}).monitor().mroute);
  EXPECT_TRUE(ok({"monitor", "p"}).monitor().prefix);
  EXPECT_TRUE(ok({"monitor", "nex"}).monitor().nexthop);
  EXPECT_FALSE(ok({"monitor", "nex"}).monitor().neigh);
  EXPECT_TRUE(ok({"monitor", "stats"}).monitor().stats);
}

TEST(IpMonitorGrammar, BadWordsAreIpsError) {
  for (const Words& bad : std::vector<Words>{{"monitor", "bogus"},
                                             {"monitor", "link", "al"},
                                             {"monitor", "rules"},
                                             {"monitor", "addresses"},
                                             {"monitor", "stat"},
                                             {"monitor", "neighbour"}}) {
    auto e = error_of(bad);
    EXPECT_EQ(e.message, "Argument \"" + bad.back() + "\" is unknown, try \"brisk monitor help\".");
    EXPECT_TRUE(e.exact);
    EXPECT_EQ(e.exit_code, 255);
  }
  EXPECT_TRUE(error_of({"monitor", "help"}).help);
  EXPECT_TRUE(error_of({"monitor", "link", "help"}).help);
  // "m" is maddress, not monitor, as in ip's table.
  EXPECT_EQ(ok({"m"}).verb, verb_named("maddr show"));
}

TEST(IpMonitorGrammar, Dev) {
  EXPECT_EQ(ok({"monitor", "dev", "d0", "link"}).monitor().dev, "d0");
  EXPECT_FALSE(parse_command(Words{"monitor", "dev"}, Globals{}));
  EXPECT_EQ(error_of({"monitor", "de", "d0"}).message,
            "Argument \"de\" is unknown, try \"brisk monitor help\".");
}

TEST(IpMonitorGrammar, TimestampGlobals) {
  auto stamp = [](Words words) {
    words.insert(words.begin(), "brisk");
    words.push_back("monitor");
    auto inv = parse_globals(words);
    EXPECT_TRUE(inv);
    return inv ? inv->globals.timestamp : Timestamp::none;
  };
  EXPECT_EQ(stamp({}), Timestamp::none);
  for (const char* t : {"-t", "-timestamp", "--timestamp", "-ti"})
    EXPECT_EQ(stamp({t}), Timestamp::long_line) << t;
  for (const char* t : {"-ts", "-tshort", "-tsh"}) EXPECT_EQ(stamp({t}), Timestamp::short_prefix) << t;
  EXPECT_EQ(stamp({"-ts", "-t"}), Timestamp::short_prefix);  // as ip: any -ts makes them short
}

TEST(IpMonitorCli, UnknownWordExitsAsIp) {
  auto ours = brisk_run({"monitor", "bogus"});
  auto theirs = ip_run({"monitor", "bogus"});
  EXPECT_EQ(ours.code, theirs.code);
  EXPECT_EQ(ours.code, 255);
  EXPECT_EQ(ours.err, "Argument \"bogus\" is unknown, try \"brisk monitor help\".\n");
  auto help = brisk_run({"monitor", "help"});
  EXPECT_EQ(help.code, 255);
  EXPECT_NE(help.err.find("Usage: brisk monitor [ all | OBJECTS ] [ label ]"), std::string::npos) << help.err;
}

// ---- side by side with ip ----

// A listener running in the test's namespace, its output in a file.
class Listener {
 public:
  Listener(std::vector<std::string> argv, int ns, const std::string& out_path) : out_path_(out_path) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int err = ::open((out_path + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    SpawnOptions options{.argv = std::move(argv)};
    options.fds = {{.child_fd = 1, .parent_fd = out}, {.child_fd = 2, .parent_fd = err}};
    options.namespaces = {{.type = CLONE_NEWNET, .fd = ns}};
    auto child = spawn(options);
    ::close(out);
    ::close(err);
    if (child)
      child_.emplace(std::move(*child));
    else
      ADD_FAILURE() << child.error().message();
  }
  bool running() const { return child_.has_value(); }
  std::string out() const { return slurp(out_path_); }
  std::string err() const { return slurp(out_path_ + ".err"); }
  pid_t pid() const { return child_->pid(); }
  // Sends `signal` and waits: the exit status.
  ExitStatus stop(int signal) {
    EXPECT_TRUE(child_->kill(signal));
    auto status = child_->wait();
    EXPECT_TRUE(status);
    return status ? *status : ExitStatus{};
  }

 private:
  std::string out_path_;
  std::optional<Child> child_;
};

// How many rtnetlink sockets in the namespace have joined every group of
// `groups` (the first 32 groups, as /proc/net/netlink shows them).
int subscribed(pid_t in_ns, unsigned groups) {
  std::ifstream table("/proc/" + std::to_string(in_ns) + "/net/netlink");
  std::string line;
  std::getline(table, line);  // header
  int count = 0;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::string sk, groups_hex;
    int protocol = -1;
    long port = 0;
    fields >> sk >> protocol >> port >> groups_hex;
    if (protocol == 0 && (std::stoul(groups_hex, nullptr, 16) & groups) == groups) ++count;
  }
  return count;
}

// Whether the process is blocked in recvmsg, as ip monitor
// is once listening. ip reads its link cache through the socket it
// listens on and drops the notifications that arrive meanwhile, so a test
// changes nothing before ip is idle there.
bool in_recvmsg(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/syscall");
  std::string number;
  in >> number;
  return number == std::to_string(SYS_recvmsg);
}

bool wait_for(const std::function<bool()>& ready,
              std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ready();
}

// Bits of RTNLGRP_LINK, NEIGH, IPV4_IFADDR, IPV4_ROUTE, IPV6_IFADDR, IPV6_ROUTE.
constexpr unsigned kAllFour = 0x555;

class IpMonitor : public cli_test::CliNetnsTest {
 protected:
  void SetUp() override {
    CliNetnsTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_EQ(ip_run({"link", "set", "lo", "up"}, ns()).code, 0);
  }

  // Starts ip and brisk with the same arguments, waits until both listen.
  void start(const Words& args, unsigned groups) {
    Words ip_argv{"ip"}, brisk_argv{BRISK_CLI_PATH};
    ip_argv.insert(ip_argv.end(), args.begin(), args.end());
    brisk_argv.insert(brisk_argv.end(), args.begin(), args.end());
    ip_.emplace(ip_argv, ns(), dir_.path() + "/ip");
    brisk_.emplace(brisk_argv, ns(), dir_.path() + "/brisk");
    ASSERT_TRUE(ip_->running() && brisk_->running());
    ASSERT_TRUE(wait_for([&] { return subscribed(brisk_->pid(), groups) >= 2; }))
        << "the listeners never joined";
    int idle = 0;  // consecutive looks that found ip waiting in recvmsg
    ASSERT_TRUE(wait_for([&] { return (idle = in_recvmsg(ip_->pid()) ? idle + 1 : 0) >= 5; }))
        << "ip never settled";
  }

  // The changes both listeners see: a veth pair added, brought up, given
  // addresses, a route and a neighbour, each removed again, the pair deleted.
  void churn() {
    for (const Words& change :
         std::vector<Words>{{"link", "add", "va", "type", "veth", "peer", "name", "vb"},
                            {"link", "set", "va", "up"},
                            {"link", "set", "vb", "up"},
                            {"addr", "add", "10.9.0.1/24", "dev", "va"},
                            {"addr", "add", "fd00::1/64", "dev", "va", "nodad"},
                            {"route", "add", "10.8.0.0/16", "via", "10.9.0.2"},
                            {"route", "add", "fd01::/64", "via", "fd00::2"},
                            {"neigh", "add", "10.9.0.5", "lladdr", "02:00:00:00:00:05", "dev", "va"},
                            {"neigh", "del", "10.9.0.5", "dev", "va"},
                            // vb's first neighbour: a listener resolves vb's name while it exists, not
                            // during its removal (whose lookups race with the unregistration).
                            {"neigh", "add", "10.9.0.6", "lladdr", "02:00:00:00:00:06", "dev", "vb"},
                            {"route", "del", "10.8.0.0/16"},
                            {"route", "del", "fd01::/64"},
                            {"addr", "del", "10.9.0.1/24", "dev", "va"},
                            {"link", "set", "va", "mtu", "1400"},
                            {"link", "del", "va"}})
      ASSERT_EQ(ip_run(change, ns()).code, 0) << ::testing::PrintToString(change);
  }

  // Waits until both outputs agree under `mask` and have stopped growing.
  void settle(const std::function<std::string(const std::string&)>& mask) {
    std::string last;
    bool same = wait_for(
        [&] {
          std::string a = mask(ip_->out()), b = mask(brisk_->out());
          bool steady = a == b && !a.empty() && a == last;
          last = a;
          return steady;
        },
        std::chrono::seconds(10));
    EXPECT_TRUE(same) << "ip:\n"
                      << ip_->out() << "brisk:\n"
                      << brisk_->out() << "brisk stderr:\n"
                      << brisk_->err();
  }

  void stop_both(int signal = SIGINT) {
    ip_->stop(SIGINT);
    auto status = brisk_->stop(signal);
    EXPECT_TRUE(status.success()) << "brisk ended " << status.value;
    EXPECT_EQ(brisk_->err(), "");
  }

  brisk::test::TempDir dir_;
  std::optional<Listener> ip_, brisk_;
};

std::string as_is(const std::string& s) { return s; }

TEST_F(IpMonitor, SameEventsAsIp) {
  start({"monitor", "link", "address", "route", "neigh"}, kAllFour);
  churn();
  settle(as_is);
  stop_both();
  EXPECT_EQ(brisk_->out(), ip_->out());
  EXPECT_NE(ip_->out().find("Deleted 10.8.0.0/16 via 10.9.0.2 dev va \n"), std::string::npos) << ip_->out();
}

// Rules added and removed by another process, IPv4 and IPv6, labelled or
// not: the same lines as ip monitor rule ("Deleted " before a removal).
TEST_F(IpMonitor, RuleEventsAsIp) {
  constexpr unsigned kRuleGroups = 1u << (RTNLGRP_IPV4_RULE - 1) | 1u << (RTNLGRP_IPV6_RULE - 1);
  for (const Words& args : {Words{"monitor", "rule"}, Words{"monitor", "label", "ru"}}) {
    SCOPED_TRACE(::testing::PrintToString(args));
    start(args, kRuleGroups);
    for (const Words& change : std::vector<Words>{
             {"rule", "add", "pref", "100", "from", "10.1.0.0/16", "lookup", "100"},
             {"rule", "add", "pref", "101", "not", "to", "10.2.0.0/16", "fwmark", "0x3/0xff", "blackhole"},
             {"-6", "rule", "add", "pref", "102", "from", "fd00::/64", "iif", "lo", "table", "7"},
             {"rule", "add", "pref", "99", "ipproto", "tcp", "dport", "80-90", "goto", "100"},
             {"rule", "del", "pref", "101"},
             {"-6", "rule", "del", "pref", "102"},
             {"rule", "flush"}})
      ASSERT_EQ(ip_run(change, ns()).code, 0) << ::testing::PrintToString(change);
    settle(as_is);
    stop_both();
    EXPECT_EQ(brisk_->out(), ip_->out());
    EXPECT_NE(ip_->out().find("Deleted 101:"), std::string::npos) << ip_->out();
    ASSERT_EQ(ip_run({"rule", "add", "pref", "32766", "lookup", "main"}, ns()).code, 0);  // back as it was
    ASSERT_EQ(ip_run({"rule", "add", "pref", "32767", "lookup", "default"}, ns()).code, 0);
  }
}

TEST_F(IpMonitor, EachObjectAlone) {
  for (const auto& [object, groups] : std::vector<std::pair<std::string, unsigned>>{
           {"link", 0x1}, {"addr", 0x110}, {"ro", 0x440}, {"neigh", 0x4}}) {
    SCOPED_TRACE(object);
    start({"monitor", object}, groups);
    churn();
    settle(as_is);
    stop_both();
    EXPECT_EQ(brisk_->out(), ip_->out());
  }
}

TEST_F(IpMonitor, ShortTimestampsAndLabels) {
  start({"-ts", "monitor", "label", "link", "address", "route", "neigh"}, kAllFour);
  churn();
  static const std::regex stamp(R"(^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\] )", std::regex::multiline);
  auto mask = [](const std::string& s) { return std::regex_replace(s, stamp, "[TS] "); };
  settle(mask);
  stop_both(SIGTERM);
  EXPECT_EQ(mask(brisk_->out()), mask(ip_->out()));
  EXPECT_NE(mask(brisk_->out()).find("[TS] [ADDR]3: va    inet 10.9.0.1/24"), std::string::npos)
      << brisk_->out();
}

TEST_F(IpMonitor, LongTimestamps) {
  start({"-t", "monitor", "link"}, 0x1);
  churn();
  static const std::regex stamp(R"(^Timestamp: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} \d+ usec$)",
                                std::regex::multiline);
  auto mask = [](const std::string& s) { return std::regex_replace(s, stamp, "Timestamp"); };
  settle(mask);
  stop_both();
  EXPECT_EQ(mask(brisk_->out()), mask(ip_->out()));
  EXPECT_NE(mask(brisk_->out()).find("Timestamp\n"), std::string::npos) << brisk_->out();
}

// Bits of RTNLGRP_IPV4_NETCONF, IPV6_NETCONF and NSID (the first 32 groups' mask).
constexpr unsigned kNetconfNsid =
    1u << (RTNLGRP_IPV4_NETCONF - 1) | 1u << (RTNLGRP_IPV6_NETCONF - 1) | 1u << (RTNLGRP_NSID - 1);

TEST_F(IpMonitor, AllIsEveryObjectLabelled) {
  start({"monitor", "all"}, kAllFour | kNetconfNsid);
  churn();
  settle(as_is);
  stop_both();
  EXPECT_EQ(brisk_->out(), ip_->out());
  EXPECT_NE(brisk_->out().find("[LINK]Deleted "), std::string::npos) << brisk_->out();
  EXPECT_NE(
      brisk_->out().find("[NETCONF]inet va forwarding off rp_filter off mc_forwarding off proxy_neigh off "
                         "ignore_routes_with_linkdown off \n"),
      std::string::npos)
      << "a new device's netconf, as ip prints it: " << brisk_->out();
}

// Settings changed through /proc/sys and namespace ids given and taken by
// another process: the same [NETCONF] and [NSID] lines as ip monitor's,
// the names of iproute2's namespaces included.
TEST_F(IpMonitor, NetconfAndNsidAsIp) {
  cli_test::NamedNetns peer, other;
  for (const auto* n : {&peer, &other}) ASSERT_EQ(ip_run({"netns", "add", n->name()}).code, 0);
  ASSERT_EQ(ip_run({"link", "add", "va", "type", "veth", "peer", "name", "vb"}, ns()).code, 0);
  for (const Words& args : {Words{"monitor", "label", "netconf", "nsid"}, Words{"-4", "monitor", "netc"},
                            Words{"monitor", "dev", "va", "netconf"}}) {
    SCOPED_TRACE(::testing::PrintToString(args));
    start(args, 1u << (RTNLGRP_IPV4_NETCONF - 1));
    for (const char* sysctl : {"ipv4/conf/va/forwarding", "ipv6/conf/va/forwarding", "ipv4/conf/vb/rp_filter",
                               "ipv4/conf/all/forwarding", "ipv4/conf/default/proxy_arp",
                               "ipv6/conf/va/proxy_ndp", "ipv4/conf/va/ignore_routes_with_linkdown"}) {
      for (const char* value : {"1", "0"}) {
        auto r =
            cli_test::run({"sh", "-c", std::string("echo ") + value + " > /proc/sys/net/" + sysctl}, ns());
        ASSERT_EQ(r.code, 0) << sysctl << r.err;
      }
    }
    ASSERT_EQ(
        ip_run({"link", "add", "vc", "type", "veth", "peer", "name", "vd", "netns", peer.name()}, ns()).code,
        0);
    ASSERT_EQ(ip_run({"netns", "set", other.name(), "7"}, ns()).code, 0);
    ASSERT_EQ(ip_run({"link", "del", "vc"}, ns()).code, 0);
    settle(as_is);
    stop_both();
    EXPECT_EQ(brisk_->out(), ip_->out());
    if (args[1] == "label") {
      EXPECT_NE(ip_->out().find("[NSID]nsid 7 (iproute2 netns name: " + other.name() + ")"),
                std::string::npos)
          << ip_->out();
      EXPECT_NE(ip_->out().find("[NETCONF]inet va forwarding on "), std::string::npos) << ip_->out();
    }
    // Ids are given once: the next round starts from none.
    for (const auto* n : {&peer, &other}) {
      ASSERT_EQ(ip_run({"netns", "del", n->name()}).code, 0);
      ASSERT_EQ(ip_run({"netns", "add", n->name()}).code, 0);
    }
  }
}

// Nexthop objects made, grouped, used by routes, replaced and flushed, and
// a device's hardware stats turned on and off: the same lines as ip's,
// with -d the nh_info of each route from the monitor's nexthop cache.
TEST_F(IpMonitor, NexthopsAndStatsAsIp) {
  constexpr unsigned kRouteGroups = 1u << (RTNLGRP_IPV4_ROUTE - 1) | 1u << (RTNLGRP_IPV6_ROUTE - 1);
  for (const Words& args : {Words{"monitor", "label", "nexthop", "stats"},
                            Words{"-d", "monitor", "route", "nex"}, Words{"monitor"}}) {
    SCOPED_TRACE(::testing::PrintToString(args));
    for (const Words& setup : std::vector<Words>{{"link", "add", "va", "type", "veth", "peer", "name", "vb"},
                                                 {"link", "set", "va", "up"},
                                                 {"link", "set", "vb", "up"},
                                                 {"addr", "add", "10.9.0.1/24", "dev", "va"}})
      ASSERT_EQ(ip_run(setup, ns()).code, 0) << ::testing::PrintToString(setup);
    bool details = args[0] == "-d", labelled = args.size() > 1 && args[1] == "label";
    start(args, 1u << (RTNLGRP_NEXTHOP - 1) | (details ? kRouteGroups : 0));
    for (const Words& change :
         std::vector<Words>{{"nexthop", "add", "id", "1", "via", "10.9.0.2", "dev", "va"},
                            {"nexthop", "add", "id", "2", "via", "10.9.0.3", "dev", "va", "proto", "static"},
                            {"nexthop", "add", "id", "3", "blackhole"},
                            {"nexthop", "add", "id", "10", "group", "1/2,3"},
                            {"nexthop", "add", "id", "11", "group", "1,2/2", "type", "resilient", "buckets",
                             "8", "idle_timer", "3"},
                            {"route", "add", "10.7.0.0/24", "nhid", "10"},
                            {"route", "add", "10.8.0.0/24", "nhid", "1"},
                            {"nexthop", "replace", "id", "1", "via", "10.9.0.4", "dev", "va"},
                            {"stats", "set", "dev", "vb", "l3_stats", "on"},
                            {"stats", "set", "dev", "vb", "l3_stats", "off"},
                            {"nexthop", "del", "id", "11"},
                            {"nexthop", "flush"},
                            {"link", "del", "va"}})
      ASSERT_EQ(ip_run(change, ns()).code, 0) << ::testing::PrintToString(change);
    settle(as_is);
    stop_both();
    EXPECT_EQ(brisk_->out(), ip_->out());
    if (labelled) {
      EXPECT_NE(ip_->out().find("[NEXTHOP]id 11 group 1,2/2 type resilient buckets 8 idle_timer 3 "),
                std::string::npos)
          << ip_->out();
      EXPECT_NE(ip_->out().find("[STATS]"), std::string::npos) << ip_->out();
    }
    if (details) {
      EXPECT_NE(ip_->out().find("\tnh_info id 1 via 10.9.0.4 dev va scope link proto unspec \n"),
                std::string::npos)
          << ip_->out();
    }
  }
}

// Router advertisements with a prefix, sent from vb to the all-nodes
// group: [PREFIX] lines on both ends (vb hears its own), as ip's.
TEST_F(IpMonitor, PrefixesFromRouterAdvertisementsAsIp) {
  for (const Words& setup : std::vector<Words>{{"link", "add", "va", "type", "veth", "peer", "name", "vb"}})
    ASSERT_EQ(ip_run(setup, ns()).code, 0);
  // vb's link-local address is the advertisement's source: usable at once, without DAD.
  auto sysctl = cli_test::run({"sh", "-c", "echo 0 > /proc/sys/net/ipv6/conf/vb/accept_dad"}, ns());
  ASSERT_EQ(sysctl.code, 0) << sysctl.err;
  for (const Words& up : std::vector<Words>{{"link", "set", "va", "up"}, {"link", "set", "vb", "up"}})
    ASSERT_EQ(ip_run(up, ns()).code, 0);
  ASSERT_TRUE(wait_for([&] {
    return ip_run({"-6", "addr", "show", "dev", "vb", "scope", "link"}, ns()).out.find("inet6") !=
           std::string::npos;
  }));
  start({"monitor", "label", "prefix"}, 1u << (RTNLGRP_IPV6_PREFIX - 1));
  auto sock = sys::socket_in_netns(ns(), AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
  ASSERT_TRUE(sock) << sock.error().message();
  int fd = sock->get(), hops = 255;
  auto vb = cli_test::ip_json(ns(), {"link", "show", "vb"});
  ASSERT_FALSE(vb.empty());
  auto index = vb[0]["ifindex"].get<unsigned>();
  ASSERT_EQ(::setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &hops, sizeof hops), 0);
  ASSERT_EQ(::setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof index), 0);
  for (const char* prefix : {"2001:db8:1::", "2001:db8:2::"}) {
    struct {
      nd_router_advert ra;
      nd_opt_prefix_info info;
    } packet{};
    packet.ra.nd_ra_type = ND_ROUTER_ADVERT;
    packet.ra.nd_ra_curhoplimit = 64;
    packet.info.nd_opt_pi_type = ND_OPT_PREFIX_INFORMATION;
    packet.info.nd_opt_pi_len = 4;  // in units of 8 bytes
    packet.info.nd_opt_pi_prefix_len = 64;
    packet.info.nd_opt_pi_flags_reserved = ND_OPT_PI_FLAG_ONLINK | ND_OPT_PI_FLAG_AUTO;
    packet.info.nd_opt_pi_valid_time = htonl(3600);
    packet.info.nd_opt_pi_preferred_time = htonl(1800);
    ASSERT_EQ(::inet_pton(AF_INET6, prefix, &packet.info.nd_opt_pi_prefix), 1);
    sockaddr_in6 all_nodes{
        .sin6_family = AF_INET6, .sin6_port = 0, .sin6_flowinfo = 0, .sin6_addr = {}, .sin6_scope_id = index};
    ASSERT_EQ(::inet_pton(AF_INET6, "ff02::1", &all_nodes.sin6_addr), 1);
    ASSERT_EQ(
        ::sendto(fd, &packet, sizeof packet, 0, reinterpret_cast<sockaddr*>(&all_nodes), sizeof all_nodes),
        static_cast<ssize_t>(sizeof packet))
        << std::strerror(errno);
  }
  settle(as_is);
  stop_both();
  EXPECT_EQ(brisk_->out(), ip_->out());
  EXPECT_NE(ip_->out().find("[PREFIX]prefix 2001:db8:2::/64dev va "), std::string::npos) << ip_->out();
}

TEST_F(IpMonitor, FamilyNarrowsAddressesAndRoutes) {
  start({"-6", "monitor", "address", "route", "neigh"}, 0x504);
  churn();
  settle(as_is);
  stop_both();
  EXPECT_EQ(brisk_->out(), ip_->out());
  EXPECT_EQ(brisk_->out().find("10.9.0.1"), std::string::npos) << brisk_->out();
}

TEST_F(IpMonitor, OnelineAndNamedNamespace) {
  cli_test::NamedNetns named;
  ASSERT_EQ(ip_run({"netns", "add", named.name()}).code, 0);
  // -n enters the namespace: both listen there, the churn happens there.
  auto target = netlink::open_netns(named.name());
  ASSERT_TRUE(target);
  ns_ = std::move(*target);
  start({"-o", "-n", named.name(), "monitor", "link", "address"}, 0x111);
  churn();
  settle(as_is);
  stop_both();
  EXPECT_EQ(brisk_->out(), ip_->out());
  EXPECT_NE(brisk_->out().find("\\       valid_lft"), std::string::npos) << brisk_->out();
}

TEST_F(IpMonitor, MissingDevIsIpsArgumentError) {
  auto ours = brisk_run({"monitor", "dev", "nosuch"}, ns());
  auto theirs = ip_run({"monitor", "dev", "nosuch"}, ns());
  EXPECT_EQ(ours.code, 255);
  EXPECT_EQ(ours.code, theirs.code);
  EXPECT_EQ(ours.err, theirs.err);
}

TEST_F(IpMonitor, DevNarrowsToOneDevice) {
  for (const Words& setup : std::vector<Words>{{"link", "add", "d0", "type", "veth", "peer", "name", "d1"},
                                               {"link", "set", "d1", "up"}})
    ASSERT_EQ(ip_run(setup, ns()).code, 0);
  start({"monitor", "dev", "d0", "link", "address", "route", "neigh"}, kAllFour);
  for (const Words& change :
       std::vector<Words>{{"link", "set", "d0", "up"},
                          {"addr", "add", "10.9.0.1/24", "dev", "d0"},
                          {"addr", "add", "10.7.0.1/24", "dev", "d1"},
                          {"route", "add", "10.8.0.0/16", "via", "10.9.0.2"},
                          {"neigh", "add", "10.9.0.5", "lladdr", "02:00:00:00:00:05", "dev", "d0"},
                          {"neigh", "add", "10.7.0.5", "lladdr", "02:00:00:00:00:05", "dev", "d1"},
                          {"route", "del", "10.8.0.0/16"},
                          {"addr", "del", "10.9.0.1/24", "dev", "d0"},
                          {"link", "del", "d0"}})
    ASSERT_EQ(ip_run(change, ns()).code, 0) << ::testing::PrintToString(change);
  settle(as_is);
  stop_both();
  EXPECT_EQ(brisk_->out(), ip_->out());
  EXPECT_EQ(brisk_->out().find("10.7.0."), std::string::npos) << brisk_->out();  // d1's events left out
  EXPECT_NE(brisk_->out().find("10.8.0.0/16 via 10.9.0.2 \n"), std::string::npos) << brisk_->out();
}

// ip netns monitor: a name made and removed under /run/netns by another
// process, printed as ip prints it; brisk ends with status 0 on SIGTERM.
TEST_F(IpMonitor, NetnsMonitorAsIp) {
  // ip's printf()s are never flushed to a file: line buffering, as on a terminal.
  Listener ip({"stdbuf", "-oL", "ip", "netns", "monitor"}, ns(), dir_.path() + "/ip-netns");
  Listener ours({BRISK_CLI_PATH, "netns", "monitor"}, ns(), dir_.path() + "/brisk-netns");
  ASSERT_TRUE(ip.running() && ours.running());
  // Both watch once both have seen a probe name come.
  cli_test::NamedNetns probe;
  auto saw = [](const Listener& l, const std::string& line) {
    return l.out().find(line + "\n") != std::string::npos;
  };
  ASSERT_TRUE(wait_for([&] {
    ip_run({"netns", "add", probe.name()});
    ip_run({"netns", "del", probe.name()});
    return saw(ip, "add " + probe.name()) && saw(ours, "add " + probe.name());
  })) << "the monitors never watched";
  cli_test::NamedNetns watched;
  ASSERT_EQ(brisk_run({"netns", "add", watched.name()}).code, 0);
  ASSERT_EQ(ip_run({"netns", "del", watched.name()}).code, 0);
  ASSERT_TRUE(
      wait_for([&] { return saw(ip, "delete " + watched.name()) && saw(ours, "delete " + watched.name()); }));
  ip.stop(SIGTERM);
  auto status = ours.stop(SIGTERM);
  EXPECT_TRUE(status.success()) << "brisk ended " << status.value;
  EXPECT_EQ(ours.err(), "");
  auto lines_of = [&](const std::string& text) {  // the watched name's lines (other tests make names too)
    std::string kept;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.ends_with(" " + watched.name())) kept += line + "\n";
    return kept;
  };
  EXPECT_EQ(lines_of(ours.out()), "add " + watched.name() + "\ndelete " + watched.name() + "\n");
  EXPECT_EQ(lines_of(ours.out()), lines_of(ip.out()));
}

// `brisk monitor link | head -1`: the reader gets the first event as it
// happens, and brisk ends when the pipe closes, as ip does.
TEST_F(IpMonitor, PipeConsumer) {
  std::vector<std::string> first;  // each tool's line, its ifindex masked (the second pair gets new ones)
  for (const std::string& tool : {std::string("ip"), std::string(BRISK_CLI_PATH)}) {
    SCOPED_TRACE(tool);
    std::string out = dir_.path() + "/head-" + std::to_string(tool.size());
    Listener pipeline({"sh", "-c", tool + " monitor link | head -n 1 > " + out}, ns(), dir_.path() + "/sh");
    ASSERT_TRUE(wait_for([&] { return subscribed(pipeline.pid(), 0x1) >= 1; }));
    std::this_thread::sleep_for(
        std::chrono::milliseconds(200));  // ip's cache dump drops events (see in_recvmsg)
    ASSERT_EQ(ip_run({"link", "add", "p0", "type", "veth", "peer", "name", "p1"}, ns()).code, 0);
    ASSERT_TRUE(wait_for([&] { return slurp(out).find('\n') != std::string::npos; }))
        << "no line reached head";
    first.push_back(std::regex_replace(slurp(out), std::regex(R"(^\d+: )"), "N: "));
    // The next event's write finds the pipe closed.
    ASSERT_EQ(ip_run({"link", "del", "p0"}, ns()).code, 0);
    ASSERT_TRUE(wait_for([&] { return subscribed(pipeline.pid(), 0x1) == 0; }))
        << "the monitor outlived its reader";
    pipeline.stop(SIGTERM);
  }
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1], first[0]);
  EXPECT_EQ(first[0], "N: p1@NONE: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN group default \n");
}

}  // namespace
}  // namespace brisk::ipcli
