// ip address: add, replace, delete, show and flush; and, as in iproute2's
// ipaddress.c, the listing `ip link show` shares with `ip addr show`.
#include <fnmatch.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "cli/ip/flush_rounds.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/link/link_print.h"
#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/prefix_forms.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk address help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kAddressUsage =
    R"(Usage: brisk address { add | change | replace | del } IFADDR dev DEV
                       [ label LABEL ] [ { broadcast | brd } { ADDR | + | - } ] [ anycast ADDR ]
                       [ scope SCOPE ] [ metric METRIC ] [ valid_lft LFT ] [ preferred_lft LFT ]
                       [ noprefixroute ] [ nodad ] [ optimistic ] [ home ] [ mngtmpaddr ] [ autojoin ]
       brisk address show [ [ dev ] DEV ] [ scope SCOPE ] [ to PREFIX ] [ FLAG... ]
                          [ label PATTERN ] [ up ] [ LINK_SELECTOR ]
       brisk address flush [ [ dev ] DEV ] [ scope SCOPE ] [ to PREFIX ] [ FLAG... ]
                          [ label PATTERN ] [ LINK_SELECTOR ]
LINK_SELECTOR := [ master DEV | vrf NAME | nomaster ] [ type TYPE | type KIND_slave ]
IFADDR := PREFIX | ADDR peer PREFIX (10.0.0.1/24, fd00::1/64, 10.8.0.1 peer 10.8.0.2)
          (an IPv4 ADDR deleted without /LEN matches it at any length, as ip's wildcard deletion)
SCOPE := { host | link | global | NUMBER }
LFT := { forever | SECONDS }
FLAG := [ - ] { permanent | dynamic | secondary | primary | tentative | deprecated |
                dadfailed | temporary | home | mngtmpaddr | noprefixroute | nodad |
                optimistic | autojoin | stable-privacy }
)";

const Verb kAddrAdd = device_change<&netlink::Batch::add_address, &netlink::AddressSpec::dev>("addr add");
const Verb kAddrReplace =
    device_change<&netlink::Batch::replace_address, &netlink::AddressSpec::dev>("addr replace");
const Verb kAddrChange =
    device_change<&netlink::Batch::change_address, &netlink::AddressSpec::dev>("addr change");
const Verb kAddrDel = device_change<&netlink::Batch::delete_address, &netlink::AddressSpec::dev>("addr del");
const Verb kAddrShow{.name = "addr show", .run = show_links, .looks_up_devices = true};
const Verb kAddrFlush{.name = "addr flush",
                      .run = flush_addresses,
                      .looks_up_devices = true,
                      .dump_ended = "\nFlush terminated"};

namespace {

using netlink::NlResult;

// ip's "brd +" (host bits set) or "brd -" (host bits clear) for an IPv4
// prefix of at most /30; nothing for longer ones, as ip.
Parsed<std::string> derived_broadcast(const std::string& sign, const std::string& prefix_text) {
  auto prefix = netlink::IpPrefix::parse(prefix_text);
  if (!prefix) return std::string();
  if (prefix->address.family != AF_INET) return refused("Broadcast can be set only for IPv4 addresses");
  if (prefix->length > 30) return std::string();
  netlink::IpAddress brd = prefix->address;
  for (int bit = prefix->length; bit < 32; ++bit) {
    uint8_t mask = static_cast<uint8_t>(0x80 >> (bit % 8));
    if (sign == "+")
      brd.bytes[bit / 8] |= mask;
    else
      brd.bytes[bit / 8] &= static_cast<uint8_t>(~mask);
  }
  return brd.to_string();
}

// valid_lft / preferred_lft: "forever" or seconds.
Parsed<uint32_t> lifetime(const std::string& key, const std::string& text) {
  if (text == "forever") return netlink::AddressInfo::kForever;
  if (auto seconds = number<uint32_t>(key, text)) return *seconds;
  return invarg(key + " value", text);  // ip's words, with no newline of their own here
}

// ip's address flags a change may name (ifa_flag_data): the read-only ones
// only earn a warning, and the IPv6 ones one when the family is not IPv6.
struct ChangeFlag {
  std::string_view name;
  bool netlink::AddressSpec::*field;  // nullptr: read-only
  bool v6only;
};
constexpr ChangeFlag kChangeFlags[] = {
    {"secondary", nullptr, false},
    {"temporary", nullptr, false},
    {"nodad", &netlink::AddressSpec::nodad, true},
    {"optimistic", &netlink::AddressSpec::optimistic, true},
    {"dadfailed", nullptr, true},
    {"home", &netlink::AddressSpec::home, true},
    {"deprecated", nullptr, true},
    {"tentative", nullptr, true},
    {"permanent", nullptr, true},
    {"mngtmpaddr", &netlink::AddressSpec::mngtmpaddr, true},
    {"noprefixroute", &netlink::AddressSpec::noprefixroute, false},
    {"autojoin", &netlink::AddressSpec::autojoin, false},
    {"stable-privacy", nullptr, true},
};

void add_warning(IpCommand& cmd, const std::string& text) {
  cmd.warning += (cmd.warning.empty() ? "" : "\n") + text;
}

int family_of(const std::string& address) {
  return address.find(':') != std::string::npos ? AF_INET6 : AF_INET;
}

bool is_multicast(const std::string& prefix) {
  auto p = netlink::IpPrefix::parse(prefix);
  if (!p) return false;
  return p->address.family == AF_INET ? (p->address.bytes[0] & 0xf0) == 0xe0 : p->address.bytes[0] == 0xff;
}

// ip's ipaddr_modify(): its keywords in its order, the family fixed by the
// first address read.
Parsed<IpCommand> parse_addr_change(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.addr();
  std::string broadcast_sign;  // "+" or "-": derived from the prefix once it is known
  bool have_broadcast = false, have_valid = false, have_preferred = false;
  auto track = [&family](const std::string& address) {
    if (family == AF_UNSPEC) family = family_of(address);
  };
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "peer") || is(key, "remote")) {
      TRY_SET(v, c.value(key));
      if (!spec.peer.empty()) return duplicate("peer", v);
      TRY_SET(spec.peer, ip_prefix(key, v, family));
      track(spec.peer);
    } else if (matches(key, "broadcast") || is(key, "brd")) {
      TRY_SET(v, c.value(key));
      if (have_broadcast) return duplicate("broadcast", v);
      have_broadcast = true;
      if (v == "+" || v == "-") {
        broadcast_sign = v;
      } else {
        TRY_SET(spec.broadcast, ip_address(key, v, family));
        track(spec.broadcast);
      }
    } else if (is(key, "anycast")) {
      TRY_SET(v, c.value(key));
      if (!spec.anycast.empty()) return duplicate("anycast", v);
      TRY_SET(spec.anycast, ip_address(key, v, family));
      track(spec.anycast);
    } else if (is(key, "scope")) {
      TRY_SET(spec.scope, c.scope(key));
    } else if (is(key, "dev")) {
      TRY_SET(spec.dev, c.device(key));
    } else if (is(key, "label")) {
      TRY_SET(v, c.value(key));
      if (v.size() > 15) return invalid("\"label\" is too long", v);
      spec.label = v;
    } else if (matches(key, "metric") || matches(key, "priority") || matches(key, "preference")) {
      TRY_SET(v, c.value(key));
      auto metric = ipcli::number<uint32_t>(key, v);
      if (!metric) return invarg("\"metric\" value is invalid\n", v);
      spec.metric = *metric;
    } else if (matches(key, "valid_lft") || matches(key, "preferred_lft")) {
      bool valid = matches(key, "valid_lft");
      bool& seen = valid ? have_valid : have_preferred;
      if (seen) return duplicate(valid ? "valid_lft" : "preferred_lft", key);  // ip names the keyword twice
      seen = true;
      auto& target = valid ? spec.valid_lifetime : spec.preferred_lifetime;
      TRY_SET(target, c.read(key, [valid](const std::string& text) {
        return lifetime(valid ? "valid_lft" : "preferred_lft", text);
      }));
    } else if (auto flag = std::find_if(std::begin(kChangeFlags), std::end(kChangeFlags),
                                        [&key](const ChangeFlag& f) { return key == f.name; });
               flag != std::end(kChangeFlags)) {
      if (!flag->field)
        add_warning(cmd, "Warning: " + key + " option is not mutable from userspace");
      else if (flag->v6only && family != AF_INET6)
        add_warning(cmd, "Warning: " + key + " option can be set only for IPv6 addresses");
      else
        spec.*(flag->field) = true;
    } else {
      if (is(key, "local")) TRY_SET(key, c.value(key));
      if (matches(key, "help")) return object_help(kAddressUsage);
      if (!spec.prefix.empty()) return garbage("local", key);
      TRY_SET(spec.prefix, ip_prefix("local", key, family));
      track(spec.prefix);
    }
  }
  if (spec.dev.empty()) return usage("not enough information: \"dev\" argument is required");
  if (spec.prefix.empty()) return usage("not enough information: an address is required");
  // An IPv4 delete without a prefix length matches the address at any length.
  if (verb == &kAddrDel && spec.peer.empty() && family_of(spec.prefix) == AF_INET &&
      spec.prefix.find('/') == std::string::npos) {
    spec.any_length = true;
    add_warning(cmd,
                "Warning: Executing wildcard deletion to stay compatible with old scripts.\n"
                "         Explicitly specify the prefix length (" +
                    spec.prefix +
                    "/32) to avoid this warning.\n"
                    "         This special behaviour is likely to disappear in further releases,\n"
                    "         fix your scripts!");
  }
  if (!broadcast_sign.empty() && verb != &kAddrDel)
    TRY_SET(spec.broadcast, derived_broadcast(broadcast_sign, spec.peer.empty() ? spec.prefix : spec.peer));
  // ip's default_scope(): a loopback address is host-scoped.
  if (!spec.scope && verb != &kAddrDel && family_of(spec.prefix) == AF_INET &&
      spec.prefix.starts_with("127."))
    spec.scope = RT_SCOPE_HOST;
  // ip's own checks, made before it sends anything.
  if (spec.valid_lifetime || spec.preferred_lifetime) {
    uint32_t valid = spec.valid_lifetime.value_or(netlink::AddressInfo::kForever);
    if (valid == 0) return refused("valid_lft is zero");
    if (spec.preferred_lifetime.value_or(netlink::AddressInfo::kForever) > valid)
      return refused("preferred_lft is greater than valid_lft");
  }
  if (spec.autojoin && !is_multicast(spec.prefix)) return refused("autojoin needs multicast address");
  return cmd;
}

// ip's get_filter(): an address flag to show (or, after '-', not to show);
// "dynamic" is "permanent" unset and "primary" is "secondary" unset.
bool address_flag_filter(std::string_view word, IpCommand& cmd) {
  bool wanted = true;
  if (word.size() > 1 && word[0] == '-') {
    wanted = false;
    word.remove_prefix(1);
  }
  if (word == "dynamic") {
    wanted = !wanted;
    word = "permanent";
  } else if (word == "primary") {
    wanted = !wanted;
    word = "secondary";
  }
  static constexpr std::pair<std::string_view, uint32_t> kFlags[] = {
      {"secondary", IFA_F_SECONDARY},
      {"temporary", IFA_F_SECONDARY},
      {"nodad", IFA_F_NODAD},
      {"optimistic", IFA_F_OPTIMISTIC},
      {"dadfailed", IFA_F_DADFAILED},
      {"home", IFA_F_HOMEADDRESS},
      {"deprecated", IFA_F_DEPRECATED},
      {"tentative", IFA_F_TENTATIVE},
      {"permanent", IFA_F_PERMANENT},
      {"mngtmpaddr", IFA_F_MANAGETEMPADDR},
      {"noprefixroute", IFA_F_NOPREFIXROUTE},
      {"autojoin", IFA_F_MCAUTOJOIN},
      {"stable-privacy", IFA_F_STABLE_PRIVACY}};
  for (auto [name, bit] : kFlags) {
    if (word != name) continue;
    if (wanted)
      cmd.filter().addr_flags |= bit;
    else
      cmd.filter().addr_flags &= ~bit;
    cmd.filter().addr_flag_mask |= bit;
    return true;
  }
  return false;
}

Parsed<IpCommand> parse_addr_show(Cursor& c, IpCommand&& cmd, const Verb* verb) {
  cmd.verb = verb;
  // As ip, before it reads the selectors: a flush needs one at least, and
  // a link (-0) has no addresses to flush.
  if (verb == &kAddrFlush && c.done()) return refused("Flush requires arguments.");
  if (verb == &kAddrFlush && cmd.family == AF_PACKET)
    return fail(UsageError{
        .message = "Cannot flush link addresses.", .exact = true, .exit_code = 1, .line_failure = true});
  while (!c.done()) {
    std::string key = c.next(), v;
    bool selector = false;
    TRY_SET(selector, link_selector(key, c, cmd));
    if (selector) continue;
    if (is(key, "up")) {
      cmd.filter().up_only = true;
    } else if (is(key, "dev")) {
      TRY_SET(cmd.filter().dev, c.sole_device(key, cmd.filter().dev));
    } else if (is(key, "scope")) {
      TRY_SET(cmd.filter().scope, c.scope(key));
    } else if (is(key, "to")) {
      TRY_SET(v, c.value(key));
      auto canonical = canonical_prefix(v);  // ip's get_prefix() forms
      auto prefix = netlink::IpPrefix::parse(canonical.value_or(""));
      if (!canonical || !prefix) return usage("invalid \"to\" prefix \"" + v + "\"");
      if (cmd.family != AF_UNSPEC && cmd.family != prefix->address.family)
        return usage(std::string(cmd.family == AF_INET ? "inet" : "inet6") +
                     " prefix is expected rather than \"" + v + "\"");
      cmd.filter().to = *prefix;
      cmd.family = prefix->address.family;  // as ip: "to 10.0.0.0/8" implies -4
    } else if (is(key, "group")) {
      TRY_SET(cmd.filter().show_group, c.read(key, group_value));
    } else if (address_flag_filter(key, cmd)) {
      continue;
    } else if (is(key, "label")) {
      TRY_SET(cmd.filter().label_pattern, c.value(key));
    } else if (cmd.filter().dev.empty()) {
      TRY_SET(cmd.filter().dev, device_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

// The address flags ip names, in ip's order (print_ifa_flags): a missing
// IFA_F_PERMANENT reads "dynamic", an IPv6 secondary "temporary", and bits
// without a name "flags %02x".
std::vector<std::string> address_flag_names(uint32_t flags, bool v4) {
  static constexpr std::pair<uint32_t, const char*> kNames[] = {
      {IFA_F_SECONDARY, "secondary"},       {IFA_F_NODAD, "nodad"},
      {IFA_F_OPTIMISTIC, "optimistic"},     {IFA_F_DADFAILED, "dadfailed"},
      {IFA_F_HOMEADDRESS, "home"},          {IFA_F_DEPRECATED, "deprecated"},
      {IFA_F_TENTATIVE, "tentative"},       {IFA_F_PERMANENT, "dynamic"},
      {IFA_F_MANAGETEMPADDR, "mngtmpaddr"}, {IFA_F_NOPREFIXROUTE, "noprefixroute"},
      {IFA_F_MCAUTOJOIN, "autojoin"},       {IFA_F_STABLE_PRIVACY, "stable-privacy"},
  };
  std::vector<std::string> names;
  for (auto [mask, name] : kNames) {
    bool set = (flags & mask) != 0;
    flags &= ~mask;
    if (mask == IFA_F_PERMANENT ? set : !set) continue;
    names.emplace_back(mask == IFA_F_SECONDARY && !v4 ? "temporary" : name);
  }
  if (flags) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "flags %02x", flags);
    names.emplace_back(hex);
  }
  return names;
}

// "forever", or seconds with ip's "sec" suffix.
std::string lifetime_text(uint32_t seconds) {
  return seconds == netlink::AddressInfo::kForever ? "forever" : std::to_string(seconds) + "sec";
}

// Whether addr show/flush's scope filter keeps `a`.
bool in_scope(const netlink::AddressInfo& a, const IpCommand& cmd) {
  return !cmd.filter().scope || a.scope == *cmd.filter().scope;
}

// The link-level selectors of show and flush (master, vrf, nomaster,
// type KIND[_slave]): the named master resolved once, then a test per link.
struct LinkSelectors {
  int master = 0;                 // the ifindex master or vrf names; 0: any
  std::set<int> of_slave_kind{};  // for type KIND_slave: the ports of such a master
  bool keeps(const netlink::LinkInfo& l, const IpCommand& cmd) const {
    if (master && l.master != master) return false;
    if (cmd.filter().no_master && l.master) return false;
    if (!cmd.filter().kind.empty() && l.kind != cmd.filter().kind) return false;
    return cmd.filter().slave_kind.empty() || of_slave_kind.count(l.ifindex);
  }
};

netlink::NlResult<LinkSelectors> link_selectors(const IpCommand& cmd, const Links& all) {
  LinkSelectors s;
  s.master = BRISK_TRY(selected_master(cmd, all));
  for (const auto& [index, l] : all)
    if (!cmd.filter().slave_kind.empty() && l.details && l.details->slave_kind == cmd.filter().slave_kind)
      s.of_slave_kind.insert(index);
  return s;
}

// Whether its to, flag and label filters keep `a` on `device`; the label
// of an address without one (IPv6) is its device's name, as ip reads it.
bool selected(const netlink::AddressInfo& a, const std::string& device, const IpCommand& cmd) {
  if (cmd.filter().to && !within(a.prefix.address, *cmd.filter().to)) return false;
  if ((a.flags ^ cmd.filter().addr_flags) & cmd.filter().addr_flag_mask) return false;
  return cmd.filter().label_pattern.empty() ||
         ::fnmatch(cmd.filter().label_pattern.c_str(), (a.label.empty() ? device : a.label).c_str(), 0) == 0;
}

}  // namespace

// What ip prints of an address first, brief or not: "LOCAL[ peer PEER]/LEN
// [metric M ]", and those JSON keys into `ai`.
std::string address_head(const netlink::AddressInfo& a, Json& ai) {
  Paint colour = family_paint(a.prefix.address.family);
  std::string local = a.prefix.address.to_string();
  ai["local"] = local;
  std::string text = paint(colour, local);
  if (a.peer) {
    ai["address"] = a.peer->to_string();
    text += " peer " + paint(colour, a.peer->to_string());
  }
  ai["prefixlen"] = a.prefix.length;
  text += "/" + std::to_string(a.prefix.length) + " ";
  if (a.metric) {
    ai["metric"] = *a.metric;
    text += "metric " + std::to_string(*a.metric) + " ";
  }
  return text;
}

// One address as ip prints it: its JSON keys into `ai`, its two text lines returned.
std::string address_record(const netlink::AddressInfo& a, Json& ai) {
  bool v4 = a.prefix.address.family == AF_INET;
  ai["family"] = v4 ? "inet" : "inet6";
  std::string line = std::string("    ") + (v4 ? "inet " : "inet6 ") + address_head(a, ai);
  if (a.broadcast) ai["broadcast"] = a.broadcast->to_string();
  if (a.anycast) ai["anycast"] = a.anycast->to_string();
  ai["scope"] = scope_name(a.scope);
  // ip paints these with the space after them.
  Paint colour = family_paint(a.prefix.address.family);
  if (a.broadcast) line += "brd " + paint(colour, a.broadcast->to_string() + " ");
  if (a.anycast) line += "any " + paint(colour, a.anycast->to_string() + " ");
  line += "scope " + scope_name(a.scope) + " ";
  for (const auto& flag : address_flag_names(a.flags, v4)) {
    ai[flag] = true;
    line += flag + " ";
  }
  if (!a.label.empty()) {
    ai["label"] = a.label;
    line += a.label;
  }
  ai["valid_life_time"] = a.valid_lifetime;
  ai["preferred_life_time"] = a.preferred_lifetime;
  return line + "\n       valid_lft " + lifetime_text(a.valid_lifetime) + " preferred_lft " +
         lifetime_text(a.preferred_lifetime) + "\n";
}

Parsed<IpCommand> parse_address(Cursor& c, IpCommand&& cmd, int family) {
  if (c.done()) return parse_addr_show(c, std::move(cmd), &kAddrShow);
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_addr_change(c, std::move(cmd), &kAddrAdd, family);
  if (matches(verb, "change") || verb == "chg")
    return parse_addr_change(c, std::move(cmd), &kAddrChange, family);
  if (matches(verb, "replace")) return parse_addr_change(c, std::move(cmd), &kAddrReplace, family);
  if (matches(verb, "delete")) return parse_addr_change(c, std::move(cmd), &kAddrDel, family);
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst"))
    return parse_addr_show(c, std::move(cmd), &kAddrShow);
  if (matches(verb, "flush")) return parse_addr_show(c, std::move(cmd), &kAddrFlush);
  return unknown_command(verb, "address");
}

NlResult<void> show_links(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  const Globals& g = r.globals();
  // -0 (-f link): the links alone, as link show prints them for addr show.
  bool links_only = cmd.family == AF_PACKET;
  bool addr = cmd.verb == &kAddrShow && !links_only;
  // One device: it and the links it names, and its addresses alone.
  // A port's master kind is in the details (IFLA_INFO_SLAVE_KIND).
  bool details = g.details || !cmd.filter().slave_kind.empty();
  bool one = !cmd.filter().dev.empty() && !details;
  auto all = BRISK_TRY(one ? r.links_around(cmd.filter().dev, g.stats) : r.links_by_index(g.stats, details));
  if (one && all.empty()) return device_missing(cmd.filter().dev);
  auto selectors = BRISK_TRY(link_selectors(cmd, one ? BRISK_TRY(r.links_by_index(false)) : all));
  if (!g.details)
    for (auto& [index, l] : all) l.details.reset();  // read for type KIND_slave alone: not printed
  // Each link's addresses in dump order. As ip: one the scope filter leaves
  // out is gone; one the to, flag or label filters leave out stays as a
  // nullopt, which ip -j prints as {}.
  std::map<int, std::vector<std::optional<netlink::AddressInfo>>> addrs;
  std::map<int, std::vector<netlink::AddressInfo>> shown;
  std::set<int> filtered_out;  // links that had addresses, none of them kept
  if (addr) {
    netlink::AddressFilter filter{.dev = one ? cmd.filter().dev : std::string(), .family = cmd.family};
    for (auto& a : BRISK_TRY(netlink::list_addresses(*c, filter))) {
      // The kernel answers a family with no address dump of its own (-B, -M) with every family's.
      if (cmd.family != AF_UNSPEC && a.prefix.address.family != cmd.family) continue;
      bool kept = in_scope(a, cmd) && selected(a, name_of(a.ifindex, all), cmd);
      if (!kept) filtered_out.insert(a.ifindex);
      if (!in_scope(a, cmd)) continue;
      if (kept) shown[a.ifindex].push_back(a);
      addrs[a.ifindex].push_back(kept ? std::optional(std::move(a)) : std::nullopt);
    }
  }
  // `ip -6 addr` without a device reads links through the kernel's IPv6
  // link dump, which carries no qdisc, master or group; ip prints none of them.
  LinkView view{
      .globals = g,
      .all = all,
      .runner = &r,
      .for_addr = cmd.verb == &kAddrShow,
      .inet6_dump = addr && g.family == AF_INET6 && cmd.filter().dev.empty(),  // -6 itself, not "to"
      .family = links_only ? AF_UNSPEC : cmd.family};
  // ip prints no link part (header, JSON link keys, brief columns) under a label filter.
  bool link_part = cmd.filter().label_pattern.empty();
  // ip -j -o addr: a record per link holding only its addresses, as the
  // lines of ip -o addr are one per address.
  bool json_lines = addr && g.json && g.oneline;
  bool found = cmd.filter().dev.empty();
  for (const auto& [index, l] : all) {
    if (!cmd.filter().dev.empty() && !named(l, cmd.filter().dev)) continue;
    found = true;
    if ((cmd.filter().up_only && !(l.flags & IFF_UP)) ||
        (cmd.filter().show_group && l.group != *cmd.filter().show_group)) {
      // As ip -j: an empty record for each link "up" or "group" leaves out
      // (-o: one with no addresses).
      if (g.json) r.emit(json_lines ? Json{{"addr_info", Json::array()}} : Json::object());
      continue;
    }
    if (!selectors.keeps(l, cmd)) continue;
    // As ip: with a family (-4/-6, or to PREFIX's) only the links with such
    // addresses; with a filter, not those whose addresses it all left out.
    if (addr && shown[index].empty() && (cmd.family != AF_UNSPEC || filtered_out.count(index))) continue;
    if (g.brief && (link_part || g.json)) {
      print_brief(r, l, all, addr ? &shown[index] : nullptr);
      continue;
    }
    if (g.brief) {  // under a label filter: the addresses alone
      std::string t;
      Json unused;
      for (const auto& a : shown[index]) t += address_head(a, unused);
      r.out() += t + "\n";
      continue;
    }
    // Only the form that is printed: -d makes each link's record long.
    Json j = g.json && link_part && !json_lines ? link_json(l, view) : Json::object();
    // ip -o addr prints each address on its own line, under no link header.
    bool address_lines = addr && g.oneline && !g.json;
    std::string text = g.json || address_lines || !link_part ? std::string() : link_text(l, view);
    if (addr) {
      Json infos = Json::array();
      for (const auto& a : addrs[index]) {
        if (!a) {
          infos.push_back(Json::object());
          continue;
        }
        // ip -j -o: each address says its link, which has no keys of its own.
        Json ai = json_lines ? Json{{"index", index}, {"dev", l.name}} : Json::object();
        std::string line = address_record(*a, ai);
        text += address_lines ? std::to_string(index) + ": " + l.name + one_line(line) : line;
        infos.push_back(std::move(ai));
      }
      j["addr_info"] = std::move(infos);
      if (g.stats && l.stats && !address_lines && !json_lines) {
        text += stats_text(*l.stats, g.stats > 1);
        j["stats64"] = stats_json(*l.stats, g.stats > 1);
      }
    }
    if (g.oneline && !address_lines) text = one_line(text);
    if (g.json)
      r.emit(std::move(j));
    else
      r.out() += text;
  }
  if (!found) return device_missing(cmd.filter().dev);
  return {};
}

NlResult<void> flush_addresses(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  auto all = BRISK_TRY(r.links_by_index(false, !cmd.filter().slave_kind.empty()));
  const std::string& dev = cmd.filter().dev;
  if (!dev.empty() &&
      std::none_of(all.begin(), all.end(), [&](const auto& l) { return named(l.second, dev); }))
    return device_missing(dev);  // as ip's lookup of it, before anything is read
  auto selectors = BRISK_TRY(link_selectors(cmd, all));
  const Globals& g = r.globals();
  // ip's rounds: -l N of them at most (10 unless given; 0: no limit).
  return flush_in_rounds(r, {.counted = "addresses", .max_rounds = g.flush_loops}, [&]() {
    return netlink::flush_addresses(*c, cmd.filter().dev, cmd.family, [&](const netlink::AddressInfo& a) {
      auto link = all.find(a.ifindex);
      bool flushed = link != all.end() && selectors.keeps(link->second, cmd) && in_scope(a, cmd) &&
                     selected(a, name_of(a.ifindex, all), cmd);
      if (flushed && g.stats > 1 && !g.json) {  // -s -s: each as ip prints it, headed by its device
        Json ignored;
        std::string line = address_record(a, ignored);
        r.out() += std::to_string(a.ifindex) + ": " + link->second.name + (g.oneline ? one_line(line) : line);
      }
      return flushed;
    });
  });
}

const Verb* const kAddressVerbs[] = {&kAddrAdd, &kAddrReplace, &kAddrChange,
                                     &kAddrDel, &kAddrShow,    &kAddrFlush};
const IpObject kAddressObject{
    .name = {"address"},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_address(c, std::move(cmd), g.family); },
    .verbs = kAddressVerbs,
    .usage = [] { return kAddressUsage; }};

}  // namespace brisk::ipcli
