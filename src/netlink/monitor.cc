// Monitor: a NETLINK_ROUTE socket joined to multicast groups, each datagram
// split into messages and parsed by the same parsers the listings use.
#include "brisk/netlink/monitor.h"

#include <linux/rtnetlink.h>

#include <cstring>

#include "netlink/kernel_receive.h"
#include "netlink/link_schema.h"
#include "netlink/reply_parsers.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"

namespace brisk::netlink {
namespace {

constexpr std::size_t kDatagramBuffer = 64 * 1024;  // a notification datagram is far smaller

// The object a notification carries; monostate when it has no parser here
// or did not parse (its raw bytes are still handed on).
decltype(MonitorEvent::object) parse_object(const nlmsghdr& m, bool details) {
  switch (m.nlmsg_type) {
    case RTM_NEWLINK:
    case RTM_DELLINK:
      if (auto l = detail::parse_link(m, details)) return std::move(*l);
      break;
    case RTM_NEWADDR:
    case RTM_DELADDR:
      if (auto a = detail::parse_address(m)) return std::move(*a);
      break;
    case RTM_NEWROUTE:
    case RTM_DELROUTE: {
      // A multicast route (ipmr's RTNL_FAMILY_IPMR) is no RouteInfo.
      uint8_t family = m.nlmsg_len > NLMSG_HDRLEN ? reinterpret_cast<const uint8_t*>(&m)[NLMSG_HDRLEN] : 0;
      if (family == RTNL_FAMILY_IPMR || family == RTNL_FAMILY_IP6MR) break;
      if (auto r = detail::parse_route(m)) return std::move(*r);
      break;
    }
    case RTM_NEWRULE:
    case RTM_DELRULE:
      if (auto r = detail::parse_rule(m)) return std::move(*r);
      break;
    case RTM_NEWNEIGH:
    case RTM_DELNEIGH:
    case RTM_GETNEIGH:
      if (auto n = detail::parse_neigh(m))
        if (auto info = detail::neighbour_info(*n)) return std::move(*info);
      break;
    default:
      break;
  }
  return std::monostate{};
}

bool is_delete(uint16_t type) {
  return type == RTM_DELLINK || type == RTM_DELADDR || type == RTM_DELROUTE || type == RTM_DELNEIGH ||
         type == RTM_DELRULE || type == RTM_DELNETCONF || type == RTM_DELNSID || type == RTM_DELNEXTHOP;
}

}  // namespace

NlResult<Monitor> Monitor::open(const MonitorOptions& options) {
  Monitor mon;
  auto socket = sys::socket_in_netns(options.netns_fd, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
  if (!socket) return NetlinkError::from(socket.error());
  mon.fd_ = std::move(*socket);
  int fd = mon.fd_.get();
  if (auto rcv =
          sys::setsockopt_int(fd, SOL_SOCKET, SO_RCVBUF, options.receive_buffer, "setsockopt(SO_RCVBUF)");
      !rcv)
    return NetlinkError::from(rcv.error());
  auto bound =
      sys::bind_netlink(fd, sockaddr_nl{.nl_family = AF_NETLINK, .nl_pad = 0, .nl_pid = 0, .nl_groups = 0});
  if (!bound) return NetlinkError::from(bound.error());
  // One group at a time: nl_groups in bind only reaches the first 32.
  for (unsigned group : options.groups) {
    auto joined = sys::setsockopt_int(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, static_cast<int>(group),
                                      "setsockopt(NETLINK_ADD_MEMBERSHIP)");
    if (!joined) {
      NetlinkError e = NetlinkError::from(joined.error());
      e.object = "group " + std::to_string(group);
      return e;
    }
  }
  for (unsigned group : options.optional_groups)
    (void)sys::setsockopt_int(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, static_cast<int>(group),
                              "setsockopt(NETLINK_ADD_MEMBERSHIP)");
  mon.details_ = options.details;
  mon.buffer_.resize(kDatagramBuffer);
  return mon;
}

NlResult<std::vector<MonitorEvent>> Monitor::receive(bool wait) {
  std::vector<MonitorEvent> events;
  auto n = detail::receive_from_kernel(fd_.get(), buffer_, wait);
  if (!n) return std::move(n).error();
  std::size_t left = *n;  // 0: nothing was queued
  const char* p = buffer_.data();
  while (left >= sizeof(nlmsghdr)) {
    nlmsghdr h;
    std::memcpy(&h, p, sizeof h);
    if (h.nlmsg_len < sizeof h || h.nlmsg_len > left)
      return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "malformed notification"};
    if (h.nlmsg_type != NLMSG_NOOP && h.nlmsg_type != NLMSG_DONE && h.nlmsg_type != NLMSG_ERROR) {
      // Copied out, so that the parsers read an aligned message.
      MonitorEvent e{.type = h.nlmsg_type,
                     .deleted = is_delete(h.nlmsg_type),
                     .raw = std::vector<char>(p, p + h.nlmsg_len)};
      e.object = parse_object(*reinterpret_cast<const nlmsghdr*>(e.raw.data()), details_);
      events.push_back(std::move(e));
    }
    std::size_t step = NLMSG_ALIGN(h.nlmsg_len);
    if (step >= left) break;
    p += step;
    left -= step;
  }
  return events;
}

}  // namespace brisk::netlink
