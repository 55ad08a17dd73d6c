// ip rule: add, delete, show (list) and flush, with ip 6.1's selectors,
// actions, error texts and output.
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <netdb.h>

#include <cstdio>

#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

extern const Verb kRuleSave, kRuleRestore;  // rule_save.cc

// `brisk rule help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kRuleUsage = R"(Usage: brisk rule { add | del } SELECTOR ACTION
       brisk rule flush [ SELECTOR ]
       brisk rule [ { list | show } [ SELECTOR ] ]
       brisk rule save > FILE        (the rules of one family, -4 unless -6; ip's format)
       brisk rule restore < FILE     (adds each saved rule again, as ip rule restore)
SELECTOR := [ not ] [ from PREFIX ] [ to PREFIX ] [ tos TOS ]
            [ fwmark FWMARK[/MASK] ]
            [ iif STRING ] [ oif STRING ] [ pref NUMBER ] [ l3mdev ]
            [ uidrange NUMBER-NUMBER ]
            [ ipproto PROTOCOL ]
            [ sport [ NUMBER | NUMBER-NUMBER ] ]
            [ dport [ NUMBER | NUMBER-NUMBER ] ]
            [ tun_id NUMBER ]
ACTION := [ table TABLE_ID ]
          [ protocol PROTO ]
          [ nat ADDRESS ]
          [ realms [SRCREALM/]DSTREALM ]
          [ goto NUMBER ]
          [ { blackhole | unreachable | prohibit | nop } ]
          SUPPRESSOR
SUPPRESSOR := [ suppress_prefixlength NUMBER ]
              [ suppress_ifgroup DEVGROUP ]
TABLE_ID := [ local | main | default | NAME from rt_tables | NUMBER ]
Without -6 (or -4) rules are IPv4's, as in ip.
)";

const Verb kRuleAdd{
    .name = "rule add", .queue = queue_spec<&netlink::Batch::add_rule>, .keeps_device_names = true};
const Verb kRuleDel{
    .name = "rule del", .queue = queue_spec<&netlink::Batch::delete_rule>, .keeps_device_names = true};
const Verb kRuleShow{.name = "rule show", .run = show_rules, .refused_dump_is_argument_exit = true};
const Verb kRuleFlush{.name = "rule flush", .run = flush_rules, .dump_ended = ""};

namespace {

using netlink::NlResult;
using netlink::RuleInfo;
using netlink::RuleSpec;

// ip's get_u32(.., 0): strtoul's bases, the whole word, at most 2^32-1.
std::optional<uint32_t> u32_any_base(const std::string& text) {
  auto value = unsigned_any_base(text);
  if (!value || *value > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

Parsed<uint32_t> u32_or(const std::string& text, const std::string& what) {
  if (auto value = u32_any_base(text)) return *value;
  return invarg(what, text);
}

// get_prefix(): "all", "any" and "default" are the whole space; anything
// else is ip_prefix's (a prefix of another family is ip's exit-1 error).
Parsed<std::string> rule_prefix(const std::string& text, int family) {
  if (text == "all" || text == "any" || text == "default") return std::string();
  return ip_prefix("", text, family);
}

// ip's check_ifname(): 1..15 bytes, no '/' or blank.
Parsed<std::string> rule_ifname(const std::string& key, const std::string& text) {
  if (text.empty() || text.size() > 15 || text.find_first_of("/ \t\n\v\f\r") != std::string::npos)
    return invarg(is(key, "oif") ? "\"oif\" not a valid ifname" : "\"iif\"/\"dev\" not a valid ifname", text);
  return text;
}

// "START-END" as ip's sscanf("%u-%u") reads it.
Parsed<netlink::UidRange> uid_range(const std::string& text) {
  unsigned start = 0, end = 0;
  if (std::sscanf(text.c_str(), "%u-%u", &start, &end) != 2) return invarg("invalid UID range\n", text);
  return netlink::UidRange{start, end};
}

// "PORT" or "START-END" as ip's sscanf("%hu-%hu") reads it.
Parsed<netlink::PortRange> port_range(const std::string& text, const std::string& what) {
  unsigned short start = 0, end = 0;
  int got = std::sscanf(text.c_str(), "%hu-%hu", &start, &end);
  if (got == 1)
    end = start;
  else if (got != 2)
    return invarg(what, text);
  return netlink::PortRange{start, end};
}

Parsed<uint32_t> table_value(const std::string& text, const std::string& what) {
  if (auto table = table_number(text)) return *table;
  return invarg(what, text);
}

// fwmark VALUE[/MASK].
Parsed<IpCommand> read_fwmark(const std::string& text, RuleSpec& spec) {
  auto slash = text.find('/');
  std::string mark = text.substr(0, slash);
  TRY_SET(spec.fwmark, u32_or(mark, "fwmark value is invalid\n"));
  if (slash != std::string::npos)
    TRY_SET(spec.fwmask, u32_or(text.substr(slash + 1), "fwmask value is invalid\n"));
  return IpCommand{};
}

bool is_pref_keyword(const std::string& key) {
  return matches(key, "preference") || matches(key, "order") || matches(key, "priority");
}

Parsed<IpCommand> parse_rule_change(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  bool add = verb == &kRuleAdd;
  if (c.done()) return refused(std::string("\"ip rule ") + (add ? "add" : "del") + "\" requires arguments.");
  RuleSpec& spec = cmd.rule();
  // As ip: without -4/-6 the rule is IPv4, whatever its prefixes say.
  spec.family = family == AF_UNSPEC ? AF_INET : family;
  bool table_given = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "not")) {
      spec.invert = true;
    } else if (is(key, "from") || is(key, "to")) {
      TRY_SET(v, c.value(key));
      std::string& prefix = is(key, "from") ? spec.from : spec.to;
      TRY_SET(prefix, rule_prefix(v, family));
    } else if (is_pref_keyword(key)) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.priority, u32_or(v, "preference value is invalid\n"));
    } else if (is(key, "tos") || matches(key, "dsfield")) {
      TRY_SET(v, c.value(key));
      auto tos = dsfield_number(v);
      if (!tos) return invarg("TOS value is invalid\n", v);
      spec.tos = *tos;
    } else if (is(key, "fwmark")) {
      TRY_SET(v, c.value(key));
      if (auto read = read_fwmark(v, spec); !read) return read.error();
    } else if (matches(key, "realms")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.realms, realms_value(v, "invalid realms\n"));
    } else if (matches(key, "protocol")) {
      TRY_SET(v, c.value(key));
      auto proto = protocol_number(v);
      if (!proto) return invarg("\"protocol\" value is invalid\n", v);
      spec.protocol = *proto;
    } else if (matches(key, "tun_id")) {
      TRY_SET(v, c.value(key));
      auto id = unsigned_any_base(v);
      if (!id) return invarg("\"tun_id\" value is invalid\n", v);
      spec.tun_id = *id;
    } else if (matches(key, "table") || is(key, "lookup")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.table, table_value(v, "invalid table ID\n"));
      table_given = true;
    } else if (matches(key, "suppress_prefixlength") || is(key, "sup_pl")) {
      TRY_SET(v, c.value(key));
      char* end = nullptr;
      long pl = std::strtol(v.c_str(), &end, 0);
      if (v.empty() || *end || pl < 0 || pl > INT32_MAX)
        return invarg("suppress_prefixlength value is invalid\n", v);
      spec.suppress_prefixlength = static_cast<int32_t>(pl);
    } else if (matches(key, "suppress_ifgroup") || is(key, "sup_group")) {
      TRY_SET(v, c.value(key));
      auto group = group_number(v);
      if (!group) return invarg("Invalid \"suppress_ifgroup\" value\n", v);
      spec.suppress_ifgroup = *group;
    } else if (is(key, "dev") || is(key, "iif") || is(key, "oif")) {
      std::string& name = is(key, "oif") ? spec.oif : spec.iif;
      TRY_SET(name, c.read(key, [&key](const std::string& text) { return rule_ifname(key, text); }));
    } else if (is(key, "l3mdev")) {
      spec.l3mdev = true;
      table_given = true;
    } else if (is(key, "uidrange")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.uid_range, uid_range(v));
    } else if (is(key, "nat") || matches(key, "map-to")) {
      TRY_SET(v, c.value(key));
      auto gw = netlink::IpAddress::parse(v);
      // ip warns first, then reads the address (exit 1 when it is none).
      if (!gw || gw->family != AF_INET)
        return fatal(
            "Warning: route NAT is deprecated\nError: an IP address is expected rather than \"" + v + "\"",
            1);
      cmd.warning = "Warning: route NAT is deprecated";
      spec.nat_gateway = v;
      spec.action = RTN_NAT;
    } else if (is(key, "ipproto")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.ip_proto, [&]() -> Parsed<uint8_t> {
        if (auto proto = ip_proto_number(v)) return *proto;
        return invarg("Invalid \"ipproto\" value\n", v);
      }());
    } else if (is(key, "sport")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.sport, port_range(v, "invalid port range\n"));
    } else if (is(key, "dport")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dport, port_range(v, "invalid dport range\n"));
    } else {
      // The action, with an optional "type" before it.
      if (is(key, "type")) TRY_SET(key, c.value(key));
      if (matches(key, "help")) return object_help(kRuleUsage);
      if (matches(key, "goto")) {
        TRY_SET(v, c.value(key));
        TRY_SET(spec.goto_target, u32_or(v, "invalid target\n"));
        spec.action = FR_ACT_GOTO;
      } else if (matches(key, "nop")) {
        spec.action = FR_ACT_NOP;
      } else if (auto type = rtn_type_number(key)) {
        spec.action = *type;
      } else {
        return invarg("Failed to parse rule type", key);
      }
      table_given = true;
    }
  }
  if (spec.l3mdev && spec.table && *spec.table) {
    // ip returns -EINVAL here, which its main turns into status 22.
    return refused("table can not be specified for l3mdev rules", EINVAL);
  }
  // ip's default table is main for an add with no table and no action; an
  // explicit action (even "unicast") or l3mdev leaves the table unset.
  if (add && !table_given) spec.table = RT_TABLE_MAIN;
  if (add && spec.action == FR_ACT_UNSPEC) spec.action = FR_ACT_TO_TBL;
  if (spec.table && *spec.table == 0) spec.table.reset();
  return cmd;
}

// The selector of show and flush; what it leaves out matches every rule.
Parsed<IpCommand> parse_rule_show(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  RuleSpec& f = cmd.rule();
  // As ip: without -6 the dump is IPv4's.
  int af = family == AF_UNSPEC ? AF_INET : family;
  f.family = af;
  f.action = FR_ACT_UNSPEC;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is_pref_keyword(key)) {
      TRY_SET(v, c.value(key));
      TRY_SET(f.priority, u32_or(v, "preference value is invalid\n"));
    } else if (is(key, "not")) {
      f.invert = true;
    } else if (is(key, "tos") || is(key, "dsfield")) {
      TRY_SET(v, c.value(key));
      auto tos = dsfield_number(v);
      if (!tos) return invarg("TOS value is invalid\n", v);
      cmd.filter().rule_tos_filter = *tos;
    } else if (is(key, "fwmark")) {
      TRY_SET(v, c.value(key));
      if (auto read = read_fwmark(v, f); !read) return read.error();
    } else if (is(key, "dev") || is(key, "iif") || is(key, "oif")) {
      std::string& name = is(key, "oif") ? f.oif : f.iif;
      TRY_SET(name, c.read(key, [&key](const std::string& text) { return rule_ifname(key, text); }));
    } else if (is(key, "l3mdev")) {
      f.l3mdev = true;
    } else if (is(key, "uidrange")) {
      TRY_SET(v, c.value(key));
      TRY_SET(f.uid_range, uid_range(v));
    } else if (matches(key, "tun_id")) {
      TRY_SET(v, c.value(key));
      auto id = unsigned_any_base(v);
      if (!id) return invarg("\"tun_id\" value is invalid\n", v);
      f.tun_id = *id;
    } else if (matches(key, "lookup") || matches(key, "table")) {
      TRY_SET(v, c.value(key));
      TRY_SET(f.table, table_value(v, "table id value is invalid\n"));
    } else if (matches(key, "from") || matches(key, "src")) {
      TRY_SET(v, c.value(key));
      TRY_SET(f.from, rule_prefix(v, af));
      cmd.filter().rule_from_filter = true;
    } else if (matches(key, "protocol")) {
      TRY_SET(v, c.value(key));
      if (v == "all" && !protocol_number(v)) {
        f.protocol.reset();
      } else {
        auto proto = protocol_number(v);
        if (!proto) return invarg("invalid \"protocol\"\n", v);
        f.protocol = *proto;
      }
    } else if (is(key, "ipproto")) {
      TRY_SET(v, c.value(key));
      auto proto = ip_proto_number(v);
      if (!proto) return invarg("Invalid \"ipproto\" value\n", v);
      f.ip_proto = *proto;
    } else if (is(key, "sport")) {
      TRY_SET(v, c.value(key));
      TRY_SET(f.sport, port_range(v, "invalid port range\n"));
    } else if (is(key, "dport")) {
      TRY_SET(v, c.value(key));
      TRY_SET(f.dport, port_range(v, "invalid dport range\n"));
    } else {
      // Any other word is the destination, "to" or "dst" optional.
      if (matches(key, "dst") || matches(key, "to")) TRY_SET(key, c.value(key));
      TRY_SET(f.to, rule_prefix(key, af));
      cmd.filter().rule_to_filter = true;
    }
  }
  return cmd;
}

// A selector prefix against a rule's: the same family, no longer than the
// rule's, and the rule's address within it (ip's filter_nlmsg).
bool prefix_selects(const std::string& want, const std::optional<netlink::IpAddress>& have, uint8_t have_len,
                    int family) {
  if (want.empty()) return true;  // "all": any rule of the family
  auto prefix = netlink::IpPrefix::parse(want);
  if (!prefix || prefix->address.family != family || prefix->length > have_len) return false;
  return !have || within(*have, *prefix);
}

bool selected(const RuleInfo& rule, const IpCommand& cmd, bool flush) {
  const RuleSpec& f = cmd.rule();
  if (rule.family != f.family) return false;
  if (f.priority && rule.priority != *f.priority) return false;
  if (f.invert && !(rule.flags & FIB_RULE_INVERT)) return false;
  if (cmd.filter().rule_from_filter && !prefix_selects(f.from, rule.src, rule.src_len, rule.family))
    return false;
  if (cmd.filter().rule_to_filter && !prefix_selects(f.to, rule.dst, rule.dst_len, rule.family)) return false;
  if (cmd.filter().rule_tos_filter && rule.tos != *cmd.filter().rule_tos_filter) return false;
  // As ip: a zero mark or mask selects nothing.
  if (f.fwmark.value_or(0) && rule.fwmark.value_or(0) != *f.fwmark) return false;
  if (f.fwmask.value_or(0) && rule.fwmask.value_or(0) != *f.fwmask) return false;
  if (!f.iif.empty() && rule.iif != f.iif) return false;
  if (!f.oif.empty() && rule.oif != f.oif) return false;
  if (f.l3mdev && !rule.l3mdev) return false;
  if (f.uid_range && rule.uid_range != f.uid_range) return false;
  if (f.ip_proto.value_or(0) && rule.ip_proto.value_or(0) != *f.ip_proto) return false;
  if (f.sport && f.sport->start && rule.sport != f.sport) return false;
  if (f.dport && f.dport->start && rule.dport != f.dport) return false;
  if (f.tun_id.value_or(0) && rule.tun_id != f.tun_id) return false;
  if (f.table.value_or(0) && rule.table != *f.table) return false;
  // Only flush honours "protocol" (ip's show ignores it).
  if (flush && f.protocol && rule.protocol && *rule.protocol != *f.protocol) return false;
  return true;
}

std::string hex_alt(uint32_t value) {  // printf's "%#x": "0" for zero
  if (!value) return "0";
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", value);
  return text;
}

}  // namespace

Parsed<IpCommand> parse_rule(Cursor& c, IpCommand&& cmd, int family) {
  if (c.done()) return parse_rule_show(c, std::move(cmd), &kRuleShow, family);
  std::string verb = c.next();
  if (matches(verb, "list") || matches(verb, "lst") || matches(verb, "show"))
    return parse_rule_show(c, std::move(cmd), &kRuleShow, family);
  if (matches(verb, "save")) return parse_rule_save(c, std::move(cmd));
  if (matches(verb, "restore")) return parse_rule_restore(c, std::move(cmd));
  if (matches(verb, "add")) return parse_rule_change(c, std::move(cmd), &kRuleAdd, family);
  if (matches(verb, "delete")) return parse_rule_change(c, std::move(cmd), &kRuleDel, family);
  if (matches(verb, "flush")) return parse_rule_show(c, std::move(cmd), &kRuleFlush, family);
  return unknown_command(verb, "rule");
}

std::string rule_record(const RuleInfo& rule, bool deleted, const Globals& g, Json& j) {
  std::string t;
  if (deleted) {
    j["deleted"] = true;
    t += "Deleted ";
  }
  j["priority"] = rule.priority;
  t += std::to_string(rule.priority) + ":\t";
  if (rule.flags & FIB_RULE_INVERT) {
    j["not"] = nullptr;
    t += "not ";
  }
  uint8_t host_len = rule.family == AF_INET6 ? 128 : 32;
  if (rule.src) {
    j["src"] = rule.src->to_string();
    t += "from " + paint(family_paint(rule.family), rule.src->to_string());
    if (rule.src_len != host_len) {
      j["srclen"] = rule.src_len;
      t += "/" + std::to_string(rule.src_len);
    }
  } else if (rule.src_len) {
    j["src"] = "0";
    j["srclen"] = rule.src_len;
    t += "from 0/" + std::to_string(rule.src_len);
  } else {
    j["src"] = "all";
    t += "from all";
  }
  if (rule.dst) {
    j["dst"] = rule.dst->to_string();
    t += " to " + paint(family_paint(rule.family), rule.dst->to_string());
    if (rule.dst_len != host_len) {
      j["dstlen"] = rule.dst_len;
      t += "/" + std::to_string(rule.dst_len);
    }
  } else if (rule.dst_len) {
    j["dst"] = "0";
    j["dstlen"] = rule.dst_len;
    t += " to 0/" + std::to_string(rule.dst_len);
  }
  if (rule.tos) field(j, t, "tos", "tos", dsfield_name(rule.tos));
  if (rule.fwmark || rule.fwmask) {
    uint32_t mark = rule.fwmark.value_or(0), mask = rule.fwmask.value_or(0xffffffff);
    field(j, t, "fwmark", "fwmark", hex_alt(mark));
    if (mask != 0xffffffff) {
      j["fwmask"] = hex_alt(mask);
      t += "/" + hex_alt(mask);
    }
  }
  auto device = [&](const std::string& name, const char* key, uint32_t detached_flag,
                    const char* detached_key) {
    if (name.empty()) return;
    j[key] = name;
    t += std::string(" ") + key + " " + paint(Paint::ifname, name);  // no space inside, as ip's "%s"
    if (rule.flags & detached_flag) {
      j[detached_key] = nullptr;
      t += " [detached]";
    }
  };
  device(rule.iif, "iif", FIB_RULE_IIF_DETACHED, "iif_detached");
  device(rule.oif, "oif", FIB_RULE_OIF_DETACHED, "oif_detached");
  if (rule.l3mdev) {
    j["l3mdev"] = nullptr;
    t += " lookup [l3mdev-table]";
  }
  if (rule.uid_range) {
    j["uid_start"] = rule.uid_range->start;
    j["uid_end"] = rule.uid_range->end;
    t += " uidrange " + std::to_string(rule.uid_range->start) + "-" + std::to_string(rule.uid_range->end);
  }
  if (rule.ip_proto) field(j, t, "ipproto", "ipproto", ip_proto_name(*rule.ip_proto));
  for (auto [range, name] : {std::pair{&rule.sport, "sport"}, std::pair{&rule.dport, "dport"}}) {
    if (!*range) continue;
    const auto& p = **range;
    std::string key = name;
    if (p.start == p.end) {
      j[key] = p.start;
      t += " " + key + " " + std::to_string(p.start);
    } else {
      j[key + "_start"] = p.start;
      j[key + "_end"] = p.end;
      t += " " + key + " " + std::to_string(p.start) + "-" + std::to_string(p.end);
    }
  }
  if (rule.tun_id) {
    j["tun_id"] = *rule.tun_id;
    t += " tun_id " + std::to_string(*rule.tun_id);
  }
  if (rule.table) {
    field(j, t, "table", "lookup", table_name(rule.table));
    if (rule.suppress_prefixlength && *rule.suppress_prefixlength != -1) {
      j["suppress_prefixlen"] = *rule.suppress_prefixlength;
      t += " suppress_prefixlength " + std::to_string(*rule.suppress_prefixlength);
    }
    if (rule.suppress_ifgroup && *rule.suppress_ifgroup != 0xffffffff)
      field(j, t, "suppress_ifgroup", "suppress_ifgroup", group_name(*rule.suppress_ifgroup));
  }
  if (rule.realms) {
    uint32_t from = *rule.realms >> 16, to = *rule.realms & 0xffff;
    if (from) {
      j["flow_from"] = realm_name(from);
      t += " realms " + realm_name(from) + "/";
    } else {
      t += " realms ";
    }
    j["flow_to"] = realm_name(to);
    t += realm_name(to);
  }
  if (rule.action == RTN_NAT) {
    if (rule.nat_gateway) {
      field(j, t, "nat_gateway", "map-to", rule.nat_gateway->to_string());
    } else {
      j["masquerade"] = nullptr;
      t += " masquerade";
    }
  } else if (rule.action == FR_ACT_GOTO) {
    if (rule.goto_target) {
      j["goto"] = *rule.goto_target;
      t += " goto " + std::to_string(*rule.goto_target);
    } else {
      field(j, t, "goto", "goto", "none");
    }
    if (rule.flags & FIB_RULE_UNRESOLVED) {
      j["unresolved"] = nullptr;
      t += " [unresolved]";
    }
  } else if (rule.action == FR_ACT_NOP) {
    j["nop"] = nullptr;
    t += " nop";
  } else if (rule.action != FR_ACT_TO_TBL) {
    j["action"] = rtn_type_name(rule.action);
    t += " " + rtn_type_name(rule.action);
  }
  if (rule.protocol && ((*rule.protocol && *rule.protocol != RTPROT_KERNEL) || g.details))
    field(j, t, "protocol", "proto", protocol_name(*rule.protocol));
  return t + "\n";
}

void print_rule(Runner& r, const RuleInfo& rule, bool deleted) {
  Json j;
  std::string t = rule_record(rule, deleted, r.globals(), j);
  if (r.globals().json)
    r.emit(std::move(j));
  else
    r.out() += t;
}

NlResult<void> show_rules(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  for (const auto& rule : BRISK_TRY(netlink::list_rules(*c, {.family = cmd.rule().family})))
    if (selected(rule, cmd, false)) print_rule(r, rule, false);
  return {};
}

NlResult<void> flush_rules(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  netlink::Batch batch(*c);
  for (const auto& rule : BRISK_TRY(netlink::list_rules(*c, {.family = cmd.rule().family}))) {
    // As ip: the rule of priority 0 (local) is never flushed.
    if (rule.priority && selected(rule, cmd, true)) batch.delete_rule(rule.spec());
  }
  for (auto& result : batch.flush())
    if (!result) return result;
  return {};
}

const Verb* const kRuleVerbs[] = {&kRuleAdd, &kRuleDel, &kRuleShow, &kRuleFlush, &kRuleSave, &kRuleRestore};
const IpObject kRuleObject{.name = {"rule"},
                           .parse = [](Cursor& c, IpCommand&& cmd,
                                       const Globals& g) { return parse_rule(c, std::move(cmd), g.family); },
                           .verbs = kRuleVerbs,
                           .usage = [] { return kRuleUsage; }};

}  // namespace brisk::ipcli
