// netlink/reply_parsers.h: the parsers of received object messages, each
// taking one message whose nlmsg_len bytes are all readable. Internal; shared
// here so the fuzz target (fuzz/netlink_reply.cc) reaches them without a socket.
// parse_link is in link_schema.h, parse_ack in ack.h.
#pragma once

#include <linux/neighbour.h>
#include <linux/netlink.h>

#include "brisk/netlink/addr.h"
#include "brisk/netlink/attributes.h"
#include "brisk/netlink/neighbour.h"
#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"

namespace brisk::netlink::detail {

// An AddressInfo from an RTM_NEWADDR message.
NlResult<AddressInfo> parse_address(const nlmsghdr& message);
// A RouteInfo from an RTM_NEWROUTE message.
NlResult<RouteInfo> parse_route(const nlmsghdr& message);

// A RuleInfo from an RTM_NEWRULE (or RTM_DELRULE) message.
NlResult<RuleInfo> parse_rule(const nlmsghdr& message);

// An RTM_NEWNEIGH message: its header and checked attributes (NDA_*), from
// which neighbours and fdb entries are read.
struct ParsedNeigh {
  ndmsg header{};
  NlResult<Attributes> attrs;
};
NlResult<ParsedNeigh> parse_neigh(const nlmsghdr& message);
// The neighbour an IPv4/IPv6 entry describes; nullopt for one without an IP
// destination (a bridge fdb entry).
std::optional<NeighbourInfo> neighbour_info(const ParsedNeigh& n);

}  // namespace brisk::netlink::detail
