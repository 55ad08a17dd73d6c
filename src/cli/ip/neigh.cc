// ip neigh: add, replace, delete and show.
#include <linux/neighbour.h>

#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"

namespace brisk::ipcli {
namespace {

using netlink::NlResult;

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
      TRY_SET(spec.dev, c.device(key));
    } else if (key == "lladdr") {
      TRY_SET(spec.lladdr, c.mac(key));
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
      TRY_SET(cmd.dev, c.device(key));
    } else if (key == "nud") {
      TRY_SET(v, c.value(key));
      uint32_t state = 0;
      TRY_SET(state, nud_filter(v));
      cmd.nud = cmd.nud.value_or(0) | state;  // several nud arguments add up
    } else if (key == "to" || (!cmd.to && key.find_first_of(".:") != std::string::npos)) {
      if (key == "to") TRY_SET(key, c.value(key));
      auto prefix = netlink::IpPrefix::parse(key.find('/') == std::string::npos
                                                 ? key + (key.find(':') == std::string::npos ? "/32" : "/128")
                                                 : key);
      if (!prefix) return invalid("invalid \"to\" prefix", key);
      cmd.to = *prefix;
    } else {
      return garbage("dev", key);
    }
  }
  return cmd;
}

}  // namespace

Parsed<Command> parse_neigh(Cursor& c, Command cmd, int family) {
  if (c.done()) return parse_neigh_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_neigh_change(c, std::move(cmd), Verb::neigh_add, family);
  if (matches(verb, "replace")) return parse_neigh_change(c, std::move(cmd), Verb::neigh_replace, family);
  if (matches(verb, "delete")) return parse_neigh_change(c, std::move(cmd), Verb::neigh_del, family);
  if (matches(verb, "show") || matches(verb, "list") || matches(verb, "lst")) return parse_neigh_show(c, std::move(cmd));
  if (matches(verb, "flush")) {
    if (c.done()) return refused("Flush requires arguments.");
    auto flush = parse_neigh_show(c, std::move(cmd));
    if (flush) flush->verb = Verb::neigh_flush;
    return flush;
  }
  return unknown_command(verb, "neigh");
}

NlResult<void> flush_neighbours(Runner& r, const Command& cmd) {
  auto c = BRISK_TRY(r.conn());
  auto all = BRISK_TRY(r.links_by_index(false));
  // As ip: by default every state but permanent and noarp; "nud all" is
  // every state but noarp.
  uint32_t wanted = cmd.nud.value_or(~uint32_t(NUD_PERMANENT | NUD_NOARP) & ~0x100u);
  if (wanted == ~0u) wanted &= ~uint32_t(NUD_NOARP);
  netlink::Batch batch(*c);
  for (const auto& n : BRISK_TRY(netlink::list_neighbours(*c, {.dev = cmd.dev, .family = cmd.family}))) {
    bool chosen = (n.state & wanted) || (n.state == 0 && (wanted & 0x100));
    if (!chosen || (cmd.to && !within(n.address, *cmd.to))) continue;
    batch.delete_neighbour({.dev = name_of(n.ifindex, all), .address = n.address.to_string()});
  }
  for (auto& result : batch.flush()) {
    // An entry the kernel dropped meanwhile (garbage collection) is fine.
    if (!result && result.error().code != ENOENT) return result;
  }
  return {};
}

std::string neigh_record(const netlink::NeighbourInfo& n, const Links& all, bool with_dev, Json& j) {
  j["dst"] = n.address.to_string();
  std::string t = n.address.to_string();
  if (with_dev) {
    j["dev"] = name_of(n.ifindex, all);
    t += " dev " + name_of(n.ifindex, all);
  }
  if (n.lladdr) {
    j["lladdr"] = n.lladdr->to_string();
    t += " lladdr " + n.lladdr->to_string();
  }
  for (auto [bit, name] : {std::pair{NTF_ROUTER, "router"}, {NTF_PROXY, "proxy"}, {NTF_EXT_LEARNED, "extern_learn"},
                           {NTF_OFFLOADED, "offload"}}) {
    if (!(n.flags & bit)) continue;
    j[name] = nullptr;
    t += std::string(" ") + name;
  }
  j["state"] = nud_names(n.state);
  return t + " " + join(nud_names(n.state), " ") + " \n";
}

NlResult<void> show_neighbours(Runner& r, const Command& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  const Globals& g = r.globals();
  auto all = BRISK_TRY(r.links_by_index(false));
  for (const auto& n : BRISK_TRY(netlink::list_neighbours(*c, {.dev = cmd.dev, .family = cmd.family}))) {
    // As ip: by default every state but NOARP and none; proxy and
    // externally learned entries whatever their state.
    uint32_t wanted = cmd.nud.value_or(~uint32_t(NUD_NOARP) & ~0x100u);
    bool shown = (n.state & wanted) || (n.flags & (NTF_PROXY | NTF_EXT_LEARNED)) || (n.state == 0 && (wanted & 0x100));
    if (!shown || (cmd.to && !within(n.address, *cmd.to))) continue;
    Json j;
    if (g.brief) {  // ip -br: "%-39s %-16s %s", the device only without a dev filter
      j["dst"] = n.address.to_string();
      if (cmd.dev.empty()) j["dev"] = name_of(n.ifindex, all);
      if (n.lladdr) j["lladdr"] = n.lladdr->to_string();
      if (g.json) {
        r.emit(std::move(j));
        continue;
      }
      std::string t = column(n.address.to_string(), 39) + " ";
      if (cmd.dev.empty()) t += column(name_of(n.ifindex, all), 16) + " ";
      r.out() += t + (n.lladdr ? n.lladdr->to_string() : "") + "\n";
      continue;
    }
    std::string t = neigh_record(n, all, cmd.dev.empty(), j);
    if (g.json) r.emit(std::move(j));
    else r.out() += t;
  }
  return {};
}

}  // namespace brisk::ipcli
