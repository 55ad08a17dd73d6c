// brisk/netlink/monitor.h: rtnetlink notifications (what `ip monitor`
// listens to): a socket that joins multicast groups and yields each change
// the kernel announces, parsed as the listing calls parse it.
//
//   auto mon = Monitor::open({.groups = {RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR}, .netns_fd = ns}).value();
//   for (;;) {
//     auto events = mon.receive();
//     if (!events && events.error().code == ENOBUFS) continue;  // some were lost
//     for (auto& e : *events) if (auto* l = std::get_if<LinkInfo>(&e.object)) ...;
//   }
//
// The socket is O_CLOEXEC and made in its namespace on a helper thread, as
// Connection's is. Only datagrams from the kernel are accepted.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "brisk/export.h"
#include "brisk/fd.h"
#include "brisk/netlink/addr.h"
#include "brisk/netlink/error.h"
#include "brisk/netlink/link.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"

namespace brisk::netlink {

struct MonitorOptions {
  std::vector<unsigned> groups{};           // RTNLGRP_* to join (NETLINK_ADD_MEMBERSHIP each)
  std::vector<unsigned> optional_groups{};  // joined where the kernel has them (RTNLGRP_STATS is 5.18's)
  int netns_fd = -1;                        // listen in this namespace (not owned); -1: the caller's
  int receive_buffer = 1 << 20;             // SO_RCVBUF asked for: bursts beyond it are lost (ENOBUFS)
  bool details = false;                     // parse links' -d details (LinkInfo::details)
};

// One notification.
struct MonitorEvent {
  uint16_t type = 0;     // RTM_NEWLINK, RTM_DELADDR, RTM_GETNEIGH (an unresolved lookup), ...
  bool deleted = false;  // an RTM_DEL* message
  // The parsed object; monostate for a type without a parser here
  // (nexthop objects, netconf, nsid, prefix, stats), a multicast route, or
  // a message that did not parse (see `raw`).
  std::variant<std::monostate, LinkInfo, AddressInfo, RouteInfo, NeighbourInfo, RuleInfo> object{};
  std::vector<char> raw{};  // the whole message (nlmsghdr first), for types parsed elsewhere
};

class BRISK_EXPORT Monitor {
 public:
  // Listens in options.netns_fd's namespace, or the calling thread's.
  static NlResult<Monitor> open(const MonitorOptions& options);

  Monitor(Monitor&&) noexcept = default;
  Monitor& operator=(Monitor&&) noexcept = default;

  // The events of the next datagram. wait = false returns an empty list when
  // none is queued. ENOBUFS means notifications were lost (the kernel's
  // buffer overflowed); the socket stays usable and later ones arrive.
  NlResult<std::vector<MonitorEvent>> receive(bool wait = true);

  int fd() const { return fd_.get(); }  // for poll()

 private:
  Monitor() = default;

  UniqueFd fd_;
  bool details_ = false;
  std::vector<char> buffer_;
};

}  // namespace brisk::netlink
