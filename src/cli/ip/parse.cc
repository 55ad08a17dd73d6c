// The ip grammar: global options, objects, verbs and keywords, with ip's
// abbreviations and defaults. Values are validated here, so a batch with a
// bad value anywhere is refused before anything is sent.
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include <charconv>
#include <climits>
#include <limits>

#include "brisk/netlink/address.h"
#include "cli/ip/ip.h"
#include "cli/ip/names.h"

namespace brisk::ipcli {
namespace {

using Args = std::span<const std::string>;

Failure<UsageError> usage(std::string message) { return fail(UsageError{std::move(message)}); }

// ip's matches(): a non-empty prefix of the keyword.
bool matches(std::string_view arg, std::string_view word) {
  return !arg.empty() && arg.size() <= word.size() && word.substr(0, arg.size()) == arg;
}

// Walks the words after the verb.
class Cursor {
 public:
  explicit Cursor(Args args) : args_(args) {}
  bool done() const { return i_ >= args_.size(); }
  const std::string& peek() const { return args_[i_]; }
  const std::string& next() { return args_[i_++]; }
  // The value after keyword `key`, or ip's "Command line is not complete".
  Parsed<std::string> value(const std::string& key) {
    if (done()) return usage("argument \"" + key + "\" needs a value: command line is not complete");
    return next();
  }

 private:
  Args args_;
  std::size_t i_ = 0;
};

Failure<UsageError> garbage(const std::string& key, const std::string& word) {
  return usage("either \"" + key + "\" is duplicate, or \"" + word + "\" is a garbage");
}

Failure<UsageError> invalid(const std::string& what, const std::string& value, const std::string& why = {}) {
  std::string text = "argument \"" + value + "\" is wrong: " + what;
  if (!why.empty()) text += " (" + why + ")";
  return usage(std::move(text));
}

template <class T>
Parsed<T> number(const std::string& key, const std::string& text, T max = std::numeric_limits<T>::max()) {
  uint64_t value = 0;
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || value > uint64_t(max))
    return invalid("invalid \"" + key + "\" value", text);
  return static_cast<T>(value);
}

Parsed<std::string> link_name(const std::string& key, const std::string& text) {
  if (auto ok = netlink::validate_link_name(text, "name"); !ok) {
    if (text.size() > 15) return usage("argument \"" + text + "\" is wrong: \"" + key + "\" not a valid ifname");
    return invalid("\"" + key + "\" not a valid ifname", text);
  }
  return text;
}

Parsed<std::string> mac(const std::string& key, const std::string& text) {
  if (!netlink::MacAddress::parse(text)) return invalid("invalid \"" + key + "\" address", text);
  return text;
}

Parsed<std::string> ip_address(const std::string& key, const std::string& text, int family) {
  auto parsed = netlink::IpAddress::parse(text);
  if (!parsed) return invalid("invalid \"" + key + "\" address", text);
  if (family != AF_UNSPEC && parsed->family != family) return invalid("address family mismatch", text);
  return text;
}

Parsed<std::string> ip_prefix(const std::string& key, const std::string& text, int family) {
  auto parsed = netlink::IpPrefix::parse(text);
  if (!parsed) return invalid("invalid \"" + key + "\" prefix", text);
  if (family != AF_UNSPEC && parsed->address.family != family) return invalid("address family mismatch", text);
  return text;
}

Parsed<bool> on_off(const std::string& key, const std::string& text) {
  if (text == "1" || text == "on") return true;
  if (text == "0" || text == "off") return false;
  return invalid("\"" + key + "\" must be 0/1 or on/off", text);
}

Parsed<uint8_t> scope_value(const std::string& text) {
  if (auto scope = scope_number(text)) return *scope;
  return number<uint8_t>("scope", text);
}

#define TRY_SET(target, expr)              \
  do {                                     \
    auto try_set_ = (expr);                \
    if (!try_set_) return try_set_.error(); \
    target = std::move(*try_set_);         \
  } while (0)

// ---- link ----

// Options after `type veth|bridge|...` in `link add`.
Parsed<netlink::LinkKind> parse_kind(const std::string& type, Cursor& c, const std::string& lower, Command& cmd) {
  if (type == "veth") {
    netlink::VethOptions veth;
    if (!c.done() && c.peek() == "peer") {
      c.next();
      while (!c.done()) {
        std::string key = c.next();
        if (key == "name") {
          TRY_SET(veth.peer, c.value(key));
          TRY_SET(veth.peer, link_name(key, veth.peer));
        } else if (key == "address") {
          TRY_SET(veth.peer_address, c.value(key));
          TRY_SET(veth.peer_address, mac(key, veth.peer_address));
        } else if (key == "mtu") {
          std::string v;
          TRY_SET(v, c.value(key));
          TRY_SET(veth.peer_mtu, number<uint32_t>(key, v));
        } else if (key == "netns") {
          TRY_SET(cmd.peer_netns, c.value(key));
        } else if (veth.peer.empty()) {
          TRY_SET(veth.peer, link_name("name", key));
        } else {
          return garbage("name", key);
        }
      }
    }
    if (veth.peer.empty()) return usage("veth needs a peer name (\"peer name NAME\"); brisk does not use name templates");
    return netlink::LinkKind{veth};
  }
  if (type == "bridge") {
    netlink::BridgeOptions br;
    while (!c.done()) {
      std::string key = c.next(), v;
      TRY_SET(v, c.value(key));
      if (key == "stp_state") {
        TRY_SET(br.stp, on_off(key, v));
      } else if (key == "forward_delay") {
        TRY_SET(br.forward_delay, number<uint32_t>(key, v));
      } else if (key == "vlan_filtering") {
        TRY_SET(br.vlan_filtering, on_off(key, v));
      } else {
        return usage("unknown bridge option \"" + key + "\"");
      }
    }
    return netlink::LinkKind{br};
  }
  if (type == "macvlan" || type == "macvtap") {
    netlink::MacvlanOptions mv{.link = lower, .tap = type == "macvtap"};
    if (lower.empty()) return usage("\"link\" is required for " + type);
    while (!c.done()) {
      std::string key = c.next(), v;
      if (key != "mode") return garbage("mode", key);
      TRY_SET(v, c.value(key));
      if (v == "private") mv.mode = netlink::MacvlanMode::private_;
      else if (v == "vepa") mv.mode = netlink::MacvlanMode::vepa;
      else if (v == "bridge") mv.mode = netlink::MacvlanMode::bridge;
      else if (v == "passthru") mv.mode = netlink::MacvlanMode::passthru;
      else if (v == "source") mv.mode = netlink::MacvlanMode::source;
      else return invalid("mode must be private, vepa, bridge, passthru or source", v);
    }
    return netlink::LinkKind{mv};
  }
  if (type == "vlan") {
    netlink::VlanOptions vl{.link = lower};
    if (lower.empty()) return usage("\"link\" is required for vlan");
    bool have_id = false;
    while (!c.done()) {
      std::string key = c.next(), v;
      TRY_SET(v, c.value(key));
      if (key == "id") {
        TRY_SET(vl.id, number<uint16_t>(key, v, 4095));
        have_id = true;
      } else if (key == "protocol") {
        if (v == "802.1Q" || v == "802.1q") vl.protocol = 0x8100;
        else if (v == "802.1ad") vl.protocol = 0x88a8;
        else return invalid("protocol must be 802.1Q or 802.1ad", v);
      } else {
        return usage("unknown vlan option \"" + key + "\"");
      }
    }
    if (!have_id) return usage("vlan id is required");
    return netlink::LinkKind{vl};
  }
  if (type == "vxlan") {
    netlink::VxlanOptions vx;
    bool have_id = false;
    while (!c.done()) {
      std::string key = c.next(), v;
      if (key == "learning" || key == "nolearning") {
        vx.learning = key == "learning";
        continue;
      }
      TRY_SET(v, c.value(key));
      if (key == "id" || key == "vni") {
        TRY_SET(vx.id, number<uint32_t>(key, v, 16777215));
        have_id = true;
      } else if (key == "dstport") {
        TRY_SET(vx.dstport, number<uint16_t>(key, v));
      } else if (key == "local") {
        TRY_SET(vx.local, ip_address(key, v, AF_UNSPEC));
      } else if (key == "remote") {
        TRY_SET(vx.remote, ip_address(key, v, AF_UNSPEC));
      } else if (key == "group") {
        TRY_SET(vx.group, ip_address(key, v, AF_UNSPEC));
      } else if (key == "dev") {
        TRY_SET(vx.dev, link_name(key, v));
      } else if (key == "ttl") {
        TRY_SET(vx.ttl, number<uint8_t>(key, v));
      } else {
        return usage("unknown vxlan option \"" + key + "\"");
      }
    }
    if (!have_id) return usage("vxlan: missing virtual network identifier");
    return netlink::LinkKind{vx};
  }
  if (!c.done()) return usage("brisk accepts no options for link type \"" + type + "\": \"" + c.peek() + "\"");
  return netlink::LinkKind{netlink::OtherKind{type}};
}

Parsed<Command> parse_link_add(Cursor& c, Command cmd) {
  cmd.verb = Verb::link_add;
  auto& spec = cmd.link_add;
  std::string lower, type;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "up") {
      spec.common.up = true;
    } else if (key == "type") {
      TRY_SET(type, c.value(key));
      break;
    } else if (key == "name" || key == "dev") {
      TRY_SET(v, c.value(key));
      if (!spec.name.empty()) return garbage(key, v);
      TRY_SET(spec.name, link_name(key, v));
    } else if (key == "link") {
      TRY_SET(v, c.value(key));
      TRY_SET(lower, link_name(key, v));
    } else if (key == "mtu") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.common.mtu, number<uint32_t>(key, v));
    } else if (key == "address") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.common.address, mac(key, v));
    } else if (key == "txqueuelen" || key == "txqlen" || key == "qlen") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.common.txqueuelen, number<uint32_t>(key, v));
    } else if (key == "master") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.common.master, link_name(key, v));
    } else if (key == "alias") {
      TRY_SET(spec.common.alias, c.value(key));
    } else if (key == "group") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.common.group, number<uint32_t>(key, v));
    } else if (spec.name.empty()) {
      TRY_SET(spec.name, link_name("name", key));
    } else {
      return garbage("name", key);
    }
  }
  if (type.empty()) return usage("not enough information: \"type\" argument is required");
  if (spec.name.empty()) return usage("not enough information: \"name\" argument is required");
  TRY_SET(spec.kind, parse_kind(type, c, lower, cmd));
  if (!lower.empty() && type != "macvlan" && type != "macvtap" && type != "vlan")
    return usage("\"link\" is not supported for link type \"" + type + "\"");
  return cmd;
}

Parsed<Command> parse_link_set(Cursor& c, Command cmd) {
  cmd.verb = Verb::link_set;
  auto& spec = cmd.link_set;
  bool changed = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "up" || key == "down") {
      spec.up = key == "up";
    } else if (key == "dev") {
      TRY_SET(v, c.value(key));
      if (!spec.name.empty()) return garbage(key, v);
      TRY_SET(spec.name, link_name(key, v));
      continue;
    } else if (key == "name") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.new_name, link_name(key, v));
    } else if (key == "mtu") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.mtu, number<uint32_t>(key, v));
    } else if (key == "address") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.address, mac(key, v));
    } else if (key == "master") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.master, link_name(key, v));
    } else if (key == "nomaster") {
      spec.master = std::string{};
    } else if (key == "netns") {
      TRY_SET(cmd.set_netns, c.value(key));
    } else if (key == "alias") {
      TRY_SET(spec.alias, c.value(key));
    } else if (key == "txqueuelen" || key == "txqlen" || key == "qlen") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.txqueuelen, number<uint32_t>(key, v));
    } else if (key == "group") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.group, number<uint32_t>(key, v));
    } else if (key == "promisc" || key == "arp" || key == "multicast" || key == "allmulticast") {
      std::optional<bool>& flag = key == "promisc"     ? spec.promisc
                                  : key == "arp"       ? spec.arp
                                  : key == "multicast" ? spec.multicast
                                                       : spec.allmulticast;
      TRY_SET(v, c.value(key));
      TRY_SET(flag, on_off(key, v));
    } else if (spec.name.empty()) {
      TRY_SET(spec.name, link_name("dev", key));
      continue;
    } else {
      return garbage("dev", key);
    }
    changed = true;
  }
  if (spec.name.empty()) return usage("not enough information: \"dev\" argument is required");
  if (!changed) return usage("nothing to change on \"" + spec.name + "\"");
  return cmd;
}

Parsed<Command> parse_link_del(Cursor& c, Command cmd) {
  cmd.verb = Verb::link_del;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev") {
      TRY_SET(v, c.value(key));
      if (!cmd.name.empty()) return garbage(key, v);
      TRY_SET(cmd.name, link_name(key, v));
    } else if (key == "group") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.group, number<uint32_t>(key, v));
      cmd.verb = Verb::link_del_group;
    } else if (key == "type") {
      TRY_SET(v, c.value(key));  // ip accepts and ignores the type on delete
    } else if (cmd.name.empty()) {
      TRY_SET(cmd.name, link_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  if (cmd.verb == Verb::link_del_group && !cmd.name.empty()) return usage("\"group\" and a device name are exclusive");
  if (cmd.verb == Verb::link_del && cmd.name.empty())
    return usage("not enough information: \"dev\" argument is required");
  return cmd;
}

Parsed<Command> parse_link_show(Cursor& c, Command cmd) {
  cmd.verb = Verb::link_show;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "up") {
      cmd.up_only = true;
    } else if (key == "dev") {
      TRY_SET(v, c.value(key));
      if (!cmd.dev.empty()) return garbage(key, v);
      TRY_SET(cmd.dev, link_name(key, v));
    } else if (key == "master") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.master, link_name(key, v));
    } else if (key == "type") {
      TRY_SET(cmd.kind, c.value(key));
    } else if (cmd.dev.empty()) {
      TRY_SET(cmd.dev, link_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

Parsed<Command> parse_link(Cursor& c, Command cmd) {
  if (c.done()) return parse_link_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_link_add(c, std::move(cmd));
  if (matches(verb, "change") || matches(verb, "set")) return parse_link_set(c, std::move(cmd));
  if (matches(verb, "delete")) return parse_link_del(c, std::move(cmd));
  if (matches(verb, "show") || matches(verb, "lst") || matches(verb, "list")) return parse_link_show(c, std::move(cmd));
  return usage("command \"" + verb + "\" is unknown, try \"brisk link help\"");
}

// ---- address ----

Parsed<Command> parse_addr_change(Cursor& c, Command cmd, Verb verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.addr;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dev, link_name(key, v));
    } else if (key == "local") {
      TRY_SET(v, c.value(key));
      if (!spec.prefix.empty()) return garbage(key, v);
      TRY_SET(spec.prefix, ip_prefix(key, v, family));
    } else if (key == "broadcast" || key == "brd") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.broadcast, ip_address(key, v, AF_INET));
    } else if (key == "label") {
      TRY_SET(v, c.value(key));
      if (v.size() > 15) return invalid("\"label\" is too long", v);
      spec.label = v;
    } else if (key == "scope") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.scope, scope_value(v));
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
      TRY_SET(v, c.value(key));
      if (!cmd.dev.empty()) return garbage(key, v);
      TRY_SET(cmd.dev, link_name(key, v));
    } else if (key == "scope") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.scope, scope_value(v));
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

Parsed<Command> parse_addr(Cursor& c, Command cmd, int family) {
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

// ---- route ----

Parsed<Command> parse_route_change(Cursor& c, Command cmd, Verb verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.route;
  auto type_of = [](const std::string& word) -> std::optional<netlink::RouteType> {
    if (word == "unicast") return netlink::RouteType::unicast;
    if (word == "blackhole") return netlink::RouteType::blackhole;
    if (word == "unreachable") return netlink::RouteType::unreachable;
    if (word == "prohibit") return netlink::RouteType::prohibit;
    return std::nullopt;
  };
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "via") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.via, ip_address(key, v, family));
    } else if (key == "dev" || key == "oif") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dev, link_name(key, v));
    } else if (key == "metric" || key == "priority" || key == "preference") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.metric, number<uint32_t>(key, v));
    } else if (key == "table") {
      TRY_SET(v, c.value(key));
      if (v == "main") spec.table = RT_TABLE_MAIN;
      else if (v == "local") spec.table = RT_TABLE_LOCAL;
      else if (v == "default") spec.table = RT_TABLE_DEFAULT;
      else TRY_SET(spec.table, number<uint32_t>(key, v));
    } else if (key == "scope") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.scope, scope_value(v));
    } else if (key == "proto" || key == "protocol") {
      TRY_SET(v, c.value(key));
      if (v == "boot") spec.protocol = RTPROT_BOOT;
      else if (v == "static") spec.protocol = RTPROT_STATIC;
      else if (v == "kernel") spec.protocol = RTPROT_KERNEL;
      else TRY_SET(spec.protocol, number<uint8_t>(key, v));
    } else if (key == "src") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.src, ip_address(key, v, family));
    } else if (key == "onlink") {
      spec.onlink = true;
    } else if (auto type = type_of(key); type && spec.prefix.empty()) {
      spec.type = *type;
      TRY_SET(v, c.value(key));
      if (v == "default") spec.prefix = v;
      else TRY_SET(spec.prefix, ip_prefix("to", v, family));
    } else if (spec.prefix.empty()) {
      if (key == "to") TRY_SET(key, c.value(key));
      if (key == "default" || key == "all" || key == "any") spec.prefix = "default";
      else TRY_SET(spec.prefix, ip_prefix("to", key, family));
    } else {
      return garbage("to", key);
    }
  }
  if (spec.prefix.empty()) return usage("not enough information: a destination is required");
  if (spec.prefix == "default" && family == AF_INET6 && spec.via.empty()) spec.prefix = "::/0";
  if (verb != Verb::route_del && spec.type == netlink::RouteType::unicast && spec.via.empty() && spec.dev.empty())
    return usage("not enough information: \"via\" or \"dev\" is required");
  return cmd;
}

// ip's names for route protocols (RTPROT_*) and types (RTN_*), or numbers.
Parsed<uint8_t> route_protocol(const std::string& text) {
  if (auto protocol = protocol_number(text)) return *protocol;
  return number<uint8_t>("proto", text);
}
Parsed<uint8_t> route_type(const std::string& text) {
  if (auto type = rtn_type_number(text)) return *type;
  return number<uint8_t>("type", text);
}

Parsed<Command> parse_route_show(Cursor& c, Command cmd) {
  cmd.verb = Verb::route_show;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev" || key == "oif") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.route.dev, link_name(key, v));
    } else if (key == "table") {
      TRY_SET(v, c.value(key));
      if (v == "main") cmd.route.table = RT_TABLE_MAIN;
      else if (v == "local") cmd.route.table = RT_TABLE_LOCAL;
      else if (v == "default") cmd.route.table = RT_TABLE_DEFAULT;
      else if (v == "all") cmd.route.table = RT_TABLE_UNSPEC;  // as ip: every table, and both families unless -4/-6
      else TRY_SET(cmd.route.table, number<uint32_t>(key, v));
    } else if (key == "proto" || key == "protocol") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.route_protocol, route_protocol(v));
    } else if (key == "scope") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.route_scope, scope_value(v));
    } else if (key == "type") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.route_type, route_type(v));
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

// ip route get [to] ADDRESS [from ADDRESS] [iif DEV] [oif DEV] [mark N]
Parsed<Command> parse_route_get(Cursor& c, Command cmd) {
  cmd.verb = Verb::route_get;
  auto& q = cmd.route_query;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "to" || key == "from") {
      TRY_SET(v, c.value(key));
      (key == "to" ? q.to : q.from) = v;
    } else if (key == "iif" || key == "oif" || key == "dev") {
      TRY_SET(v, c.value(key));
      std::string& device = key == "iif" ? q.iif : q.oif;
      TRY_SET(device, link_name(key, v));
    } else if (key == "mark") {
      TRY_SET(v, c.value(key));
      uint32_t mark = 0;
      TRY_SET(mark, number<uint32_t>(key, v));
      q.mark = mark;
    } else if (q.to.empty()) {
      q.to = key;
    } else {
      return garbage("to", key);
    }
  }
  if (q.to.empty()) return usage("need at least a destination address");
  if (!netlink::IpAddress::parse(q.to)) return usage("invalid \"to\" address \"" + q.to + "\"");
  if (!q.from.empty() && !netlink::IpAddress::parse(q.from))
    return usage("invalid \"from\" address \"" + q.from + "\"");
  return cmd;
}

Parsed<Command> parse_route(Cursor& c, Command cmd, int family) {
  if (c.done()) return parse_route_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_route_change(c, std::move(cmd), Verb::route_add, family);
  if (matches(verb, "replace")) return parse_route_change(c, std::move(cmd), Verb::route_replace, family);
  if (matches(verb, "delete")) return parse_route_change(c, std::move(cmd), Verb::route_del, family);
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst")) return parse_route_show(c, std::move(cmd));
  if (matches(verb, "get")) return parse_route_get(c, std::move(cmd));
  return usage("command \"" + verb + "\" is unknown, try \"brisk route help\"");
}

// ---- neighbour ----

Parsed<uint16_t> nud_state(const std::string& text) {
  if (text == "permanent") return uint16_t(NUD_PERMANENT);
  if (text == "noarp") return uint16_t(NUD_NOARP);
  if (text == "reachable") return uint16_t(NUD_REACHABLE);
  if (text == "stale") return uint16_t(NUD_STALE);
  if (text == "delay") return uint16_t(NUD_DELAY);
  if (text == "probe") return uint16_t(NUD_PROBE);
  return invalid("nud state must be permanent, noarp, reachable, stale, delay or probe", text);
}

Parsed<Command> parse_neigh_change(Cursor& c, Command cmd, Verb verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.neigh;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dev, link_name(key, v));
    } else if (key == "lladdr") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.lladdr, mac(key, v));
    } else if (key == "nud") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.state, nud_state(v));
    } else if (spec.address.empty()) {
      if (key == "to") TRY_SET(key, c.value(key));
      TRY_SET(spec.address, ip_address("to", key, family));
    } else {
      return garbage("to", key);
    }
  }
  if (spec.address.empty()) return usage("not enough information: \"to\" argument is required");
  if (spec.dev.empty()) return usage("not enough information: \"dev\" argument is required");
  if (verb != Verb::neigh_del && spec.lladdr.empty()) return usage("not enough information: \"lladdr\" is required");
  return cmd;
}

// What `ip neigh show nud STATE` filters on: a NUD_* bit, every state for
// "all", and 0x100 standing for "none" (a state of 0), as ip reads them.
Parsed<uint32_t> nud_filter(const std::string& text) {
  if (text == "all") return ~0u;
  if (text == "none") return 0x100u;
  if (text == "incomplete") return uint32_t(NUD_INCOMPLETE);
  if (text == "failed") return uint32_t(NUD_FAILED);
  auto state = nud_state(text);
  if (!state) return invalid("nud state must be all, none, permanent, noarp, reachable, stale, delay, probe, "
                             "incomplete or failed", text);
  return uint32_t(*state);
}

Parsed<Command> parse_neigh_show(Cursor& c, Command cmd) {
  cmd.verb = Verb::neigh_show;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev") {
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.dev, link_name(key, v));
    } else if (key == "nud") {
      TRY_SET(v, c.value(key));
      uint32_t state = 0;
      TRY_SET(state, nud_filter(v));
      cmd.nud = cmd.nud.value_or(0) | state;  // several nud arguments add up
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

Parsed<Command> parse_neigh(Cursor& c, Command cmd, int family) {
  if (c.done()) return parse_neigh_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_neigh_change(c, std::move(cmd), Verb::neigh_add, family);
  if (matches(verb, "replace")) return parse_neigh_change(c, std::move(cmd), Verb::neigh_replace, family);
  if (matches(verb, "delete")) return parse_neigh_change(c, std::move(cmd), Verb::neigh_del, family);
  if (matches(verb, "show") || matches(verb, "list") || matches(verb, "lst")) return parse_neigh_show(c, std::move(cmd));
  return usage("command \"" + verb + "\" is unknown, try \"brisk neigh help\"");
}

// ---- netns ----

Parsed<std::string> netns_name(const std::string& text) {
  if (text.empty() || text == "." || text == ".." || text.find('/') != std::string::npos || text.size() > NAME_MAX)
    return usage("invalid netns name \"" + text + "\"");
  return text;
}

Parsed<Command> parse_netns(Cursor& c, Command cmd) {
  cmd.verb = Verb::netns_list;
  if (c.done()) return cmd;
  std::string verb = c.next();
  if (matches(verb, "list") || matches(verb, "show") || matches(verb, "lst")) {
    if (!c.done()) return garbage("list", c.peek());
    return cmd;
  }
  if (matches(verb, "add")) cmd.verb = Verb::netns_add;
  else if (matches(verb, "delete")) cmd.verb = Verb::netns_del;
  else if (matches(verb, "exec")) cmd.verb = Verb::netns_exec;
  else return usage("command \"" + verb + "\" is unknown, try \"brisk netns help\"");
  if (c.done()) return usage("no netns name specified");
  TRY_SET(cmd.name, netns_name(c.next()));
  if (cmd.verb == Verb::netns_exec) {
    while (!c.done()) cmd.exec_argv.push_back(c.next());
    if (cmd.exec_argv.empty()) return usage("no command specified");
  } else if (!c.done()) {
    return garbage("name", c.peek());
  }
  return cmd;
}

// ---- fdb (bridge fdb) ----

Parsed<Command> parse_fdb_change(Cursor& c, Command cmd, Verb verb) {
  cmd.verb = verb;
  auto& spec = cmd.fdb;
  bool master = false, self = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (key == "dev") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dev, link_name(key, v));
    } else if (key == "master") {
      master = true;
    } else if (key == "self") {
      self = true;
    } else if (key == "static") {
      spec.state = NUD_NOARP;
    } else if (key == "local" || key == "permanent") {
      spec.state = NUD_PERMANENT;
    } else if (key == "dynamic") {
      spec.state = NUD_REACHABLE;
    } else if (key == "vlan") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.vlan, number<uint16_t>(key, v, 4094));
    } else if (key == "dst") {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dst, ip_address(key, v, AF_UNSPEC));
    } else if (spec.lladdr.empty()) {
      TRY_SET(spec.lladdr, mac("lladdr", key));
    } else {
      return garbage("lladdr", key);
    }
  }
  if (spec.lladdr.empty()) return usage("not enough information: an lladdr is required");
  if (spec.dev.empty()) return usage("not enough information: \"dev\" argument is required");
  // bridge fdb: without either flag the entry goes into the device's own table.
  spec.master = master;
  spec.self = self || !master;
  return cmd;
}

Parsed<Command> parse_fdb(Cursor& c, Command cmd) {
  if (c.done()) return usage("\"brisk fdb show\" needs \"br BRIDGE\"");
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_fdb_change(c, std::move(cmd), Verb::fdb_add);
  if (matches(verb, "delete")) return parse_fdb_change(c, std::move(cmd), Verb::fdb_del);
  if (matches(verb, "show") || matches(verb, "list")) {
    cmd.verb = Verb::fdb_show;
    while (!c.done()) {
      std::string key = c.next(), v;
      if (key != "br" && key != "brport" && key != "dev") return garbage("br", key);
      TRY_SET(v, c.value(key));
      TRY_SET(cmd.master, link_name(key, v));
    }
    if (cmd.master.empty()) return usage("\"brisk fdb show\" needs \"br BRIDGE\"");
    return cmd;
  }
  return usage("command \"" + verb + "\" is unknown, try \"brisk fdb help\"");
}

std::optional<Object> object_of(std::string_view word) {
  // In ip's table order, so an abbreviation picks what ip picks ("n" is neigh).
  if (matches(word, "address")) return Object::address;
  if (matches(word, "route")) return Object::route;
  if (matches(word, "neighbor") || matches(word, "neighbour")) return Object::neigh;
  if (matches(word, "link")) return Object::link;
  if (matches(word, "netns")) return Object::netns;
  if (word == "fdb") return Object::fdb;
  return std::nullopt;
}

}  // namespace

bool Command::mutates() const {
  switch (verb) {
    case Verb::link_show:
    case Verb::addr_show:
    case Verb::route_show:
    case Verb::route_get:
    case Verb::neigh_show:
    case Verb::fdb_show:
    case Verb::netns_add:
    case Verb::netns_del:
    case Verb::netns_list:
    case Verb::netns_exec:
    case Verb::addr_flush:
      return false;
    default:
      return true;
  }
}

Parsed<Command> parse_command(std::span<const std::string> args, const Globals& globals) {
  if (args.empty()) return usage("no object given, try \"brisk help\"");
  auto object = object_of(args[0]);
  // Words of ip's own objects that are not ip-only abbreviations of ours.
  if (!object) return usage("object \"" + args[0] + "\" is unknown, try \"brisk help\"");
  if (args.size() >= 2 && matches(args[1], "help"))
    return fail(UsageError{.message = std::string(object_usage(*object)), .help = true});
  Command cmd;
  cmd.family = globals.family;
  Cursor c(args.subspan(1));
  switch (*object) {
    case Object::link: return parse_link(c, std::move(cmd));
    case Object::address: return parse_addr(c, std::move(cmd), globals.family);
    case Object::route: return parse_route(c, std::move(cmd), globals.family);
    case Object::neigh: return parse_neigh(c, std::move(cmd), globals.family);
    case Object::netns: return parse_netns(c, std::move(cmd));
    case Object::fdb: return parse_fdb(c, std::move(cmd));
  }
  return usage("object \"" + args[0] + "\" is unknown");
}

namespace {

// ip's global options, by the prefixes ip's matches() accepts.
enum class GlobalOption { netns, json, pretty, batch, force, details, stats, brief, oneline, v4, v6, version, none };

GlobalOption global_of(std::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return GlobalOption::none;
  std::string_view word = arg.substr(1);
  if (word.size() > 1 && word[0] == '-') word.remove_prefix(1);  // ip accepts --json as well
  if (word == "4") return GlobalOption::v4;
  if (word == "6") return GlobalOption::v6;
  if (word == "n" || matches(word, "netns")) return GlobalOption::netns;
  if (word == "j" || matches(word, "json")) return GlobalOption::json;
  if (word == "p" || matches(word, "pretty")) return GlobalOption::pretty;
  if (matches(word, "batch")) return GlobalOption::batch;  // "-b" is -batch, as in ip
  if (matches(word, "brief")) return GlobalOption::brief;
  if (matches(word, "oneline")) return GlobalOption::oneline;
  if (word == "force") return GlobalOption::force;
  if (matches(word, "details")) return GlobalOption::details;
  if (matches(word, "stats") || matches(word, "statistics")) return GlobalOption::stats;
  if (word == "V" || matches(word, "Version")) return GlobalOption::version;
  return GlobalOption::none;
}

}  // namespace

bool is_ip_invocation(std::string_view arg) {
  if (global_of(arg) != GlobalOption::none || object_of(arg).has_value()) return true;
  // Any other single-dash option is an unknown ip option, answered the ip
  // way (exit 255), except the top-level help ("-h", "-help").
  return arg.size() > 1 && arg[0] == '-' && arg[1] != '-' && arg != "-h" && arg != "-help";
}

Parsed<Invocation> parse_globals(std::span<const std::string> argv) {
  Invocation inv;
  std::size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    const std::string& opt = argv[i];
    switch (global_of(opt)) {
      case GlobalOption::netns:
        if (++i >= argv.size()) return usage("option \"" + opt + "\" needs a namespace name");
        TRY_SET(inv.globals.netns, netns_name(argv[i]));
        break;
      case GlobalOption::json: inv.globals.json = true; break;
      case GlobalOption::pretty: inv.globals.pretty = true; break;
      case GlobalOption::batch:
        if (++i >= argv.size()) return usage("option \"" + opt + "\" needs a file name");
        inv.globals.batch = argv[i];
        break;
      case GlobalOption::force: inv.globals.force = true; break;
      case GlobalOption::details: inv.globals.details = true; break;
      case GlobalOption::stats: ++inv.globals.stats; break;
      case GlobalOption::brief: inv.globals.brief = true; break;
      case GlobalOption::oneline: inv.globals.oneline = true; break;
      case GlobalOption::v4: inv.globals.family = AF_INET; break;
      case GlobalOption::v6: inv.globals.family = AF_INET6; break;
      case GlobalOption::version: inv.globals.version = true; break;
      case GlobalOption::none:
        return usage("option \"" + opt + "\" is unknown, try \"brisk help\"");
    }
  }
  inv.args.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  if (inv.globals.batch && !inv.args.empty())
    return usage("\"-batch\" takes its commands from the file; unexpected \"" + inv.args[0] + "\"");
  if (!inv.globals.batch && !inv.globals.version && inv.args.empty())
    return usage("no object given, try \"brisk help\"");
  return inv;
}

Parsed<std::vector<BatchLine>> split_batch(std::string_view text) {
  std::vector<BatchLine> lines;
  int number = 0;
  std::string pending;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    bool had_newline = nl != std::string_view::npos;
    text = had_newline ? text.substr(nl + 1) : std::string_view{};
    ++number;
    // ip cuts at the first '#' (even inside quotes), then looks for "\\\n".
    std::string_view body = raw;
    bool comment = false;
    if (auto hash = body.find('#'); hash != std::string_view::npos) {
      body = body.substr(0, hash);
      comment = true;
    }
    bool continues = !comment && had_newline && !body.empty() && body.back() == '\\';
    if (continues) body.remove_suffix(1);
    pending.append(body);
    if (continues) {
      if (text.empty()) return fail(UsageError{"missing continuation line", number});
      continue;
    }
    // makeargs: blanks separate words; a word starting with a quote runs to the next same quote.
    BatchLine line{.line = number};
    std::string_view cp = pending;
    constexpr std::string_view ws = " \t\r\n";
    while (true) {
      std::size_t start = cp.find_first_not_of(ws);
      if (start == std::string_view::npos) break;
      cp.remove_prefix(start);
      if (cp[0] == '\'' || cp[0] == '"') {
        char quote = cp[0];
        std::size_t end = cp.find(quote, 1);
        if (end == std::string_view::npos) return fail(UsageError{"unterminated quoted string", number});
        line.args.emplace_back(cp.substr(1, end - 1));
        cp.remove_prefix(end + 1);
      } else {
        std::size_t end = cp.find_first_of(ws);
        line.args.emplace_back(cp.substr(0, end));
        if (end == std::string_view::npos) break;
        cp.remove_prefix(end + 1);
      }
    }
    pending.clear();
    if (!line.args.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

std::string format_error(std::string_view message) {
  std::string text = "Error: ";
  text += message;
  if (text.back() != '.') text += '.';
  return text;
}

}  // namespace brisk::ipcli
