// ip route: add, replace, delete, show and get.
#include <linux/icmpv6.h>
#include <linux/in_route.h>
#include <linux/rtnetlink.h>
#include <unistd.h>

#include <cstdio>
#include <map>

#include "brisk/netlink/attributes.h"
#include "cli/ip/flush_rounds.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/route/route_encap.h"
#include "cli/ip/route/route_match.h"
#include "cli/ip/route/route_metrics.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk route help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kRouteUsage =
    R"(Usage: brisk route { add | del | replace | change | chg | prepend | append } ROUTE
       brisk route show [ SELECTOR ]
       brisk route flush SELECTOR
       brisk route get [ fibmatch ] [ connected ] [ notify ] [ to ] ADDRESS
                       [ from ADDRESS iif DEV ] [ oif DEV ] [ tos TOS ] [ mark NUMBER ]
                       [ vrf NAME ] [ uid NUMBER ] [ ipproto PROTOCOL ]
                       [ sport NUMBER ] [ dport NUMBER ] [ as [ to ] ADDRESS ]
       brisk route save [ SELECTOR ] > FILE   (ip's format)
       brisk route { restore | showdump } < FILE
SELECTOR := [ [ to ] [ root | match | exact ] PREFIX ] [ dev DEV ] [ iif DEV ]
            [ table { TABLE_ID | all } ] [ proto RTPROTO ] [ scope SCOPE ] [ type TYPE ]
            [ via [ inet | inet6 ] PREFIX ] [ src PREFIX ] [ metric NUMBER ]
            [ tos TOS ] [ mark NUMBER ] [ from [ root | match | exact ] PREFIX ]
            [ realms REALM ] [ vrf NAME ] [ cached | cloned ]
ROUTE := [ TYPE ] { PREFIX | default } [ via ADDRESS ] [ dev DEV ] [ metric NUMBER ]
         [ table TABLE_ID | vrf NAME ] [ scope SCOPE ] [ proto RTPROTO ] [ src ADDRESS ] [ onlink ]
         [ tos TOS ] [ nhid ID ] [ from PREFIX ] [ realms REALM ] [ expires SECONDS ]
         [ pref { low | medium | high } ] [ METRIC [ lock ] VALUE ]...
         [ features ecn ] [ congctl [ lock ] NAME ] [ nexthop NH ]... [ encap ENCAP ]
ENCAP := { ip [ id ID ] [ dst ADDR ] [ src ADDR ] [ tos TOS ] [ ttl TTL ] [ key ] [ csum ] [ seq ] |
           ip6 [ id ID ] [ dst ADDR ] [ src ADDR ] [ tc TC ] [ hoplimit HOPS ] [ key ] [ csum ] [ seq ] |
           mpls LABEL[/LABEL...] [ ttl TTL ] }
NH := [ via ADDRESS ] [ dev DEV ] [ weight NUMBER ] [ onlink ] [ realms [ FROM/ ]TO ]
TYPE := { unicast | local | broadcast | multicast | anycast | throw | unreachable |
          prohibit | blackhole | nat }
REALM := [ REALM_ID/ ]REALM_ID, a NAME from rt_realms or a NUMBER
(local, broadcast, anycast and nat routes go to table local unless one is named;
 from and expires are IPv6's)
TABLE_ID := { main | local | default | NAME from rt_tables | NUMBER }
SCOPE := { host | link | global | NAME from rt_scopes | NUMBER }
RTPROTO := { kernel | boot | static | dhcp | ... | NAME from rt_protos | NUMBER }
METRIC := { mtu | advmss | window | initcwnd | initrwnd | quickack | rtt | rttvar |
            ssthresh | cwnd | reordering | hoplimit | rto_min | fastopen_no_cookie }
)";

namespace {

// A route change's `vrf NAME`, as ip's ipvrf_get_table() reads it while
// parsing: the route goes to that VRF's table.
netlink::NlResult<void> use_vrf_table(Runner& r, IpCommand& cmd) {
  if (cmd.vrfs.empty()) return {};
  auto* c = BRISK_TRY(r.conn());
  cmd.route().table = BRISK_TRY(vrf_table(*c, cmd.vrfs.back(), "route add"));
  return {};
}

template <std::size_t (netlink::Batch::*Method)(netlink::RouteSpec)>
netlink::NlResult<std::size_t> queue_route(Runner& r, netlink::Batch& batch, IpCommand& cmd) {
  BRISK_TRY(use_vrf_table(r, cmd));
  return (batch.*Method)(std::move(cmd.route()));
}

template <netlink::RouteMerge Merge>
netlink::NlResult<std::size_t> queue_merged_route(Runner& r, netlink::Batch& batch, IpCommand& cmd) {
  BRISK_TRY(use_vrf_table(r, cmd));
  return batch.put_route(std::move(cmd.route()), Merge);
}

// The route's dev and each of its nexthops'.
std::vector<std::string> route_devices(const IpCommand& cmd) {
  std::vector<std::string> names;
  if (!cmd.route().dev.empty()) names.push_back(cmd.route().dev);
  for (const auto& hop : cmd.route().nexthops)
    if (!hop.dev.empty()) names.push_back(hop.dev);
  return names;
}

bool names_nexthops(const IpCommand& cmd) { return !cmd.route().nexthops.empty(); }

// ip returns from these (-1 for a bad start of the stream, -2 past it);
// in a batch they read the rest of it, so the batch ends here. `Read` is
// restore_routes or show_saved_routes.
template <netlink::NlResult<void> (*Read)(Runner&, const IpCommand&)>
int end_with_stream(Runner& r, const IpCommand& cmd, int status) {
  auto done = Read(r, cmd);
  r.dump_json();
  r.flush_out();
  if (done) return status;
  const netlink::NetlinkError& e = done.error();
  bool ours = !e.kernel && (e.op == kRouteRestoreOp || e.op == kRouteShowdumpOp);
  r.report(cmd.line, ours ? e.detail : runtime_message(e));
  if (r.in_batch()) return 1;
  return ours && e.code == EINVAL ? 1 : 2;  // ip's do_cmd negates the -1 (at the start) or -2
}

// A change: the devices it names are looked up as ip parses, its nexthops' among them.
constexpr Verb route_change_verb(std::string_view name,
                                 netlink::NlResult<std::size_t> (*queue)(Runner&, netlink::Batch&,
                                                                         IpCommand&)) {
  return {.name = name,
          .queue = queue,
          .named_devices = route_devices,
          .resolves_while_parsing = names_nexthops,
          .keeps_device_names = true,
          .vrf_is_table = true};
}

}  // namespace

const Verb kRouteAdd = route_change_verb("route add", queue_route<&netlink::Batch::add_route>);
const Verb kRouteReplace = route_change_verb("route replace", queue_route<&netlink::Batch::replace_route>);
const Verb kRouteDel = route_change_verb("route del", queue_route<&netlink::Batch::delete_route>);
const Verb kRouteChange = route_change_verb("route change", queue_merged_route<netlink::RouteMerge::change>);
const Verb kRoutePrepend =
    route_change_verb("route prepend", queue_merged_route<netlink::RouteMerge::prepend>);
const Verb kRouteAppend = route_change_verb("route append", queue_merged_route<netlink::RouteMerge::append>);
const Verb kRouteShow{
    .name = "route show", .run = show_routes, .looks_up_devices = true, .vrf_is_table = true};
const Verb kRouteFlush{.name = "route flush",
                       .run = flush_routes,
                       .looks_up_devices = true,
                       .vrf_is_table = true,
                       .dump_ended = "\nFlush terminated"};
const Verb kRouteGet{.name = "route get", .run = get_route, .looks_up_devices = true, .vrf_is_table = true};
const Verb kRouteSave{
    .name = "route save", .run = save_routes, .looks_up_devices = true, .vrf_is_table = true};
const Verb kRouteRestore{.name = "route restore",
                         .run_to_exit = end_with_stream<restore_routes>,
                         .reads_rest_of_batch = true,
                         .vrf_is_table = true};
const Verb kRouteShowdump{.name = "route showdump",
                          .run_to_exit = end_with_stream<show_saved_routes>,
                          .reads_rest_of_batch = true,
                          .vrf_is_table = true};

namespace {

using netlink::NlResult;

// A number in ip route's words for a bad one: ""KEY" value is invalid".
template <class T>
Parsed<T> route_number(Cursor& c, const std::string& key) {
  return c.read(key, [&key](const std::string& text) -> Parsed<T> {
    if (auto n = number<T>(key, text)) return *n;
    return invarg("\"" + key + "\" value is invalid\n", text);
  });
}

// `as [to] ADDRESS`: ip sends it as RTA_NEWDST, which only MPLS routes
// use; the kernel ignores it on IPv4 and IPv6 ones, so it is checked and
// dropped, leaving what ip leaves.
Parsed<std::string> new_destination(Cursor& c, const std::string& key, int family) {
  std::string v;
  TRY_SET(v, c.value(key));
  if (v == "to") TRY_SET(v, c.value(key));
  return ip_address(key, v, family);
}

// `via [ inet | inet6 ] ADDRESS`, as ip reads it: a family word before the
// address names its family. (brisk takes a gateway of the route's own family.)
Parsed<std::string> via_address(Cursor& c, const std::string& key, int family) {
  std::string v;
  TRY_SET(v, c.value(key));
  int named = v == "inet" ? AF_INET : v == "inet6" ? AF_INET6 : AF_UNSPEC;
  if (named == AF_UNSPEC) return ip_address(key, v, family);
  TRY_SET(v, c.value(key));
  return ip_address(key, v, named);
}

// ip's parse_nexthops(): every word after the first "nexthop" belongs to
// the paths: "nexthop [via ADDR] [dev DEV] [weight N] [onlink]...".
Parsed<std::vector<netlink::NexthopSpec>> parse_nexthops(Cursor& c, int family) {
  std::vector<netlink::NexthopSpec> paths(1);
  while (!c.done()) {
    std::string key = c.next();
    auto& nh = paths.back();
    if (is(key, "nexthop")) {
      if (c.done()) return fatal("Error: unexpected end of line after \"nexthop\"", 255);
      paths.emplace_back();
    } else if (is(key, "via")) {
      TRY_SET(nh.via, via_address(c, key, family));
    } else if (is(key, "dev")) {
      TRY_SET(nh.dev, c.device(key));
    } else if (is(key, "weight")) {
      TRY_SET(nh.weight, c.read(key, [](const std::string& text) -> Parsed<uint16_t> {
        auto n = number<uint16_t>("weight", text, 256);
        if (!n || *n == 0) return invarg("\"weight\" is invalid\n", text);
        return *n;
      }));
    } else if (is(key, "onlink")) {
      nh.onlink = true;
    } else if (matches(key, "realms")) {
      TRY_SET(nh.realms, c.read(key, [](const std::string& text) {
        return realms_value(text, "\"realm\" value is invalid\n");
      }));
    } else if (is(key, "as")) {
      TRY_SET(std::ignore, new_destination(c, key, family));
    } else {
      return fatal("Error: \"nexthop\" or end of line is expected instead of \"" + key + "\"", 255);
    }
  }
  return paths;
}

Parsed<IpCommand> parse_route_change(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.route();
  // ip's type word before the destination: a name (not a number: a word
  // starting with a digit is the destination).
  auto type_of = [](const std::string& word) -> std::optional<netlink::RouteType> {
    if (word.empty() || (word[0] >= '0' && word[0] <= '9')) return std::nullopt;
    auto type = rtn_type_number(word);
    if (!type) return std::nullopt;
    return static_cast<netlink::RouteType>(*type);
  };
  bool table_given = false;
  // The word that names no keyword: [to] [TYPE] the destination, once; as
  // ip, a second one is reported after its "to" and type are read.
  auto destination = [&](std::string& key) -> Parsed<bool> {
    if (is(key, "to")) TRY_SET(key, c.value(key));
    if (auto type = type_of(key)) {
      spec.type = *type;
      TRY_SET(key, c.value(key));
    }
    if (matches(key, "help")) return object_help(kRouteUsage);
    if (!spec.prefix.empty()) return garbage("to", key);
    if (is(key, "default") || is(key, "all") || is(key, "any"))
      spec.prefix = "default";
    else
      TRY_SET(spec.prefix, ip_prefix("to", key, family));
    return true;
  };
  // In iproute_modify's order: where a word is a prefix of two keywords
  // ("p": priority, not protocol), the first one tried wins.
  while (!c.done()) {
    std::string key = c.next(), v;
    if (!key.empty() && key[0] >= '0' && key[0] <= '9') {
      // No keyword starts with a digit: past the chain below at once.
      TRY_SET(std::ignore, destination(key));
    } else if (is(key, "src")) {
      TRY_SET(spec.src, c.address(key, family));
    } else if (is(key, "as")) {
      // Of the destination's family, once it is known (ip's rtm_family by then).
      auto dst = netlink::IpPrefix::parse(spec.prefix);
      TRY_SET(std::ignore, new_destination(c, key, dst ? dst->address.family : family));
    } else if (is(key, "via")) {
      TRY_SET(spec.via, via_address(c, key, family));
    } else if (is(key, "from")) {
      TRY_SET(spec.from, c.prefix(key, family));
    } else if (is(key, "tos") || matches(key, "dsfield")) {
      TRY_SET(spec.tos, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
        if (auto tos = dsfield_number(text)) return *tos;
        return invarg("\"tos\" value is invalid\n", text);
      }));
    } else if (is(key, "expires")) {
      TRY_SET(spec.expires, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto seconds = number<uint32_t>("expires", text)) return *seconds;
        return invarg("\"expires\" value is invalid\n", text);
      }));
    } else if (matches(key, "metric") || matches(key, "priority") || is(key, "preference")) {
      TRY_SET(spec.metric, route_number<uint32_t>(c, "metric"));
    } else if (is(key, "scope")) {
      TRY_SET(spec.scope, c.scope(key));
    } else if (uint16_t metric = route_metric_of(key)) {
      TRY_SET(std::ignore, read_route_metric(metric, c, spec.metrics));
    } else if (matches(key, "realms")) {
      TRY_SET(spec.realms, c.read(key, [](const std::string& text) {
        return realms_value(text, "\"realm\" value is invalid\n");
      }));
    } else if (is(key, "onlink")) {
      spec.onlink = true;
    } else if (is(key, "nexthop")) {
      // The paths' gateways are of the destination's family, once it is known.
      auto dst = netlink::IpPrefix::parse(spec.prefix);
      TRY_SET(spec.nexthops, parse_nexthops(c, dst ? dst->address.family : family));
    } else if (key == "nhid") {
      TRY_SET(spec.nhid, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto id = number<uint32_t>("nhid", text)) return *id;
        return invarg("\"id\" value is invalid\n", text);
      }));
    } else if (matches(key, "protocol")) {
      TRY_SET(spec.protocol, c.read(key, protocol_value));
    } else if (matches(key, "table")) {
      table_given = true;
      TRY_SET(spec.table, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto table = table_number(text)) return *table;
        return invarg("\"table\" value is invalid\n", text);
      }));
    } else if (matches(key, "vrf")) {  // its table, looked up when run (Runner::queue)
      table_given = true;
      cmd.vrfs.emplace_back();
      TRY_SET(cmd.vrfs.back(), c.value(key));
    } else if (is(key, "dev") || is(key, "oif")) {
      TRY_SET(spec.dev, c.device(key));
    } else if (matches(key, "pref")) {
      TRY_SET(spec.pref, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
        if (text == "low") return ICMPV6_ROUTER_PREF_LOW;
        if (text == "medium") return ICMPV6_ROUTER_PREF_MEDIUM;
        if (text == "high") return ICMPV6_ROUTER_PREF_HIGH;
        if (auto n = number<uint8_t>("pref", text)) return *n;
        return invarg("\"pref\" value is invalid\n", text);
      }));
    } else if (is(key, "encap")) {
      TRY_SET(spec.encap, parse_route_encap(c));
    } else if (is(key, "ttl-propagate")) {
      TRY_SET(spec.ttl_propagate, c.read(key, [](const std::string& text) -> Parsed<bool> {
        if (matches(text, "enabled")) return true;
        if (matches(text, "disabled")) return false;
        return invarg("\"ttl-propagate\" value is invalid\n", text);
      }));
    } else if (matches(key, "fastopen_no_cookie")) {
      TRY_SET(std::ignore, read_route_metric(RTAX_FASTOPEN_NO_COOKIE, c, spec.metrics));
    } else {
      TRY_SET(std::ignore, destination(key));
    }
  }
  if (spec.prefix.empty()) return usage("not enough information: a destination is required");
  if (spec.prefix == "default" && family == AF_INET6 && spec.via.empty()) spec.prefix = "::/0";
  // As ip: these types go to the local table unless one is named.
  using netlink::RouteType;
  if (!table_given && (spec.type == RouteType::local || spec.type == RouteType::broadcast ||
                       spec.type == RouteType::nat || spec.type == RouteType::anycast))
    spec.table = RT_TABLE_LOCAL;
  if (verb != &kRouteDel && spec.type == netlink::RouteType::unicast && spec.via.empty() &&
      spec.dev.empty() && spec.nexthops.empty() && !spec.nhid)
    return usage("not enough information: \"via\" or \"dev\" is required");
  return cmd;
}

// ip's names for route types (RTN_*), or numbers.
Parsed<uint8_t> route_type(const std::string& text) {
  if (auto type = rtn_type_number(text)) return *type;
  return invarg("node type value is invalid\n", text);
}

// `[root|match|exact] PREFIX` after to or from, `word` its first word: exact
// (both) unless said. root: routes within PREFIX; match: routes covering it.
Parsed<bool> prefix_selector(Cursor& c, std::string word, int family, std::optional<RouteMatch::Prefix>& root,
                             std::optional<RouteMatch::Prefix>& match) {
  bool only_root = matches(word, "root"), only_match = !only_root && matches(word, "match");
  if (only_root || only_match || matches(word, "exact")) TRY_SET(word, c.value(word));
  RouteMatch::Prefix p;
  TRY_SET(p, match_prefix(word, family));
  if (!only_match) root = p;
  if (!only_root) match = p;
  return true;
}

// The selectors in ip's order, so an abbreviation means what it means to ip.
Parsed<IpCommand> parse_route_show(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kRouteShow;
  RouteMatch m;
  bool any = false;  // a RouteMatch selector was given
  const int family = cmd.family;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "table")) {
      TRY_SET(cmd.route().table, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto table = table_number(text)) return *table;
        if (text == "all") return RT_TABLE_UNSPEC;  // as ip: every table, and both families unless -4/-6
        return invarg("table id value is invalid\n", text);
      }));
    } else if (matches(key, "vrf")) {
      TRY_SET(m.vrf, c.value(key));  // looked up when run: ip's "Invalid VRF" if it is none
    } else if (matches(key, "cached") || matches(key, "cloned")) {
      m.cloned = true;
    } else if (matches(key, "realms")) {
      TRY_SET(v, c.value(key));
      TRY_SET(m.realms, realms_value(v, "invalid realms\n"));
      // ip's mask: a half the text leaves out ("/TO" or "FROM/") matches any.
      m.realm_mask = ~0u;
      if ((m.realms & 0xffff) == 0 && v.back() == '/') m.realm_mask &= ~0xffffu;
      if ((m.realms & 0xffff0000u) == 0 && (v.find('/') == std::string::npos || v[0] == '/'))
        m.realm_mask &= ~0xffff0000u;
    } else if (matches(key, "from")) {
      TRY_SET(v, c.value(key));
      TRY_SET(std::ignore, prefix_selector(c, v, family, m.src_root, m.src_match));
    } else if (key == "tos" || matches(key, "dsfield")) {
      TRY_SET(m.tos, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
        if (auto tos = dsfield_number(text)) return *tos;
        return invarg("TOS value is invalid\n", text);
      }));
    } else if (matches(key, "protocol")) {
      TRY_SET(cmd.filter().protocol, c.read(key, protocol_selector));
    } else if (matches(key, "scope")) {
      TRY_SET(cmd.filter().route_scope, c.scope(key));
    } else if (matches(key, "type")) {
      TRY_SET(cmd.filter().route_type, c.read(key, route_type));
    } else if (key == "dev" || key == "oif") {
      TRY_SET(cmd.route().dev, c.device(key));
    } else if (key == "iif") {
      TRY_SET(m.iif, c.device(key));
    } else if (key == "mark") {
      TRY_SET(m.mark, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto mark = number<uint32_t>("mark", text)) return *mark;
        return invarg("invalid mark value", text);
      }));
    } else if (matches(key, "metric") || matches(key, "priority") || key == "preference") {
      TRY_SET(m.metric, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto metric = number<uint32_t>("metric", text)) return *metric;
        return invarg("\"metric\" value is invalid\n", text);
      }));
    } else if (key == "via") {
      TRY_SET(v, c.value(key));
      int via_family = v == "inet" ? AF_INET : v == "inet6" ? AF_INET6 : AF_UNSPEC;
      if (via_family != AF_UNSPEC) TRY_SET(v, c.value(key));
      TRY_SET(m.via, match_prefix(v, via_family != AF_UNSPEC ? via_family : family));
    } else if (key == "src") {
      TRY_SET(v, c.value(key));
      TRY_SET(m.prefsrc, match_prefix(v, family));
    } else {
      if (matches(key, "to")) TRY_SET(key, c.value(key));
      TRY_SET(std::ignore, prefix_selector(c, key, family, m.root, m.match));
    }
    any |= m.root || m.match || m.via || m.prefsrc || m.tos || m.mark || m.metric || !m.iif.empty() ||
           m.src_root || m.src_match || m.realm_mask || !m.vrf.empty() || m.cloned;
  }
  if (any) cmd.filter().route_match = std::make_shared<const RouteMatch>(std::move(m));
  return cmd;
}

// ip route get [to] ADDRESS [from ADDRESS] [iif DEV] [oif DEV] [mark N]
Parsed<IpCommand> parse_route_get(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kRouteGet;
  auto& q = cmd.route_query();
  int family = cmd.family;  // as ip: -4/-6, else the first address's
  auto learn = [&family](const std::string& text) {
    if (family == AF_UNSPEC) family = netlink::IpPrefix::parse(text)->address.family;
  };
  bool to_given = false;
  // In ip's order of tests: "tos" exactly, the rest as abbreviations.
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "tos") || matches(key, "dsfield")) {
      TRY_SET(q.tos, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
        if (auto tos = dsfield_number(text)) return *tos;
        return invarg("TOS value is invalid\n", text);
      }));
    } else if (matches(key, "from")) {
      TRY_SET(v, c.value(key));
      if (matches(v, "help")) return object_help(kRouteUsage);
      TRY_SET(q.from, ip_prefix(key, v, family));
      learn(v);
    } else if (matches(key, "iif")) {
      TRY_SET(v, c.value(key));
      TRY_SET(q.iif, device_name(key, v));
    } else if (matches(key, "mark")) {
      TRY_SET(v, c.value(key));
      auto mark = number<uint32_t>(key, v);
      if (!mark) return invarg("invalid mark value", v);
      q.mark = *mark;
    } else if (matches(key, "oif") || is(key, "dev")) {
      TRY_SET(v, c.value(key));
      TRY_SET(q.oif, device_name(key, v));
    } else if (matches(key, "notify")) {
      q.notify = true;
    } else if (matches(key, "connected")) {
      cmd.route_get().connected = true;
    } else if (matches(key, "vrf")) {
      // A VRF is its master device: the lookup goes out of it (ip checks the kind when it runs).
      TRY_SET(v, c.value(key));
      TRY_SET(q.oif, device_name(key, v));
      cmd.route_get().vrf = v;
    } else if (matches(key, "uid")) {
      TRY_SET(v, c.value(key));
      auto uid = number<uint32_t>(key, v);
      if (!uid) return invarg("invalid UID\n", v);
      q.uid = *uid;
    } else if (matches(key, "fibmatch")) {
      q.fib_match = true;
    } else if (is(key, "as")) {
      TRY_SET(v, c.value(key));
      if (is(v, "to")) TRY_SET(v, c.value(v));
      TRY_SET(q.as, ip_address(key, v, family));
      learn(v);
    } else if (matches(key, "sport") || matches(key, "dport")) {
      TRY_SET(v, c.value(key));
      bool source = matches(key, "sport");
      auto port = number<uint16_t>(key, v);
      if (!port) return invarg(source ? "invalid sport\n" : "invalid dport\n", v);
      (source ? q.sport : q.dport) = *port;
    } else if (matches(key, "ipproto")) {
      TRY_SET(v, c.value(key));
      auto proto = ip_proto_number(v);
      if (!proto) return invarg("Invalid \"ipproto\" value\n", v);
      q.ip_proto = *proto;
    } else {
      if (is(key, "to")) TRY_SET(key, c.value(key));
      if (matches(key, "help")) return object_help(kRouteUsage);
      TRY_SET(v, ip_prefix("to", key, family));
      learn(v);
      auto prefix = *netlink::IpPrefix::parse(v);
      unsigned host = prefix.address.family == AF_INET ? 32 : 128;
      // ip looks up the address whatever the length, and says so.
      if (prefix.length != host)
        cmd.warning = "Warning: /" + std::to_string(prefix.length) + " as prefix is invalid, only /" +
                      std::to_string(host) + " (or none) is supported.";
      q.to = prefix.address.to_string();
      to_given = true;
    }
  }
  if (!to_given) return fatal("need at least a destination address", 1);
  return cmd;
}

// ip prints a full-length prefix without "/len".
std::string dst_text(const netlink::IpPrefix& p) {
  if (p.length == 0) return "default";
  std::string a = p.address.to_string();
  if (p.length == p.address.size() * 8) return a;
  return a + "/" + std::to_string(p.length);
}

}  // namespace

Parsed<IpCommand> parse_route(Cursor& c, IpCommand&& cmd, int family) {
  if (c.done()) return parse_route_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_route_change(c, std::move(cmd), &kRouteAdd, family);
  if (matches(verb, "replace")) return parse_route_change(c, std::move(cmd), &kRouteReplace, family);
  if (matches(verb, "change") || verb == "chg")
    return parse_route_change(c, std::move(cmd), &kRouteChange, family);
  if (matches(verb, "prepend")) return parse_route_change(c, std::move(cmd), &kRoutePrepend, family);
  if (matches(verb, "append")) return parse_route_change(c, std::move(cmd), &kRouteAppend, family);
  if (matches(verb, "flush")) {
    if (c.done()) return refused("\"ip route flush\" requires arguments.");
    auto flush = parse_route_show(c, std::move(cmd));
    if (flush) flush->verb = &kRouteFlush;
    return flush;
  }
  if (matches(verb, "delete")) return parse_route_change(c, std::move(cmd), &kRouteDel, family);
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst"))
    return parse_route_show(c, std::move(cmd));
  if (matches(verb, "get")) return parse_route_get(c, std::move(cmd));
  if (matches(verb, "save")) {
    auto save = parse_route_show(c, std::move(cmd));
    if (!save) return save;
    if (::isatty(STDOUT_FILENO)) return refused("Not sending a binary stream to stdout");
    save->verb = &kRouteSave;
    return save;
  }
  if (matches(verb, "restore") || matches(verb, "showdump")) {  // as ip, any words after them are ignored
    cmd.verb = matches(verb, "restore") ? &kRouteRestore : &kRouteShowdump;
    return cmd;
  }
  return unknown_command(verb, "route");
}

NlResult<void> get_route(Runner& runner, const IpCommand& cmd) {
  auto c = BRISK_TRY(runner.conn());
  runner.use_json();
  const Globals& g = runner.globals();
  const RouteGet& get = cmd.route_get();
  if (!get.vrf.empty()) BRISK_TRY(vrf_table(*c, get.vrf, "route get"));  // ip's name_is_vrf()
  auto all = BRISK_TRY(runner.links_by_index(false));
  // As ip prints any route (print_route), with every table open: "table"
  // for all but main, and main too under -d.
  const RouteView view{.globals = g, .all = all};
  auto print = [&](const netlink::RouteInfo& r) {
    Json j;
    std::string t = route_record(r, view, j);
    if (g.json)
      runner.emit(std::move(j));
    else
      runner.out() += t;
  };
  auto r = BRISK_TRY(netlink::get_route(*c, get.query));
  if (get.connected && get.query.from.empty()) {
    // ip prints the answer, then asks the same again and prints that too
    // (its rewrite of the answer into a second query goes unused).
    print(r);
    if (!r.prefsrc && !r.src)
      return netlink::NetlinkError{
          .code = EINVAL, .op = "route get", .object = get.query.to, .detail = "Failed to connect the route"};
    r = BRISK_TRY(netlink::get_route(*c, get.query));
  }
  print(r);
  return {};
}

std::vector<std::string> route_flags(uint32_t bits) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {{RTNH_F_DEAD, "dead"},
                                                                {RTNH_F_ONLINK, "onlink"},
                                                                {RTNH_F_PERVASIVE, "pervasive"},
                                                                {RTNH_F_OFFLOAD, "offload"},
                                                                {RTNH_F_TRAP, "trap"},
                                                                {RTM_F_NOTIFY, "notify"},
                                                                {RTNH_F_LINKDOWN, "linkdown"},
                                                                {RTNH_F_UNRESOLVED, "unresolved"},
                                                                {RTM_F_OFFLOAD, "rt_offload"},
                                                                {RTM_F_TRAP, "rt_trap"},
                                                                {RTM_F_OFFLOAD_FAILED, "rt_offload_failed"}};
  std::vector<std::string> flags;
  for (auto [bit, name] : kNames)
    if (bits & bit) flags.emplace_back(name);
  return flags;
}

namespace {

// A device a selector names: its index, or ip's "Cannot find device" error.
NlResult<int> selector_device(netlink::Connection& c, const std::string& name, const char* keyword) {
  if (name.empty()) return 0;
  auto index = netlink::resolve_link(c, name);
  if (!index) {
    index.error().op = "route list";
    if (index.error().code == ENODEV) {  // dev or iif: either is a device
      index.error().missing = netlink::Argument::device;
      index.error().missing_name = name;
      index.error().detail = std::string(keyword) + " '" + name + "' does not exist";
    }
  }
  return index;
}

}  // namespace

NlResult<uint32_t> vrf_table(netlink::Connection& c, const std::string& name, const char* op) {
  // ip's ipvrf_get_table(): a device of kind vrf, and its IFLA_VRF_TABLE.
  static constexpr netlink::AttrPolicy kVrf[] = {{}, {netlink::AttrKind::u32}};
  auto vrf = netlink::get_link(c, name, {.details = true});
  std::optional<uint32_t> table;
  if (vrf && vrf->kind == "vrf" && vrf->details)
    if (auto data = netlink::Attributes::parse(vrf->details->info_data, kVrf))
      table = data->u32(IFLA_VRF_TABLE);
  if (!table || !*table) return netlink::missing_argument(op, name, netlink::Argument::vrf, name);
  return *table;
}

NlResult<RouteSelection> route_selection(netlink::Connection& c, const IpCommand& cmd) {
  const RouteMatch* m = cmd.filter().route_match.get();
  uint32_t table = cmd.route().table;
  if (m && !m->vrf.empty()) table = BRISK_TRY(vrf_table(c, m->vrf, "route list"));
  bool every_table = table == RT_TABLE_UNSPEC;
  RouteSelection s{.filter = {.family = cmd.family != AF_UNSPEC ? cmd.family
                                        : every_table           ? AF_UNSPEC
                                                                : AF_INET,
                              .table = table,
                              .dev = cmd.route().dev,
                              .cloned = m && m->cloned}};
  s.oif = BRISK_TRY(selector_device(c, cmd.route().dev, "dev"));
  if (m) s.iif = BRISK_TRY(selector_device(c, m->iif, "iif"));
  return s;
}

bool RouteSelection::keeps(const IpCommand& cmd, const netlink::RouteInfo& r) const {
  // The kernel answers a family with no route dump of its own (-0, -B) with every family's.
  return (filter.family == AF_UNSPEC || r.dst.address.family == filter.family) &&
         (!cmd.filter().protocol || r.protocol == *cmd.filter().protocol) &&
         (!cmd.filter().route_scope || r.scope == *cmd.filter().route_scope) &&
         (!cmd.filter().route_type || r.type == *cmd.filter().route_type) &&
         (!cmd.filter().route_match || route_selected(*cmd.filter().route_match, r, iif));
}

namespace {

// The routes route show and flush select. Like ip: IPv4 unless -6, but both
// families for every table.
NlResult<std::vector<netlink::RouteInfo>> selected_routes(netlink::Connection& c, const IpCommand& cmd) {
  auto selection = BRISK_TRY(route_selection(c, cmd));
  auto listed = netlink::list_routes(c, selection.filter);
  // As ip's save_route_errhndlr, for show: the main table "does not exist"
  // until it holds a route, which is an empty table, not a failed dump.
  if (!listed && listed.error().code == ENOENT && listed.error().kernel && cmd.verb == &kRouteShow &&
      selection.filter.table == RT_TABLE_MAIN)
    return std::vector<netlink::RouteInfo>{};
  auto routes = BRISK_TRY(std::move(listed));
  std::erase_if(routes, [&](const netlink::RouteInfo& r) { return !selection.keeps(cmd, r); });
  return routes;
}

}  // namespace

// How show (and flush -s -s) prints the routes a selection picked: what the
// selectors fix is left out of each line, as ip leaves it.
RouteView selection_view(const IpCommand& cmd, const Globals& g, const Links& all,
                         const std::map<uint32_t, netlink::NexthopEntry>* nexthops) {
  const RouteMatch* match = cmd.filter().route_match.get();
  return {.globals = g,
          .all = all,
          .every_table = cmd.route().table == RT_TABLE_UNSPEC,
          .dev_fixed = !cmd.route().dev.empty(),
          .protocol_fixed = cmd.filter().protocol.has_value(),
          .scope_fixed = cmd.filter().route_scope.has_value(),
          .tos_fixed = match && match->tos,
          .via_fixed = match && names_host(match->via),
          .prefsrc_fixed = match && names_host(match->prefsrc),
          .metric_fixed = match && match->metric,
          .realms_fixed = match && match->realm_mask == ~0u,
          .nexthops = nexthops};
}

NlResult<void> flush_routes(Runner& runner, const IpCommand& cmd) {
  auto c = BRISK_TRY(runner.conn());
  auto all = BRISK_TRY(runner.links_by_index(false));
  const Globals& g = runner.globals();
  return flush_in_rounds(runner, {}, [&]() -> NlResult<std::size_t> {
    netlink::Batch batch(*c);
    auto routes = BRISK_TRY(selected_routes(*c, cmd));
    for (const auto& r : routes) {
      if (g.stats > 1 && !g.json) {  // -s -s: each as route show prints it
        Json ignored;
        runner.out() += route_record(r, selection_view(cmd, g, all, nullptr), ignored);
      }
      batch.delete_route(
          {.prefix = r.dst.to_string(),
           .via = r.gateway ? r.gateway->to_string() : std::string(),
           .dev = r.oif ? name_of(r.oif, all) : std::string(),
           .metric = r.metric,
           .table = r.table,
           .protocol = r.protocol,
           .type = static_cast<netlink::RouteType>(r.type),
           .tos = r.tos,
           // an IPv6 route is keyed by its source prefix too
           .from = r.src && r.src_len ? netlink::IpPrefix{*r.src, r.src_len}.to_string() : std::string()});
    }
    for (auto& result : batch.flush()) {
      // A route that went with another (an IPv6 one with its address) is fine.
      if (!result && result.error().code != ESRCH) return std::move(result).error();
    }
    return routes.size();
  });
}

namespace {

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "%x", value);
  return text;
}

// A cloned IPv4 route's routing-cache flags (RTCF_*, rtm_flags' upper half),
// as ip's print_cache_flags() writes them: "\n    cache <local,brd> ".
void cache_flags(uint32_t flags, Json& j, std::string& t) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {{RTCF_LOCAL, "local"},
                                                                {RTCF_REJECT, "reject"},
                                                                {RTCF_MULTICAST, "mc"},
                                                                {RTCF_BROADCAST, "brd"},
                                                                {RTCF_DNAT, "dst-nat"},
                                                                {RTCF_SNAT, "src-nat"},
                                                                {RTCF_MASQ, "masq"},
                                                                {RTCF_DIRECTDST, "dst-direct"},
                                                                {RTCF_DIRECTSRC, "src-direct"},
                                                                {RTCF_REDIRECTED, "redirected"},
                                                                {RTCF_DOREDIRECT, "redirect"},
                                                                {RTCF_FAST, "fastroute"},
                                                                {RTCF_NOTIFY, "notify"},
                                                                {RTCF_TPROXY, "proxy"}};
  flags &= ~0xffffu;
  Json names = Json::array();
  t += " \n    cache";
  std::string listed;
  for (auto [bit, name] : kNames) {
    if (!(flags & bit)) continue;
    flags &= ~bit;
    names.push_back(name);
    listed += std::string(name) + (flags ? "," : "> ");
  }
  if (flags) listed += hex(flags) + ">";  // bits ip has no name for: in hex, closing the list
  if (!listed.empty()) {
    t += " <" + listed;
    if (t.back() == ' ') t.pop_back();  // the line's end adds it back
  }
  j["cache"] = std::move(names);
}

// ip's print_rta_flow, for a route and for each of its paths: "realm TO",
// or "realms FROM/TO".
void print_flow(uint32_t realms, Json& j, std::string& t) {
  uint32_t from = realms >> 16, to = realms & 0xffff;
  Json flow;
  if (from) flow["from"] = realm_name(from);
  flow["to"] = realm_name(to);
  j["flow"] = std::move(flow);
  t += from ? " realms " + realm_name(from) + "/" + realm_name(to) : " realm " + realm_name(to);
}

}  // namespace

std::string route_record(const netlink::RouteInfo& r, const RouteView& view, Json& j) {
  std::string t;
  // -d spells out what ip leaves implicit otherwise: unicast, proto boot, scope global.
  if (r.type != RTN_UNICAST || view.globals.details) {
    j["type"] = rtn_type_name(r.type);
    t += rtn_type_name(r.type) + " ";
  }
  // ip paints an address with the space after it (paint_spaced); "default" it leaves plain.
  Paint colour = family_paint(r.dst.address.family);
  j["dst"] = dst_text(r.dst);
  t += paint_spaced(r.dst.length ? colour : Paint::none, dst_text(r.dst));
  if (r.src) {  // a source-specific route's "from": a prefix, or a host without its length
    bool host = r.src_len == (r.src->family == AF_INET ? 32 : 128);
    std::string from = host ? r.src->to_string() : r.src->to_string() + "/" + std::to_string(r.src_len);
    j["from"] = from;
    t += " " + paint_spaced(colour, "from " + from);  // the keyword inside the colour, as ip has it
  }
  if (r.nhid) {
    j["nhid"] = *r.nhid;
    t += " nhid " + std::to_string(*r.nhid);
  }
  if (r.encap) t += route_encap_text(*r.encap, j);
  if (r.tos && !view.tos_fixed) field(j, t, "tos", "tos", dsfield_name(r.tos));
  if (r.gateway && !view.via_fixed)
    painted_field(j, t, "gateway", "via", family_paint(r.gateway->family), r.gateway->to_string());
  if (r.oif && !view.dev_fixed) painted_field(j, t, "dev", "dev", Paint::ifname, name_of(r.oif, view.all));
  if (view.every_table && (r.table != RT_TABLE_MAIN || view.globals.details))
    field(j, t, "table", "table", table_name(r.table));
  // A protocol or scope the filter fixes is not printed, as in ip; nor
  // those of a route built for a lookup (a get's cloned answer).
  const bool cloned = r.flags & RTM_F_CLONED;
  if ((r.protocol != RTPROT_BOOT || view.globals.details) && !view.protocol_fixed && !cloned)
    field(j, t, "protocol", "proto", protocol_name(r.protocol));
  if ((r.scope != RT_SCOPE_UNIVERSE || view.globals.details) && !view.scope_fixed && !cloned)
    field(j, t, "scope", "scope", scope_name(r.scope));
  if (r.prefsrc && !view.prefsrc_fixed) painted_field(j, t, "prefsrc", "src", colour, r.prefsrc->to_string());
  // The kernel sends an IPv6 route's metric always, an IPv4 route's only when set; ip prints what it got.
  if ((r.metric || r.dst.address.family == AF_INET6) && !view.metric_fixed) {
    j["metric"] = r.metric;
    t += " metric " + std::to_string(r.metric);
  }
  std::vector<std::string> flags = route_flags(r.flags);
  for (const auto& f : flags) t += " " + f;
  j["flags"] = flags;
  if (r.mark && *r.mark) {  // ip: in hex from 16 up
    j["mark"] = *r.mark;
    t += " mark " + (*r.mark >= 16 ? "0x" + hex(*r.mark) : std::to_string(*r.mark));
  }
  if (r.realms && !view.realms_fixed) print_flow(*r.realms, j, t);
  if (r.uid) {
    j["uid"] = *r.uid;
    t += " uid " + std::to_string(*r.uid);
  }
  if (cloned && r.dst.address.family == AF_INET) cache_flags(r.flags, j, t);
  if (r.expires) {
    j["expires"] = *r.expires;
    t += " expires " + std::to_string(*r.expires) + "sec";
  }
  print_route_metrics(r.metrics, j, t);
  if (r.iif) painted_field(j, t, "iif", "iif", Paint::ifname, name_of(r.iif, view.all));
  std::string end = " ";
  if (r.pref) {  // IPv6: ip ends the line with it, without the trailing space
    static const std::map<uint8_t, const char*> kPrefs{{ICMPV6_ROUTER_PREF_LOW, "low"},
                                                       {ICMPV6_ROUTER_PREF_MEDIUM, "medium"},
                                                       {ICMPV6_ROUTER_PREF_HIGH, "high"}};
    auto name = kPrefs.find(*r.pref);
    if (name != kPrefs.end()) {
      j["pref"] = name->second;
      end = std::string(" pref ") + name->second;
    } else {
      j["pref"] = *r.pref;
      end = " " + std::to_string(*r.pref);
    }
  }
  if (r.nhid && view.nexthops) {
    if (auto nh = view.nexthops->find(*r.nhid); nh != view.nexthops->end()) {
      Json info;
      std::string line = nexthop_record(nh->second, {.all = view.all, .details = true}, info);
      line.pop_back();  // its newline: the route's ends the line
      end += "\n\tnh_info " + line;
      j["nh_info"] = std::move(info);
    }
  }
  end += "\n";
  // A multipath route's paths, each on a line of its own, as ip prints them.
  std::string paths;
  if (!r.nexthops.empty()) {
    Json hops = Json::array();
    for (const auto& nh : r.nexthops) {
      Json h;
      std::string line = "\tnexthop";
      if (nh.gateway)
        painted_field(h, line, "gateway", "via", family_paint(nh.gateway->family), nh.gateway->to_string());
      if (nh.realms) print_flow(*nh.realms, h, line);
      if (nh.oif) field(h, line, "dev", "dev", name_of(nh.oif, view.all));
      h["weight"] = nh.weight;
      line += " weight " + std::to_string(nh.weight) + " ";
      auto hop_flags = route_flags(nh.flags);
      for (const auto& f : hop_flags) line += f + " ";
      h["flags"] = hop_flags;
      hops.push_back(std::move(h));
      paths += line + "\n";
    }
    j["nexthops"] = std::move(hops);
  }
  return t + end + paths;
}

NlResult<void> show_routes(Runner& runner, const IpCommand& cmd) {
  auto c = BRISK_TRY(runner.conn());
  runner.use_json();
  const Globals& g = runner.globals();
  auto all = BRISK_TRY(runner.links_by_index(false));
  // "dev" and "table" are printed only where the filter leaves them open.
  // -d: each route's nexthop object too, as ip's cache fetches them.
  std::map<uint32_t, netlink::NexthopEntry> nexthops;
  if (g.details)
    if (auto listed = netlink::list_nexthops(*c))
      for (auto& nh : *listed) nexthops.emplace(nh.id, std::move(nh));
  RouteView view = selection_view(cmd, g, all, &nexthops);
  for (const auto& r : BRISK_TRY(selected_routes(*c, cmd))) {
    Json j;
    std::string t = route_record(r, view, j);
    if (g.json)
      runner.emit(std::move(j));
    else
      runner.out() += t;
  }
  return {};
}

const Verb* const kRouteVerbs[] = {&kRouteAdd,     &kRouteReplace, &kRouteDel,     &kRouteChange,
                                   &kRoutePrepend, &kRouteAppend,  &kRouteShow,    &kRouteFlush,
                                   &kRouteGet,     &kRouteSave,    &kRouteRestore, &kRouteShowdump};
const IpObject kRouteObject{
    .name = {"route"},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_route(c, std::move(cmd), g.family); },
    .verbs = kRouteVerbs,
    .usage = [] { return kRouteUsage; }};

}  // namespace brisk::ipcli
