// netlink/route_encap.h: RTA_ENCAP, a route's lightweight tunnel, as the
// kernel's lwtunnel code reads it: LWTUNNEL_IP_* / LWTUNNEL_IP6_* for the
// metadata tunnels, MPLS_IPTUNNEL_* for a label stack.
#pragma once

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/message.h"
#include "brisk/netlink/route.h"

namespace brisk::netlink::detail {

// RTA_ENCAP_TYPE and the nested RTA_ENCAP for `encap`.
void put_route_encap(Message& m, const RouteEncap& encap);
// The route's tunnel from its RTA_ENCAP_TYPE and RTA_ENCAP; nullopt when it
// has none. A type brisk does not read comes back with that type alone.
NlResult<std::optional<RouteEncap>> read_route_encap(const Attributes& route);

}  // namespace brisk::netlink::detail
