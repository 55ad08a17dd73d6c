// ip monitor: each rtnetlink notification printed as the object's show
// prints it, "Deleted " before a removal, flushed as it comes, until SIGINT
// or SIGTERM ends the run with status 0.
#include "brisk/netlink/monitor.h"

#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/netns.h"
#include "cli/ip/ip_errors.h"
#include "cli/ip/link/link_print.h"
#include "cli/ip/monitor/monitor_raw.h"
#include "cli/ip/nsid_print.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"
#include "cli/ip/runner.h"
#include "cli/ip/until_stopped.h"
#include "cli/ip/verb_defs.h"

namespace brisk::ipcli {

// `brisk monitor help`: the grammar brisk accepts, in iproute2's notation.
constexpr std::string_view kMonitorUsage = R"(Usage: brisk monitor [ all | OBJECTS ] [ label ] [ dev DEVICE ]
OBJECTS := { link | address | route | mroute | prefix | neigh | netconf |
             rule | nsid | nexthop | stats }
Global options: -t[imestamp] (a "Timestamp:" line per event), -ts[hort] (a
[YYYY-MM-DDTHH:MM:SS.uuuuuu] prefix), -4 | -6 (the events of one family),
-o[neline], -d[etails], -s[tatistics], -n[etns] NAME.
)";

const Verb kMonitor{.name = "monitor",
                    .run = run_monitor,
                    .looks_up_devices = true,
                    .missing_device_words = "Device does not exist\n"};

namespace {

using netlink::MonitorEvent;
using netlink::NlResult;

bool every_object(const MonitorSpec& spec) {
  return !spec.link && !spec.address && !spec.route && !spec.neigh && !spec.rule && !spec.netconf &&
         !spec.nsid && !spec.mroute && !spec.prefix && !spec.nexthop && !spec.stats;
}

// The groups ip joins for the objects, -4/-6 narrowing the per-family ones;
// without RTNLGRP_STATS, which run_monitor joins apart.
std::vector<unsigned> groups_of(const MonitorSpec& spec, int family) {
  bool all = every_object(spec);
  bool v4 = family == AF_UNSPEC || family == AF_INET, v6 = family == AF_UNSPEC || family == AF_INET6;
  std::vector<unsigned> groups;
  if (all || spec.link) groups.push_back(RTNLGRP_LINK);
  if (all || spec.address) {
    if (v4) groups.push_back(RTNLGRP_IPV4_IFADDR);
    if (v6) groups.push_back(RTNLGRP_IPV6_IFADDR);
  }
  if (all || spec.route) {
    if (v4) groups.push_back(RTNLGRP_IPV4_ROUTE);
    if (v6) groups.push_back(RTNLGRP_IPV6_ROUTE);
    if (family == AF_UNSPEC) groups.push_back(RTNLGRP_MPLS_ROUTE);
  }
  if (all || spec.mroute) {
    if (v4) groups.push_back(RTNLGRP_IPV4_MROUTE);
    if (v6) groups.push_back(RTNLGRP_IPV6_MROUTE);
  }
  if ((all || spec.prefix) && v6) groups.push_back(RTNLGRP_IPV6_PREFIX);
  if (all || spec.neigh) groups.push_back(RTNLGRP_NEIGH);
  if (all || spec.netconf) {
    if (v4) groups.push_back(RTNLGRP_IPV4_NETCONF);
    if (v6) groups.push_back(RTNLGRP_IPV6_NETCONF);
    if (family == AF_UNSPEC) groups.push_back(RTNLGRP_MPLS_NETCONF);
  }
  if (all || spec.rule) {
    if (v4) groups.push_back(RTNLGRP_IPV4_RULE);
    if (v6) groups.push_back(RTNLGRP_IPV6_RULE);
  }
  if (all || spec.nsid) groups.push_back(RTNLGRP_NSID);
  if (all || spec.nexthop) groups.push_back(RTNLGRP_NEXTHOP);
  return groups;
}

bool groups_wanted(const MonitorSpec& spec, unsigned group, int family) {
  auto groups = groups_of(spec, family);
  return std::find(groups.begin(), groups.end(), group) != groups.end();
}

// ip's print_timestamp(): "Timestamp: <asctime> <usec> usec" on a line of
// its own (-t), or "[<ISO 8601 local time>.<usec>] " before the event (-ts).
std::string timestamp_text(Timestamp kind) {
  if (kind == Timestamp::none) return {};
  auto now = std::chrono::system_clock::now().time_since_epoch();
  auto usec = std::chrono::duration_cast<std::chrono::microseconds>(now).count();
  std::time_t seconds = static_cast<std::time_t>(usec / 1000000);
  long micros = static_cast<long>(usec % 1000000);
  std::tm local{};
  ::localtime_r(&seconds, &local);
  std::array<char, 80> text{};
  if (kind == Timestamp::short_prefix) {
    char when[40];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &local);
    std::snprintf(text.data(), text.size(), "[%s.%06ld] ", when, micros);
  } else {
    char when[32];
    ::asctime_r(&local, when);
    when[std::strlen(when) - 1] = '\0';  // asctime's own newline
    std::snprintf(text.data(), text.size(), "Timestamp: %s %ld usec\n", when, micros);
  }
  return text.data();
}

// What the monitor prints with: ip's link cache (names, peers' flags),
// filled by a dump at the start, kept by link events, and asked of the
// kernel for an index it has not seen.
class EventPrinter {
 public:
  EventPrinter(Runner& r, netlink::Connection& conn, const IpCommand& cmd, Links all, int dev)
      : r_(r), conn_(conn), cmd_(cmd), all_(std::move(all)), dev_(dev) {}

  // The event's text, headers included; empty for one ip does not print.
  std::string text(const MonitorEvent& e) {
    const Globals& g = r_.globals();
    Json j;
    std::string body, label;
    std::string deleted = e.deleted ? "Deleted " : "";
    if (const auto* l = std::get_if<netlink::LinkInfo>(&e.object)) {
      if (e.deleted)
        all_.erase(l->ifindex);
      else
        all_.insert_or_assign(l->ifindex, *l);
      if (dev_ && l->ifindex != dev_) return {};
      known(l->master);
      if (!l->link_netnsid) known(l->link);
      // As ip's print_linkinfo outside `ip link`: no mode, alias or counters, and no qlen.
      LinkView view{.globals = g, .all = all_, .runner = &r_, .for_addr = true, .queue = false};
      label = "[LINK]";
      body = deleted + link_text(*l, view);
      if (g.oneline) body = one_line(body);
    } else if (const auto* a = std::get_if<netlink::AddressInfo>(&e.object)) {
      if (dev_ && a->ifindex != dev_) return {};
      known(a->ifindex);
      label = "[ADDR]";
      // As ip -o addr: the address under its index and name, no link header.
      std::string record = address_record(*a, j);
      body = deleted + std::to_string(a->ifindex) + ": " + name_of(a->ifindex, all_) +
             (g.oneline ? one_line(record) : record);
    } else if (const auto* rt = std::get_if<netlink::RouteInfo>(&e.object)) {
      if (rt->cloned) return {};  // cache entries, which ip leaves out
      if (dev_ && rt->oif != dev_) return {};
      known(rt->oif);
      for (const auto& nh : rt->nexthops) known(nh.oif);
      label = "[ROUTE]";
      if (rt->nhid && g.details) nexthop_known(*rt->nhid);
      // Under dev, as in ip route show dev: no "dev" on the line.
      RouteView view{
          .globals = g, .all = all_, .dev_fixed = dev_ != 0, .nexthops = g.details ? &nexthops_ : nullptr};
      body = deleted + route_record(*rt, view, j);
    } else if (is_mroute(e)) {
      label = "[MROUTE]";
      body = mroute_text(e, name_, dev_, g);
    } else if (auto nh = nexthop_of(e)) {
      // ip's nexthop cache, which -d route events read their nh_info from.
      if (e.deleted)
        nexthops_.erase(nh->id);
      else
        nexthops_.insert_or_assign(nh->id, *nh);
      known(nh->oif);
      label = "[NEXTHOP]";
      body = nexthop_record(*nh, {.all = all_, .details = g.details, .deleted = e.deleted}, j);
    } else if (e.type == RTM_NEWPREFIX) {
      label = "[PREFIX]";
      body = prefix_text(e, name_);
    } else if (e.type == RTM_NEWSTATS) {
      label = "[STATS]";
      body = stats_text(e, name_);
    } else if (const auto* n = std::get_if<netlink::NeighbourInfo>(&e.object)) {
      if ((g.family != AF_UNSPEC && n->address.family != g.family) || (dev_ && n->ifindex != dev_)) return {};
      known(n->ifindex);
      label = "[NEIGH]";
      // An RTM_GETNEIGH is the kernel asking a resolver daemon: ip's "miss".
      std::string prefix = e.type == RTM_GETNEIGH ? "miss " : deleted;
      body = prefix + neigh_record(*n, all_, dev_ == 0, j);
    } else if (const auto* rule = std::get_if<netlink::RuleInfo>(&e.object)) {
      if (g.family != AF_UNSPEC && rule->family != g.family) return {};
      label = "[RULE]";
      body = rule_record(*rule, e.deleted, g, j);
    } else if (e.type == RTM_NEWNETCONF || e.type == RTM_DELNETCONF) {
      label = "[NETCONF]";
      body = netconf_text(e);
    } else if (e.type == RTM_NEWNSID || e.type == RTM_DELNSID) {
      label = "[NSID]";
      body = nsid_text(e);
    } else {
      return {};
    }
    if (body.empty()) return {};
    return timestamp_text(g.timestamp) + (cmd_.monitor().label ? label : "") + body;
  }

  // One to start with: the named namespaces' ids, as ip's netns_map_init reads them.
  void know_netns(NsidNames& names) { netns_names_ = &names; }

 private:
  // A nexthop event's object, which MonitorEvent leaves unparsed (raw).
  static std::optional<netlink::NexthopEntry> nexthop_of(const MonitorEvent& e) {
    if ((e.type != RTM_NEWNEXTHOP && e.type != RTM_DELNEXTHOP) || e.raw.size() < NLMSG_HDRLEN)
      return std::nullopt;
    auto nh = netlink::parse_nexthop(*reinterpret_cast<const nlmsghdr*>(e.raw.data()));
    if (!nh) return std::nullopt;
    return std::move(*nh);
  }

  // ip's print_netconf(); only the device's under `dev`.
  std::string netconf_text(const MonitorEvent& e) {
    if (e.raw.size() < NLMSG_HDRLEN) return {};
    auto c = netlink::parse_netconf(*reinterpret_cast<const nlmsghdr*>(e.raw.data()));
    if (!c || (dev_ && c->ifindex.value_or(0) != dev_)) return {};
    if (c->ifindex) known(*c->ifindex);
    Json ignored;
    return netconf_record(*c, e.deleted, name_, ignored);
  }

  // ip's print_nsid(), its names from ip's cache (know_netns).
  std::string nsid_text(const MonitorEvent& e) {
    if (e.raw.size() < NLMSG_HDRLEN + sizeof(rtgenmsg)) return {};
    auto entry = netlink::parse_netns_id(*reinterpret_cast<const nlmsghdr*>(e.raw.data()));
    if (!entry || !netns_names_) return {};
    return ipcli::nsid_text(*entry, e.deleted, netns_names_->name_of(*entry, e.deleted));
  }

  // Puts the link `index` into the cache, as ip's ll_index_to_name does on a miss.
  void known(int index) {
    if (index <= 0 || all_.count(index)) return;
    if (auto l = netlink::get_link(conn_, index)) all_.emplace(index, std::move(*l));
  }

  // Puts the nexthop object `id` into the cache, as ip's print_cache_nexthop_id does on a miss.
  void nexthop_known(uint32_t id) {
    if (nexthops_.count(id)) return;
    if (auto nh = netlink::get_nexthop(conn_, id)) nexthops_.emplace(id, std::move(*nh));
  }

  Runner& r_;
  netlink::Connection& conn_;
  const IpCommand& cmd_;
  Links all_;
  int dev_ = 0;                                         // dev DEVICE's ifindex; 0: every device
  NsidNames* netns_names_ = nullptr;                    // ip's nsid cache, the runner's
  std::map<uint32_t, netlink::NexthopEntry> nexthops_;  // ip's nexthop cache, by id
  // A device's name for the raw printers, cached as the others are.
  NameOf name_ = [this](int index) {
    known(index);
    return name_of(index, all_);
  };
};

}  // namespace

Parsed<IpCommand> parse_monitor(Cursor& c, IpCommand&& cmd) {
  cmd.verb = &kMonitor;
  auto& spec = cmd.monitor();
  while (!c.done()) {
    std::string word = c.next();
    // In ip's order, so an abbreviation means what it means to ip
    // ("l" is label, "a" address, "n" neigh).
    if (matches(word, "label"))
      spec.label = true;
    else if (matches(word, "link"))
      spec.link = true;
    else if (matches(word, "address"))
      spec.address = true;
    else if (matches(word, "route"))
      spec.route = true;
    else if (matches(word, "mroute"))
      spec.mroute = true;
    else if (matches(word, "prefix"))
      spec.prefix = true;
    else if (matches(word, "neigh"))
      spec.neigh = true;
    else if (matches(word, "netconf"))
      spec.netconf = true;
    else if (matches(word, "rule"))
      spec.rule = true;
    else if (matches(word, "nsid"))
      spec.nsid = true;
    else if (matches(word, "nexthop"))
      spec.nexthop = true;
    else if (word == "stats")
      spec.stats = true;  // as ip: the whole word
    else if (word == "all")
      spec.label = true;  // every object, labelled
    else if (matches(word, "help"))
      return object_help(kMonitorUsage);
    else if (word == "dev")
      TRY_SET(spec.dev, c.link_name(word));
    else
      return fail(UsageError{.message = "Argument \"" + word + "\" is unknown, try \"brisk monitor help\".",
                             .exact = true});
  }
  return cmd;
}

NlResult<void> run_monitor(Runner& r, const IpCommand& cmd) {
  const Globals& g = r.globals();
  auto* conn = BRISK_TRY(r.conn());  // in -n's namespace from here on
  // As ip: stats named is a group to join, stats as part of all one to try.
  std::vector<unsigned> groups = groups_of(cmd.monitor(), g.family), optional;
  if (cmd.monitor().stats)
    groups.push_back(RTNLGRP_STATS);
  else if (every_object(cmd.monitor()))
    optional.push_back(RTNLGRP_STATS);
  auto mon = netlink::Monitor::open({.groups = std::move(groups),
                                     .optional_groups = std::move(optional),
                                     .netns_fd = conn->netns_fd(),
                                     .details = g.details});
  if (!mon) return std::move(mon).error();
  // As ip: subscribed first, then the link cache read, so no change falls between.
  int dev = 0;
  if (!cmd.monitor().dev.empty()) {
    auto index = netlink::resolve_link(*conn, cmd.monitor().dev);
    if (!index)  // ip's argument error, found as it parses
      return netlink::missing_argument("monitor", "", netlink::Argument::device, cmd.monitor().dev);
    dev = *index;
  }
  EventPrinter printer(r, *conn, cmd, BRISK_TRY(r.links_by_index(g.stats, g.details)), dev);
  if (groups_wanted(cmd.monitor(), RTNLGRP_NSID, g.family)) printer.know_netns(r.nsid_names());
  r.flush_out();
  return until_stopped(mon->fd(), [&]() -> NlResult<void> {
    auto events = mon->receive(false);
    if (!events) {
      // ip's words; the kernel dropped notifications, later ones still come.
      if (events.error().code == ENOBUFS) {
        std::fprintf(stderr, "netlink receive error %s (%d)\n", std::strerror(ENOBUFS), ENOBUFS);
        return {};
      }
      return std::move(events).error();
    }
    for (const auto& e : *events) {
      r.out() += printer.text(e);
      r.flush_out();  // an event at a time, so a reader of a pipe sees each as it happens
      if (std::ferror(stdout)) return netlink::NetlinkError{.code = EPIPE, .op = "write", .object = "stdout"};
    }
    return {};
  });
}

const Verb* const kMonitorVerbs[] = {&kMonitor};
const IpObject kMonitorObject{
    .name = {"monitor", 2},
    .parse = [](Cursor& c, IpCommand&& cmd, const Globals&) { return parse_monitor(c, std::move(cmd)); },
    .verbs = kMonitorVerbs,
    .usage = [] { return kMonitorUsage; }};

}  // namespace brisk::ipcli
