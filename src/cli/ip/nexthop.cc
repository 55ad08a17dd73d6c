// ip nexthop, as ip 6.1's ipnexthop.c reads and prints it: add, replace
// and del (one request each, queued in a batch like any change), show and
// get (a dump the kernel filters, or one object), flush (a dump, then a
// delete per object); and the line of each object, which `monitor` and a
// route's -d nh_info print too.
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include <cmath>
#include <cstdio>

#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/route/route_encap.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk nexthop help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kNexthopUsage = R"(Usage: brisk nexthop { list | flush } [ protocol ID ] SELECTOR
       brisk nexthop { add | replace } id ID NH [ protocol ID ]
       brisk nexthop { get | del } id ID
       brisk nexthop bucket list BUCKET_SELECTOR
       brisk nexthop bucket get id ID index INDEX
SELECTOR := [ id ID ] [ dev DEV ] [ vrf NAME ] [ master DEV ]
            [ groups ] [ fdb ]
BUCKET_SELECTOR := SELECTOR | [ nhid ID ]
NH := { blackhole | [ via [ inet | inet6 ] ADDRESS ] [ dev DEV ] [ onlink ]
        [ encap ENCAP (as for routes: brisk route help) ] |
        group GROUP [ fdb ] [ type TYPE [ TYPE_ARGS ] ] }
GROUP := [ <id[,weight]>/<id[,weight]>/... ]
TYPE := { mpath | resilient }
TYPE_ARGS := [ RESILIENT_ARGS ]
RESILIENT_ARGS := [ buckets BUCKETS ] [ idle_timer IDLE ]
                  [ unbalanced_timer UNBALANCED ]
Routes name a nexthop by id: brisk route add PREFIX nhid ID.
)";

namespace {
template <netlink::NexthopWrite Write>
netlink::NlResult<std::size_t> queue_nexthop(Runner&, netlink::Batch& batch, IpCommand& cmd) {
  return netlink::put_nexthop(batch, std::move(cmd.nexthop()), Write);
}
bool nexthop_names_dev(const IpCommand& cmd) { return !cmd.nexthop().dev.empty(); }

// nexthop looks its devices up as it parses; a `vrf` picks a table.
template <netlink::NexthopWrite Write>
constexpr Verb nexthop_change(std::string_view name) {
  return {.name = name,
          .queue = queue_nexthop<Write>,
          .named_devices = spec_device<&netlink::NexthopObjectSpec::dev>,
          .resolves_while_parsing = nexthop_names_dev,
          .keeps_device_names = true,
          .missing_device_words = "Device does not exist\n",
          .vrf_is_table = true};
}
}  // namespace

const Verb kNexthopAdd = nexthop_change<netlink::NexthopWrite::add>("nexthop add");
const Verb kNexthopReplace = nexthop_change<netlink::NexthopWrite::replace>("nexthop replace");
const Verb kNexthopDel = nexthop_change<netlink::NexthopWrite::del>("nexthop del");
const Verb kNexthopShow{.name = "nexthop show",
                        .run = show_nexthops,
                        .looks_up_devices = true,
                        .missing_device_words = "Device does not exist\n",
                        .vrf_is_table = true};
// ip's do_cmd negates a flush's -1.
const Verb kNexthopFlush{.name = "nexthop flush",
                         .run = flush_nexthops,
                         .looks_up_devices = true,
                         .missing_device_words = "Device does not exist\n",
                         .vrf_is_table = true,
                         .dump_ended = "\nDump terminated. Failed to flush nexthops",
                         .failed_status = 1};
const Verb kNexthopBucketShow{.name = "nexthop bucket show",
                              .run = show_nexthop_buckets,
                              .looks_up_devices = true,
                              .missing_device_words = "Device does not exist\n",
                              .vrf_is_table = true};

namespace {

using netlink::NetlinkError;
using netlink::NexthopObjectSpec;
using netlink::NlResult;

// ip's get_unsigned(.., 0): strtoul's bases, at most 2^32-1.
Parsed<uint32_t> u32_value(const std::string& text, const std::string& what) {
  auto value = unsigned_any_base(text);
  if (!value || *value > UINT32_MAX) return invarg(what, text);
  return static_cast<uint32_t>(*value);
}

Parsed<uint32_t> id_value(const std::string& text) { return u32_value(text, "invalid id value"); }

// ip's add_nh_group_attr(): "ID[,WEIGHT]/ID[,WEIGHT]...". It cuts the word
// at each separator as it goes, so its complaint about an id names the
// word only up to the first '/' or ','.
Parsed<std::vector<netlink::NexthopGroupMember>> group_value(const std::string& text) {
  std::string shown = text.substr(0, text.find_first_of("/,"));
  auto invalid_group = [&] { return invarg("\"group\" value is invalid\n", shown); };
  std::vector<netlink::NexthopGroupMember> members;
  if (text.empty()) return invalid_group();
  std::size_t at = 0;
  for (;;) {
    std::size_t slash = text.find('/', at);
    std::string member = text.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
    std::size_t comma = member.find(',');
    auto id = unsigned_any_base(member.substr(0, comma));
    if (!id || *id > UINT32_MAX) return invalid_group();
    netlink::NexthopGroupMember m{.id = static_cast<uint32_t>(*id)};
    if (comma != std::string::npos) {
      std::string weight = member.substr(comma + 1);
      auto w = unsigned_any_base(weight);
      if (!w || *w == 0 || *w > 256) return invarg("\"weight\" is invalid\n", weight);
      m.weight = static_cast<uint16_t>(*w);
    }
    members.push_back(m);
    if (slash == std::string::npos) return members;
    at = slash + 1;
  }
}

// `type mpath|resilient [buckets N] [idle_timer S] [unbalanced_timer S]`:
// the resilient arguments end at the first other word, which the caller reads.
Parsed<bool> group_type(Cursor& c, const std::string& key, NexthopObjectSpec& spec) {
  std::string name;
  TRY_SET(name, c.value(key));
  if (name == "mpath") {
    spec.group_type = NEXTHOP_GRP_TYPE_MPATH;
    return true;
  }
  if (name != "resilient") return invarg("\"type\" value is invalid\n", name);
  spec.group_type = NEXTHOP_GRP_TYPE_RES;
  // Seconds, sent in clock ticks (USER_HZ, 100 a second) as ip sends them.
  auto seconds = [](const std::string& text, const std::string& what) -> Parsed<uint32_t> {
    auto value = unsigned_any_base(text);
    if (!value || *value >= UINT32_MAX / 100) return invarg(what, text);
    return static_cast<uint32_t>(*value * 100);
  };
  while (!c.done()) {
    const std::string& word = c.peek();
    if (is(word, "buckets")) {
      c.next();
      TRY_SET(spec.buckets, c.read(word, [](const std::string& text) -> Parsed<uint16_t> {
        auto value = unsigned_any_base(text);
        if (!value || *value > UINT16_MAX) return invarg("invalid buckets value", text);
        return static_cast<uint16_t>(*value);
      }));
    } else if (is(word, "idle_timer")) {
      c.next();
      TRY_SET(spec.idle_timer,
              c.read(word, [&](const std::string& t) { return seconds(t, "invalid idle timer value"); }));
    } else if (is(word, "unbalanced_timer")) {
      c.next();
      TRY_SET(spec.unbalanced_timer, c.read(word, [&](const std::string& t) {
        return seconds(t, "invalid unbalanced timer value");
      }));
    } else {
      break;
    }
  }
  return true;
}

// ipnh_modify(): add, replace and del read the same words (the kernel
// refuses what a delete may not carry). The family is the -4/-6 one until
// a device or blackhole makes it inet, or a gateway its own.
Parsed<IpCommand> parse_nexthop_change(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  NexthopObjectSpec& spec = cmd.nexthop();
  spec.family = family;
  while (!c.done()) {
    std::string key = c.next();
    if (is(key, "id")) {
      TRY_SET(spec.id, c.read(key, id_value));
    } else if (is(key, "dev")) {
      TRY_SET(spec.dev, c.device(key));
      if (spec.family == AF_UNSPEC) spec.family = AF_INET;
    } else if (is(key, "via")) {
      std::string v;
      TRY_SET(v, c.value(key));
      int named = v == "inet" ? AF_INET : v == "inet6" ? AF_INET6 : AF_UNSPEC;
      if (named != AF_UNSPEC) TRY_SET(v, c.value(key));
      TRY_SET(spec.via, ip_address(key, v, named != AF_UNSPEC ? named : spec.family));
      int got = netlink::IpAddress::parse(v)->family;
      if (spec.family == AF_UNSPEC)
        spec.family = got;
      else if (spec.family != got)
        return invarg("address family mismatch\n", v);
    } else if (is(key, "blackhole")) {
      spec.blackhole = true;
      if (spec.family == AF_UNSPEC) spec.family = AF_INET;
    } else if (is(key, "fdb")) {
      spec.fdb = true;
    } else if (is(key, "onlink")) {
      spec.onlink = true;
    } else if (is(key, "group")) {
      TRY_SET(spec.group, c.read(key, group_value));
    } else if (is(key, "type")) {
      if (auto typed = group_type(c, key, spec); !typed) return typed.error();
    } else if (matches(key, "protocol")) {
      TRY_SET(spec.protocol, c.read(key, protocol_value));
    } else if (is(key, "encap")) {
      TRY_SET(spec.encap, parse_route_encap(c));
    } else if (is(key, "help")) {
      return object_help(kNexthopUsage);
    } else {
      return invarg("", key);
    }
  }
  return std::move(cmd);
}

// `dev DEV`, `master DEV` or `vrf NAME`, each by any prefix as ip reads
// them; true when `key` was one of them (its value read).
Parsed<bool> device_selector(const std::string& key, Cursor& c, ShowFilter& f) {
  std::string* target = matches(key, "dev")      ? &f.dev
                        : matches(key, "master") ? &f.master
                        : matches(key, "vrf")    ? &f.vrf
                                                 : nullptr;
  if (!target) return false;
  TRY_SET(*target, c.device(key));
  return true;
}

// ipnh_list_flush(): the selectors; `id N` ends them, and the command is
// then a get (show) or a delete (flush) of that one object.
Parsed<IpCommand> parse_nexthop_show(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  cmd.family = family;
  ShowFilter& f = cmd.filter();
  while (!c.done()) {
    std::string key = c.next();
    auto device = device_selector(key, c, f);
    if (!device) return device.error();
    if (*device) {
      continue;
    } else if (matches(key, "groups")) {
      f.nexthop_groups = true;
    } else if (is(key, "id")) {
      TRY_SET(cmd.nexthop().id, c.read(key, id_value));
      return std::move(cmd);
    } else if (matches(key, "protocol")) {
      TRY_SET(f.nexthop_protocol,
              c.read(key, [](const std::string& t) { return u32_value(t, "invalid protocol value"); }));
    } else if (matches(key, "fdb")) {
      f.nexthop_fdb = true;
    } else if (matches(key, "help")) {
      return object_help(kNexthopUsage);
    } else {
      return invarg("", key);
    }
  }
  return std::move(cmd);
}

// ipnh_get(): `get id N`, and nothing else.
Parsed<IpCommand> parse_nexthop_get(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kNexthopShow;
  while (!c.done()) {
    std::string key = c.next();
    if (!is(key, "id")) return object_help(kNexthopUsage);
    TRY_SET(cmd.nexthop().id, c.read(key, id_value));
  }
  if (!cmd.nexthop().id.value_or(0)) return object_help(kNexthopUsage);
  return std::move(cmd);
}

// ipnh_bucket_list(): dev, master, vrf, id and nhid.
Parsed<IpCommand> parse_bucket_list(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kNexthopBucketShow;
  ShowFilter& f = cmd.filter();
  while (!c.done()) {
    std::string key = c.next();
    auto device = device_selector(key, c, f);
    if (!device) return device.error();
    if (*device) {
      continue;
    } else if (is(key, "id")) {
      TRY_SET(cmd.nexthop().id, c.read(key, id_value));
    } else if (is(key, "nhid")) {
      TRY_SET(f.nexthop_bucket_nhid, c.read(key, id_value));
    } else if (matches(key, "help")) {
      return object_help(kNexthopUsage);
    } else {
      return invarg("", key);
    }
  }
  return std::move(cmd);
}

// ipnh_bucket_get(): `id ID index N`, both, and nothing else.
Parsed<IpCommand> parse_bucket_get(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kNexthopBucketShow;
  while (!c.done()) {
    std::string key = c.next();
    if (is(key, "id")) {
      TRY_SET(cmd.nexthop().id, c.read(key, id_value));
    } else if (is(key, "index")) {
      TRY_SET(cmd.filter().nexthop_bucket_index, c.read(key, [](const std::string& text) -> Parsed<uint16_t> {
        auto value = unsigned_any_base(text);
        if (!value || *value > UINT16_MAX) return invarg("invalid bucket index value", text);
        return static_cast<uint16_t>(*value);
      }));
    } else {
      return object_help(kNexthopUsage);
    }
  }
  if (!cmd.nexthop().id.value_or(0) || !cmd.filter().nexthop_bucket_index) return object_help(kNexthopUsage);
  return std::move(cmd);
}

// do_ipnh_bucket(): list (the default) or get.
Parsed<IpCommand> parse_bucket(Cursor& c, IpCommand&& cmd) {
  if (c.done()) return parse_bucket_list(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst"))
    return parse_bucket_list(c, std::move(cmd));
  if (matches(verb, "get")) return parse_bucket_get(c, std::move(cmd));
  if (matches(verb, "help")) return object_help(kNexthopUsage);
  return unknown_command(verb, "nexthop");
}

// The selectors' devices by index, as ip looks them up before its dump: a
// missing one (or a vrf that is not one) is its argument error.
NlResult<netlink::NexthopFilter> dump_filter(netlink::Connection& c, const IpCommand& cmd, bool groups) {
  const ShowFilter& f = cmd.filter();
  netlink::NexthopFilter filter{.family = cmd.family, .groups = groups, .fdb = f.nexthop_fdb};
  const char* op = cmd.verb == &kNexthopFlush ? "nexthop flush" : "nexthop show";
  auto index_of = [&](const std::string& name, netlink::Argument role) -> NlResult<int> {
    auto index = netlink::resolve_link(c, name);
    if (!index && index.error().code == ENODEV) return netlink::missing_argument(op, "", role, name);
    return index;
  };
  if (!f.dev.empty()) filter.oif = BRISK_TRY(index_of(f.dev, netlink::Argument::device));
  if (!f.master.empty()) filter.master = BRISK_TRY(index_of(f.master, netlink::Argument::master));
  if (!f.vrf.empty()) {
    auto link = netlink::get_link(c, f.vrf);
    if (!link || link->kind != "vrf") return netlink::missing_argument(op, "", netlink::Argument::vrf, f.vrf);
    filter.master = link->ifindex;
  }
  return filter;
}

bool protocol_selected(const IpCommand& cmd, const netlink::NexthopEntry& nh) {
  const auto& want = cmd.filter().nexthop_protocol;
  return !want.value_or(0) || *want == nh.protocol;
}

// ip's print_tv of a time in clock ticks, which it takes as 100 per second:
// "%g" seconds in text, a whole number in JSON when it is one.
void ticks(Json& j, std::string& t, const char* key, uint64_t value) {
  double seconds = static_cast<double>(value) / 100;
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  t += std::string(key) + " " + text + " ";
  if (value % 100 == 0)
    j[key] = value / 100;
  else
    j[key] = seconds;
}

}  // namespace

std::string nexthop_record(const netlink::NexthopEntry& nh, const NexthopView& view, Json& j) {
  std::string t;
  if (view.deleted) {
    j["deleted"] = true;
    t += "Deleted ";
  }
  j["id"] = nh.id;
  t += "id " + std::to_string(nh.id) + " ";
  if (!nh.group.empty()) {
    Json members = Json::array();
    t += "group ";
    for (std::size_t k = 0; k < nh.group.size(); ++k) {
      Json member;
      if (k) t += "/";
      member["id"] = nh.group[k].id;
      t += std::to_string(nh.group[k].id);
      if (nh.group[k].weight > 1) {
        member["weight"] = nh.group[k].weight;
        t += "," + std::to_string(nh.group[k].weight);
      }
      members.push_back(std::move(member));
    }
    t += " ";
    j["group"] = std::move(members);
  }
  // ip leaves the default (hash-threshold) type out, to keep its old output.
  if (nh.group_type != NEXTHOP_GRP_TYPE_MPATH) {
    const char* type = nh.group_type == NEXTHOP_GRP_TYPE_RES ? "resilient" : "<unknown type>";
    j["type"] = type;
    t += std::string("type ") + type + " ";
  }
  if (nh.resilient) {
    Json args;
    args["buckets"] = nh.resilient->buckets;
    t += "buckets " + std::to_string(nh.resilient->buckets) + " ";
    ticks(args, t, "idle_timer", nh.resilient->idle_timer);
    ticks(args, t, "unbalanced_timer", nh.resilient->unbalanced_timer);
    ticks(args, t, "unbalanced_time", nh.resilient->unbalanced_time);
    j["resilient_args"] = std::move(args);
  }
  // ip's " encap TYPE ..." after the group's fields, its leading space kept.
  if (nh.encap) t += route_encap_text(*nh.encap, j).substr(1) + " ";
  if (nh.gateway) {
    j["gateway"] = nh.gateway->to_string();
    t += "via " +
         paint(family_paint(nh.gateway->family), nh.gateway->to_string() + " ");  // ip's "%s " in colour
  }
  if (nh.oif) {
    j["dev"] = name_of(nh.oif, view.all);
    t += "dev " + paint(Paint::ifname, name_of(nh.oif, view.all) + " ");
  }
  if (nh.scope != RT_SCOPE_UNIVERSE || view.details) {
    j["scope"] = scope_name(nh.scope);
    t += "scope " + scope_name(nh.scope) + " ";
  }
  if (nh.blackhole) {
    j["blackhole"] = nullptr;
    t += "blackhole ";
  }
  if (nh.protocol != RTPROT_UNSPEC || view.details) {
    j["protocol"] = protocol_name(nh.protocol);
    t += "proto " + protocol_name(nh.protocol) + " ";
  }
  std::vector<std::string> flags = route_flags(nh.flags);
  for (const auto& flag : flags) t += flag + " ";
  j["flags"] = flags;
  if (nh.fdb) {
    j["fdb"] = nullptr;
    t += "fdb";  // as ip: no space after it
  }
  return t + "\n";
}

}  // namespace brisk::ipcli

namespace brisk::ipcli {

Parsed<IpCommand> parse_nexthop(Cursor& c, IpCommand&& cmd, int family) {
  if (c.done()) return parse_nexthop_show(c, std::move(cmd), &kNexthopShow, family);
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_nexthop_change(c, std::move(cmd), &kNexthopAdd, family);
  if (matches(verb, "replace")) return parse_nexthop_change(c, std::move(cmd), &kNexthopReplace, family);
  if (matches(verb, "delete")) return parse_nexthop_change(c, std::move(cmd), &kNexthopDel, family);
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst"))
    return parse_nexthop_show(c, std::move(cmd), &kNexthopShow, family);
  if (matches(verb, "get")) return parse_nexthop_get(c, std::move(cmd));
  if (matches(verb, "flush")) return parse_nexthop_show(c, std::move(cmd), &kNexthopFlush, family);
  if (matches(verb, "bucket")) return parse_bucket(c, std::move(cmd));
  if (matches(verb, "help")) return object_help(kNexthopUsage);
  return unknown_command(verb, "nexthop");
}

NlResult<void> show_nexthops(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  std::vector<netlink::NexthopEntry> found;
  if (cmd.nexthop().id) {
    found.push_back(BRISK_TRY(netlink::get_nexthop(*c, *cmd.nexthop().id)));
  } else {
    auto filter = BRISK_TRY(dump_filter(*c, cmd, cmd.filter().nexthop_groups));
    for (auto& nh : BRISK_TRY(netlink::list_nexthops(*c, filter)))
      if (protocol_selected(cmd, nh)) found.push_back(std::move(nh));
  }
  if (found.empty()) return {};
  const Links& all = BRISK_TRY(r.links_by_index(false));
  for (const auto& nh : found) {
    Json j;
    std::string t = nexthop_record(nh, {.all = all, .details = r.globals().details}, j);
    if (r.globals().json)
      r.emit(std::move(j));
    else
      r.out() += t;
  }
  return {};
}

NlResult<void> show_nexthop_buckets(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  std::vector<netlink::NexthopBucket> found;
  if (cmd.filter().nexthop_bucket_index) {
    found.push_back(
        BRISK_TRY(netlink::get_nexthop_bucket(*c, *cmd.nexthop().id, *cmd.filter().nexthop_bucket_index)));
  } else {
    auto devices = BRISK_TRY(dump_filter(*c, cmd, false));
    found = BRISK_TRY(netlink::list_nexthop_buckets(*c, {.family = devices.family,
                                                         .oif = devices.oif,
                                                         .master = devices.master,
                                                         .id = cmd.nexthop().id.value_or(0),
                                                         .nhid = cmd.filter().nexthop_bucket_nhid}));
  }
  for (const auto& b : found) {
    Json j;
    j["id"] = b.id;
    std::string t = "id " + std::to_string(b.id) + " index " + std::to_string(b.index) + " ";
    Json bucket;
    bucket["index"] = b.index;
    ticks(bucket, t, "idle_time", b.idle_time);
    bucket["nhid"] = b.nhid;
    t += "nhid " + std::to_string(b.nhid) + " ";
    j["bucket"] = std::move(bucket);
    std::vector<std::string> flags = route_flags(b.flags);
    for (const auto& flag : flags) t += flag + " ";
    j["flags"] = flags;
    if (r.globals().json)
      r.emit(std::move(j));
    else
      r.out() += t + "\n";
  }
  return {};
}

NlResult<void> flush_nexthops(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  if (cmd.nexthop().id) return netlink::delete_nexthop(*c, *cmd.nexthop().id);  // quietly, as ip
  const ShowFilter& f = cmd.filter();
  // Flushing everything (no selector at all) takes the groups first, as ip
  // does: a member deleted before its group would change the group.
  bool all = f.dev.empty() && f.master.empty() && f.vrf.empty() && !f.nexthop_groups && !f.nexthop_fdb &&
             !f.nexthop_protocol;
  int flushed = 0;
  for (bool groups : all ? std::vector<bool>{true, false} : std::vector<bool>{f.nexthop_groups}) {
    auto filter = BRISK_TRY(dump_filter(*c, cmd, groups));
    netlink::Batch batch(*c);
    for (const auto& nh : BRISK_TRY(netlink::list_nexthops(*c, filter)))
      if (protocol_selected(cmd, nh) && nh.id)
        netlink::put_nexthop(batch, {.id = nh.id}, netlink::NexthopWrite::del);
    for (auto& result : batch.flush()) {
      if (result)
        ++flushed;
      else
        r.error_line(runtime_message(result.error()));  // ip says so and goes on
    }
  }
  r.out() +=
      flushed ? "Flushed " + std::to_string(flushed) + " nexthops\n" : std::string("Nothing to flush\n");
  return {};
}

const Verb* const kNexthopVerbs[] = {&kNexthopAdd,  &kNexthopReplace, &kNexthopDel,
                                     &kNexthopShow, &kNexthopFlush,   &kNexthopBucketShow};
const IpObject kNexthopObject{
    .name = {"nexthop", 3},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_nexthop(c, std::move(cmd), g.family); },
    .verbs = kNexthopVerbs,
    .usage = [] { return kNexthopUsage; }};

}  // namespace brisk::ipcli
