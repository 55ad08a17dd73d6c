// `brisk` in ip's grammar, end to end, in throwaway namespaces: changes are
// checked with `ip -j`, shows are compared with ip's output for the same state.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli_support.h"

namespace brisk::cli_test {
namespace {

using nlohmann::json;

// Every key brisk prints must carry ip's value; nested objects and arrays of
// objects recursively (ip prints more keys, e.g. qdisc, which brisk omits).
void expect_subset(const json& ours, const json& theirs, const std::string& where) {
  if (ours.is_object()) {
    ASSERT_TRUE(theirs.is_object()) << where;
    for (auto it = ours.begin(); it != ours.end(); ++it) {
      ASSERT_TRUE(theirs.contains(it.key())) << where << ": ip has no \"" << it.key() << "\"";
      expect_subset(it.value(), theirs[it.key()], where + "." + it.key());
    }
  } else if (ours.is_array() && !ours.empty() && ours[0].is_object()) {
    ASSERT_TRUE(theirs.is_array()) << where;
    ASSERT_EQ(ours.size(), theirs.size()) << where << "\nours: " << ours << "\nip: " << theirs;
    for (std::size_t i = 0; i < ours.size(); ++i)
      expect_subset(ours[i], theirs[i], where + "[" + std::to_string(i) + "]");
  } else if (where.find(".stats") != std::string::npos) {
    // Counters move between the two reads (IPv6 DAD and router
    // solicitations): compare their kind, not their value.
    EXPECT_EQ(ours.type(), theirs.type()) << where;
  } else {
    EXPECT_EQ(ours, theirs) << where;
  }
}

// `v` without its counters, which move on their own between two reads.
json without_stats(json v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it.key().rfind("stats", 0) == 0)
        it = v.erase(it);
      else
        *it = without_stats(*it), ++it;
    }
  } else if (v.is_array()) {
    for (auto& e : v) e = without_stats(e);
  }
  return v;
}

class CliTest : public CliNetnsTest {
 protected:
  // brisk prints what ip prints. The kernel's state may move between two
  // reads (DAD, carrier, counters), so brisk's read is taken between two of
  // ip's and compared only when those agree.
  void expect_same_text(const std::vector<std::string>& args) { expect_same_output(args, ns()); }
  // The same for `-j`: brisk's document is checked against ip's when two of
  // ip's reads around it agree (a link-local address leaves "tentative" when
  // DAD ends, at a moment the test does not choose).
  void expect_json_subset(const std::vector<std::string>& args) {
    for (int attempt = 0; attempt < 10; ++attempt) {
      auto before = ip_json(ns(), args);
      auto ours = brisk_json(ns(), args);
      auto after = ip_json(ns(), args);
      if (without_stats(before) != without_stats(after)) continue;
      ASSERT_TRUE(ours.is_array() && !ours.empty()) << ours;
      expect_subset(ours, before, args.back());
      return;
    }
    ADD_FAILURE() << "ip's output kept changing for " << ::testing::PrintToString(args);
  }
};

TEST_F(CliTest, VersionAndDispatch) {
  auto v = brisk_run({"-V"});
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("brisk ip utility, brisk-", 0), 0u) << v.out;
  // CLI11 subcommands still reach CLI11.
  auto help = brisk_run({"bench", "--help"});
  EXPECT_EQ(help.code, 0) << help.err;
  // A word that is neither one of brisk's commands nor an object brisk has
  // (ip's tunnel, or no object at all) gets ip's answer, in brisk's name.
  using Words = std::vector<std::string>;
  for (const Words& args : {Words{"bogus"}, Words{"tunnel", "show"}, Words{"-j", "xfrm", "state"}}) {
    auto ours = brisk_run(args), theirs = ip_run({"bogus"});
    EXPECT_EQ(ours.code, theirs.code) << args[0];
    std::string object = args[0] == "-j" ? args[1] : args[0];
    EXPECT_EQ(ours.err, "Object \"" + object + "\" is unknown, try \"brisk help\".\n");
    EXPECT_EQ(ours.out, "");
  }
}

TEST_F(CliTest, LinkAndAddrEndToEnd) {
  auto add = brisk_run({"link", "add", "v0", "mtu", "1400", "type", "veth", "peer", "name", "v1"}, ns());
  ASSERT_EQ(add.code, 0) << add.err;
  ASSERT_EQ(brisk_run({"link", "set", "dev", "v0", "up", "alias", "hello"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"l", "add", "br0", "type", "bridge"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"l", "s", "v1", "master", "br0", "up"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"a", "a", "10.0.0.1/24", "brd", "10.0.0.255", "dev", "v0"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"addr", "add", "fd00::1/64", "dev", "v0", "nodad"}, ns()).code, 0);

  auto v0 = ip_json(ns(), {"addr", "show", "dev", "v0"});
  ASSERT_EQ(v0.size(), 1u);
  EXPECT_EQ(v0[0]["mtu"], 1400);
  EXPECT_EQ(ip_json(ns(), {"link", "show", "dev", "v0"})[0]["ifalias"], "hello");
  EXPECT_EQ(v0[0]["addr_info"][0]["local"], "10.0.0.1");
  EXPECT_EQ(v0[0]["addr_info"][0]["broadcast"], "10.0.0.255");
  EXPECT_EQ(v0[0]["addr_info"][1]["local"], "fd00::1");
  EXPECT_EQ(ip_json(ns(), {"link", "show", "dev", "v1"})[0]["master"], "br0");

  // JSON parity with ip -j for the same state, with and without -d and -s.
  for (std::vector<std::string> args : {std::vector<std::string>{"link", "show"},
                                        {"-d", "link", "show"},
                                        {"-s", "link", "show"},
                                        {"addr", "show"},
                                        {"-4", "addr", "show"},
                                        {"addr", "show", "dev", "v0"},
                                        {"link", "show", "master", "br0"}})
    expect_json_subset(args);

  // Text, byte for byte: qdisc, mode, brd, address flags, lifetimes, -s tables.
  for (std::vector<std::string> args : {std::vector<std::string>{"link"},
                                        {"link", "show", "dev", "v0"},
                                        {"addr"},
                                        {"-4", "addr"},
                                        {"-6", "addr"},
                                        {"-6", "addr", "show", "dev", "v0"},
                                        {"-s", "link"},
                                        {"-s", "addr", "show", "dev", "br0"}})
    expect_same_text(args);
  auto addr = brisk_run({"addr", "show", "v0"}, ns());
  EXPECT_NE(addr.out.find("    inet 10.0.0.1/24 brd 10.0.0.255 scope global v0\n"
                          "       valid_lft forever preferred_lft forever\n"),
            std::string::npos)
      << addr.out;
  EXPECT_NE(addr.out.find("    inet6 fd00::1/64 scope global nodad \n"), std::string::npos) << addr.out;

  // Pretty JSON is the same document.
  EXPECT_EQ(parse_json(brisk_run({"-j", "-p", "link"}, ns()).out), brisk_json(ns(), {"link"}));

  ASSERT_EQ(brisk_run({"addr", "del", "10.0.0.1/24", "dev", "v0"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"-6", "addr", "flush", "dev", "v0"}, ns()).code, 0);
  EXPECT_TRUE(ip_json(ns(), {"addr", "show", "dev", "v0"})[0]["addr_info"].empty());
  ASSERT_EQ(brisk_run({"link", "del", "v0"}, ns()).code, 0);
  EXPECT_EQ(ip_json(ns(), {"link", "show"}).size(), 2u);  // lo and br0
}

TEST_F(CliTest, RouteNeighFdbParity) {
  ASSERT_EQ(ip_run({"link", "add", "v0", "type", "veth", "peer", "name", "v1"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"link", "add", "br0", "type", "bridge"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"link", "set", "v1", "master", "br0"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"link", "set", "v0", "up"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"addr", "add", "10.0.0.1/24", "dev", "v0"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"route", "add", "10.9.0.0/16", "via", "10.0.0.2", "metric", "5"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"r", "add", "blackhole", "192.0.2.0/24"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"route", "add", "default", "via", "10.0.0.254"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"neigh", "add", "10.0.0.7", "lladdr", "02:00:00:00:00:07", "dev", "v0"}, ns()).code,
            0);
  ASSERT_EQ(brisk_run({"fdb", "add", "02:00:00:00:00:09", "dev", "v1", "master", "static"}, ns()).code, 0);

  for (std::vector<std::string> args : {std::vector<std::string>{"route", "show"}, {"neigh", "show"}}) {
    auto ours = brisk_json(ns(), args), theirs = ip_json(ns(), args);
    ASSERT_FALSE(ours.empty());
    expect_subset(ours, theirs, args[0]);
  }
  auto ours = brisk_json(ns(), {"fdb", "show", "br", "br0"});
  auto theirs = parse_json(run({"bridge", "-j", "fdb", "show", "br", "br0"}, ns()).out);
  expect_subset(ours, theirs, "fdb");
  // Text lines as ip prints them.
  EXPECT_EQ(brisk_run({"route"}, ns()).out, ip_run({"route"}, ns()).out);
  EXPECT_EQ(brisk_run({"neigh"}, ns()).out, ip_run({"neigh"}, ns()).out);
  EXPECT_EQ(brisk_run({"fdb", "show", "br", "br0"}, ns()).out,
            run({"bridge", "fdb", "show", "br", "br0"}, ns()).out);

  // route get: one lookup, printed and encoded as ip does, errors included.
  for (std::vector<std::string> query : {std::vector<std::string>{"10.0.0.2"},
                                         {"10.9.1.1"},
                                         {"8.8.8.8", "mark", "5"},
                                         {"to", "10.0.0.1"},
                                         {"10.0.0.3", "from", "10.0.0.1", "oif", "v0"}}) {
    std::vector<std::string> args{"route", "get"};
    args.insert(args.end(), query.begin(), query.end());
    auto ours = brisk_run(args, ns()), theirs = ip_run(args, ns());
    EXPECT_EQ(ours.code, 0) << ours.err;
    EXPECT_EQ(ours.out, theirs.out) << args[2];
    EXPECT_EQ(brisk_json(ns(), args), ip_json(ns(), args)) << args[2];
  }
  // Into the blackhole: the kernel's errno, as ip prints it, and ip's status.
  auto unreachable = brisk_run({"route", "get", "192.0.2.1"}, ns());
  auto ip_unreachable = ip_run({"route", "get", "192.0.2.1"}, ns());
  EXPECT_EQ(unreachable.code, 2);
  EXPECT_EQ(unreachable.code, ip_unreachable.code);
  EXPECT_EQ(unreachable.err, ip_unreachable.err);

  ASSERT_EQ(
      brisk_run({"neigh", "replace", "10.0.0.7", "lladdr", "02:00:00:00:00:08", "dev", "v0"}, ns()).code, 0);
  EXPECT_EQ(ip_json(ns(), {"neigh", "show"})[0]["lladdr"], "02:00:00:00:00:08");
  ASSERT_EQ(brisk_run({"neigh", "del", "10.0.0.7", "dev", "v0"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"route", "del", "10.9.0.0/16"}, ns()).code, 0);
  ASSERT_EQ(brisk_run({"fdb", "del", "02:00:00:00:00:09", "dev", "v1", "master"}, ns()).code, 0);
  EXPECT_TRUE(ip_json(ns(), {"neigh", "show"}).empty());
  EXPECT_EQ(ip_json(ns(), {"route", "show", "10.9.0.0/16"}).size(), 0u);
}

// brisk's output equals ip's, byte for byte. IPv6 changes on its own for a
// while after a link comes up (link-local addresses and routes appear, DAD
// clears "tentative"), so a mismatch is read again, ip then brisk, until the
// two agree or 3 s have passed: a real difference never agrees.
void expect_same_as_ip(const std::vector<std::string>& args, int ns) {
  Run ours, theirs;
  for (int attempt = 0; attempt < 30; ++attempt) {
    theirs = ip_run(args, ns);
    ours = brisk_run(args, ns);
    if (ours.out == theirs.out && ours.code == theirs.code) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(theirs.code, 0) << theirs.err;
  EXPECT_EQ(ours.code, 0) << ours.err;
  std::string shown;
  for (const auto& a : args) shown += a + " ";
  EXPECT_EQ(ours.out, theirs.out) << shown;
}

// -br, -o and -p (text and JSON), neighbour flags, -s -s's error counters,
// route show's filters and forms, route get's answers and refusals, and
// neigh show's nud are compared with ip's without root: recorded_cases.h's
// "brief_oneline", "route_filters", "route_get" and "neigh_nud".

// addr show's address filters: scope, and to PREFIX (whose family becomes
// the command's, as -4/-6 would); links left without an address go. Shown
// as ip shows them: compared without root ("addr_filters" in
// recorded_cases.h). Here, the mismatch and the flush that takes them.
TEST_F(CliTest, AddrShowFiltersMatchIp) {
  ASSERT_EQ(ip_run({"link", "set", "lo", "up"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"link", "add", "v0", "type", "veth", "peer", "name", "v1"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"link", "set", "v0", "up"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"addr", "add", "10.0.0.1/24", "dev", "v0"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"addr", "add", "10.0.1.1/32", "dev", "v0", "label", "v0:x"}, ns()).code, 0);
  ASSERT_EQ(ip_run({"-6", "addr", "add", "2001:db8::1/64", "dev", "v0", "nodad"}, ns()).code, 0);
  auto mismatch = brisk_run({"-4", "addr", "show", "to", "2001:db8::/32"}, ns());
  EXPECT_EQ(mismatch.code, 255);
  EXPECT_EQ(mismatch.err, "Error: inet prefix is expected rather than \"2001:db8::/32\".\n");
  // flush takes the same filters: only 10.0.1.1 is in 10.0.1.0/24.
  ASSERT_EQ(brisk_run({"addr", "flush", "dev", "v0", "to", "10.0.1.0/24"}, ns()).code, 0);
  std::vector<std::string> left;
  for (const auto& link : ip_json(ns(), {"-4", "addr", "show", "dev", "v0"}))
    for (const auto& a : link["addr_info"]) left.push_back(a["local"].get<std::string>());
  EXPECT_EQ(left, std::vector<std::string>{"10.0.0.1"});
  ASSERT_EQ(brisk_run({"addr", "flush", "dev", "v0", "scope", "global"}, ns()).code, 0);
  for (const auto& link : ip_json(ns(), {"addr", "show", "dev", "v0"}))
    for (const auto& a : link["addr_info"]) EXPECT_NE(a["scope"], "global") << a;
}

TEST_F(CliTest, HelpTextsAreWhereTheErrorsPointTo) {
  // Like ip: the usage text on stderr, exit code 255.
  auto route = brisk_run({"route", "help"});
  EXPECT_EQ(route.code, 255);
  EXPECT_EQ(route.err.rfind("Usage: brisk route", 0), 0u) << route.err;
  auto bad = brisk_run({"route", "frob"});
  EXPECT_NE(bad.err.find("try \"brisk route help\""), std::string::npos) << bad.err;
  auto general = brisk_run({"help"});
  EXPECT_EQ(general.code, 0);
  for (const char* word : {"link", "address", "route", "neigh", "netns", "fdb", "-batch", "brisk run"})
    EXPECT_NE(general.out.find(word), std::string::npos) << word;
  EXPECT_NE(brisk_run({"--help"}).out.find("brisk OBJECT help"), std::string::npos);
}

TEST_F(CliTest, UsageErrorsExit255RuntimeErrorsAsIp) {
  struct Case {
    std::vector<std::string> args;
    int code;
  };
  for (const auto& c : std::vector<Case>{
           {{"bogus"}, 1},  // no object brisk (or ip) has: ip's "Object ... is unknown"
           {{"link", "bogus"}, 255},
           {{"link", "add"}, 255},
           {{"link", "set", "v0", "mtu"}, 255},
           {{"link", "set", "lo", "up", "garbage"}, 255},
           {{"-n"}, 255},
           {{"-j"}, 255},
           {{"-zzz", "link"}, 255},  // an unknown option, first or later
           {{"-j", "-zzz", "link"}, 255},
           {{"link", "show", "dev", "nosuch"}, 1},
           {{"-batch", "/nonexistent/brisk-batch"}, 1},
       }) {
    auto r = brisk_run(c.args, ns());
    EXPECT_EQ(r.code, c.code) << c.args[0] << " " << (c.args.size() > 1 ? c.args[1] : "") << ": " << r.err;
    // One message, ending in a newline, never a CLI11 or C++ text.
    EXPECT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.back(), '\n') << r.err;
    EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--help"), std::string::npos) << r.err;
  }
  // What the kernel refuses, and a device ip finds missing while it parses:
  // ip's text and status (2 for the kernel's errno or ext-ack, 1 for a
  // missing device), whichever command it is.
  ASSERT_EQ(brisk_run({"link", "add", "v0", "type", "veth", "peer", "name", "v1"}, ns()).code, 0);
  for (std::vector<std::string> args : {std::vector<std::string>{"link", "set", "nosuch", "up"},
                                        {"link", "del", "nosuch"},
                                        {"addr", "add", "10.0.0.1/24", "dev", "nosuch"},
                                        {"route", "add", "10.0.0.0/8", "dev", "nosuch"},
                                        {"link", "add", "lo", "type", "bridge"},
                                        {"link", "set", "v0", "mtu", "10"},
                                        {"addr", "del", "10.9.9.9/24", "dev", "lo"},
                                        {"route", "del", "10.9.0.0/16"},
                                        {"neigh", "del", "10.9.9.9", "dev", "lo"},
                                        {"route", "get", "192.0.2.1"},
                                        {"link", "add", "abcdefghijklmnop", "type", "bridge"},
                                        {"addr", "add", "10.0.0.300/24", "dev", "lo"}}) {
    auto ours = brisk_run(args, ns()), theirs = ip_run(args, ns());
    EXPECT_EQ(ours.err, theirs.err) << ::testing::PrintToString(args);
    EXPECT_EQ(ours.code, theirs.code) << ::testing::PrintToString(args);
  }
  // The kernel's ext-ack text is what the user sees.
  auto small = brisk_run({"link", "set", "v0", "mtu", "10"}, ns());
  EXPECT_EQ(small.code, 2);
  EXPECT_EQ(small.err, "Error: mtu less than device minimum.\n");
}

TEST_F(CliTest, NamedNamespaces) {
  NamedNetns a, b;
  ASSERT_EQ(brisk_run({"netns", "add", a.name()}).code, 0);
  auto again = brisk_run({"netns", "add", a.name()});
  EXPECT_EQ(again.code, 1);
  // ip's words, and ip's status, for a name that is taken and one that is not there.
  EXPECT_EQ(again.err, ip_run({"netns", "add", a.name()}).err);
  EXPECT_EQ(again.err, "Cannot create namespace file \"/run/netns/" + a.name() + "\": File exists\n");
  EXPECT_EQ(brisk_run({"netns", "del", a.name() + "-none"}).err,
            ip_run({"netns", "del", a.name() + "-none"}).err);
  // ip sees brisk's namespace, and -n works in it.
  ASSERT_EQ(brisk_run({"-n", a.name(), "link", "add", "x0", "type", "bridge"}).code, 0);
  auto links = parse_json(ip_run({"-j", "-n", a.name(), "link", "show", "x0"}).out);
  ASSERT_EQ(links.size(), 1u);
  // A veth peer created directly in another named namespace.
  ASSERT_EQ(ip_run({"netns", "add", b.name()}).code, 0);
  ASSERT_EQ(brisk_run({"-n", a.name(), "link", "add", "p0", "type", "veth", "peer", "name", "p1", "netns",
                       b.name()})
                .code,
            0);
  EXPECT_EQ(parse_json(ip_run({"-j", "-n", b.name(), "link", "show", "p1"}).out).size(), 1u);
  // The peer's namespace by name, and its id beside it in netns list, as ip shows them.
  auto p0 = brisk_run({"-n", a.name(), "link", "show", "p0"});
  EXPECT_NE(p0.out.find(" link-netns " + b.name() + "\n"), std::string::npos) << p0.out;
  EXPECT_EQ(p0.out, ip_run({"-n", a.name(), "link", "show", "p0"}).out);
  auto ids = brisk_run({"-n", a.name(), "netns", "list"}).out;
  EXPECT_NE(ids.find(b.name() + " (id: "), std::string::npos) << ids;
  bool has_id = false;
  for (const auto& n : brisk_json(-1, {"-n", a.name(), "netns", "list"}))
    has_id = has_id || (n["name"] == b.name() && n.contains("id"));
  EXPECT_TRUE(has_id);
  auto list = brisk_json(-1, {"netns", "list"});
  bool seen = false;
  for (const auto& n : list) seen = seen || n["name"] == a.name();
  EXPECT_TRUE(seen) << list;
  EXPECT_NE(brisk_run({"netns"}).out.find(a.name() + "\n"), std::string::npos);
  // In ip's order, the directory's (newest first), not sorted: b comes before a.
  expect_same_as_ip({"-n", a.name(), "netns", "list"}, -1);
  expect_same_as_ip({"-j", "-n", a.name(), "netns", "list"}, -1);
  // -n applies to every line of a batch.
  brisk::test::TempDir dir;
  write_file(dir.path() + "/b", "link add y0 type bridge\nlink set y0 up mtu 1400\n");
  ASSERT_EQ(brisk_run({"-n", a.name(), "-batch", dir.path() + "/b"}).code, 0);
  auto y0 = parse_json(ip_run({"-j", "-n", a.name(), "link", "show", "y0"}).out);
  ASSERT_EQ(y0.size(), 1u);
  EXPECT_EQ(y0[0]["mtu"], 1400);
  ASSERT_EQ(brisk_run({"netns", "del", a.name()}).code, 0);
  EXPECT_FALSE(std::filesystem::exists("/run/netns/" + a.name()));
  auto gone = brisk_run({"-n", a.name(), "link"});  // ip's netns_switch() words and status
  EXPECT_EQ(gone.err, "Cannot open network namespace \"" + a.name() + "\": No such file or directory\n");
  EXPECT_EQ(gone.code, 255);
}

TEST_F(CliTest, NetnsExec) {
  NamedNetns a;
  ASSERT_EQ(brisk_run({"netns", "add", a.name()}).code, 0);
  // The right namespace: the same inode as /run/netns/NAME.
  struct stat st {};
  ASSERT_EQ(::stat(("/run/netns/" + a.name()).c_str(), &st), 0);
  auto link = brisk_run({"netns", "exec", a.name(), "readlink", "/proc/self/ns/net"});
  ASSERT_EQ(link.code, 0) << link.err;
  EXPECT_EQ(link.out, "net:[" + std::to_string(st.st_ino) + "]\n");
  // The exit code passes through, and no shell is involved.
  EXPECT_EQ(brisk_run({"netns", "exec", a.name(), "sh", "-c", "exit 7"}).code, 7);
  auto missing = brisk_run({"netns", "exec", a.name(), "/nonexistent/program"});
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.err.find("exec of \"/nonexistent/program\" failed"), std::string::npos) << missing.err;
  // /etc/netns/NAME files are bound over /etc, only for the command.
  std::filesystem::create_directories("/etc/netns/" + a.name());
  write_file("/etc/netns/" + a.name() + "/hostname", "brisk-netns-exec-test\n");
  auto host = brisk_run({"netns", "exec", a.name(), "cat", "/etc/hostname"});
  ASSERT_EQ(host.code, 0) << host.err;
  EXPECT_EQ(host.out, "brisk-netns-exec-test\n");
  EXPECT_NE(slurp("/etc/hostname"), "brisk-netns-exec-test\n");
  // An entry with no /etc counterpart is skipped with ip's warning, and the rest still bound.
  write_file("/etc/netns/" + a.name() + "/brisk-no-such-file", "x\n");
  auto warned = brisk_run({"netns", "exec", a.name(), "cat", "/etc/hostname"});
  EXPECT_EQ(warned.code, 0);
  EXPECT_EQ(warned.out, "brisk-netns-exec-test\n");
  EXPECT_EQ(warned.err,
            "Bind /etc/netns/" + a.name() +
                "/brisk-no-such-file -> /etc/brisk-no-such-file failed: " + "No such file or directory\n");
  EXPECT_EQ(warned.err, ip_run({"netns", "exec", a.name(), "cat", "/etc/hostname"}).err);
  std::filesystem::remove("/etc/netns/" + a.name() + "/brisk-no-such-file");
  // /sys shows the namespace's own devices.
  ASSERT_EQ(brisk_run({"-n", a.name(), "link", "add", "sysx0", "type", "bridge"}).code, 0);
  EXPECT_EQ(brisk_run({"netns", "exec", a.name(), "test", "-d", "/sys/class/net/sysx0"}).code, 0);
  // In a batch each exec line reports like any other.
  brisk::test::TempDir dir;
  std::string file = dir.path() + "/b";
  write_file(file, "netns exec " + a.name() + " true\nnetns exec " + a.name() + " false\nlink show\n");
  auto batch = brisk_run({"-batch", file});
  EXPECT_EQ(batch.code, 1);
  EXPECT_NE(batch.err.find("Command failed " + file + ":2"), std::string::npos) << batch.err;
}

}  // namespace
}  // namespace brisk::cli_test
