// ip neigh: add, replace, change, delete, show and flush, of cache and proxy entries.
#include <linux/neighbour.h>
#include <unistd.h>

#include "cli/ip/flush_rounds.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk neighbor help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kNeighUsage = R"(Usage: brisk neigh { add | del | change | replace }
                 { ADDR [ lladdr { LLADDR | null } ] [ nud STATE ] | proxy ADDR }
                 dev DEV [ router ] [ use ] [ managed ] [ extern_learn ]
                 [ protocol PROTO ]
       brisk neigh show [ proxy ] [ dev DEV ] [ [ to ] PREFIX ] [ nud { STATE | all } ]...
                 [ master DEV | vrf NAME | nomaster ] [ protocol { PROTO | all } ] [ unused ]
       brisk neigh flush SELECTOR...    (show's selectors, at least one)
       brisk neigh get { [ to ] ADDR dev DEV | proxy ADDR [ dev DEV ] }
STATE := { delay | failed | incomplete | noarp | none |
           permanent | probe | reachable | stale | NUMBER }
)";

namespace {
template <auto Method>
constexpr Verb neigh_change(std::string_view name) {
  Verb verb = device_change<Method, &netlink::NeighbourSpec::dev>(name);
  verb.exits_on_kernel_refusal = true;  // ip neigh exit(2)s when the kernel refuses it, batch or not
  return verb;
}
}  // namespace

const Verb kNeighAdd = neigh_change<&netlink::Batch::add_neighbour>("neigh add");
const Verb kNeighReplace = neigh_change<&netlink::Batch::replace_neighbour>("neigh replace");
const Verb kNeighChange = neigh_change<&netlink::Batch::change_neighbour>("neigh change");
const Verb kNeighDel = neigh_change<&netlink::Batch::delete_neighbour>("neigh del");
const Verb kNeighShow{.name = "neigh show", .run = show_neighbours, .looks_up_devices = true};
const Verb kNeighFlush{.name = "neigh flush",
                       .run = flush_neighbours,
                       .looks_up_devices = true,
                       .dump_ended = "\nFlush terminated"};
const Verb kNeighGet{.name = "neigh get", .run = get_neighbour};

namespace {

using netlink::NlResult;

// ip's nud_state_a2n(): a name (permanent, reachable and failed may be
// abbreviated) or a number with at most one bit of the low eight set.
std::optional<uint16_t> nud_state(const std::string& text) {
  for (auto [name, state] : {std::pair{"permanent", NUD_PERMANENT}, {"reachable", NUD_REACHABLE}}) {
    if (matches(text, name)) return uint16_t(state);
  }
  for (auto [name, state] : {std::pair{"noarp", NUD_NOARP},
                             {"none", NUD_NONE},
                             {"stale", NUD_STALE},
                             {"incomplete", NUD_INCOMPLETE},
                             {"delay", NUD_DELAY},
                             {"probe", NUD_PROBE}}) {
    if (text == name) return uint16_t(state);
  }
  if (matches(text, "failed")) return uint16_t(NUD_FAILED);
  auto n = number<uint32_t>("nud", text);
  if (!n || *n >= 0x100 || (*n & (*n - 1))) return std::nullopt;
  return uint16_t(*n);
}

Parsed<IpCommand> parse_neigh_change(Cursor& c, IpCommand&& cmd, const Verb* verb, int family) {
  cmd.verb = verb;
  auto& spec = cmd.neigh();
  bool have_lladdr = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "lladdr")) {
      TRY_SET(v, c.value(key));
      if (have_lladdr) return duplicate("lladdr", v);
      have_lladdr = true;
      if (v != "null") TRY_SET(spec.lladdr, ll_address(v));  // "null": none, as ip
    } else if (is(key, "nud")) {
      TRY_SET(v, c.value(key));
      auto state = nud_state(v);
      if (!state) return invarg("nud state is bad", v);
      spec.state = *state;
    } else if (matches(key, "proxy")) {
      TRY_SET(v, c.value(key));
      if (!spec.address.empty()) return duplicate("address", v);
      TRY_SET(spec.address, ip_address("proxy", v, family));
      spec.flags |= NTF_PROXY;
    } else if (is(key, "router")) {
      spec.flags |= NTF_ROUTER;
    } else if (is(key, "use")) {
      spec.flags |= NTF_USE;
    } else if (is(key, "managed")) {
      spec.managed = true;
      spec.state = NUD_NONE;  // as ip: the kernel resolves it
    } else if (matches(key, "extern_learn")) {
      spec.flags |= NTF_EXT_LEARNED;
    } else if (is(key, "dev")) {
      TRY_SET(spec.dev, c.device(key));
    } else if (matches(key, "protocol")) {
      TRY_SET(spec.protocol, c.read(key, protocol_value));
    } else if (spec.address.empty()) {
      if (is(key, "to")) TRY_SET(key, c.value(key));
      TRY_SET(spec.address, ip_address("to", key, family));
    } else {
      return garbage("to", key);
    }
  }
  // A proxy entry may be on no device.
  if (spec.address.empty() || (spec.dev.empty() && !(spec.flags & NTF_PROXY)))
    return fatal("Device and destination are required arguments.", 255);
  return cmd;
}

// What `ip neigh show nud STATE` filters on: a NUD_* bit, every state for
// "all", and 0x100 standing for "none" (a state of 0), as ip reads them.
Parsed<uint32_t> nud_filter(const std::string& text) {
  if (auto state = nud_state(text)) return *state ? uint32_t(*state) : 0x100u;
  if (text == "all") return ~0u;
  return invarg("nud state is bad", text);
}

// show's `[to] PREFIX`, as ip's get_prefix(): "all", "any" and "default" are
// every address (of the family given, if one is); anything else must parse.
Parsed<std::optional<netlink::IpPrefix>> show_prefix(const std::string& text, int family) {
  if (family == AF_PACKET) return ip_prefix("to", text, family).error();  // -0: ip's error, before the words
  if (text == "all" || text == "any" || text == "default") return std::optional<netlink::IpPrefix>{};
  std::string canonical;
  TRY_SET(canonical, ip_prefix("to", text, family));
  return std::optional<netlink::IpPrefix>{*netlink::IpPrefix::parse(canonical)};
}

// ip's do_show_or_flush(): its keywords in its order, a prefix for any other word.
Parsed<IpCommand> parse_neigh_show(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kNeighShow;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "dev")) {
      TRY_SET(v, c.value(key));
      if (!cmd.filter().dev.empty()) return duplicate("dev", v);
      TRY_SET(cmd.filter().dev, device_name(key, v));
    } else if (is(key, "master")) {
      TRY_SET(cmd.filter().master, c.device(key));
    } else if (is(key, "vrf")) {
      TRY_SET(cmd.filter().vrf, c.device(key));
    } else if (is(key, "nomaster")) {
      cmd.filter().no_master = true;
    } else if (is(key, "unused")) {
      cmd.filter().neigh_unused = true;
    } else if (is(key, "nud")) {
      TRY_SET(v, c.value(key));
      uint32_t state = 0;
      TRY_SET(state, nud_filter(v));
      cmd.filter().nud = cmd.filter().nud.value_or(0) | state;  // several nud arguments add up
    } else if (is(key, "proxy")) {
      cmd.filter().neigh_proxy = true;
    } else if (matches(key, "protocol")) {
      TRY_SET(cmd.filter().protocol, c.read(key, protocol_selector));
    } else {
      if (is(key, "to")) TRY_SET(key, c.value(key));
      std::optional<netlink::IpPrefix> prefix;
      TRY_SET(prefix, show_prefix(key, cmd.family));
      cmd.filter().to = prefix;
      if (prefix && cmd.family == AF_UNSPEC) cmd.family = prefix->address.family;  // as ip
    }
  }
  return cmd;
}

// ip's ipneigh_get(): `get [to] ADDR dev DEV` or `get proxy ADDR [dev DEV]`.
Parsed<IpCommand> parse_neigh_get(Cursor& c, IpCommand&& cmd, int family) {
  cmd.verb = &kNeighGet;
  auto& spec = cmd.neigh();
  bool have_dev = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (is(key, "dev")) {
      TRY_SET(v, c.value(key));
      TRY_SET(spec.dev, device_name(key, v));  // as ip, a second dev replaces the first
      have_dev = true;
    } else if (matches(key, "proxy")) {
      TRY_SET(v, c.value(key));
      if (matches(v, "help")) return object_help(kNeighUsage);
      if (!spec.address.empty()) return duplicate("address", v);
      TRY_SET(spec.address, ip_address("proxy", v, family));
      spec.flags = NTF_PROXY;
      have_dev = true;  // the proxy entry for every device, without one
    } else {
      if (is(key, "to")) TRY_SET(key, c.value(key));
      if (matches(key, "help")) return object_help(kNeighUsage);
      if (!spec.address.empty()) return garbage("to", key);
      TRY_SET(spec.address, ip_address("to", key, family));
    }
  }
  if (!have_dev || spec.address.empty()) return refused("Device and address are required arguments.");
  return cmd;
}

}  // namespace

Parsed<IpCommand> parse_neigh(Cursor& c, IpCommand&& cmd, int family) {
  if (c.done()) return parse_neigh_show(c, std::move(cmd));
  std::string verb = c.next();
  if (matches(verb, "add")) return parse_neigh_change(c, std::move(cmd), &kNeighAdd, family);
  if (matches(verb, "change") || verb == "chg")
    return parse_neigh_change(c, std::move(cmd), &kNeighChange, family);
  if (matches(verb, "replace")) return parse_neigh_change(c, std::move(cmd), &kNeighReplace, family);
  if (matches(verb, "delete")) return parse_neigh_change(c, std::move(cmd), &kNeighDel, family);
  if (matches(verb, "get")) return parse_neigh_get(c, std::move(cmd), family);
  if (matches(verb, "show") || matches(verb, "list") || matches(verb, "lst"))
    return parse_neigh_show(c, std::move(cmd));
  if (matches(verb, "flush")) {
    if (c.done()) return refused("Flush requires arguments.");
    auto flush = parse_neigh_show(c, std::move(cmd));
    if (flush) flush->verb = &kNeighFlush;
    return flush;
  }
  return unknown_command(verb, "neigh");
}

namespace {

// What a show or flush asks the kernel for: the device and master filters
// go into the dump request, the rest is tested per entry (`selected`).
NlResult<netlink::NeighbourFilter> dump_filter(const IpCommand& cmd, const Links& all) {
  netlink::NeighbourFilter filter{.dev = cmd.filter().dev,
                                  .family = cmd.family,
                                  .proxy = cmd.filter().neigh_proxy,
                                  .no_master = cmd.filter().no_master};
  if (int master = BRISK_TRY(selected_master(cmd, all))) filter.master = name_of(master, all);
  return filter;
}

// ip's print_neigh() filter: the nud states wanted (proxy and externally
// learned entries whatever their state; 0x100 for a state of none), the
// prefix, the protocol, and for "unused" no reference held.
bool selected(const netlink::NeighbourInfo& n, const IpCommand& cmd, uint32_t wanted) {
  bool state =
      (n.state & wanted) || (n.flags & (NTF_PROXY | NTF_EXT_LEARNED)) || (n.state == 0 && (wanted & 0x100));
  return state && (!cmd.filter().to || within(n.address, *cmd.filter().to)) &&
         (!cmd.filter().protocol || n.protocol == *cmd.filter().protocol) &&
         (!cmd.filter().neigh_unused || n.refcnt == 0);
}

}  // namespace

namespace {
void print_neighbour(Runner& r, const netlink::NeighbourInfo& n, const Links& all, bool with_dev);
}  // namespace

NlResult<void> flush_neighbours(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  auto all = BRISK_TRY(r.links_by_index(false));
  // As ip: by default every state but permanent and noarp; "nud all" is
  // every state but noarp.
  uint32_t wanted = cmd.filter().nud.value_or(~uint32_t(NUD_PERMANENT | NUD_NOARP) & ~0x100u);
  if (wanted == ~0u) wanted &= ~uint32_t(NUD_NOARP);
  auto filter = BRISK_TRY(dump_filter(cmd, all));
  const Globals& g = r.globals();
  // ip's MAX_ROUNDS, and its words when they run out.
  FlushRounds rounds{.max_rounds = 10, .out_of_rounds = "*** Flush not complete bailing out after "};
  return flush_in_rounds(r, rounds, [&]() -> NlResult<std::size_t> {
    netlink::Batch batch(*c);
    std::size_t deleted = 0;
    for (const auto& n : BRISK_TRY(netlink::list_neighbours(*c, filter))) {
      if (!selected(n, cmd, wanted)) continue;
      if (g.stats > 1 && !g.json)
        print_neighbour(r, n, all, cmd.filter().dev.empty() && n.ifindex);  // -s -s: as show
      batch.delete_neighbour({.dev = n.ifindex ? name_of(n.ifindex, all) : "",
                              .address = n.address.to_string(),
                              .flags = uint8_t(n.flags & NTF_PROXY)});
      ++deleted;
    }
    for (auto& result : batch.flush()) {
      // An entry the kernel dropped meanwhile (garbage collection) is fine.
      if (!result && result.error().code != ENOENT) return std::move(result).error();
    }
    return deleted;
  });
}

std::string neigh_record(const netlink::NeighbourInfo& n, const Links& all, bool with_dev, Json& j,
                         bool stats) {
  // ip paints each of the first three with the space after it (paint_spaced).
  j["dst"] = n.address.to_string();
  std::string t = paint_spaced(family_paint(n.address.family), n.address.to_string());
  if (with_dev) painted_field(j, t, "dev", "dev", Paint::ifname, name_of(n.ifindex, all));
  if (n.lladdr) painted_field(j, t, "lladdr", "lladdr", Paint::mac, n.lladdr->to_string());
  // ip's order; managed is an extended flag, kept apart.
  for (auto [bit, name] : {std::pair{NTF_ROUTER, "router"},
                           {NTF_PROXY, "proxy"},
                           {0, "managed"},
                           {NTF_EXT_LEARNED, "extern_learn"},
                           {NTF_OFFLOADED, "offload"}}) {
    if (!(bit ? (n.flags & bit) : n.managed)) continue;
    j[name] = nullptr;
    t += std::string(" ") + name;
  }
  if (stats) {  // ip -s: the cache's ages in seconds, then the probes, before the state
    static const long hz = ::sysconf(_SC_CLK_TCK);
    t += " ";
    if (n.refcnt) {
      j["refcnt"] = n.refcnt;
      t += " ref " + std::to_string(n.refcnt);
    }
    j["used"] = n.used / hz;
    j["confirmed"] = n.confirmed / hz;
    j["updated"] = n.updated / hz;
    t += " used " + std::to_string(n.used / hz) + "/" + std::to_string(n.confirmed / hz) + "/" +
         std::to_string(n.updated / hz);
    if (n.probes) {
      j["probes"] = *n.probes;
      t += "probes " + std::to_string(*n.probes);
    }
  }
  if (n.state) {  // a proxy entry, say, has none: ip prints no state
    j["state"] = nud_names(n.state);
    t += " " + join(nud_names(n.state), " ");
  }
  if (n.protocol) {
    j["protocol"] = protocol_name(n.protocol);
    t += " proto " + protocol_name(n.protocol);
  }
  return t + " \n";
}

namespace {

// One entry as show and get print it; with_dev: " dev NAME" (no dev filter).
void print_neighbour(Runner& r, const netlink::NeighbourInfo& n, const Links& all, bool with_dev) {
  const Globals& g = r.globals();
  Json j;
  if (g.brief) {  // ip -br: "%-39s %-16s %s"
    j["dst"] = n.address.to_string();
    if (with_dev) j["dev"] = name_of(n.ifindex, all);
    if (n.lladdr) j["lladdr"] = n.lladdr->to_string();
    if (g.json) return r.emit(std::move(j));
    std::string t = paint(family_paint(n.address.family), column(n.address.to_string(), 39) + " ");
    if (with_dev) t += paint(Paint::ifname, column(name_of(n.ifindex, all), 16) + " ");
    r.out() += t + (n.lladdr ? paint(Paint::mac, n.lladdr->to_string()) : "") + "\n";
    return;
  }
  std::string t = neigh_record(n, all, with_dev, j, g.stats > 0);
  if (g.json)
    r.emit(std::move(j));
  else
    r.out() += t;
}

}  // namespace

NlResult<void> show_neighbours(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();
  auto all = BRISK_TRY(r.links_by_index(false));
  // As ip: by default every state but NOARP and none.
  uint32_t wanted = cmd.filter().nud.value_or(~uint32_t(NUD_NOARP) & ~0x100u);
  for (const auto& n : BRISK_TRY(netlink::list_neighbours(*c, BRISK_TRY(dump_filter(cmd, all)))))
    if (selected(n, cmd, wanted)) print_neighbour(r, n, all, cmd.filter().dev.empty() && n.ifindex);
  return {};
}

NlResult<void> get_neighbour(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  r.use_json();  // a JSON array as show's, as ip has printed it since 6.2 (6.1 printed text for -j)
  const auto& spec = cmd.neigh();
  auto n = BRISK_TRY(netlink::get_neighbour(*c, spec.dev, spec.address, spec.flags & NTF_PROXY));
  // The one device the entry names: a GETLINK, not a dump of every link
  // (a script may ask for one neighbour at a time on a host of thousands).
  Links named;
  if (n.ifindex) {
    if (auto l = netlink::get_link(*c, n.ifindex)) named.emplace(n.ifindex, std::move(*l));
  }
  print_neighbour(r, n, named, n.ifindex != 0);
  return {};
}

const Verb* const kNeighVerbs[] = {&kNeighAdd,  &kNeighReplace, &kNeighChange, &kNeighDel,
                                   &kNeighShow, &kNeighFlush,   &kNeighGet};
const IpObject kNeighObject{
    .name = {"neighbor"},
    .alias = {"neighbour"},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_neigh(c, std::move(cmd), g.family); },
    .verbs = kNeighVerbs,
    .usage = [] { return kNeighUsage; }};

}  // namespace brisk::ipcli
