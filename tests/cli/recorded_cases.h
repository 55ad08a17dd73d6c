// The states the recorded tests replay, and the shows run in each: a
// scenario's setup (ip commands, or `sh -c` for a sysctl) builds a
// throwaway namespace; each show is recorded there, ip's output beside
// brisk's talk with the kernel, into tests/cli/recorded/NAME.txt.
// Changing a scenario means recording again (tests/cli/recorded/README.md).
#pragma once

#include <string>
#include <vector>

namespace brisk::cli_test::recorded {

using Words = std::vector<std::string>;

struct Scenario {
  std::string name;          // the fixture file's stem, and the tests' prefix
  std::vector<Words> setup;  // argv each, run in the namespace
  std::vector<Words> shows;  // ip's arguments, each recorded and replayed
};

// `args` and again after -j, as the shows compare text and JSON alike.
inline std::vector<Words> with_json(const std::vector<Words>& args) {
  std::vector<Words> all;
  for (const auto& a : args) {
    all.push_back(a);
    Words j = a;
    j.insert(j.begin(), "-j");
    all.push_back(std::move(j));
  }
  return all;
}

// cli_test.cc's states: formats, route and addr filters, route get, nud.
inline std::vector<Scenario> cli_test_scenarios() {
  std::vector<Scenario> all;
  const Words veth{"ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"};
  // -br, -o and -p, in text and JSON; neighbour flags (router,
  // extern_learn) and -s -s's error counters. A name@peer wider than the
  // 16-column field pushes the rest along.
  all.push_back({
      .name = "brief_oneline",
      .setup = {veth,
                {"ip", "link", "add", "vethlongname01", "type", "veth", "peer", "name", "vethlongname02"},
                {"ip", "link", "set", "v0", "up"},
                {"ip", "addr", "add", "10.0.0.1/24", "dev", "v0"},
                {"ip", "addr", "add", "10.0.1.1/32", "dev", "v0", "label", "v0:x"},
                {"ip", "neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "v0"},
                {"ip", "neigh", "add", "10.0.0.3", "lladdr", "02:00:00:00:00:03", "dev", "v0", "router"},
                {"ip", "neigh", "add", "10.0.0.4", "lladdr", "02:00:00:00:00:04", "dev", "v1",
                 "extern_learn"}},
      .shows = {{"-br", "link"},
                {"-br", "addr"},
                {"-br", "-4", "addr"},
                {"-brief", "link", "show", "up"},
                {"-br", "-j", "link"},
                {"-br", "-j", "addr"},
                {"-o", "link"},
                {"-o", "addr"},
                {"-o", "-s", "link", "show", "v0"},
                {"-oneline", "-4", "addr", "show", "dev", "v0"},
                {"-o", "-br", "link"},
                {"-j", "-p", "link"},
                {"-j", "-p", "-s", "addr"},
                {"-br", "-j", "-p", "addr"},
                {"-j", "-p", "route"},
                {"-br", "neigh"},
                {"-br", "neigh", "show", "dev", "v0"},
                {"-br", "-j", "neigh"},
                {"neigh"},
                {"-j", "neigh"},
                {"-s", "-s", "link"},
                {"-j", "-s", "-s", "addr"},
                {"-o", "-s", "-s", "link", "show", "v0"},
                // -j -o addr: a record per link of its addresses alone, each naming its link
                {"-j", "-o", "addr"},
                {"-j", "-o", "addr", "show", "up"},
                {"-j", "-o", "-s", "addr", "show", "label", "v0*"}},
  });
  // route show's filters and forms: every table (both families), one
  // table, one device, proto, scope and type (the fields a filter fixes are
  // left out), IPv6's metric and pref, and -d's explicit type, proto, scope.
  all.push_back({
      .name = "route_filters",
      .setup = {veth,
                {"ip", "link", "set", "v0", "up"},
                {"ip", "link", "set", "v1", "up"},
                {"ip", "addr", "add", "10.0.0.1/24", "dev", "v0"},
                {"ip", "-6", "addr", "add", "2001:db8::1/64", "dev", "v0", "nodad"},
                {"ip", "route", "add", "10.9.0.0/16", "via", "10.0.0.2"},
                {"ip", "route", "add", "10.8.0.0/16", "via", "10.0.0.2", "table", "100"},
                {"ip", "route", "add", "blackhole", "192.0.2.0/24", "metric", "7"},
                {"ip", "-6", "route", "add", "2001:db8:5::/64", "via", "2001:db8::2", "pref", "high"}},
      .shows = {{"route", "show", "table", "all"},
                {"-j", "route", "show", "table", "all"},
                {"route", "show", "table", "100"},
                {"-4", "route", "show", "dev", "v0"},
                {"-j", "route", "show", "dev", "v0"},
                {"-6", "route"},
                {"-j", "-6", "route"},
                {"-6", "route", "show", "table", "all"},
                {"route", "show", "table", "local"},
                {"-d", "route"},
                {"-d", "-j", "route", "show", "table", "all"},
                {"route", "show", "proto", "kernel"},
                {"route", "show", "proto", "boot"},
                {"route", "show", "scope", "link"},
                {"route", "show", "type", "blackhole"},
                {"-j", "route", "show", "proto", "kernel"},
                {"route", "show", "table", "local", "type", "local", "scope", "host"}},
  });
  // route get in every form ip takes: IPv4's cloned answer with its cache
  // flags, IPv6's (no clone: proto, metric, pref), fibmatch's FIB entry, -d,
  // and the lookup keys (tos, uid, mark, L4 ports); a prefix's warning; and
  // the refusals (ip's status not 0 for each, at record time).
  Scenario get{
      .name = "route_get",
      .setup = {{"ip", "link", "set", "lo", "up"},
                veth,
                {"ip", "link", "set", "v0", "up"},
                {"ip", "link", "set", "v1", "up"},
                {"ip", "addr", "add", "10.0.0.1/24", "dev", "v0"},
                {"ip", "-6", "addr", "add", "2001:db8::1/64", "dev", "v0", "nodad"},
                {"ip", "route", "add", "10.9.0.0/16", "via", "10.0.0.2", "proto", "static", "metric", "5"},
                {"ip", "-6", "route", "add", "2001:db8:5::/48", "via", "2001:db8::2", "metric", "7"}},
      .shows = {}};
  for (const Words& query : std::vector<Words>{{"10.0.0.1"},
                                               {"127.0.0.1"},
                                               {"10.0.0.255"},
                                               {"10.9.1.1"},
                                               {"::1"},
                                               {"2001:db8::1"},
                                               {"2001:db8::9"},
                                               {"2001:db8:5::9"},
                                               {"2001:db8:5::9", "from", "2001:db8::1"},
                                               {"fibmatch", "10.9.1.1"},
                                               {"fibmatch", "2001:db8:5::9"},
                                               {"fibmatch", "10.0.0.1"},
                                               {"10.9.1.1", "from", "10.0.0.1"},
                                               {"10.9.1.1", "tos", "0x10"},
                                               {"10.9.1.1", "uid", "1000"},
                                               {"10.9.1.1", "mark", "100"},
                                               {"10.9.1.1", "ipproto", "tcp", "sport", "80", "dport", "443"},
                                               {"10.9.1.1", "oif", "v0"},
                                               {"10.9.1.1", "connected"}}) {
    for (const Words& options : std::vector<Words>{{}, {"-j"}, {"-d"}}) {
      if (options == Words{"-j"} && query.back() == "connected") continue;  // ip's JSON there is not JSON
      Words args = options;
      args.insert(args.end(), {"route", "get"});
      args.insert(args.end(), query.begin(), query.end());
      get.shows.push_back(std::move(args));
    }
  }
  get.shows.push_back({"route", "get", "to", "10.9.1.1/24"});
  // The kernel's refusals and ip's own, with their texts and statuses.
  for (const Words& query : std::vector<Words>{{"2001:db9::1"},
                                               {"10.9.1.1", "from", "10.0.0.9", "iif", "v1"},
                                               {"10.9.1.1", "from", "10.0.0.0/24"},
                                               {"10.9.1.1", "as", "10.1.1.1"},
                                               {"2001:db8:5::9", "notify"},
                                               {"10.9.1.1", "iif", "v1"},
                                               {"10.9.1.1", "vrf", "v0"},
                                               {"10.9.1.1", "vrf", "nosuch"},
                                               {"10.9.1.1", "oif", "nosuch"},
                                               {"10.9.1.1", "sport", "x"},
                                               {"fibmatch"}}) {
    Words args{"route", "get"};
    args.insert(args.end(), query.begin(), query.end());
    get.shows.push_back(std::move(args));
  }
  all.push_back(std::move(get));
  // addr show's address filters: scope, and to PREFIX (whose family
  // becomes the command's, as -4/-6 would); links left without one go.
  all.push_back({
      .name = "addr_filters",
      .setup = {{"ip", "link", "set", "lo", "up"},
                veth,
                {"ip", "link", "set", "v0", "up"},
                {"ip", "addr", "add", "10.0.0.1/24", "dev", "v0"},
                {"ip", "addr", "add", "10.0.1.1/32", "dev", "v0", "label", "v0:x"},
                {"ip", "-6", "addr", "add", "2001:db8::1/64", "dev", "v0", "nodad"}},
      .shows = {{"addr", "show", "scope", "global"},
                {"-o", "addr", "show", "scope", "host"},
                {"addr", "show", "to", "10.0.0.0/8"},
                {"addr", "show", "to", "10.0.1.1"},
                {"-br", "addr", "show", "scope", "0"},
                {"addr", "show", "to", "2001:db8::/32"},
                {"-o", "-4", "addr", "show", "dev", "v0", "scope", "global"},
                {"addr", "show", "to", "192.168.0.0/16"}},
  });
  // neigh show nud: by default every state but noarp and none; nud all,
  // one state, several, and "none" as ip reads them.
  all.push_back({
      .name = "neigh_nud",
      .setup = {veth,
                {"ip", "link", "set", "v0", "up"},
                {"ip", "neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "v0"},
                {"ip", "neigh", "add", "10.0.0.3", "dev", "v0", "nud", "failed"},
                {"ip", "neigh", "add", "10.0.0.4", "lladdr", "02:00:00:00:00:04", "dev", "v0", "nud",
                 "stale"},
                {"ip", "neigh", "add", "10.0.0.5", "lladdr", "02:00:00:00:00:05", "dev", "v0", "nud",
                 "noarp"}},
      .shows = {{"neigh"},
                {"neigh", "show", "nud", "all"},
                {"neigh", "show", "nud", "stale"},
                {"neigh", "show", "nud", "permanent", "nud", "failed"},
                {"neigh", "show", "nud", "noarp"},
                {"-j", "neigh", "show", "nud", "all"},
                {"neigh", "show", "dev", "v0", "nud", "none"},
                {"neigh", "show", "nud", "bogus"}},
  });
  return all;
}

// neigh_get_test.cc's and nexthop_test.cc's states: neighbour gets and
// show selectors; nexthop shows.
inline std::vector<Scenario> neigh_nexthop_scenarios() {
  std::vector<Scenario> all;
  // A veth end with addresses of both families, its peer a port of br0,
  // and entries of several protocols on both and in the proxy table.
  all.push_back({
      .name = "neigh_get",
      .setup = {{"ip", "link", "add", "d0", "type", "veth", "peer", "name", "d1"},
                {"ip", "link", "add", "br0", "type", "bridge"},
                {"ip", "link", "set", "d1", "master", "br0"},
                {"ip", "link", "set", "d0", "up"},
                {"ip", "link", "set", "d1", "up"},
                {"ip", "link", "set", "br0", "up"},
                {"ip", "addr", "add", "10.9.0.1/24", "dev", "d0"},
                {"ip", "addr", "add", "fd00:9::1/64", "dev", "d0", "nodad"},
                {"ip", "neigh", "add", "10.9.0.2", "lladdr", "02:00:00:00:00:02", "dev", "d0", "protocol",
                 "dhcp"},
                {"ip", "neigh", "add", "10.9.0.3", "lladdr", "02:00:00:00:00:03", "dev", "d1", "nud",
                 "reachable"},
                {"ip", "neigh", "add", "10.9.0.4", "lladdr", "02:00:00:00:00:04", "dev", "d1", "nud", "stale",
                 "proto", "static"},
                {"ip", "neigh", "add", "fd00:9::2", "lladdr", "02:00:00:00:00:12", "dev", "d0", "nud",
                 "noarp", "router"},
                {"ip", "neigh", "add", "proxy", "10.9.0.7", "dev", "d0", "protocol", "static"},
                {"ip", "neigh", "add", "proxy", "10.9.0.8"}},
      .shows = {{"neigh", "get", "10.9.0.2", "dev", "d0"},
                {"neigh", "get", "to", "10.9.0.3", "dev", "d1"},
                {"neigh", "g", "fd00:9::2", "dev", "d0"},
                {"-br", "neigh", "get", "10.9.0.4", "dev", "d1"},
                {"neigh", "get", "proxy", "10.9.0.7", "dev", "d0"},
                {"neigh", "get", "proxy", "10.9.0.8"},
                {"neigh", "get", "proxy", "10.9.0.9"},      // none: the kernel's text, status 2
                {"neigh", "get", "10.9.0.9", "dev", "d0"},  // likewise
                {"neigh", "get", "10.9.0.2", "dev", "d1"},  // on another device
                {"neigh", "get", "10.9.0.2", "dev", "d0", "dev", "d1"},
                {"neigh", "get", "10.9.0.2", "dev", "nope0"},  // Cannot find device, status 1
                {"neigh", "get", "10.9.0.2"},                  // no device
                {"neigh", "get", "10.9.0.2", "dev", "d0", "10.9.0.3"},
                {"-4", "neigh", "get", "fd00:9::2", "dev", "d0"},
                {"neigh", "get", "10.9.0.300", "dev", "d0"},
                // show's selectors
                {"neigh", "show"},
                {"-j", "neigh", "show"},
                {"neigh", "show", "master", "br0"},
                {"-j", "neigh", "show", "master", "br0"},
                {"-4", "neigh", "show", "nomaster"},
                {"neigh", "show", "nomaster", "nud", "all"},
                {"neigh", "show", "proto", "dhcp"},
                {"-j", "neigh", "show", "protocol", "dhcp"},
                {"neigh", "show", "proto", "static", "nud", "all"},
                {"neigh", "show", "p", "static", "proxy"},
                {"neigh", "show", "proto", "all", "dev", "d1"},
                {"neigh", "show", "unused", "nud", "all"},
                {"neigh", "show", "10.9.0.0/30"},
                {"neigh", "show", "to", "default", "dev", "d1"},
                {"-br", "neigh", "show", "master", "br0"},
                {"neigh", "show", "proxy", "nomaster"},
                {"neigh", "show", "proxy", "master", "br0"},
                {"neigh", "show", "master", "nope0"},
                {"neigh", "show", "vrf", "br0"},  // no VRF
                {"neigh", "show", "vrf", "nope0"},
                {"neigh", "show", "proto", "bogus"},
                {"neigh", "show", "dev", "d0", "dev", "d1"},
                {"neigh", "show", "garbage"},
                {"neigh", "flush", "master", "nope0"}},
  });
  // Gateways of both families, a blackhole, groups of both types, fdb
  // nexthops and a route through a group.
  all.push_back({
      .name = "nexthop",
      .setup = {{"ip", "link", "set", "lo", "up"},
                {"ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"},
                {"ip", "link", "set", "v0", "up"},
                {"ip", "link", "set", "v1", "up"},
                {"ip", "addr", "add", "10.0.0.2/24", "dev", "v0"},
                {"ip", "addr", "add", "2001:db8::2/64", "dev", "v0", "nodad"},
                {"ip", "nexthop", "add", "id", "1", "via", "10.0.0.1", "dev", "v0"},
                {"ip", "nexthop", "add", "id", "2", "via", "2001:db8::1", "dev", "v0"},
                {"ip", "nexthop", "add", "id", "3", "blackhole"},
                {"ip", "nexthop", "add", "id", "4", "dev", "v0"},
                {"ip", "nexthop", "add", "id", "10", "group", "1/4,5"},
                {"ip", "nexthop", "add", "id", "11", "group", "1,3/4", "type", "resilient", "buckets", "32",
                 "idle_timer", "10"},
                {"ip", "nexthop", "add", "id", "12", "via", "10.0.0.9", "dev", "v0", "onlink", "proto",
                 "static"},
                {"ip", "nexthop", "add", "id", "22", "fdb", "via", "10.0.0.3"},
                {"ip", "nexthop", "add", "id", "23", "group", "22", "fdb"},
                {"ip", "route", "add", "10.9.0.0/16", "nhid", "10"}},
      .shows = {{"nexthop"},
                {"nexthop", "show"},
                {"nexthop", "list", "dev", "v0"},
                {"nexthop", "lst", "groups"},
                {"nexthop", "show", "id", "10"},
                {"nexthop", "get", "id", "11"},
                {"nexthop", "get", "id", "77"},  // the kernel's ENOENT, status 2
                {"-j", "nexthop", "show"},
                {"-j", "-p", "nexthop", "show", "groups"},
                {"-d", "nexthop", "show"},
                {"-d", "-j", "nexthop", "show"},
                {"-4", "nexthop"},
                {"-6", "nexthop"},
                {"nexthop", "show", "proto", "4"},
                {"nexthop", "show", "protocol", "0x4"},
                {"nexthop", "show", "fdb"},
                {"nexthop", "show", "dev", "nosuch"},  // ip's argument error
                {"nexthop", "show", "master", "v0"},
                {"nexthop", "show", "vrf", "v0"},  // not a VRF
                {"-d", "route", "show"}},
  });
  return all;
}

// global_options_test.cc's state: a veth pair with addresses, routes, a
// neighbour and rules of both families; counters made to pass 1000 (and 1M
// bytes) for -h by UDP broadcasts out of v0.
inline Scenario global_options_scenario() {
  return {
      .name = "global_options",
      .setup = {{"ip", "link", "add", "v0", "address", "02:00:00:00:00:01", "type", "veth", "peer", "name",
                 "v1", "address", "02:00:00:00:00:02"},
                {"ip", "link", "set", "v0", "up"},
                {"ip", "link", "set", "v1", "up"},
                {"ip", "addr", "add", "10.0.5.1/24", "brd", "+", "dev", "v0"},
                {"ip", "addr", "add", "10.0.5.2/24", "peer", "10.0.6.2", "dev", "v0"},
                {"ip", "addr", "add", "2001:db8::1/64", "dev", "v0", "nodad"},
                {"ip", "route", "add", "10.50.0.0/16", "via", "10.0.5.9", "dev", "v0"},
                {"ip", "route", "add", "10.51.0.0/16", "from", "10.0.5.1", "dev", "v0", "table", "7", "proto",
                 "static"},
                {"ip", "route", "add", "10.52.0.0/16", "nexthop", "via", "10.0.5.8", "nexthop", "via",
                 "10.0.5.7"},
                {"ip", "route", "add", "2001:db8:5::/64", "via", "2001:db8::3", "dev", "v0"},
                {"ip", "neigh", "add", "10.0.5.3", "lladdr", "02:00:00:00:00:03", "dev", "v0"},
                {"ip", "rule", "add", "from", "10.1.0.0/16", "to", "10.2.0.0/16", "iif", "v0", "oif", "v1",
                 "lookup", "5"},
                {"ip", "nexthop", "add", "id", "3", "via", "10.0.5.6", "dev", "v0"},
                {"/usr/bin/python3", "-c",
                 "import socket\n"
                 "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                 "s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)\n"
                 "for _ in range(1200): s.sendto(b'x' * 700, ('10.0.5.255', 9))\n"}},
      .shows =
          {// colours (not COLORFGBG's palette, which is the environment's)
           {"-c", "link"},
           {"-c", "link", "show", "v0"},
           {"-c", "addr"},
           {"-c", "-br", "addr"},
           {"-c", "-br", "link"},
           {"-c", "-o", "addr"},
           {"-c", "route"},
           {"-c", "route", "show", "table", "all"},
           {"-c", "-6", "route"},
           {"-c", "neigh"},
           {"-c", "-br", "neigh"},
           {"-c", "rule"},
           {"-c", "nexthop"},
           {"-color=always", "-s", "link", "show", "v0"},
           {"-color=never", "link"},
           {"-color=auto", "addr"},  // stdout is a file: no colour
           {"-c", "-j", "link"},     // never with JSON
                                     // numbers for names
           {"-N", "route", "show", "table", "all"},
           {"-N", "rule"},
           {"-N", "addr"},
           {"-N", "link"},
           {"-N", "-j", "route", "show", "table", "all"},
           {"-N", "-d", "link", "show", "v0"},
           // human counters
           {"-h", "-s", "link"},
           {"-h", "-s", "-s", "link", "show", "v0"},
           {"-iec", "-h", "-s", "link"},
           {"-iec", "-s", "link", "show", "v1"},  // -iec alone changes nothing
           {"-h", "-s", "addr", "show", "v0"},
           {"-h", "-s", "-j", "link"},
           // the link family and other families' shows
           {"-0", "addr"},
           {"-0", "-br", "addr"},
           {"-0", "-j", "addr"},
           {"-f", "link", "-o", "addr"},
           {"-0", "addr", "show", "dev", "v0"},
           {"-0", "addr", "show", "up"},
           {"-0", "link"},
           {"-0", "route"},
           {"-0", "neigh", "show", "all"},
           {"-0", "rule"},
           {"-M", "rule"},
           {"-M", "route"},
           {"-B", "route"},
           {"-B", "addr"},
           {"-0", "-4", "addr"},  // the last family wins
           {"-f", "inet6", "addr"},
           // other options
           {"-rc", "100000", "link", "show", "v0"},
           {"-rc", "x", "link"},
           {"--", "link", "show", "v0"},
           {"-a", "link", "show", "v0"},
           {"addr", "flush"},
           {"addr", "flush", "dev", "nosuch"}},
  };
}

// addrlabel_test.cc's and flush_stats_test.cc's states: the label table,
// and -s neigh's ages and probes.
inline std::vector<Scenario> label_and_age_scenarios() {
  std::vector<Scenario> all;
  all.push_back({
      .name = "addrlabel",
      .setup = {{"ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"},
                {"ip", "addrlabel", "add", "prefix", "2001:db8::/32", "label", "99"},
                {"ip", "addrlabel", "add", "prefix", "2001:db9::/32", "dev", "v0", "label", "7"}},
      .shows = {{"addrlabel"},
                {"addrlabel", "list"},
                {"-j", "addrlabel"},
                {"-j", "-p", "addrlabel", "show"},
                {"-6", "addrlabel"},
                {"-4", "addrlabel"}},  // the kernel's EOPNOTSUPP, "Dump terminated", 255
  });
  all.push_back({
      .name = "neigh_ages",
      .setup = {{"ip", "link", "add", "v0", "address", "02:00:00:00:00:01", "type", "veth", "peer", "name",
                 "v1", "address", "02:00:00:00:00:02"},
                {"ip", "link", "set", "v0", "up"},
                {"ip", "link", "set", "v1", "up"},
                {"ip", "addr", "add", "10.0.1.1/24", "dev", "v0"},
                {"ip", "neigh", "add", "10.0.1.9", "lladdr", "02:00:00:00:00:09", "dev", "v0", "nud",
                 "reachable"},
                {"ip", "neigh", "add", "10.0.1.8", "lladdr", "02:00:00:00:00:08", "dev", "v0", "nud",
                 "stale"}},
      .shows = {{"-s", "neigh", "show", "dev", "v0"},
                {"-j", "-s", "neigh", "show", "10.0.1.9"},
                {"-s", "neigh", "show", "10.0.1.9"}},
  });
  return all;
}

// route_test.cc's IpRouteParity state after ShowsSelectorsAsIp's adds:
// every address, metric and tos selector of route show, alone and
// together, in each family and none, text and JSON; and the selectors
// that name what is not there.
inline Scenario route_selectors_scenario() {
  Scenario sc{.name = "route_selectors",
              .setup = {{"ip", "link", "add", "d0", "type", "veth", "peer", "name", "d1"},
                        {"ip", "link", "set", "d0", "up"},
                        {"ip", "link", "set", "d1", "up"},
                        {"ip", "addr", "add", "10.9.0.1/24", "dev", "d0"},
                        {"ip", "link", "add", "e0", "type", "veth", "peer", "name", "e1"},
                        {"ip", "link", "set", "e0", "up"},
                        {"ip", "link", "set", "e1", "up"},
                        {"ip", "addr", "add", "10.8.0.1/24", "dev", "e0"},
                        {"ip", "addr", "add", "fd00:9::1/64", "dev", "d0", "nodad"},
                        {"ip", "route", "add", "10.50.0.0/16", "via", "10.9.0.2", "metric", "7"},
                        {"ip", "route", "add", "10.50.1.0/24", "via", "10.9.0.3", "src", "10.9.0.1"},
                        {"ip", "route", "add", "10.51.0.0/16", "dev", "d0", "tos", "0x10"},
                        {"ip", "route", "add", "default", "via", "10.8.0.2"},
                        {"ip", "-6", "route", "add", "fd09::/64", "via", "fd00:9::2"},
                        {"ip", "-6", "route", "add", "fd0a::/64", "from", "fd00:1::/48", "dev", "d0"},
                        {"ip", "-6", "route", "add", "fd0b::/64", "from", "fd00:1:2::/64", "dev", "d0"},
                        {"ip", "route", "add", "10.53.0.0/16", "dev", "d0", "realms", "3/4"},
                        {"ip", "route", "add", "10.54.0.0/16", "dev", "d0", "realm", "5"},
                        {"ip", "route", "add", "10.52.0.0/16", "dev", "d0", "dsfield", "0x8"},
                        {"ip", "route", "add", "10.52.0.0/16", "dev", "d0", "tos", "0x10"}},
              .shows = {}};
  for (const Words& selectors : std::vector<Words>{{"10.50.0.0/16"},
                                                   {"root", "10.50.0.0/16"},
                                                   {"match", "10.50.1.7"},
                                                   {"exact", "10.50.1.0/24"},
                                                   {"to", "match", "10.50.1.7"},
                                                   {"10.50.0.1"},
                                                   {"default"},
                                                   {"all"},
                                                   {"any"},
                                                   {"via", "10.9.0.2"},
                                                   {"via", "10.9.0.0/24"},
                                                   {"via", "inet", "10.9.0.3"},
                                                   {"src", "10.9.0.1"},
                                                   {"metric", "7"},
                                                   {"tos", "0x10"},
                                                   {"root", "10.0.0.0/8", "metric", "7"},
                                                   {"match", "10.50.1.1", "via", "10.9.0.3"},
                                                   {"fd09::/64"},
                                                   {"mark", "0"},
                                                   {"iif", "d0"},
                                                   {"iif", "nosuch"},
                                                   {"table", "all", "default"},
                                                   {"from", "fd00:1::/48"},
                                                   {"from", "root", "fd00::/16"},
                                                   {"from", "match", "fd00:1:2:3::/64"},
                                                   {"from", "exact", "fd00:1:2::/64"},
                                                   {"from", "10.0.0.0/8"},
                                                   {"realms", "3/4"},
                                                   {"realms", "4"},
                                                   {"realms", "3/"},
                                                   {"realms", "/4"},
                                                   {"realms", "5"},
                                                   {"cached"},
                                                   {"table", "all", "cloned"}}) {
    for (const char* family : {"-4", "-6"}) {
      Words show{family, "route", "show"};
      show.insert(show.end(), selectors.begin(), selectors.end());
      sc.shows.push_back(show);
      show.insert(show.begin(), "-j");
      sc.shows.push_back(std::move(show));
    }
    Words show{"route", "show"};
    show.insert(show.end(), selectors.begin(), selectors.end());
    sc.shows.push_back(std::move(show));
  }
  for (const Words& missing : std::vector<Words>{{"route", "show", "iif", "nosuch"},
                                                 {"route", "show", "dev", "nosuch"},
                                                 {"-6", "route", "show", "10.50.0.0/16"},
                                                 {"route", "show", "vrf", "nosuch"},  // ip's "Invalid VRF"
                                                 {"route", "show", "vrf", "d0"},      // a device, but no VRF
                                                 {"route", "flush", "vrf", "d0"},
                                                 {"route", "show", "realms", "bogus"}})
    sc.shows.push_back(missing);
  return sc;
}

inline std::vector<Scenario> recorded_scenarios() {
  std::vector<Scenario> all;
  // A bridge with two veth ports and addresses on either side
  // (show_selectors_test.cc's state), for link and addr show, their
  // selectors and formats.
  all.push_back({
      .name = "selectors",
      .setup = {{"ip", "link", "add", "br0", "address", "02:00:00:00:01:00", "type", "bridge"},
                {"ip", "link", "add", "p0", "address", "02:00:00:00:01:01", "type", "veth", "peer", "name",
                 "q0", "address", "02:00:00:00:01:02"},
                {"ip", "link", "add", "p1", "address", "02:00:00:00:01:03", "type", "veth", "peer", "name",
                 "q1", "address", "02:00:00:00:01:04"},
                {"ip", "link", "set", "p0", "master", "br0"},
                {"ip", "link", "set", "p1", "master", "br0"},
                {"ip", "addr", "add", "10.7.0.1/24", "dev", "p0"},
                {"ip", "addr", "add", "10.7.1.1/24", "dev", "q0"},
                {"ip", "addr", "add", "10.7.2.1/24", "dev", "br0"},
                {"ip", "addr", "add", "fd00:7::1/64", "dev", "q1", "nodad"}},
      .shows = {{"link", "show", "master", "br0"},
                {"addr", "show", "master", "br0"},
                {"link", "show", "nomaster"},
                {"addr", "show", "nomaster"},
                {"link", "show", "type", "veth"},
                {"addr", "show", "type", "bridge"},
                {"link", "show", "type", "bridge_slave"},
                {"addr", "show", "type", "bridge_slave"},
                {"-j", "addr", "show", "master", "br0"},
                {"-br", "link", "show", "nomaster"},
                {"-d", "link", "show", "type", "bridge_slave"},
                {"addr", "show", "master", "br0", "type", "veth"},
                {"link", "show", "master", "p0"},
                // A master or vrf ip cannot find while parsing: its argument error, exit 255.
                {"link", "show", "master", "nosuch"},
                {"addr", "show", "master", "nosuch"},
                {"link", "show", "vrf", "br0"},
                {"addr", "show", "vrf", "nosuch"},
                {"addr", "flush", "master", "nosuch"},
                // Every format of the whole dumps.
                {"link", "show"},
                {"-s", "link", "show"},
                {"-s", "-s", "link", "show"},
                {"-br", "link", "show"},
                {"-o", "link", "show"},
                {"-j", "link", "show"},
                {"-j", "-p", "link", "show"},
                {"addr", "show"},
                {"-4", "addr", "show"},
                {"-6", "addr", "show"},
                {"-br", "addr", "show"},
                {"-br", "-4", "addr", "show"},
                {"-o", "addr", "show"},
                {"-j", "addr", "show"},
                {"-j", "-p", "addr", "show"},
                {"-d", "-j", "link", "show"},
                {"-N", "link", "show"},
                {"-h", "-s", "link", "show"}},
  });
  // One device's show reads that device and the links it names
  // (show_one_device_test.cc's state).
  all.push_back({
      .name = "one_device",
      .setup = {{"ip", "link", "add", "br0", "type", "bridge"},
                {"ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"},
                {"ip", "link", "set", "v0", "master", "br0"},
                {"ip", "link", "add", "other0", "type", "bridge"},
                {"ip", "link", "add", "w0", "type", "veth", "peer", "name", "w1"},
                {"ip", "addr", "add", "10.7.0.1/24", "dev", "v0"},
                {"ip", "addr", "add", "10.8.0.1/24", "dev", "w0"}},
      .shows = {{"link", "show", "v0"},
                {"link", "show", "dev", "br0"},
                {"-j", "link", "show", "v1"},
                {"addr", "show", "dev", "v0"},
                {"-j", "addr", "show", "dev", "w0"},
                {"-br", "addr", "show", "dev", "v0"},
                {"-s", "link", "show", "v0"},
                {"-o", "addr", "show", "dev", "v0"},
                {"link", "show", "nosuch"},
                {"addr", "show", "dev", "nosuch"},
                {"-4", "addr", "show", "dev", "br0"}},
  });
  // Every kind's -d details, devices down so that no timer runs
  // (details_test.cc's EveryKindAsIpPrintsIt).
  all.push_back({
      .name = "details",
      .setup =
          {{"ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"},
           {"ip", "link", "add", "br0", "type", "bridge"},
           {"ip", "link", "set", "v1", "master", "br0"},
           {"ip", "link", "add", "br1", "type", "bridge", "stp_state", "1", "priority", "4096",
            "mcast_snooping", "0", "group_fwd_mask", "8"},
           {"ip", "link", "add", "p0", "type", "veth", "peer", "name", "p1"},
           {"ip", "link", "set", "p0", "master", "br1"},
           {"ip", "link", "set", "p0", "type", "bridge_slave", "cost", "7", "learning", "off",
            "group_fwd_mask", "0x4005", "hairpin", "on", "mcast_to_unicast", "on", "isolated", "on"},
           {"ip", "link", "set", "p1", "alias", "the other end"},
           {"ip", "link", "add", "mv0", "link", "v0", "type", "macvlan", "mode", "bridge"},
           {"ip", "link", "add", "mv1", "link", "v0", "type", "macvlan", "mode", "private"},
           {"ip", "link", "add", "mv2", "link", "v0", "type", "macvlan", "mode", "source"},
           {"ip", "link", "add", "mvt0", "link", "v0", "type", "macvtap", "mode", "vepa"},
           {"ip", "link", "add", "ms0", "link", "v0", "type", "macvlan", "mode", "source", "macaddr", "add",
            "02:00:00:00:00:01"},
           {"ip", "link", "set", "ms0", "type", "macvlan", "macaddr", "add", "02:00:00:00:00:0a"},
           {"ip", "link", "add", "ms1", "link", "v0", "type", "macvlan", "mode", "source", "nodst"},
           {"ip", "link", "add", "w0", "type", "veth", "peer", "name", "w1"},
           {"ip", "link", "add", "mp0", "link", "w0", "type", "macvlan", "mode", "passthru", "nopromisc"},
           {"ip", "link", "add", "vx0", "type", "vxlan", "id", "42", "dstport", "4789", "remote",
            "192.0.2.1"},
           {"ip",        "link",       "add",    "vx1",     "type",       "vxlan", "id",     "7",    "local",
            "10.0.0.1",  "dev",        "v0",     "dstport", "0",          "ttl",   "5",      "tos",  "1",
            "noudpcsum", "nolearning", "ageing", "0",       "maxaddress", "10",    "l2miss", "proxy"},
           {"ip", "link", "add",     "vx2", "type", "vxlan",   "id",   "8",       "group", "239.1.1.1", "dev",
            "v0", "ttl",  "inherit", "df",  "set",  "dstport", "4789", "srcport", "1000",  "2000"},
           {"ip", "link", "add", "vx3", "type", "vxlan", "id", "9", "remote", "fd00::1", "local", "fd00::2",
            "dstport", "4789", "flowlabel", "5", "df", "inherit", "udp6zerocsumtx"},
           {"ip", "link", "add", "vx4", "type", "vxlan", "external", "dstport", "4790"},
           {"ip", "link", "add", "vx5", "type", "vxlan", "id", "10", "dstport", "4789", "gbp", "remcsumtx",
            "remcsumrx", "rsc", "l3miss"},
           {"ip", "tuntap", "add", "tap0", "mode", "tap"},
           {"ip", "tuntap", "add", "tun0", "mode", "tun"},
           {"ip", "tuntap", "add", "tap1", "mode", "tap", "user", "0", "group", "0", "multi_queue"},
           {"ip", "tuntap", "add", "tap2", "mode", "tap", "user", "54321", "group", "54322", "pi",
            "vnet_hdr"}},
      .shows = with_json({{"-d", "link", "show"},
                          {"-d", "link", "show", "dev", "br1"},
                          {"-d", "addr", "show"},
                          {"-d", "-4", "addr", "show"},
                          {"-d", "-s", "link", "show"},
                          {"link", "show"},
                          {"-d", "link", "show", "type", "vxlan"},
                          {"-d", "link", "show", "mv2"}}),
  });
  // The IPv6 address dump's link records carry only the link layer's
  // address (details_test.cc's state).
  all.push_back({
      .name = "inet6_details",
      .setup = {{"ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"},
                {"ip", "link", "set", "v0", "up"},
                {"ip", "link", "set", "v1", "alias", "peer"},
                {"ip", "addr", "add", "fd00::1/64", "dev", "v0", "nodad"}},
      .shows = with_json({{"-d", "-6", "addr", "show"}, {"-d", "-6", "addr", "show", "dev", "v0"}}),
  });
  // Routes of several types and tables, rules, neighbours and nexthops, on
  // devices that are up: without IPv6 or multicast, so that no DAD, router
  // solicitation or IGMP report moves the state (its counters) between reads.
  all.push_back({
      .name = "routing",
      .setup =
          {{"ip", "link", "set", "lo", "up"},
           {"sh", "-c",
            "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6 && "
            "echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6"},
           {"ip", "link", "add", "d0", "type", "veth", "peer", "name", "e0"},
           {"ip", "link", "set", "e0", "multicast", "off", "up"},
           {"ip", "link", "add", "d1", "type", "veth", "peer", "name", "e1"},
           {"ip", "link", "set", "e1", "multicast", "off", "up"},
           {"ip", "link", "set", "d0", "multicast", "off", "up"},
           {"ip", "link", "set", "d1", "multicast", "off", "up"},
           {"ip", "addr", "add", "10.1.0.1/24", "dev", "d0"},
           {"ip", "addr", "add", "10.2.0.1/24", "brd", "+", "dev", "d1", "label", "d1:x"},
           {"ip", "route", "add", "10.9.0.0/16", "via", "10.1.0.2", "metric", "5"},
           {"ip", "route", "add", "10.10.0.0/16", "dev", "d1", "proto", "static", "scope", "link"},
           {"ip", "route", "add", "blackhole", "10.11.0.0/16"},
           {"ip", "route", "add", "unreachable", "10.12.0.0/16", "table", "100"},
           {"ip", "route", "add", "prohibit", "10.13.0.0/16", "table", "main", "metric", "9"},
           {"ip", "route", "add", "10.14.0.0/16", "nexthop", "via", "10.1.0.2", "weight", "2", "nexthop",
            "via", "10.2.0.2", "weight", "1"},
           {"ip", "route", "add", "10.15.0.0/16", "via", "10.1.0.3", "mtu", "1400", "advmss", "1300", "table",
            "200"},
           {"ip", "route", "add", "default", "via", "10.1.0.254"},
           {"ip", "nexthop", "add", "id", "1", "via", "10.1.0.2", "dev", "d0"},
           {"ip", "nexthop", "add", "id", "2", "via", "10.2.0.2", "dev", "d1"},
           {"ip", "nexthop", "add", "id", "3", "blackhole"},
           {"ip", "nexthop", "add", "id", "10", "group", "1/2,3"},
           {"ip", "rule", "add", "from", "10.1.0.0/24", "table", "100", "pref", "100"},
           {"ip", "rule", "add", "to", "10.20.0.0/16", "iif", "d0", "lookup", "200", "pref", "200"},
           {"ip", "rule", "add", "fwmark", "0x10/0xff", "goto", "32766", "pref", "300"},
           {"ip", "rule", "add", "not", "from", "all", "tos", "0x10", "prohibit", "pref", "400"},
           {"ip", "rule", "add", "ipproto", "tcp", "dport", "80-90", "table", "100", "pref", "500"},
           {"ip", "neigh", "add", "10.1.0.2", "lladdr", "02:00:00:00:09:02", "dev", "d0", "nud", "permanent"},
           {"ip", "neigh", "add", "10.1.0.3", "lladdr", "02:00:00:00:09:03", "dev", "d0", "nud", "noarp"},
           {"ip", "neigh", "add", "10.2.0.2", "lladdr", "02:00:00:00:09:04", "dev", "d1", "nud", "permanent"},
           {"ip", "neigh", "add", "proxy", "10.1.0.77", "dev", "d0"},
           {"ip", "route", "add", "10.30.0.0/16", "nhid", "10"}},
      .shows = with_json({{"route", "show"},
                          {"route", "show", "table", "all"},
                          {"route", "show", "table", "100"},
                          {"route", "show", "table", "local"},
                          {"route", "show", "dev", "d0"},
                          {"route", "show", "proto", "static"},
                          {"route", "show", "type", "blackhole"},
                          {"route", "show", "root", "10.0.0.0/8"},
                          {"route", "show", "match", "10.9.1.1"},
                          {"route", "show", "exact", "10.9.0.0/16"},
                          {"route", "show", "via", "10.1.0.2"},
                          {"route", "list", "scope", "link"},
                          {"route", "get", "10.9.1.1"},
                          {"route", "get", "10.30.1.1"},
                          {"-d", "route", "show"},
                          {"-s", "route", "show"},
                          {"rule", "show"},
                          {"rule", "show", "pref", "200"},
                          {"rule", "show", "table", "100"},
                          {"neigh", "show"},
                          {"neigh", "show", "dev", "d0"},
                          {"neigh", "show", "nud", "permanent"},
                          {"neigh", "show", "proxy"},
                          {"-s", "neigh", "show"},
                          {"nexthop", "show"},
                          {"nexthop", "show", "id", "10"},
                          {"nexthop", "show", "groups"},
                          {"nexthop", "show", "dev", "d0"},
                          {"addr", "show", "dev", "d1"},
                          {"-br", "addr", "show"},
                          {"-s", "-s", "link", "show", "d0"}}),
  });
  // ip 6.1 prints a get's neighbour as text even under -j (brisk as JSON:
  // neigh_get_test.cc), and -j -o addr as records of one address each.
  all.back().shows.push_back({"neigh", "get", "10.1.0.2", "dev", "d0"});
  all.back().shows.push_back({"-o", "-4", "addr", "show"});
  // Each family's settings per device, and the neighbour tables
  // (netconf_test.cc's and ntable_test.cc's states). Not ntable -s: its
  // last_flush and last_rand are ages, printed as the time of day they
  // were, which moves with the clock (ntable_test.cc compares those).
  all.push_back({
      .name = "netconf_ntable",
      .setup = {{"ip", "link", "add", "d0", "type", "veth", "peer", "name", "d1"},
                {"sh", "-c", "echo 1 > /proc/sys/net/ipv4/conf/d0/forwarding"},
                {"sh", "-c", "echo 2 > /proc/sys/net/ipv4/conf/d1/rp_filter"},
                {"sh", "-c", "echo 1 > /proc/sys/net/ipv4/conf/d1/proxy_arp"},
                {"sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/d0/forwarding"},
                {"sh", "-c", "echo 1 > /proc/sys/net/ipv4/conf/default/ignore_routes_with_linkdown"}},
      .shows = with_json({{"netconf"},
                          {"netconf", "show"},
                          {"netc", "l"},
                          {"-4", "netconf"},
                          {"-6", "netconf", "show"},
                          {"netconf", "show", "dev", "d0"},
                          {"-4", "netconf", "show", "dev", "d1"},  // the one record ip asks for
                          {"-6", "netconf", "show", "dev", "d0"},
                          {"netconf", "show", "foo", "dev", "d1"},  // ip passes over other words
                          {"netconf", "show", "dev", "nope"},       // "Device ... does not exist.", status 1
                          {"netconf", "show", "dev"},
                          {"ntable"},
                          {"ntable", "show"},
                          {"nt", "l"},
                          {"ntbl", "lst"},
                          {"-4", "ntable"},
                          {"-6", "ntable", "show"},
                          {"ntable", "show", "dev", "d0"},
                          {"ntable", "show", "dev", "none"},
                          {"ntable", "show", "name", "arp_cache"},
                          {"ntable", "show", "name", "ndisc_cache", "dev", "d1"},
                          {"ntable", "show", "dev", "lo", "dev", "d1"},  // the last one
                          {"ntable", "show", "name", "no_such_cache"},
                          {"-o", "ntable"}}),
  });
  for (auto& s : cli_test_scenarios()) all.push_back(std::move(s));
  for (auto& s : neigh_nexthop_scenarios()) all.push_back(std::move(s));
  all.push_back(global_options_scenario());
  for (auto& s : label_and_age_scenarios()) all.push_back(std::move(s));
  all.push_back(route_selectors_scenario());
  return all;
}

}  // namespace brisk::cli_test::recorded
