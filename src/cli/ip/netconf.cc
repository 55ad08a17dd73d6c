// ip netconf: each family's per-device settings (forwarding, rp_filter, ...),
// shown as ip 6.1 shows them; the same record serves ip monitor netconf.
#include "netlink/internal/netconf.h"

#include <linux/netconf.h>

#include "brisk/netlink/link.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk netconf help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kNetconfUsage = R"(Usage: brisk netconf show [ dev DEV ]
Each family's settings of every device (or DEV's), then of all and of default
(what new devices get). -4 or -6 shows one family's.
)";

const Verb kNetconfShow{.name = "netconf show", .run = show_netconf};

using netlink::NlResult;

Parsed<IpCommand> parse_netconf(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kNetconfShow;
  if (c.done()) return std::move(cmd);
  std::string verb = c.next();
  if (matches(verb, "help")) return object_help(kNetconfUsage);
  if (!matches(verb, "show") && !matches(verb, "lst") && !matches(verb, "list"))
    return unknown_command(verb, "netconf");
  // As ip: `dev DEV`, the last one given; any other word is passed over.
  while (!c.done()) {
    std::string word = c.next();
    if (word == "dev") TRY_SET(cmd.filter().dev, c.value(word));
  }
  return std::move(cmd);
}

std::string netconf_record(const netlink::NetconfInfo& c, bool deleted,
                           const std::function<std::string(int)>& name, Json& j) {
  std::string t;
  if (deleted) {
    j["deleted"] = true;
    t += "Deleted ";
  }
  std::string family = c.family == AF_INET    ? "inet"
                       : c.family == AF_INET6 ? "inet6"
                       : c.family == AF_MPLS  ? "mpls"
                                              : "unknown";
  j["family"] = family;
  t += family + " ";
  if (c.ifindex) {
    std::string dev = *c.ifindex == NETCONFA_IFINDEX_ALL       ? "all"
                      : *c.ifindex == NETCONFA_IFINDEX_DEFAULT ? "default"
                                                               : name(*c.ifindex);
    j["interface"] = dev;
    t += dev + " ";
  }
  auto on_off = [&](const std::optional<uint32_t>& value, const char* key) {
    if (!value) return;
    j[key] = *value != 0;
    t += std::string(key) + (*value ? " on " : " off ");
  };
  on_off(c.forwarding, "forwarding");
  if (c.rp_filter) {
    static constexpr const char* kRpFilter[] = {"off", "strict", "loose"};
    if (*c.rp_filter < 3)
      j["rp_filter"] = kRpFilter[*c.rp_filter];
    else
      j["rp_filter"] = *c.rp_filter;
    t += "rp_filter " +
         (*c.rp_filter < 3 ? std::string(kRpFilter[*c.rp_filter]) : std::to_string(*c.rp_filter)) + " ";
  }
  on_off(c.mc_forwarding, "mc_forwarding");
  on_off(c.proxy_neigh, "proxy_neigh");
  on_off(c.ignore_routes_with_linkdown, "ignore_routes_with_linkdown");
  on_off(c.input, "input");
  return t + "\n";
}

NlResult<void> show_netconf(Runner& r, const IpCommand& cmd) {
  auto c = BRISK_TRY(r.conn());
  const Globals& g = r.globals();
  int dev = 0;
  if (!cmd.filter().dev.empty()) {
    auto index = netlink::resolve_link(*c, cmd.filter().dev);
    if (!index) return device_missing(cmd.filter().dev);
    dev = *index;
  }
  const Links& all = BRISK_TRY(r.links_by_index(false));
  auto name = [&all](int index) { return name_of(index, all); };
  if (dev && g.family != AF_UNSPEC) {
    // ip asks for the one record, and prints it outside any JSON array:
    // as text, even under -j.
    Json ignored;
    r.out() += netconf_record(BRISK_TRY(netlink::get_netconf(*c, g.family, dev)), false, name, ignored);
    return {};
  }
  r.use_json();
  for (const auto& record : BRISK_TRY(netlink::list_netconf(*c, g.family))) {
    if ((g.family != AF_UNSPEC && record.family != g.family) || (dev && record.ifindex != dev)) continue;
    Json j;
    std::string t = netconf_record(record, false, name, j);
    if (g.json)
      r.emit(std::move(j));
    else
      r.out() += t;
  }
  return {};
}

const Verb* const kNetconfVerbs[] = {&kNetconfShow};
const IpObject kNetconfObject{
    .name = {"netconf"},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_netconf(c, std::move(cmd)); },
    .verbs = kNetconfVerbs,
    .usage = [] { return kNetconfUsage; }};

}  // namespace brisk::ipcli
