// ip monitor: each rtnetlink notification printed as the object's show
// prints it, "Deleted " before a removal, flushed as it comes, until SIGINT
// or SIGTERM ends the run with status 0.
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "brisk/netlink/monitor.h"
#include "cli/ip/link_print.h"
#include "cli/ip/object_print.h"
#include "cli/ip/objects.h"
#include "cli/ip/print_util.h"

namespace brisk::ipcli {
namespace {

using netlink::MonitorEvent;
using netlink::NlResult;

// The groups ip joins for the objects, -4/-6 narrowing addresses and routes.
std::vector<unsigned> groups_of(const MonitorSpec& spec, int family) {
  bool all = !spec.link && !spec.address && !spec.route && !spec.neigh && !spec.rule;
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
  }
  if (all || spec.neigh) groups.push_back(RTNLGRP_NEIGH);
  if (all || spec.rule) {
    if (v4) groups.push_back(RTNLGRP_IPV4_RULE);
    if (v6) groups.push_back(RTNLGRP_IPV6_RULE);
  }
  return groups;
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
      if (e.deleted) all_.erase(l->ifindex);
      else all_.insert_or_assign(l->ifindex, *l);
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
      // Under dev, as in ip route show dev: no "dev" on the line.
      body = deleted + route_record(*rt, RouteView{.globals = g, .all = all_, .dev_fixed = dev_ != 0}, j);
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
    } else {
      return {};
    }
    return timestamp_text(g.timestamp) + (cmd_.monitor().label ? label : "") + body;
  }

 private:
  // Puts the link `index` into the cache, as ip's ll_index_to_name does on a miss.
  void known(int index) {
    if (index <= 0 || all_.count(index)) return;
    if (auto l = netlink::get_link(conn_, index)) all_.emplace(index, std::move(*l));
  }

  Runner& r_;
  netlink::Connection& conn_;
  const IpCommand& cmd_;
  Links all_;
  int dev_ = 0;  // dev DEVICE's ifindex; 0: every device
};

// SIGINT and SIGTERM, blocked and read from a signalfd: the loop ends
// between two events, never inside one's output.
NlResult<UniqueFd> stop_signals() {
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  if (::sigprocmask(SIG_BLOCK, &mask, nullptr) != 0)
    return netlink::NetlinkError::from(last_error("sigprocmask"));
  UniqueFd fd(::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
  if (!fd) return netlink::NetlinkError::from(last_error("signalfd"));
  return fd;
}

}  // namespace

Parsed<IpCommand> parse_monitor(Cursor& c, IpCommand&& cmd) {
  cmd.verb = Verb::monitor;
  auto& spec = cmd.monitor();
  while (!c.done()) {
    std::string word = c.next();
    // In ip's order, so an abbreviation means what it means to ip
    // ("l" is label, "a" address, "n" neigh).
    if (matches(word, "label")) spec.label = true;
    else if (matches(word, "link")) spec.link = true;
    else if (matches(word, "address")) spec.address = true;
    else if (matches(word, "route")) spec.route = true;
    else if (matches(word, "neigh")) spec.neigh = true;
    else if (matches(word, "rule")) spec.rule = true;
    else if (word == "all") spec.label = true;  // every object, labelled
    else if (matches(word, "help"))
      return fail(UsageError{.message = std::string(object_usage(Object::monitor)), .help = true});
    else if (word == "dev") TRY_SET(spec.dev, c.link_name(word));
    else
      return fail(UsageError{.message = "Argument \"" + word + "\" is unknown, try \"brisk monitor help\".",
                             .exact = true});
  }
  return cmd;
}

NlResult<void> run_monitor(Runner& r, const IpCommand& cmd) {
  const Globals& g = r.globals();
  auto* conn = BRISK_TRY(r.conn());  // in -n's namespace from here on
  auto mon = netlink::Monitor::open(
      {.groups = groups_of(cmd.monitor(), g.family), .netns_fd = conn->netns_fd(), .details = g.details});
  if (!mon) return std::move(mon).error();
  // As ip: subscribed first, then the link cache read, so no change falls between.
  int dev = 0;
  if (!cmd.monitor().dev.empty()) {
    auto index = netlink::resolve_link(*conn, cmd.monitor().dev);
    if (!index)  // ip's argument error, found as it parses
      return netlink::NetlinkError{
          .code = ENODEV, .op = "monitor", .detail = "monitor dev '" + cmd.monitor().dev + "' does not exist"};
    dev = *index;
  }
  EventPrinter printer(r, *conn, cmd, BRISK_TRY(r.links_by_index(g.stats, g.details)), dev);
  auto stop = BRISK_TRY(stop_signals());
  r.flush_out();
  std::array<pollfd, 2> fds{pollfd{.fd = mon->fd(), .events = POLLIN, .revents = 0},
                            pollfd{.fd = stop.get(), .events = POLLIN, .revents = 0}};
  for (;;) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return netlink::NetlinkError::from(last_error("poll"));
    }
    if (fds[1].revents) return {};
    if (!fds[0].revents) continue;
    auto events = mon->receive(false);
    if (!events) {
      // ip's words; the kernel dropped notifications, later ones still come.
      if (events.error().code == ENOBUFS) {
        std::fprintf(stderr, "netlink receive error %s (%d)\n", std::strerror(ENOBUFS), ENOBUFS);
        continue;
      }
      return std::move(events).error();
    }
    for (const auto& e : *events) {
      r.out() += printer.text(e);
      r.flush_out();  // an event at a time, so a reader of a pipe sees each as it happens
      if (std::ferror(stdout)) return netlink::NetlinkError{.code = EPIPE, .op = "write", .object = "stdout"};
    }
  }
}

}  // namespace brisk::ipcli
