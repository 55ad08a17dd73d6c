// -batch against iproute2: every file of a corpus runs with `ip -batch` in
// one fresh namespace and with `brisk -batch` in another, with and without
// -force; exit codes, failing-line reports and the normalized `ip -j` dumps
// of links, addresses, routes, neighbours and fdb entries must all agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "cli_support.h"

namespace brisk::cli_test {
namespace {

using nlohmann::json;

json pick(const json& object, std::initializer_list<const char*> keys) {
  json out = json::object();
  for (const char* k : keys)
    if (object.contains(k)) out[k] = object[k];
  return out;
}

// What must be identical in both namespaces: nothing random (MACs, link-local
// addresses derived from them) and nothing timing-dependent (carrier, DAD).
json normalized_state(int ns) {
  json state;
  json links = json::array();
  for (auto& l : ip_json(ns, {"-d", "link", "show"})) {
    json n = pick(l, {"ifname", "link", "mtu", "qdisc", "master", "group", "txqlen", "ifalias", "altnames"});
    json flags = json::array();
    for (auto& f : l["flags"])
      if (f != "LOWER_UP" && f != "NO-CARRIER") flags.push_back(f);
    n["flags"] = flags;
    if (l.contains("linkinfo")) {
      n["kind"] = l["linkinfo"].value("info_kind", "");
      if (l["linkinfo"].contains("info_slave_kind")) n["slave_kind"] = l["linkinfo"]["info_slave_kind"];
      // The kind options `link set DEV type KIND` changes (no timers).
      if (n["kind"] == "bridge" || n["kind"] == "macvlan" || n["kind"] == "macvtap")
        n["options"] = pick(l["linkinfo"].value("info_data", json::object()), {"stp_state",
                                                                               "forward_delay",
                                                                               "hello_time",
                                                                               "max_age",
                                                                               "ageing_time",
                                                                               "priority",
                                                                               "mcast_snooping",
                                                                               "group_fwd_mask",
                                                                               "group_addr",
                                                                               "no_linklocal_learn",
                                                                               "mcast_router",
                                                                               "mcast_query_use_ifaddr",
                                                                               "mcast_querier",
                                                                               "mcast_hash_elasticity",
                                                                               "mcast_hash_max",
                                                                               "mcast_last_member_cnt",
                                                                               "mcast_startup_query_cnt",
                                                                               "mcast_last_member_intvl",
                                                                               "mcast_membership_intvl",
                                                                               "mcast_querier_intvl",
                                                                               "mcast_query_intvl",
                                                                               "mcast_query_response_intvl",
                                                                               "mcast_startup_query_intvl",
                                                                               "mcast_stats_enabled",
                                                                               "mcast_igmp_version",
                                                                               "mcast_mld_version",
                                                                               "nf_call_iptables",
                                                                               "nf_call_ip6tables",
                                                                               "nf_call_arptables",
                                                                               "mode",
                                                                               "nopromisc",
                                                                               "nodst",
                                                                               "bcqueuelen",
                                                                               "macaddr_count",
                                                                               "macaddr_data"});
    }
    links.push_back(n);
  }
  std::sort(links.begin(), links.end(),
            [](const json& a, const json& b) { return a["ifname"] < b["ifname"]; });
  state["links"] = links;

  json addrs = json::array();
  for (auto& l : ip_json(ns, {"addr", "show"})) {
    for (auto& a : l["addr_info"]) {
      if (a["family"] == "inet6" && a["scope"] == "link") continue;
      json n = pick(a, {"family", "local", "prefixlen", "broadcast", "scope", "label", "noprefixroute"});
      n["dev"] = l["ifname"];
      addrs.push_back(n);
    }
  }
  state["addrs"] = addrs;

  json routes = json::array();
  for (const char* family : {"-4", "-6"}) {
    for (auto r : ip_json(ns, {family, "route", "show", "table", "all"})) {
      std::string dst = r.value("dst", "");
      if (dst.rfind("fe80", 0) == 0 || dst.rfind("ff00", 0) == 0) continue;
      json flags = json::array();
      for (auto& f : r["flags"])
        if (f != "linkdown") flags.push_back(f);
      r["flags"] = flags;
      routes.push_back(r);
    }
  }
  state["routes"] = routes;
  // The kernel dumps neighbours in hash order, not in the order made.
  json neigh = ip_json(ns, {"neigh", "show"});
  std::sort(neigh.begin(), neigh.end(), [](const json& x, const json& y) { return x.dump() < y.dump(); });
  state["neigh"] = neigh;

  json fdb = json::array();
  for (auto& f : parse_json(run({"bridge", "-j", "fdb", "show"}, ns).out))
    if (f.value("state", "") == "static") fdb.push_back(f);
  state["fdb"] = fdb;
  return state;
}

std::vector<std::string> failed_lines(const std::string& err) {
  std::vector<std::string> lines;
  static const std::regex re("Command failed [^\n]*");
  for (auto it = std::sregex_iterator(err.begin(), err.end(), re); it != std::sregex_iterator(); ++it)
    lines.push_back(it->str());
  return lines;
}

struct Case {
  const char* name;
  const char* text;
  const char* oracle = "ip";  // fdb lines are bridge's grammar: `bridge -batch` is their oracle
  const char* setup = "";     // an `ip -batch` file run in both namespaces first
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Every supported command, including files that fail in the middle.
const Case kCorpus[] = {
    {"route_grammar",
     "link add r0 type veth peer name r1\n"
     "link set r0 up\n"
     "link set r1 up\n"
     "addr add 10.9.0.1/24 dev r0\n"
     "route add 10.20.0.0/16 via 10.9.0.2 mtu 1400 advmss 1360 initcwnd 10 rtt 100ms quickack 1\n"
     "route add 10.27.0.0/16 via inet 10.9.0.2 rttvar 20ms rto_min 5ms rtt 1.5ms ttl-propagate enabled\n"
     "route add 10.21.0.0/16 dev r0 proto dhcp mtu lock 1300\n"
     "route add 10.24.0.0/16 via 10.50.0.1 dev r0 onlink proto bird\n"
     "route append 10.22.0.0/16 via 10.9.0.2\n"
     "route append 10.22.0.0/16 via 10.9.0.3\n"
     "route prepend 10.22.0.0/16 via 10.9.0.4\n"
     "route change 10.22.0.0/16 via 10.9.0.5\n"
     "route change 10.23.0.0/16 via 10.9.0.5\n"  // fails mid-file: nothing to change (line 13)
     "route add 10.25.0.0/16 dev r0 table 100 proto 99\n"
     "route flush proto dhcp\n"
     "route add 10.26.0.0/16 dev r0\n"
     "route add 10.30.0.0/16 nexthop via 10.9.0.2 dev r0 weight 2 nexthop via 10.9.0.3 weight 1\n"
     "route append 10.30.0.0/16 via 10.9.0.4\n"},
    {"altnames_and_kind_options",
     "link add br0 type bridge\n"
     "link add v0 type veth peer name v1\n"
     "link property add dev br0 altname alt0 altname a-long-altname-for-the-bridge\n"
     "link set v0 master a-long-altname-for-the-bridge\n"
     "link set alt0 up type bridge stp_state 1 forward_delay 400 priority 100\n"
     "link property add dev v0 altname alt0\n"  // fails mid-file: EEXIST (line 6)
     "addr add 10.0.0.1/24 dev alt0\n"
     "link property del dev br0 altname alt0\n"
     "link set br0 type bridge max_age 1\n"  // fails: ERANGE (line 9)
     "link property add v1 altname peer-of-v0\n"
     "link set peer-of-v0 mtu 1400\n"
     "link add mv0 link v1 type macvlan mode bridge\n"
     "link set mv0 type macvlan mode private\n"
     "route add 10.1.0.0/24 dev a-long-altname-for-the-bridge\n"},
    {"kind_options_as_ip_sends_them",
     "link add up0 type veth peer name up1\n"
     "link add tp0 type veth\n"                    // no peer: the kernel names it
     "link add link up0 name mvl0 type macvlan\n"  // no mode: the kernel's (vepa)
     "link add link up0 name mvt0 type macvtap mode bridge bcqueuelen 50\n"
     "link add link up1 name mvp0 type macvlan mode passthru nopromisc\n"
     "link add link up0 name mvs0 type macvlan mode source macaddr set 02:00:00:00:00:01 02:00:00:00:00:02\n"
     "link set mvs0 type macvlan macaddr add 02:00:00:00:00:03\n"
     "link set mvs0 type macvlan macaddr del 02:00:00:00:00:01\n"
     "link add link up0 name mvn0 type macvlan mode bridge flag nodst\n"
     "link add brx type bridge stp_state 1 forward_delay 500 hello_time 300 max_age 2500 ageing_time 30000\n"
     "link add bry type bridge group_fwd_mask 0x8 mcast_router 2 mcast_query_use_ifaddr 1 mcast_hash_max "
     "1024 "
     "mcast_igmp_version 3 mcast_mld_version 2 mcast_stats_enabled 1 no_linklocal_learn 1 "
     "group_address 01:80:c2:00:00:03\n"
     "link add brz type bridge mcast_last_member_int 200 mcast_membership_interval 30000 mcast_querier_int "
     "30000 "
     "mcast_query_interval 15000 mcast_query_response_interval 2000 mcast_startup_query_interval 3000 "
     "mcast_last_member_count 3 mcast_startup_query_count 3 mcast_hash_el 8 nf_call_iptables 1\n"
     "link set bry type bridge mcast_router 0 fdb_flush\n"
     "link add brv type bridge vlan_protocol 802.1ad\n"  // without the kernel's VLAN filtering: refused, for
                                                         // both
     "link set dev up1 group 7\n"
     "link set dev mvl0 group 7\n"
     "link set group 7 mtu 1300\n"
     "link set group 7 up\n"},
    {"address_grammar",
     "link add a0 type veth peer name a1\n"
     "link add br0 type bridge\n"
     "addr add 10.1.0.3/24 brd + dev br0\n"
     "addr add 10.2.0.3/24 broadcast - dev br0\n"
     "addr add 10.5.0.1/31 brd + dev br0\n"
     "addr add 10.3.0.3/24 dev a0 valid_lft 1000 preferred_lft 500\n"
     "addr add 10.3.0.4/24 dev a0 preferred_lft 0\n"
     "addr add 10.3.0.9/24 dev a0 label a0:x\n"
     "addr add 10.3.0.10/24 dev a0 label a0:y valid_lft forever preferred_lft forever\n"
     "addr add fd00::5/64 dev a0 home mngtmpaddr noprefixroute nodad valid_lft 2000 preferred_lft 1000\n"
     "addr add 10.4.0.1/24 dev a1\n"
     "addr add 10.4.0.2/24 dev a1\n"
     "addr flush dev a0 dynamic\n"
     "addr flush label a0:x\n"
     "addr flush dev a1 secondary\n"
     "addr add 10.3.0.4/24 dev a0\n"  // fails mid-file: it is still there (line 17)
     "addr add 10.6.0.1/24 dev a0\n"},
    {"links",
     "link add v0 mtu 1400 type veth peer name v1\n"
     "link add br0 type bridge\n"
     "link add br1 type bridge stp_state 1 forward_delay 400\n"
     "link set v1 master br0\n"
     "link set dev v0 up alias 'first pair' txqlen 500\n"
     "link set v1 up\n"
     "link set br0 up mtu 1300 group 5\n"
     "link add w0 up type veth peer name w1\n"
     "link set w1 name w9\n"
     "link add mv0 link v0 type macvlan mode bridge\n"
     "link add vx0 type vxlan id 42 dstport 4789 remote 192.0.2.1 nolearning\n"
     "link set v1 nomaster\n"
     "link set v1 master br1\n"
     "link del br1\n"},
    {"addresses",
     "link add v0 type veth peer name v1\n"
     "link set v0 up\n"
     "addr add 10.0.0.1/24 brd 10.0.0.255 dev v0\n"
     "addr add 10.0.1.1/24 dev v0 label v0:one\n"
     "address add fd00::1/64 dev v0 nodad\n"
     "a add 10.0.2.1/24 dev v0 noprefixroute\n"
     "addr replace 10.0.1.1/24 dev v0 label v0:two\n"
     "addr del 10.0.0.1/24 dev v0\n"
     "addr add 10.0.3.1/24 dev v1 scope link\n"
     "addr flush dev v1\n"},
    {"routes_and_neighbours",
     "link add v0 type veth peer name v1\n"
     "link set v0 up\n"
     "link set v1 up\n"
     "addr add 10.0.0.1/24 dev v0\n"
     "addr add fd00::1/64 dev v0 nodad\n"
     "route add 10.9.0.0/16 via 10.0.0.2 metric 7\n"
     "route add 10.8.0.0/16 dev v0 proto static\n"
     "route add default via 10.0.0.254\n"
     "route add blackhole 192.0.2.0/24\n"
     "route add unreachable 198.51.100.0/24\n"
     "route add 10.7.0.0/16 via 10.0.0.3 table 100\n"
     "route replace 10.8.0.0/16 via 10.0.0.4\n"
     "route del 10.9.0.0/16\n"
     "route add fd01::/64 via fd00::2\n"
     "neigh add 10.0.0.7 lladdr 02:00:00:00:00:07 dev v0\n"
     "neigh add 10.0.0.8 lladdr 02:00:00:00:00:08 dev v0 nud reachable\n"
     "neigh add fd00::9 lladdr 02:00:00:00:00:09 dev v0\n"
     "neigh replace 10.0.0.7 lladdr 02:00:00:00:00:17 dev v0\n"
     "neigh del 10.0.0.8 dev v0\n"},
    {"fdb",
     "fdb add 02:00:00:00:00:01 dev v0 master static\n"
     "fdb add 02:00:00:00:00:02 dev v0 master static vlan 1\n"  // no vlan filtering: EINVAL
     "fdb add 02:00:00:00:00:03 dev v0 master static\n"
     "fdb del 02:00:00:00:00:03 dev v0 master\n"
     "fdb del 02:00:00:00:00:04 dev v0 master\n"  // no such entry
     "fdb add 02:00:00:00:00:05 dev v0 master static\n",
     "bridge", "link add br0 type bridge\nlink add v0 type veth peer name v1\nlink set v0 master br0\n"},
    {"failure_in_the_middle",
     "link add a0 type veth peer name b0\n"
     "link add a0 type veth peer name b9\n"  // EEXIST
     "link add a1 type veth peer name b1\n"
     "link set a1 up\n"
     "addr add 10.1.0.1/24 dev nosuch\n"  // ENODEV
     "addr add 10.1.0.1/24 dev a1\n"},
    {"undone_after_a_failure",  // brisk pipelines the adds: those past line 8 reach the kernel and are undone
     "link add v0 type veth peer name v1\n"
     "link set v0 up\n"
     "addr add 10.0.0.1/24 dev v0\n"
     "addr add fd00::1/64 dev v0 nodad\n"
     "route add 10.9.0.0/16 via 10.0.0.2\n"
     "neigh add 10.0.0.7 lladdr 02:00:00:00:00:07 dev v0\n"
     "addr add 10.0.1.1/24 dev v0\n"
     "addr add 10.0.0.1/24 dev v0\n"  // EEXIST
     "addr add 10.0.2.1/24 dev v0\n"
     "route add 10.8.0.0/16 via 10.0.0.2 metric 5\n"
     "route add fd01::/64 via fd00::2\n"
     "neigh add 10.0.0.8 lladdr 02:00:00:00:00:08 dev v0\n"
     "link add w0 type veth peer name w1\n"
     "addr add 10.0.3.1/24 dev w0\n"
     "link set v1 up\n"},
    {"failures_everywhere",
     "link set ghost up\n"
     "link add c0 type bridge\n"
     "link set c0 mtu 10\n"  // below the minimum
     "addr add 10.2.0.1/24 dev c0\n"
     "addr add 10.2.0.1/24 dev c0\n"         // EEXIST
     "route add 10.3.0.0/16 via 10.4.0.1\n"  // unreachable gateway
     "route del 10.5.0.0/16\n"               // no such route
     "link set c0 up\n"},
    // Not in the corpus on purpose: a failing `ip neigh` line, which makes
    // ip exit(2) on the spot even with -force; brisk reports it like any line.
    {"deletes",
     "link add d0 type bridge\nlink add d1 type bridge\nlink add d2 type bridge\nlink add d3 type bridge\n"
     "link add d4 type bridge\nlink add d5 type bridge\nlink add p0 type veth peer name q0\n"
     "link add p1 type veth peer name q1\n"
     "link del d0\nlink del d1\nlink del nosuch\nlink del d2\nlink del d3\n"
     "link del p0\nlink del q0\n"  // the peer went with p0
     "link del p1\nlink del d4\n"
     "link set d5 up\n"},
    {"long_delete_runs",  // coalesced without -force only up to the first line predicted to fail
     "link add k0 type bridge\nlink add k1 type bridge\nlink add k2 type bridge\nlink add k3 type bridge\n"
     "link add k4 type bridge\nlink add k5 type bridge\nlink add k6 type bridge\n"
     "link add m0 type veth peer name n0\nlink add m1 type veth peer name n1\n"
     "link add mv0 link m1 type macvlan mode bridge\n"
     "link del k0\nlink del k1\nlink del k2\nlink del m0\nlink del k3\nlink del m1\n"
     "link del mv0\n"                           // went with its lower device m1
     "link del k4\nlink del k5\nlink del n0\n"  // went with its peer m0
     "link del k6\n"},
    {"delete_by_group",
     "link add g0 group 7 type bridge\nlink add g1 group 7 type bridge\nlink add g2 type bridge\n"
     "link set g2 group 7\nlink add h0 type bridge\n"
     "link del group 7\n"
     "link set h0 up\n"},
    // Every form of PREFIX ip's get_prefix() takes: lxc-net's and ifupdown's
    // dotted netmask, strtoul's bases and short IPv4 forms, among a failure.
    {"prefix_forms",
     "link add lxcbr0 type bridge\n"
     "addr add 10.0.3.1/255.255.255.0 broadcast + dev lxcbr0\n"
     "addr add 10.0.4.1/0x18 dev lxcbr0\n"
     "addr add 10.5/16 dev lxcbr0\n"
     "addr add 0x0a.6.0.1/030 dev lxcbr0\n"
     "addr add 10.0.3.1/24 dev lxcbr0\n"  // EEXIST: the first line's address
     "addr add 10.0.7.1/255.255.255.255 dev lxcbr0\n"
     "addr add fd00::1/0x40 dev lxcbr0 nodad\n"
     "link set lxcbr0 up\n"
     "route add 10.9.0.0/255.255.0.0 dev lxcbr0\n"
     "route add 10.10/16 via 10.0.3.2\n"
     "addr del 10.0.4.1/255.255.255.0 dev lxcbr0\n"},
    {"comments_and_continuations",
     "# a comment\n"
     "\n"
     "link add e0 \\\n"
     "  type bridge   # trailing comment\n"
     "link set e0 alias \"with spaces\"\n"
     "link add e0 type bridge\n"  // fails: line 6
     "link set e0 up\n"},
};

class BatchOracleTest : public ::testing::TestWithParam<std::tuple<Case, bool>> {};

TEST_P(BatchOracleTest, SameEndStateAndReportsAsIp) {
  if (!brisk::test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create network namespaces";
  auto [c, force] = GetParam();
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/" + c.name + ".batch";
  write_file(file, c.text);
  std::vector<std::string> args;
  if (force) args.push_back("-force");
  args.insert(args.end(), {"-batch", file});

  UniqueFd ip_ns = brisk::test::make_netns(), brisk_ns = brisk::test::make_netns();
  if (*c.setup) {
    std::string setup = dir.path() + "/setup.batch";
    write_file(setup, c.setup);
    ASSERT_EQ(ip_run({"-batch", setup}, ip_ns.get()).code, 0);
    ASSERT_EQ(ip_run({"-batch", setup}, brisk_ns.get()).code, 0);
  }
  args.insert(args.begin(), c.oracle);
  auto theirs = run(args, ip_ns.get());
  args.erase(args.begin());
  auto ours = brisk_run(args, brisk_ns.get());
  EXPECT_EQ(ours.code, theirs.code) << "ip: " << theirs.err << "\nbrisk: " << ours.err;
  EXPECT_EQ(failed_lines(ours.err), failed_lines(theirs.err))
      << "ip: " << theirs.err << "\nbrisk: " << ours.err;
  // Each failure is one "Error: ..." line followed by its "Command failed" line.
  EXPECT_EQ(std::count(ours.err.begin(), ours.err.end(), '\n'), 2 * long(failed_lines(ours.err).size()))
      << ours.err;
  auto a = normalized_state(ip_ns.get()), b = normalized_state(brisk_ns.get());
  for (const char* part : {"links", "addrs", "routes", "neigh", "fdb"})
    EXPECT_EQ(b[part], a[part]) << part << "\nip:    " << a[part].dump() << "\nbrisk: " << b[part].dump();
}

INSTANTIATE_TEST_SUITE_P(Corpus, BatchOracleTest,
                         ::testing::Combine(::testing::ValuesIn(kCorpus), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) ? "_force" : "_noforce");
                         });

class BatchTest : public CliNetnsTest {
 protected:
  std::string file(const std::string& text) {
    std::string path = dir_.path() + "/f" + std::to_string(n_++);
    write_file(path, text);
    return path;
  }
  brisk::test::TempDir dir_;
  int n_ = 0;
};

// A syntax error anywhere in a file refuses all of it: nothing is applied,
// where ip would have applied the lines before it. stderr and the status are
// ip's: each line ip's parser fails is reported with "Command failed" (and
// -force reads on), up to the error ip's parser exits on (255, no "Command
// failed"). A line ip leaves to the kernel (a 16-127 byte name) fails in its
// place instead, with ip's end state.
TEST_F(BatchTest, SyntaxErrorsRefuseTheWholeFile) {
  struct Case {
    std::string text;
    bool in_place = false;          // a kernel refusal in ip: end state as ip's
    std::string ip_reference = "";  // run ip on this text instead for stderr and status
  };
  const std::vector<Case> cases = {
      {"link add x0 type bridge\nlink set x0 up\nlink set x0 mtu\nlink add x1 type bridge\n"},
      {"link add x0 type bridge\naddr add 10.0.0.300/24 dev x0\nlink add x1 type bridge\n"},
      {"link add x0 type bridge\nlink frob\nlink add x1 type bridge\n"},
      {"link add x0 type bridge\nbogus\nlink add x1 type bridge\nbogus2\nlink add x2 type bridge\n"},
      {"link add x0 type bridge\nbogus\nlink add x1 type bridge\nlink set x1 mtu\nlink add x2 type bridge\n"},
      {"link add x0 type bridge\nlink set x0 up trailing\nlink add x1 type bridge\n"},
      {"link add x0 type bridge\nlink set x0 arp foo\nlink add x1 type bridge\n"},
      {"link add x0 type bridge\nneigh flush\nlink add x1 type bridge\n"},
      {"link add x0 type bridge\nroute flush\nlink add x1 type bridge\nlink add x2 type bridge\n"},
      {"link add x0 type bridge\naddr add 10.0.0.1/24 dev x0 valid_lft 10 preferred_lft 20\n"
       "link add x1 type bridge\n"},
      {"link add x0 type bridge\nroute add 10.1.0.0/16 nexthop via 10.0.0.2 weight 300\n"},
      {"link add x0 type bridge\nrule add fwmark 1/0x1x table 5\n"},
      {"link add x0 type bridge\nrule add uidrange 20-10 table 5\n",
       true},  // ip leaves this one to the kernel
      {"link add x0 type bridge\nlink add abcdefghijklmnopq type bridge\nlink add x1 type bridge\n", true},
      // ip meets a line the kernel refuses first, and stops there without
      // -force; brisk reports the syntax error, as ip does with that line gone.
      {"link add x0 type bridge\nlink add x0 type bridge\nlink set x0 mtu\nlink add x1 type bridge\n", false,
       "link add x0 type bridge\nlink set x0 mtu\nlink add x1 type bridge\n"},
  };
  for (const auto& c : cases) {
    std::string f = file(c.text);
    std::string reference = c.ip_reference.empty() ? f : file(c.ip_reference);
    for (bool force : {false, true}) {
      auto args = [&](const std::string& path) {
        std::vector<std::string> a{"-batch", path};
        if (force) a.insert(a.begin(), "-force");
        return a;
      };
      UniqueFd ip_ns = brisk::test::make_netns(), brisk_ns = brisk::test::make_netns();
      auto theirs = ip_run(args(reference), ip_ns.get());
      auto ours = brisk_run(args(f), brisk_ns.get());
      EXPECT_EQ(ours.code, theirs.code) << c.text << "force " << force;
      // The usage texts name brisk where ip names itself; the file names differ.
      std::string err = ours.err, want = theirs.err;
      for (std::size_t at; (at = err.find("try \"brisk ")) != std::string::npos;)
        err.replace(at + 5, 5, "ip");
      if (reference != f)
        for (std::size_t at; (at = want.find(reference)) != std::string::npos;)
          want.replace(at, reference.size(), f);
      EXPECT_EQ(err, want) << c.text << "force " << force;
      auto names = [](int ns) {
        std::string out;
        for (const auto& l : ip_json(ns, {"link", "show"})) out += l.value("ifname", "") + " ";
        return out;
      };
      if (c.in_place)
        EXPECT_EQ(names(brisk_ns.get()), names(ip_ns.get())) << c.text << "force " << force;
      else
        EXPECT_EQ(names(brisk_ns.get()), "lo ") << c.text << "force " << force;
    }
  }
}

TEST_F(BatchTest, UnterminatedQuote) {
  auto quote = brisk_run({"-batch", file("link show\nlink set x alias \"open\n")}, ns());
  EXPECT_EQ(quote.code, 255);
  EXPECT_NE(quote.err.find(":2"), std::string::npos) << quote.err;
}

TEST_F(BatchTest, EmptyAndMissingFiles) {
  auto empty = brisk_run({"-batch", file("")}, ns());
  EXPECT_EQ(empty.code, 0);
  EXPECT_EQ(empty.out, "");
  EXPECT_EQ(empty.err, "");
  auto comments = brisk_run({"-batch", file("# nothing\n\n")}, ns());
  EXPECT_EQ(comments.code, 0);
  auto missing = brisk_run({"-batch", dir_.path() + "/missing"}, ns());
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err.rfind("Error: cannot open file", 0), 0u) << missing.err;
}

TEST_F(BatchTest, ShowsPrintInLineOrder) {
  std::string f = file(
      "link add x0 type bridge\n"
      "link show\n"
      "link add x1 type bridge\n"
      "link set x1 up\n"
      "link show\n"
      "link add x2 type bridge\n");
  auto r = brisk_run({"-j", "-force", "-batch", f}, ns());
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<json> docs;
  std::size_t start = 0;
  for (std::size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1)
    docs.push_back(json::parse(r.out.substr(start, nl - start)));
  ASSERT_EQ(docs.size(), 2u) << r.out;
  EXPECT_EQ(docs[0].size(), 2u);  // lo, x0
  EXPECT_EQ(docs[1].size(), 3u);  // lo, x0, x1
  EXPECT_EQ(docs[1][2]["ifname"], "x1");
  EXPECT_EQ(ip_json(ns(), {"link", "show"}).size(), 4u);
}

TEST_F(BatchTest, ReadsStandardInput) {
  std::string f = file("link add s0 type bridge\nlink set s0 up\n");
  int in = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
  brisk::test::TempDir out_dir;
  std::string out_path = out_dir.path() + "/err";
  int err = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  SpawnOptions options{.argv = {BRISK_CLI_PATH, "-batch", "-"}};
  options.fds = {{.child_fd = 0, .parent_fd = in}, {.child_fd = 2, .parent_fd = err}};
  options.namespaces = {{.type = CLONE_NEWNET, .fd = ns()}};
  auto child = spawn(options);
  ::close(in);
  ::close(err);
  ASSERT_TRUE(child) << child.error().message();
  auto status = child->wait();
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->success()) << slurp(out_path);
  auto s0 = ip_json(ns(), {"link", "show", "dev", "s0"});
  ASSERT_EQ(s0.size(), 1u);
  EXPECT_NE(std::find(s0[0]["flags"].begin(), s0[0]["flags"].end(), "UP"), s0[0]["flags"].end());
}

}  // namespace
}  // namespace brisk::cli_test
