// ip link: add, set, delete and show, with each kind's options.
#include <climits>

#include "cli/ip/names.h"
#include "cli/ip/objects.h"

namespace brisk::ipcli {
namespace {

// `link add NAME`: ip checks a bare name only as an altname (up to 127
// bytes) and leaves the 15-byte limit to the kernel, whose refusal is a
// failed line, not the end of the batch.
Parsed<std::string> new_device_name(const std::string& text) {
  bool plain = text.find_first_of("/ \t\n\v\f\r") == std::string::npos;
  if (text.size() > 15 && text.size() < 128 && plain)
    return refused("Error: Attribute failed policy validation.", 2);
  return link_name("name", text);
}

// `netns PID` names a process by a number that fits ip's int; anything
// else is a namespace name (nullopt here).
Parsed<std::optional<pid_t>> netns_pid(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::optional<pid_t>{};
  auto pid = number<uint32_t>("netns", text, INT_MAX);
  if (!pid) return invarg("Invalid \"netns\" value\n", text);
  return std::optional<pid_t>(static_cast<pid_t>(*pid));
}

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
          TRY_SET(veth.peer_mtu, c.number<uint32_t>(key));
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
      TRY_SET(spec.name, c.sole_link_name(key, spec.name));
    } else if (key == "link") {
      TRY_SET(lower, c.link_name(key));
    } else if (key == "mtu") {
      TRY_SET(spec.common.mtu, c.number<uint32_t>(key));
    } else if (key == "address") {
      TRY_SET(spec.common.address, c.mac(key));
    } else if (key == "txqueuelen" || key == "txqlen" || key == "qlen") {
      TRY_SET(spec.common.txqueuelen, c.number<uint32_t>("txqueuelen"));  // ip names it so, whichever word was used
    } else if (key == "master") {
      TRY_SET(spec.common.master, c.link_name(key));
    } else if (key == "alias") {
      TRY_SET(spec.common.alias, c.value(key));
    } else if (key == "group") {
      TRY_SET(spec.common.group, c.read(key, group_value));
    } else if (spec.name.empty()) {
      TRY_SET(spec.name, new_device_name(key));
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
      TRY_SET(spec.name, c.sole_link_name(key, spec.name));
      continue;
    } else if (key == "name") {
      TRY_SET(spec.new_name, c.link_name(key));
    } else if (key == "mtu") {
      TRY_SET(spec.mtu, c.number<uint32_t>(key));
    } else if (key == "address") {
      TRY_SET(spec.address, c.mac(key));
    } else if (key == "master") {
      TRY_SET(spec.master, c.link_name(key));
    } else if (key == "nomaster") {
      spec.master = std::string{};
    } else if (key == "netns") {
      TRY_SET(cmd.set_netns, c.value(key));
      TRY_SET(spec.netns_pid, netns_pid(cmd.set_netns));
    } else if (key == "alias") {
      TRY_SET(spec.alias, c.value(key));
    } else if (key == "txqueuelen" || key == "txqlen" || key == "qlen") {
      TRY_SET(spec.txqueuelen, c.number<uint32_t>("txqueuelen"));  // ip names it so, whichever word was used
    } else if (key == "group") {
      TRY_SET(spec.group, c.read(key, group_value));
    } else if (key == "promisc" || key == "arp" || key == "multicast" || key == "allmulticast") {
      std::optional<bool>& flag = key == "promisc"     ? spec.promisc
                                  : key == "arp"       ? spec.arp
                                  : key == "multicast" ? spec.multicast
                                                       : spec.allmulticast;
      TRY_SET(flag, c.on_off(key));
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
      TRY_SET(cmd.name, c.sole_link_name(key, cmd.name));
    } else if (key == "group") {
      TRY_SET(cmd.group, c.read(key, group_value));
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
      TRY_SET(cmd.dev, c.sole_link_name(key, cmd.dev));
    } else if (key == "master") {
      TRY_SET(cmd.master, c.link_name(key));
    } else if (key == "type") {
      TRY_SET(cmd.kind, c.value(key));
    } else if (key == "group") {
      TRY_SET(cmd.show_group, c.read(key, group_value));
    } else if (cmd.dev.empty()) {
      TRY_SET(cmd.dev, link_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

}  // namespace

Parsed<uint32_t> group_value(const std::string& text) {
  if (auto group = group_number(text)) return *group;
  return invarg("Invalid \"group\" value\n", text);
}

Parsed<Command> parse_link(Cursor& c, Command cmd) {
  if (c.done()) return parse_link_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_link_add(c, std::move(cmd));
  if (matches(verb, "change") || matches(verb, "set")) return parse_link_set(c, std::move(cmd));
  if (matches(verb, "delete")) return parse_link_del(c, std::move(cmd));
  if (matches(verb, "show") || matches(verb, "lst") || matches(verb, "list")) return parse_link_show(c, std::move(cmd));
  return unknown_command(verb, "link");
}

}  // namespace brisk::ipcli
