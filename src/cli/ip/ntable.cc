// ip ntable: the neighbour tables (arp_cache, ndisc_cache), their
// thresholds and each device's parameters in them, shown and changed as
// ip 6.1's ipntable.c shows and changes them.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>

#include "brisk/netlink/link.h"
#include "cli/ip/detail_printer.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/names.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_style.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"
#include "netlink/internal/neigh_table.h"

namespace brisk::ipcli {

// `brisk ntable help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kNtableUsage = R"(Usage: brisk ntable change name NAME [ dev DEV ]
        [ thresh1 VAL ] [ thresh2 VAL ] [ thresh3 VAL ] [ gc_int MSEC ]
        [ PARMS ]
       brisk ntable show [ dev DEV | none ] [ name NAME ]
PARMS := [ base_reachable MSEC ] [ retrans MSEC ] [ gc_stale MSEC ]
         [ delay_probe MSEC ] [ queue LEN ]
         [ app_probes VAL ] [ ucast_probes VAL ] [ mcast_probes VAL ]
         [ anycast_delay MSEC ] [ proxy_delay MSEC ] [ proxy_queue LEN ]
         [ locktime MSEC ]
NAME is arp_cache (IPv4) or ndisc_cache (IPv6). The thresholds and gc_int are
the table's; PARMS are its defaults, or DEV's own. -s adds each table's config
and counters; dev none shows the tables without their devices.
)";

const Verb kNtableShow{.name = "ntable show",
                       .run = show_ntables,
                       .looks_up_devices = true,
                       .missing_device_words = "\"DEV\" is invalid"};
// Sent alone, in its place in the batch (RTM_SETNEIGHTBL); ip exit(2)s when the kernel refuses it.
const Verb kNtableChange{.name = "ntable change", .run = change_ntable, .exits_on_kernel_refusal = true};

using netlink::NlResult;

namespace {

// ip's get_u64(.., 0): strtoull's bases, signs and leading blanks, the whole
// word; only an overflow is refused ("-1" is 2^64-1, as in ip).
std::optional<uint64_t> get_u64(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 0);
  if (end == text.c_str() || *end || errno == ERANGE) return std::nullopt;
  return value;
}

// ip's get_u32(.., 0): the same through strtoul, at most 2^32-1.
std::optional<uint32_t> get_u32(const std::string& text) {
  auto value = get_u64(text);
  if (!value || *value > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

// A keyword's value read as ip reads it, with ip's complaint about it.
template <class T>
Parsed<T> ntable_value(Cursor& c, const std::string& key) {
  auto text = c.value(key);
  if (!text) return text.error();
  auto value = sizeof(T) == 4 ? std::optional<uint64_t>(get_u32(*text)) : get_u64(*text);
  if (!value) return invarg("\"" + key + "\" value is invalid", *text);
  return static_cast<T>(*value);
}

// ipntable_modify(): `name` once, thresholds, gc_int, `dev`, and the
// parameters; any other word is ip's "unknown".
Parsed<IpCommand> parse_ntable_change(Cursor& c, IpCommand&& cmd, int family) {
  cmd.verb = &kNtableChange;
  NtableChange& ntable = cmd.ntable();
  netlink::NeighTableChange& t = ntable.change;
  t.family = family;
  bool named = false;
  struct U32Key {
    const char* key;
    std::optional<uint32_t> netlink::NeighTableChange::*field;
  };
  struct U64Key {
    const char* key;
    std::optional<uint64_t> netlink::NeighTableChange::*field;
  };
  using C = netlink::NeighTableChange;
  static constexpr U32Key kU32[] = {{"thresh1", &C::thresh1},           {"thresh2", &C::thresh2},
                                    {"thresh3", &C::thresh3},           {"queue", &C::queue_len},
                                    {"app_probes", &C::app_probes},     {"ucast_probes", &C::ucast_probes},
                                    {"mcast_probes", &C::mcast_probes}, {"proxy_queue", &C::proxy_qlen}};
  static constexpr U64Key kU64[] = {
      {"gc_int", &C::gc_interval},           {"base_reachable", &C::base_reachable_time},
      {"retrans", &C::retrans_time},         {"gc_stale", &C::gc_staletime},
      {"delay_probe", &C::delay_probe_time}, {"anycast_delay", &C::anycast_delay},
      {"proxy_delay", &C::proxy_delay},      {"locktime", &C::locktime}};
  while (!c.done()) {
    std::string word = c.next();
    if (word == "name") {
      std::string name;
      TRY_SET(name, c.value(word));
      if (named) return duplicate("NAME", name);
      t.name = name;
      named = true;
      continue;
    }
    if (word == "dev") {
      TRY_SET(ntable.dev, c.value(word));  // looked up when run; the last one counts, as in the kernel
      continue;
    }
    auto u32 = std::find_if(std::begin(kU32), std::end(kU32), [&](const U32Key& k) { return word == k.key; });
    auto u64 = std::find_if(std::begin(kU64), std::end(kU64), [&](const U64Key& k) { return word == k.key; });
    if (u32 != std::end(kU32))
      TRY_SET(t.*u32->field, ntable_value<uint32_t>(c, word));
    else if (u64 != std::end(kU64))
      TRY_SET(t.*u64->field, ntable_value<uint64_t>(c, word));
    else
      return invarg("unknown", word);
  }
  if (!named) return fatal("Error: argument \"NAME\" is required", 255);  // ip's missarg()
  bool thresholds = t.thresh1 || t.thresh2 || t.thresh3 || t.gc_interval;
  bool parms = t.base_reachable_time || t.retrans_time || t.gc_staletime || t.delay_probe_time ||
               t.queue_len || t.app_probes || t.ucast_probes || t.mcast_probes || t.anycast_delay ||
               t.proxy_delay || t.proxy_qlen || t.locktime;
  if (!thresholds && !parms) return fatal("Not enough information: changeable attributes required.", 255);
  return std::move(cmd);
}

// ntable_strtime_delta(): the local time `msec` ago, "(error)" for none.
std::string time_ago(uint32_t msec) {
  if (msec == 0) return "(error)";
  std::time_t when = std::time(nullptr) - msec / 1000;
  std::tm local{};
  if (!::localtime_r(&when, &local)) return "(error)";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %T", &local);
  return text;
}

// print_ntable(): one table, or one device's parameters in it.
void print_ntable(const netlink::NeighTableInfo& t, const Globals& g, const Links& all, DetailPrinter& out) {
  const std::string nl = g.oneline ? "\\" : "\n";
  std::string family = family_name(t.family);
  out.json("family", family);
  out.text(family + " ");
  if (!t.name.empty()) {
    out.json("name", t.name);
    out.text(t.name + " ");
  }
  out.text(nl);
  bool thresholds = t.thresh1 || t.thresh2 || t.thresh3 || t.gc_interval;
  if (thresholds) out.text("    ");
  if (t.thresh1) out.field("thresh1", "thresh1", *t.thresh1);
  if (t.thresh2) out.field("thresh2", "thresh2", *t.thresh2);
  if (t.thresh3) out.field("thresh3", "thresh3", *t.thresh3);
  if (t.gc_interval) out.field("gc_interval", "gc_int", *t.gc_interval);
  if (thresholds) out.text(nl);
  if (t.config && g.stats) {
    const ndt_config& k = *t.config;
    out.field("key_length", "    config key_len", k.ndtc_key_len);
    out.field("entry_size", "entry_size", k.ndtc_entry_size);
    out.field("entries", "entries", k.ndtc_entries);
    out.text(nl);
    out.field("last_flush", "        last_flush", time_ago(k.ndtc_last_flush));
    out.field("last_rand", "last_rand", time_ago(k.ndtc_last_rand));
    out.text(nl);
    out.field("hash_rnd", "        hash_rnd", k.ndtc_hash_rnd);
    char mask[24];
    std::snprintf(mask, sizeof mask, "%08llx", static_cast<unsigned long long>(k.ndtc_hash_mask));
    out.json("hash_mask", DetailPrinter::hex_text(k.ndtc_hash_mask));
    out.text(std::string("hash_mask ") + mask + " ");
    out.field("hash_chain_gc", "hash_chain_gc", k.ndtc_hash_chain_gc);
    out.field("proxy_qlen", "proxy_qlen", k.ndtc_proxy_qlen);
    out.text(nl);
  }
  if (t.parms) {
    const netlink::NeighTableParms& p = *t.parms;
    if (p.ifindex) {
      std::string dev = name_of(*p.ifindex, all);
      out.json("dev", dev);
      out.text("    dev " + (print_style().color ? paint_spaced(Paint::ifname, dev) : dev + " ") + nl);
    }
    out.text("    ");
    auto u = [&out](const char* key, const auto& value) {
      if (value) out.field(key, key, static_cast<uint64_t>(*value));
    };
    u("refcnt", p.refcnt);
    u("reachable", p.reachable_time);
    u("base_reachable", p.base_reachable_time);
    u("retrans", p.retrans_time);
    out.text(nl + "    ");
    u("gc_stale", p.gc_staletime);
    u("delay_probe", p.delay_probe_time);
    u("queue", p.queue_len);
    out.text(nl + "    ");
    u("app_probes", p.app_probes);
    u("ucast_probes", p.ucast_probes);
    u("mcast_probes", p.mcast_probes);
    out.text(nl + "    ");
    u("anycast_delay", p.anycast_delay);
    u("proxy_delay", p.proxy_delay);
    u("proxy_queue", p.proxy_qlen);
    u("locktime", p.locktime);
    out.text(nl);
  }
  if (t.stats && g.stats) {
    const ndt_stats& s = *t.stats;
    out.text("    stats ");
    out.field("allocs", "allocs", s.ndts_allocs);
    out.field("destroys", "destroys", s.ndts_destroys);
    out.field("hash_grows", "hash_grows", s.ndts_hash_grows);
    out.text(nl + "    ");
    out.field("res_failed", "res_failed", s.ndts_res_failed);
    out.field("lookups", "lookups", s.ndts_lookups);
    out.field("hits", "hits", s.ndts_hits);
    out.text(nl + "    ");
    out.field("rcv_probes_mcast", "rcv_probes_mcast", s.ndts_rcv_probes_mcast);
    out.field("rcv_probes_ucast", "rcv_probes_ucast", s.ndts_rcv_probes_ucast);
    out.text(nl + "    ");
    out.field("periodic_gc_runs", "periodic_gc_runs", s.ndts_periodic_gc_runs);
    out.field("forced_gc_runs", "forced_gc_runs", s.ndts_forced_gc_runs);
    out.text(nl + "    ");
    out.field("table_fulls", "table_fulls", s.ndts_table_fulls);
    out.text(nl);
  }
  out.text("\n");
}

// The device a line names, looked up as ip does; its absence in ip's words
// for `show` (an argument error) or change ("Cannot find device").
NlResult<int> ntable_device(netlink::Connection& conn, const std::string& dev, bool show) {
  auto index = netlink::resolve_link(conn, dev);
  if (index || index.error().code != ENODEV) return index;
  if (show) return netlink::missing_argument("ntable show", "", netlink::Argument::device, dev);
  return netlink::missing_argument("ntable change", dev, netlink::Argument::device, dev);
}

}  // namespace

Parsed<IpCommand> parse_ntable(Cursor& c, IpCommand&& cmd, int family) {
  cmd.verb = &kNtableShow;
  if (c.done()) return std::move(cmd);
  std::string verb = c.next();
  if (matches(verb, "change") || matches(verb, "chg")) return parse_ntable_change(c, std::move(cmd), family);
  if (matches(verb, "show") || matches(verb, "lst") || matches(verb, "list")) {
    while (!c.done()) {
      std::string word = c.next();
      if (word == "dev") {
        TRY_SET(cmd.filter().dev, c.value(word));  // "none": the tables' own parameters alone
      } else if (word == "name") {
        TRY_SET(cmd.name, c.value(word));
      } else {
        return invarg("unknown", word);
      }
    }
    return std::move(cmd);
  }
  if (matches(verb, "help")) return object_help(kNtableUsage);
  return unknown_command(verb, "ntable");
}

NlResult<void> show_ntables(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  const Globals& g = r.globals();
  const std::string& dev = cmd.filter().dev;
  int index = dev.empty() ? 0 : dev == "none" ? -1 : BRISK_TRY(ntable_device(*c, dev, true));
  r.use_json();
  const Links& all = BRISK_TRY(r.links_by_index(false));
  for (const auto& t : BRISK_TRY(netlink::list_neigh_tables(*c, g.family))) {
    if (g.family != AF_UNSPEC && t.family != g.family) continue;
    if (!cmd.name.empty() && t.name != cmd.name) continue;
    // As ip: a record without parameters passes any dev filter.
    if (t.parms && index && (t.parms->ifindex ? *t.parms->ifindex != index : index != -1)) continue;
    std::string text;
    Json j;
    DetailPrinter out(g.json ? nullptr : &text, g.json ? &j : nullptr);
    print_ntable(t, g, all, out);
    if (g.json)
      r.emit(std::move(j));
    else
      r.out() += text;
  }
  return {};
}

NlResult<void> change_ntable(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  netlink::NeighTableChange change = cmd.ntable().change;
  if (!cmd.ntable().dev.empty()) change.ifindex = BRISK_TRY(ntable_device(*c, cmd.ntable().dev, false));
  return netlink::change_neigh_table(*c, change);
}

const Verb* const kNtableVerbs[] = {&kNtableShow, &kNtableChange};
const IpObject kNtableObject{
    .name = {"ntable"},
    .alias = {"ntbl"},
    .parse = [](Cursor& c, IpCommand&& cmd,
                const Globals& g) { return parse_ntable(c, std::move(cmd), g.family); },
    .verbs = kNtableVerbs,
    .usage = [] { return kNtableUsage; }};

}  // namespace brisk::ipcli
