// ip link's macvlan and macvtap kinds, as ip 6.1's iplink_macvlan.c: `link
// DEV type macvlan|macvtap OPTIONS` for a new device, `type macvlan|macvtap
// OPTIONS` for a change of one, and their `-d` details.
#include <linux/if_link.h>

#include <cstring>
#include <vector>

#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

using netlink::Attributes;
using netlink::AttrKind;

// ip's macvlan usage, for macvlan or macvtap (its print_explain).
std::string macvlan_usage(const std::string& type) {
  return "Usage: ... " + type +
         " mode MODE [flag MODE_FLAG] MODE_OPTS [bcqueuelen BC_QUEUE_LEN]\n"
         "\n"
         "MODE: private | vepa | bridge | passthru | source\n"
         "MODE_FLAG: null | nopromisc | nodst\n"
         "MODE_OPTS: for mode \"source\":\n"
         "\tmacaddr { { add | del } <macaddr> | set [ <macaddr> [ <macaddr>  ... ] ] | flush }\n"
         "BC_QUEUE_LEN: Length of the rx queue for broadcast/multicast: [0-4294967295]";
}

// A bad macvlan option: ip's line (when there is one), then (when `usage`) its usage; status 1 as ip.
Failure<UsageError> macvlan_refused(const std::string& what, const std::string& type, bool usage = true) {
  std::string text = what;
  if (usage) text += (text.empty() ? "" : "\n") + macvlan_usage(type);
  return fail(UsageError{.message = text, .exact = true, .exit_code = 1});
}

// macvlan's `mode MODE`.
Parsed<netlink::MacvlanMode> macvlan_mode(const std::string& v, const std::string& type) {
  if (v == "private") return netlink::MacvlanMode::private_;
  if (v == "vepa") return netlink::MacvlanMode::vepa;
  if (v == "bridge") return netlink::MacvlanMode::bridge;
  if (v == "passthru") return netlink::MacvlanMode::passthru;
  if (v == "source") return netlink::MacvlanMode::source;
  return macvlan_refused(
      "Error: argument of \"mode\" must be \"private\", \"vepa\", \"bridge\", \"passthru\" or "
      "\"source\", not \"" +
          v + "\"",
      type, false);
}

// The macvlan (macvtap) options, as ip 6.1's macvlan_parse_opt reads them.
Parsed<netlink::MacvlanOptions> parse_macvlan(Cursor& c, netlink::MacvlanOptions mv,
                                              const std::string& type) {
  bool has_flags = false;
  uint16_t flags = 0;
  while (!c.done()) {
    std::string key = c.next(), v;
    if (matches(key, "mode")) {
      TRY_SET(v, c.value(key));
      TRY_SET(mv.mode, macvlan_mode(v, type));
    } else if (matches(key, "flag")) {
      TRY_SET(v, c.value(key));
      if (v == "nopromisc")
        flags |= MACVLAN_FLAG_NOPROMISC;
      else if (v == "nodst")
        flags |= MACVLAN_FLAG_NODST;
      else if (v != "null")
        return macvlan_refused(
            "Error: argument of \"flag\" must be \"nopromisc\", \"nodst\" or \"null\", not \"" + v + "\"",
            type, false);
      has_flags = true;
    } else if (matches(key, "macaddr")) {
      TRY_SET(v, c.value(key));
      using M = netlink::MacvlanMacaddr;
      if (v == "add")
        mv.macaddr = M::add;
      else if (v == "del")
        mv.macaddr = M::del;
      else if (v == "set")
        mv.macaddr = M::set;
      else if (v == "flush")
        mv.macaddr = M::flush;
      else
        return macvlan_refused("", type);
      mv.macaddrs.clear();
      if (*mv.macaddr == M::add || *mv.macaddr == M::del) {
        std::string mac;
        TRY_SET(mac, c.ll_address(v));
        mv.macaddrs.push_back(mac);
      } else if (*mv.macaddr == M::set) {
        // As many as follow that read as addresses.
        while (!c.done()) {
          auto mac = ll_address(c.peek());
          if (!mac) break;
          mv.macaddrs.push_back(*mac);
          c.next();
        }
      }
    } else if (matches(key, "nopromisc")) {
      flags |= MACVLAN_FLAG_NOPROMISC;
      has_flags = true;
    } else if (matches(key, "nodst")) {
      flags |= MACVLAN_FLAG_NODST;
      has_flags = true;
    } else if (matches(key, "bcqueuelen")) {
      TRY_SET(v, c.value(key));
      auto n = number<uint32_t>(key, v);
      if (!n)
        return macvlan_refused(
            "Error: argument of \"bcqueuelen\" must be a positive integer [0-4294967295], not \"" + v + "\"",
            type, false);
      mv.bcqueuelen = *n;
    } else if (matches(key, "help")) {
      return macvlan_refused("", type);
    } else {
      return macvlan_refused(type + ": unknown option \"" + key + "\"?", type);
    }
  }
  if (has_flags) {
    if ((flags & MACVLAN_FLAG_NOPROMISC) && mv.mode != netlink::MacvlanMode::passthru)
      return macvlan_refused(type + ": nopromisc flag only valid in passthru mode", type);
    mv.flags = flags;
  }
  return mv;
}

Parsed<netlink::LinkKind> parse(KindArgs& args) {
  netlink::MacvlanOptions mv{.link = args.lower, .tap = args.type == "macvtap"};
  if (args.lower.empty() && !args.change) return usage("\"link\" is required for " + args.type);
  TRY_SET(mv, parse_macvlan(args.c, std::move(mv), args.type));
  return netlink::LinkKind{std::move(mv)};
}

KindDevice lower_device(const netlink::LinkKind& kind) {
  auto* mv = std::get_if<netlink::MacvlanOptions>(&kind);
  return {.name = mv ? mv->link : std::string()};
}

constexpr auto kMacvlan = [] {
  Policies<IFLA_MACVLAN_MAX + 1> p{};
  p[IFLA_MACVLAN_MODE] = {AttrKind::u32};
  p[IFLA_MACVLAN_FLAGS] = {AttrKind::u16};
  p[IFLA_MACVLAN_MACADDR_COUNT] = {AttrKind::u32};
  p[IFLA_MACVLAN_BC_QUEUE_LEN] = {AttrKind::u32};
  p[IFLA_MACVLAN_BC_QUEUE_LEN_USED] = {AttrKind::u32};
  p[IFLA_MACVLAN_MACADDR_DATA] = {AttrKind::binary};  // repeated IFLA_MACVLAN_MACADDR: walked below
  return p;
}();

// The source MACs of a source-mode macvlan: a nest of IFLA_MACVLAN_MACADDR
// attributes, all of the same type, so walked here rather than indexed.
// A truncated attribute ends the walk.
std::vector<std::string> source_macs(std::span<const uint8_t> nest) {
  std::vector<std::string> macs;
  std::size_t at = 0;
  while (nest.size() - at >= sizeof(nlattr)) {
    nlattr attr;
    std::memcpy(&attr, nest.data() + at, sizeof attr);
    if (attr.nla_len < sizeof(nlattr) || attr.nla_len > nest.size() - at) break;
    std::size_t payload = attr.nla_len - sizeof(nlattr);
    if ((attr.nla_type & NLA_TYPE_MASK) == IFLA_MACVLAN_MACADDR && payload == 6)
      macs.push_back(mac_text(nest.subspan(at + sizeof(nlattr), 6)));
    at += NLA_ALIGN(attr.nla_len);
    if (at > nest.size()) break;
  }
  return macs;
}

void print_macvlan(const Attributes& a, DetailPrinter& out, const NameOf&) {
  auto mode = a.u32(IFLA_MACVLAN_MODE);
  if (mode) {
    const char* name = *mode == MACVLAN_MODE_PRIVATE    ? "private"
                       : *mode == MACVLAN_MODE_VEPA     ? "vepa"
                       : *mode == MACVLAN_MODE_BRIDGE   ? "bridge"
                       : *mode == MACVLAN_MODE_PASSTHRU ? "passthru"
                       : *mode == MACVLAN_MODE_SOURCE   ? "source"
                                                        : "unknown";
    out.field("mode", "mode", std::string(name));
  }
  auto flags = a.u16(IFLA_MACVLAN_FLAGS).value_or(0);
  // Printed whatever the mode, as ip 6.1 does (the kernel keeps nodst in any).
  if (flags & MACVLAN_FLAG_NOPROMISC) {
    out.json("nopromisc", true);
    out.text("nopromisc ");
  }
  if (flags & MACVLAN_FLAG_NODST) {
    out.json("nodst", true);
    out.text("nodst ");
  }
  Fields f{a, out};
  f.u32(IFLA_MACVLAN_BC_QUEUE_LEN, "bcqueuelen", "bcqueuelen");
  f.u32(IFLA_MACVLAN_BC_QUEUE_LEN_USED, "usedbcqueuelen", "usedbcqueuelen");
  if (mode == MACVLAN_MODE_SOURCE) {
    if (auto count = a.u32(IFLA_MACVLAN_MACADDR_COUNT)) {
      out.json("macaddr_count", *count);
      out.text("remotes (" + std::to_string(*count) + ") ");
    }
    if (auto nest = a.bytes(IFLA_MACVLAN_MACADDR_DATA)) {
      auto macs = source_macs(*nest);
      out.json("macaddr_data", macs);
      for (const auto& mac : macs) out.text(mac + " ");
    }
  }
}

// macvtap is macvlan with a tap device: the same options and details.
constexpr LinkKindModule kMacvlanKind{
    .name = "macvlan",
    .parse = parse,
    .changes = true,
    .takes_link = true,
    .data = {kMacvlan, print_macvlan},
    .help = [](std::string_view type) { return macvlan_usage(std::string(type)); },
    .synopsis = "link DEV [ mode { private | vepa | bridge | passthru | source } ]",
    .named_device = lower_device,
};
constexpr LinkKindModule kMacvtapKind = [] {
  LinkKindModule tap = kMacvlanKind;
  tap.name = "macvtap";
  return tap;
}();
BRISK_LINK_KIND(kMacvlanKind);
BRISK_LINK_KIND(kMacvtapKind);

}  // namespace
}  // namespace brisk::ipcli
