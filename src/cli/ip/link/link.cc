// ip link: add, set, delete and show; each kind's options are its own file's
// (cli/ip/link/kinds/), found through the registry (link_kind.h).
#include <linux/if.h>
#include <linux/if_link.h>
#include <strings.h>

#include <algorithm>
#include <climits>

#include "cli/ip/link/link_kind.h"
#include "cli/ip/link/link_print.h"
#include "cli/ip/link/link_verbs.h"
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
    return fail(UsageError{.message = "Error: Attribute failed policy validation.",
                           .exact = true,
                           .exit_code = 2,
                           .line_failure = true,
                           .kernel_refusal = true});
  return link_name("name", text);
}

}  // namespace

Parsed<bool> NewLinkName::by_name(Cursor& c, const std::string& key) {
  std::string text;
  TRY_SET(text, c.value(key));
  if (!name_.empty()) return duplicate("name", text);
  TRY_SET(name_, link_name("name", text));
  return true;
}

Parsed<bool> NewLinkName::by_dev(Cursor& c, const std::string& key) {
  std::string text = key;
  if (is(key, "dev")) TRY_SET(text, c.value(key));
  if (!dev_.empty()) return garbage("dev", text);
  TRY_SET(dev_, new_device_name(text));
  return true;
}

Parsed<std::string> NewLinkName::result() const {
  if (name_.empty()) return dev_;
  if (dev_.empty() || dev_ == name_) return name_;
  return fatal("both \"name\" and \"dev\" cannot be used when creating devices.", 255);
}

namespace {
// What ip link add and set both take beyond the basics; below.
Parsed<bool> parse_tuning(const std::string& key, Cursor& c, netlink::LinkTuning& t, std::string& link_netns);
}  // namespace

// What `link add` takes for the new device and, after `type veth peer`, for
// the peer (ip's iplink_parse serves both).
Parsed<bool> parse_new_link_setting(const std::string& key, Cursor& c, netlink::LinkCommon& common,
                                    std::vector<std::string>& vrfs, std::string& link_netns) {
  // ip's duparg: a second value of a keyword taken once.
  auto twice = [&c](const auto& field, const std::string& name) -> std::optional<Failure<UsageError>> {
    if (field && !c.done()) return duplicate(name, c.peek());
    return std::nullopt;
  };
  if (is(key, "up") || is(key, "down")) {
    common.up = is(key, "up");
  } else if (is(key, "mtu")) {
    if (auto dup = twice(common.mtu, "mtu")) return *dup;
    TRY_SET(common.mtu, c.number<uint32_t>(key));
  } else if (matches(key, "address")) {
    TRY_SET(common.address, c.ll_address(key));
  } else if (matches(key, "txqueuelen") || is(key, "qlen") || matches(key, "txqlen")) {
    if (auto dup = twice(common.txqueuelen, "txqueuelen")) return *dup;
    TRY_SET(common.txqueuelen, c.number<uint32_t>("txqueuelen"));  // ip names it so, whichever word was used
  } else if (matches(key, "master")) {
    TRY_SET(common.master, c.device(key));
  } else if (is(key, "vrf")) {  // a master that must be a VRF (link_verbs.cc)
    TRY_SET(common.master, c.device(key));
    vrfs.push_back(common.master);
  } else if (matches(key, "nomaster")) {
    common.master.clear();
  } else if (matches(key, "alias")) {
    TRY_SET(common.alias, c.read(key, [](const std::string& text) -> Parsed<std::string> {
      if (text.size() >= IFALIASZ) return invarg("alias too long\n", text);
      return text;
    }));
  } else if (is(key, "group")) {
    if (auto dup = twice(common.group, "group")) return *dup;
    TRY_SET(common.group, c.read(key, group_value));
  } else if (is(key, "index")) {
    TRY_SET(common.index, c.read(key, [&common](const std::string& text) -> Parsed<int32_t> {
      if (common.index) return duplicate("index", text);
      int index = std::atoi(text.c_str());  // ip's own reading: a leading number, the rest ignored
      if (index <= 0) return invarg("Invalid \"index\" value", text);
      return index;
    }));
  } else {
    return parse_tuning(key, c, common.tuning, link_netns);
  }
  return true;
}

namespace {

// `netns PID` names a process by a number that fits ip's int; anything
// else is a namespace name (nullopt here).
Parsed<std::optional<pid_t>> netns_pid(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return std::optional<pid_t>{};
  auto pid = number<uint32_t>("netns", text, INT_MAX);
  if (!pid) return invarg("Invalid \"netns\" value\n", text);
  return std::optional<pid_t>(static_cast<pid_t>(*pid));
}

// The kinds whose options `link set DEV type KIND ARGS` changes, as a list in words.
std::string changeable_kinds() {
  std::vector<std::string_view> names;
  for (const auto* kind : link_kinds())
    if (kind->changes) names.push_back(kind->name);
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
  return text;
}

// Options after `type KIND` in `link add` (and, with `change`, in `link
// set`): the kind's own parser (cli/ip/link/kinds/); a kind without one takes
// none and goes to the kernel by name. `lower`: `link DEV`, empty for a change.
Parsed<netlink::LinkKind> parse_kind(const std::string& type, Cursor& c, const std::string& lower,
                                     IpCommand& cmd, bool change = false) {
  if (const LinkKindModule* kind = find_link_kind(type); kind && kind->parse) {
    KindArgs args{.c = c, .type = type, .lower = lower, .change = change, .cmd = cmd};
    return kind->parse(args);
  }
  if (!c.done())
    return usage("brisk accepts no options for link type \"" + type + "\": \"" + c.peek() + "\"");
  return netlink::LinkKind{netlink::OtherKind{type}};
}

// `link set DEV type KIND OPTIONS`: the same option parser as `link add`,
// for the kinds whose options brisk can change; the kind alone (no options)
// goes to the kernel as it is, which checks it is the device's.
Parsed<netlink::LinkKind> parse_kind_change(const std::string& type, Cursor& c, IpCommand& cmd) {
  if (c.done()) return netlink::LinkKind{netlink::OtherKind{type}};
  if (const LinkKindModule* kind = find_link_kind(type); kind && kind->changes)
    return parse_kind(type, c, "", cmd, true);
  return usage("brisk changes the options of " + changeable_kinds() + " devices only, not \"" + type + "\"");
}

// `link set DEV address LLADDR`: ip checks the length against the device's
// own (an RTM_GETLINK), a failed line when they differ; brisk's devices have
// 6-byte addresses.
Parsed<std::string> set_ll_address(const std::string& text) {
  auto address = ll_address(text);
  if (address || address.error().line_failure) return address;
  std::size_t bytes = text.find('.') != std::string::npos ? 4 : std::count(text.begin(), text.end(), ':') + 1;
  return refused("Invalid address length " + std::to_string(bytes) + " - must be 6 bytes");
}

// IN6_ADDR_GEN_MODE_* by ip's names (get_addr_gen_mode: any case).
Parsed<uint8_t> addr_gen_mode(const std::string& text) {
  static constexpr std::pair<std::string_view, uint8_t> kModes[] = {
      {"eui64", IN6_ADDR_GEN_MODE_EUI64},
      {"none", IN6_ADDR_GEN_MODE_NONE},
      {"stable_secret", IN6_ADDR_GEN_MODE_STABLE_PRIVACY},
      {"random", IN6_ADDR_GEN_MODE_RANDOM}};
  for (auto [name, mode] : kModes)
    if (::strcasecmp(text.c_str(), std::string(name).c_str()) == 0) return mode;
  return invarg("Invalid address generation mode\n", text);
}

// What ip link add and set both take beyond the basics (iplink_parse):
// true when `key` was one of them, its value read into `t`.
Parsed<bool> parse_tuning(const std::string& key, Cursor& c, netlink::LinkTuning& t,
                          std::string& link_netns) {
  auto unsigned_value = [&c, &key](const std::string& name) {
    return c.read(key, [&name](const std::string& text) -> Parsed<uint32_t> {
      if (auto n = number<uint32_t>(name, text)) return *n;
      return invarg("Invalid \"" + name + "\" value\n", text);
    });
  };
  if (matches(key, "broadcast") || is(key, "brd")) {
    TRY_SET(t.broadcast, c.ll_address(key));
  } else if (is(key, "xdp") || is(key, "xdpgeneric") || is(key, "xdpdrv") || is(key, "xdpoffload")) {
    std::string v;
    TRY_SET(v, c.value(key));
    if (v != "off" && v != "none")
      return usage("brisk loads no XDP programs: \"" + key + " off\" (or none) detaches one, not \"" + v +
                   "\"");
    t.xdp_off = true;
    t.xdp_flags = is(key, "xdpgeneric")   ? XDP_FLAGS_SKB_MODE
                  : is(key, "xdpdrv")     ? XDP_FLAGS_DRV_MODE
                  : is(key, "xdpoffload") ? XDP_FLAGS_HW_MODE
                                          : 0u;
  } else if (is(key, "carrier") || is(key, "protodown")) {
    std::optional<bool>& target = is(key, "carrier") ? t.carrier : t.protodown;
    TRY_SET(target, c.read(key, [&key](const std::string& text) { return one_of_off_on(key, text); }));
  } else if (is(key, "trailers") || matches(key, "dynamic") || is(key, "promisc") || is(key, "arp") ||
             is(key, "multicast") || is(key, "allmulticast")) {
    // iplink.c's interface flags: the exact words "on" and "off" only.
    const std::string name = matches(key, "dynamic") ? "dynamic" : key;
    std::optional<bool>& target = name == "trailers"    ? t.trailers
                                  : name == "dynamic"   ? t.dynamic
                                  : name == "promisc"   ? t.promisc
                                  : name == "arp"       ? t.arp
                                  : name == "multicast" ? t.multicast
                                                        : t.allmulticast;
    TRY_SET(target, c.read(key, [&name](const std::string& text) -> Parsed<bool> {
      if (text == "on") return true;
      if (text == "off") return false;
      return refused("Error: argument of \"" + name + "\" must be \"on\" or \"off\", not \"" + text + "\"");
    }));
  } else if (is(key, "state")) {
    TRY_SET(t.operstate, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
      if (auto state = operstate_number(text)) return *state;
      return invarg("Invalid operstate\n", text);
    }));
  } else if (is(key, "mode")) {
    TRY_SET(t.link_mode, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
      if (auto mode = linkmode_number(text)) return *mode;
      return invarg("Invalid link mode\n", text);
    }));
  } else if (matches(key, "link-netns")) {  // its id here, looked up (and made) when run
    if (t.link_netnsid || !link_netns.empty())
      return duplicate("link-netns/link-netnsid", c.done() ? key : c.peek());
    TRY_SET(link_netns, c.value(key));
  } else if (matches(key, "link-netnsid")) {
    if (t.link_netnsid || !link_netns.empty())
      return duplicate("link-netns/link-netnsid", c.done() ? key : c.peek());
    TRY_SET(t.link_netnsid, c.read(key, [](const std::string& text) -> Parsed<int32_t> {
      if (auto id = int_any_base(text)) return *id;
      return invarg("Invalid \"link-netnsid\" value\n", text);
    }));
  } else if (is(key, "protodown_reason")) {
    uint8_t bit = 0;
    TRY_SET(bit, c.read(key, [](const std::string& text) -> Parsed<uint8_t> {
      if (auto n = unsigned_any_base(text); n && *n < 32) return static_cast<uint8_t>(*n);
      return invarg("invalid protodown reason\n", text);
    }));
    bool on = false;
    TRY_SET(on, c.read(key, [](const std::string& text) -> Parsed<bool> {
      if (matches(text, "on")) return true;
      if (matches(text, "off")) return false;
      return refused("Error: argument of \"protodown_reason\" must be \"on\" or \"off\", not \"" + text +
                     "\"");
    }));
    t.protodown_reason = std::pair{bit, on};
  } else if (matches(key, "numtxqueues") || matches(key, "numrxqueues")) {
    bool tx = matches(key, "numtxqueues");
    auto& queues = tx ? t.num_tx_queues : t.num_rx_queues;
    const std::string name = tx ? "numtxqueues" : "numrxqueues";
    if (queues) return duplicate(name, c.done() ? key : c.peek());
    TRY_SET(queues, unsigned_value(name));
  } else if (matches(key, "addrgenmode")) {
    TRY_SET(t.addr_gen_mode, c.read(key, addr_gen_mode));
  } else if (is(key, "gso_max_size")) {
    TRY_SET(t.gso_max_size, unsigned_value(key));
  } else if (is(key, "gso_max_segs")) {
    TRY_SET(t.gso_max_segs, unsigned_value(key));
  } else if (is(key, "gro_max_size")) {
    TRY_SET(t.gro_max_size, unsigned_value(key));
  } else {
    return false;
  }
  return true;
}

Parsed<IpCommand> parse_link_add(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkAdd;
  auto& spec = cmd.link_add();
  std::string lower, type;
  NewLinkName name;
  while (!c.done()) {
    std::string key = c.next();
    bool ok = false;
    if (matches(key, "type")) {
      TRY_SET(type, c.value(key));
      break;
    } else if (is(key, "name")) {
      TRY_SET(ok, name.by_name(c, key));
    } else if (is(key, "netns")) {
      if (!cmd.add_netns.empty()) return duplicate("netns", c.done() ? key : c.peek());
      TRY_SET(cmd.add_netns, c.value(key));
    } else if (matches(key, "link")) {
      TRY_SET(lower, c.device(key));
    } else {
      TRY_SET(ok, parse_new_link_setting(key, c, spec.common, cmd.vrfs, cmd.link_netns));
      if (!ok) TRY_SET(ok, name.by_dev(c, key));
    }
  }
  TRY_SET(spec.name, name.result());
  // ip sends an alias with the new device, and the kernel ignores it there:
  // checked above, then dropped, so the end state is ip's.
  spec.common.alias.clear();
  if (type.empty()) return usage("not enough information: \"type\" argument is required");
  if (spec.name.empty()) return usage("not enough information: \"name\" argument is required");
  TRY_SET(spec.kind, parse_kind(type, c, lower, cmd));
  if (const LinkKindModule* kind = find_link_kind(type); !lower.empty() && !(kind && kind->takes_link))
    return usage("\"link\" is not supported for link type \"" + type + "\"");
  return cmd;
}

Parsed<IpCommand> parse_link_set(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkSet;
  auto& spec = cmd.link_set();
  bool changed = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "up") || is(key, "down")) {
      spec.up = is(key, "up");
    } else if (is(key, "dev")) {
      TRY_SET(spec.name, c.sole_device(key, spec.name));
      continue;
    } else if (is(key, "name")) {
      TRY_SET(spec.new_name, c.link_name(key));
    } else if (is(key, "mtu")) {
      TRY_SET(spec.mtu, c.number<uint32_t>(key));
    } else if (is(key, "address")) {
      TRY_SET(spec.address, c.read(key, set_ll_address));
    } else if (is(key, "master")) {
      TRY_SET(spec.master, c.device(key));
    } else if (is(key, "vrf")) {  // a master that must be a VRF (link_verbs.cc)
      TRY_SET(spec.master, c.device(key));
      cmd.vrfs.push_back(*spec.master);
    } else if (is(key, "nomaster")) {
      spec.master = std::string{};
    } else if (is(key, "netns")) {
      TRY_SET(cmd.set_netns, c.value(key));
      TRY_SET(spec.netns_pid, netns_pid(cmd.set_netns));
    } else if (is(key, "alias")) {
      TRY_SET(spec.alias, c.value(key));
    } else if (is(key, "txqueuelen") || is(key, "txqlen") || is(key, "qlen")) {
      TRY_SET(spec.txqueuelen, c.number<uint32_t>("txqueuelen"));  // ip names it so, whichever word was used
    } else if (is(key, "group")) {
      TRY_SET(spec.group, c.read(key, group_value));
    } else if (is(key, "type")) {
      // As ip: the kind's options run to the end of the line.
      TRY_SET(v, c.value(key));
      if (const LinkKindModule* kind = find_link_kind(v); kind && kind->parse_port)
        TRY_SET(std::ignore, kind->parse_port(c, spec));
      else
        TRY_SET(spec.kind, parse_kind_change(v, c, cmd));
    } else if (is(key, "index")) {
      TRY_SET(spec.new_index, c.read(key, [&spec](const std::string& text) -> Parsed<int32_t> {
        if (spec.new_index) return duplicate("index", text);
        int index = std::atoi(text.c_str());  // as ip reads it
        if (index <= 0) return invarg("Invalid \"index\" value", text);
        return index;
      }));
    } else if (auto tuned = parse_tuning(key, c, spec.tuning, cmd.link_netns); !tuned || *tuned) {
      if (!tuned) return tuned.error();
    } else if (spec.name.empty()) {
      TRY_SET(spec.name, device_name("dev", key));
      continue;
    } else {
      return garbage("dev", key);
    }
    changed = true;
  }
  // Without a device, `group N` names the devices to change (ip's group set).
  if (spec.name.empty() && !spec.group) return usage("not enough information: \"dev\" argument is required");
  if (!changed) return usage("nothing to change on \"" + spec.name + "\"");
  if (spec.new_index && cmd.set_netns.empty())
    return fatal("index can be used only when creating devices or when moving device to another netns.", 255);
  return cmd;
}

Parsed<IpCommand> parse_link_del(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkDel;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "dev")) {
      TRY_SET(cmd.name, c.sole_device(key, cmd.name));
    } else if (is(key, "group")) {
      TRY_SET(cmd.group, c.read(key, group_value));
      cmd.verb = &kLinkDelGroup;
    } else if (is(key, "type")) {
      TRY_SET(v, c.value(key));  // ip accepts and ignores the type on delete
    } else if (cmd.name.empty()) {
      TRY_SET(cmd.name, device_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  if (cmd.verb == &kLinkDelGroup && !cmd.name.empty())
    return usage("\"group\" and a device name are exclusive");
  if (cmd.verb == &kLinkDel && cmd.name.empty())
    return usage("not enough information: \"dev\" argument is required");
  return cmd;
}

}  // namespace

Parsed<bool> link_selector(const std::string& key, Cursor& c, IpCommand& cmd) {
  if (is(key, "master")) {
    TRY_SET(cmd.filter().master, c.device(key));
  } else if (is(key, "vrf")) {
    TRY_SET(cmd.filter().vrf, c.device(key));
  } else if (is(key, "nomaster")) {
    cmd.filter().no_master = true;
  } else if (is(key, "type")) {
    std::string kind;
    TRY_SET(kind, c.value(key));
    constexpr std::string_view suffix = "_slave";
    if (kind.size() >= suffix.size() && std::string_view(kind).ends_with(suffix))
      cmd.filter().slave_kind = kind.substr(0, kind.size() - suffix.size());
    else
      cmd.filter().kind = std::move(kind);
  } else {
    return false;
  }
  return true;
}

namespace {

Parsed<IpCommand> parse_link_show(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kLinkShow;
  while (!c.done()) {
    std::string key = c.next(), v;
    bool selector = false;
    TRY_SET(selector, link_selector(key, c, cmd));
    if (selector) continue;
    if (is(key, "up")) {
      cmd.filter().up_only = true;
    } else if (is(key, "dev")) {
      TRY_SET(cmd.filter().dev, c.sole_device(key, cmd.filter().dev));
    } else if (is(key, "group")) {
      TRY_SET(cmd.filter().show_group, c.read(key, group_value));
    } else if (cmd.filter().dev.empty()) {
      TRY_SET(cmd.filter().dev, device_name("dev", key));
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

// `link property add|del [dev] DEV [altname NAME]...`, as ip's iplink_prop.
Parsed<IpCommand> parse_link_property(Cursor& c, IpCommand&& cmd) {
  if (c.done()) return object_help(link_usage());
  std::string action = c.next();
  if (matches(action, "add"))
    cmd.verb = &kLinkPropAdd;
  else if (matches(action, "del"))
    cmd.verb = &kLinkPropDel;
  else if (action == "help")
    return object_help(link_usage());
  else
    return fail(UsageError{.message = "Operator required", .exact = true});
  auto& change = cmd.altnames();
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "altname")) {
      TRY_SET(v, c.value(key));
      if (!netlink::validate_altname(v, "altname")) return invarg("not a valid altname", v);
      change.altnames.push_back(std::move(v));
    } else if (matches(key, "help")) {
      return object_help(link_usage());
    } else {
      if (is(key, "dev")) TRY_SET(key, c.value(key));
      if (!change.name.empty()) return garbage("dev", key);
      TRY_SET(change.name, device_name("dev", key));
    }
  }
  if (change.name.empty())
    return fail(
        UsageError{.message = "Not enough of information: \"dev\" argument is required.", .exact = true});
  return cmd;
}

}  // namespace

Parsed<uint32_t> group_value(const std::string& text) {
  if (auto group = group_number(text)) return *group;
  return invarg("Invalid \"group\" value\n", text);
}

Parsed<IpCommand> parse_link(Cursor& c, IpCommand&& cmd) {
  if (c.done()) return parse_link_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_link_add(c, std::move(cmd));
  if (matches(verb, "change") || matches(verb, "set")) return parse_link_set(c, std::move(cmd));
  if (matches(verb, "delete")) return parse_link_del(c, std::move(cmd));
  if (matches(verb, "show") || matches(verb, "lst") || matches(verb, "list"))
    return parse_link_show(c, std::move(cmd));
  if (matches(verb, "property")) return parse_link_property(c, std::move(cmd));
  return unknown_command(verb, "link");
}

const Verb* const kLinkVerbs[] = {&kLinkAdd,  &kLinkSet,     &kLinkDel,    &kLinkDelGroup,
                                  &kLinkShow, &kLinkPropAdd, &kLinkPropDel};
const IpObject kLinkObject{
    .name = {"link"},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_link(c, std::move(cmd)); },
    .verbs = kLinkVerbs,
    .usage = link_usage};

}  // namespace brisk::ipcli
