// netlink/route_encap.h: RTA_ENCAP, a route's lightweight tunnel, as the
// kernel's lwtunnel code reads it: LWTUNNEL_IP_* / LWTUNNEL_IP6_* for the
// metadata tunnels, MPLS_IPTUNNEL_* for a label stack.
#pragma once

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/message.h"
#include "brisk/netlink/route.h"

namespace brisk::netlink::detail {

// The attributes that carry it: a route's, or a nexthop object's
// (NHA_ENCAP, NHA_ENCAP_TYPE), which the kernel reads alike.
struct EncapAttrs {
  uint16_t encap = RTA_ENCAP;
  uint16_t type = RTA_ENCAP_TYPE;
};

// The type attribute and the nested encap attribute for `encap`.
void put_route_encap(Message& m, const RouteEncap& encap, EncapAttrs attrs = {});
// The tunnel from those attributes; nullopt when there is none. A type
// brisk does not read comes back with that type alone.
NlResult<std::optional<RouteEncap>> read_route_encap(const Attributes& owner, EncapAttrs attrs = {});

}  // namespace brisk::netlink::detail
