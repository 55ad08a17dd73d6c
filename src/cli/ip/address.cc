// ip address: add, replace, delete, show and flush; and, as in iproute2's
// ipaddress.c, the listing `ip link show` shares with `ip addr show`.
#include <linux/if.h>
#include <linux/if_addr.h>

#include <set>

#include "cli/ip/link_print.h"
#include "cli/ip/names.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"

namespace brisk::ipcli {
namespace {

using netlink::NlResult;

Parsed<Command> parse_addr_change(Cursor& c, Command cmd, Verb verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.addr;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev") {
      TRY_SET(spec.dev, c.link_name(key));
    } else if (key == "local") {
      TRY_SET(v, c.value(key));
      if (!spec.prefix.empty()) return garbage(key, v);
      TRY_SET(spec.prefix, ip_prefix(key, v, family));
    } else if (key == "broadcast" || key == "brd") {
      TRY_SET(spec.broadcast, c.address(key, AF_INET));
    } else if (key == "label") {
      TRY_SET(v, c.value(key));
      if (v.size() > 15) return invalid("\"label\" is too long", v);
      spec.label = v;
    } else if (key == "scope") {
      TRY_SET(spec.scope, c.scope(key));
    } else if (key == "noprefixroute") {
      spec.noprefixroute = true;
    } else if (key == "nodad") {
      spec.nodad = true;
    } else if (spec.prefix.empty()) {
      TRY_SET(spec.prefix, ip_prefix("local", key, family));
    } else {
      return garbage("local", key);
    }
  }
  if (spec.dev.empty()) return usage("not enough information: \"dev\" argument is required");
  if (spec.prefix.empty()) return usage("not enough information: an address is required");
  return cmd;
}

Parsed<Command> parse_addr_show(Cursor& c, Command cmd, Verb verb) {
  cmd.verb = verb;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "up") {
      cmd.up_only = true;
    } else if (key == "dev") {
      TRY_SET(cmd.dev, c.sole_link_name(key, cmd.dev));
    } else if (key == "scope") {
      TRY_SET(cmd.scope, c.scope(key));
    } else if (key == "to") {
      TRY_SET(v, c.value(key));
      auto prefix = netlink::IpPrefix::parse(v);
      if (!prefix) return usage("invalid \"to\" prefix \"" + v + "\"");
      if (cmd.family != AF_UNSPEC && cmd.family != prefix->address.family)
        return usage(std::string(cmd.family == AF_INET ? "inet" : "inet6") + " prefix is expected rather than \"" + v +
                     "\"");
      cmd.to = *prefix;
      cmd.family = prefix->address.family;  // as ip: "to 10.0.0.0/8" implies -4
    } else if (cmd.dev.empty() && key != "label") {
      TRY_SET(cmd.dev, link_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  if (verb == Verb::addr_flush && cmd.dev.empty()) return usage("flush requires arguments: \"dev\" is required");
  return cmd;
}


// The address flags ip names, in ip's order. A missing IFA_F_PERMANENT on
// IPv6 reads "dynamic"; IPv4 addresses are never flagged permanent.
std::vector<std::string> address_flag_names(uint32_t flags, bool v4) {
  struct Name {
    uint32_t mask;
    const char* name;
    bool v6_only;
  };
  static constexpr Name kNames[] = {
      {IFA_F_SECONDARY, "secondary", false},      {IFA_F_NODAD, "nodad", true},
      {IFA_F_OPTIMISTIC, "optimistic", true},     {IFA_F_DADFAILED, "dadfailed", true},
      {IFA_F_HOMEADDRESS, "home", true},          {IFA_F_DEPRECATED, "deprecated", true},
      {IFA_F_TENTATIVE, "tentative", true},       {IFA_F_PERMANENT, "dynamic", true},
      {IFA_F_MANAGETEMPADDR, "mngtmpaddr", true}, {IFA_F_NOPREFIXROUTE, "noprefixroute", false},
      {IFA_F_MCAUTOJOIN, "autojoin", false},      {IFA_F_STABLE_PRIVACY, "stable-privacy", true},
  };
  std::vector<std::string> names;
  for (const auto& n : kNames) {
    if (n.v6_only && v4) continue;
    bool set = (flags & n.mask) != 0;
    if (n.mask == IFA_F_PERMANENT ? !set : set) names.emplace_back(n.name);
  }
  return names;
}

// "forever", or seconds with ip's "sec" suffix.
std::string lifetime_text(uint32_t seconds) {
  return seconds == netlink::AddressInfo::kForever ? "forever" : std::to_string(seconds) + "sec";
}

// Whether `address` lies in `prefix` (same family, the first length bits equal).
bool within(const netlink::IpAddress& address, const netlink::IpPrefix& prefix) {
  if (address.family != prefix.address.family) return false;
  std::size_t bits = std::min<std::size_t>(prefix.length, address.size() * 8);
  for (std::size_t i = 0; i < bits; i += 8) {
    uint8_t mask = bits - i >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - (bits - i)));
    if ((address.bytes[i / 8] ^ prefix.address.bytes[i / 8]) & mask) return false;
  }
  return true;
}

// Whether addr show/flush's scope and to filters keep `a`.
bool selected(const netlink::AddressInfo& a, const Command& cmd) {
  return (!cmd.scope || a.scope == *cmd.scope) && (!cmd.to || within(a.prefix.address, *cmd.to));
}


}  // namespace

Parsed<Command> parse_address(Cursor& c, Command cmd, int family) {
  if (c.done()) return parse_addr_show(c, std::move(cmd), Verb::addr_show);
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_addr_change(c, std::move(cmd), Verb::addr_add, family);
  if (matches(verb, "replace")) return parse_addr_change(c, std::move(cmd), Verb::addr_replace, family);
  if (matches(verb, "delete")) return parse_addr_change(c, std::move(cmd), Verb::addr_del, family);
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst"))
    return parse_addr_show(c, std::move(cmd), Verb::addr_show);
  if (matches(verb, "flush")) return parse_addr_show(c, std::move(cmd), Verb::addr_flush);
  return usage("command \"" + verb + "\" is unknown, try \"brisk address help\"");
}

NlResult<void> show_links(Runner& r, const Command& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  const Globals& g = r.globals();
  bool addr = cmd.verb == Verb::addr_show;
  auto all = BRISK_TRY(r.links_by_index(g.stats, g.details));
  std::map<int, std::vector<netlink::AddressInfo>> addrs;
  std::set<int> filtered_out;  // links that had addresses, none of them in scope
  if (addr) {
    for (auto& a : BRISK_TRY(netlink::list_addresses(*c, {.family = cmd.family}))) {
      if (!selected(a, cmd)) {
        filtered_out.insert(a.ifindex);
        continue;
      }
      addrs[a.ifindex].push_back(std::move(a));
    }
  }
  // `ip -6 addr` without a device reads links through the kernel's IPv6
  // link dump, which carries no qdisc, master or group; ip prints none of them.
  LinkView view{.globals = g, .all = all, .runner = &r, .for_addr = addr,
                .inet6_dump = addr && g.family == AF_INET6 && cmd.dev.empty(),  // -6 itself, not "to"
                .family = cmd.family};
  bool found = cmd.dev.empty();
  for (const auto& [index, l] : all) {
    if (!cmd.dev.empty() && l.name != cmd.dev) continue;
    found = true;
    if (cmd.up_only && !(l.flags & IFF_UP)) continue;
    if (!cmd.master.empty() && (l.master == 0 || name_of(l.master, all) != cmd.master)) continue;
    if (!cmd.kind.empty() && l.kind != cmd.kind) continue;
    // As ip: with a family (-4/-6, or to PREFIX's) only the links with such
    // addresses; with a scope, not those whose addresses it all left out.
    if (addr && addrs[index].empty() && (cmd.family != AF_UNSPEC || filtered_out.count(index))) continue;
    if (g.brief) {
      print_brief(r, l, all, addr ? &addrs[index] : nullptr);
      continue;
    }
    // Only the form that is printed: -d makes each link's record long.
    Json j = g.json ? link_json(l, view) : Json::object();
    // ip -o addr prints each address on its own line, under no link header.
    bool address_lines = addr && g.oneline && !g.json;
    std::string text = g.json || address_lines ? std::string() : link_text(l, view);
    if (addr) {
      Json infos = Json::array();
      for (const auto& a : addrs[index]) {
        bool v4 = a.prefix.address.family == AF_INET;
        Json ai;
        ai["family"] = v4 ? "inet" : "inet6";
        ai["local"] = a.prefix.address.to_string();
        ai["prefixlen"] = a.prefix.length;
        if (a.broadcast) ai["broadcast"] = a.broadcast->to_string();
        ai["scope"] = scope_name(a.scope);
        std::string line = std::string("    ") + (v4 ? "inet " : "inet6 ") + a.prefix.address.to_string() + "/" +
                           std::to_string(a.prefix.length);
        if (a.broadcast) line += " brd " + a.broadcast->to_string();
        line += " scope " + scope_name(a.scope) + " ";
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
        line += "\n       valid_lft " + lifetime_text(a.valid_lifetime) + " preferred_lft " +
                lifetime_text(a.preferred_lifetime) + "\n";
        text += address_lines ? std::to_string(index) + ": " + l.name + one_line(line) : line;
        infos.push_back(std::move(ai));
      }
      j["addr_info"] = std::move(infos);
      if (g.stats && l.stats && !address_lines) {
        text += stats_text(*l.stats, g.stats > 1);
        j["stats64"] = stats_json(*l.stats, g.stats > 1);
      }
    }
    if (g.oneline && !address_lines) text = one_line(text);
    if (g.json) r.emit(std::move(j));
    else r.out() += text;
  }
  if (!found) return device_missing(cmd.dev);
  return {};
}

NlResult<void> flush_addresses(Runner& r, const Command& cmd) {
  auto c = BRISK_TRY(r.conn());
  return netlink::flush_addresses(*c, cmd.dev, cmd.family, [&cmd](const netlink::AddressInfo& a) {
    return selected(a, cmd);
  });
}

}  // namespace brisk::ipcli
