// brisk/netlink/route.h: IPv4 and IPv6 routes.
//
//   add_route(conn, {.prefix = "10.2.0.0/16", .via = "10.1.0.1", .dev = "eth0", .metric = 100}).value();
//   add_route(conn, {.prefix = "192.0.2.0/24", .type = RouteType::blackhole}).value();
//
// Defaults follow `ip route`: protocol boot, scope link for a unicast route
// without a gateway and universe otherwise; deletes match any scope.
#pragma once

#include <linux/lwtunnel.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/address.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

enum class RouteType : uint8_t {
  unicast = RTN_UNICAST,
  local = RTN_LOCAL,          // delivered here (the local table, host scope, as ip defaults them)
  broadcast = RTN_BROADCAST,  // sent as link broadcast
  anycast = RTN_ANYCAST,      // a local anycast address
  multicast = RTN_MULTICAST,  // a multicast route
  blackhole = RTN_BLACKHOLE,  // dropped silently
  unreachable = RTN_UNREACHABLE,
  prohibit = RTN_PROHIBIT,
  throw_ = RTN_THROW,  // lookup goes on in the next rule's table
  nat = RTN_NAT,       // the kernel refuses it since Linux 2.6 (kept for ip's grammar)
};

// RTA_METRICS: a route's path and TCP parameters (`ip route ... mtu 1400
// advmss 1360`); what is unset is not sent.
struct BRISK_EXPORT RouteMetrics {
  // Indexed by RTAX_* (RTAX_MTU, RTAX_WINDOW, RTAX_RTT in 1/8 ms, RTAX_ADVMSS,
  // RTAX_INITCWND, RTAX_INITRWND, RTAX_QUICKACK, ...).
  std::array<std::optional<uint32_t>, RTAX_MAX + 1> values{};
  uint32_t locked = 0;    // RTAX_LOCK: bit 1 << RTAX_* for each value the kernel must keep
  std::string congctl{};  // RTAX_CC_ALGO: the TCP congestion control ("bbr"); empty: the default
  bool empty() const;
  bool operator==(const RouteMetrics&) const = default;
};

// How a new route meets routes with the same key (prefix, table, tos,
// metric): ip route add, replace, change, prepend and append.
enum class RouteMerge : uint8_t {
  exclusive,  // fail if one exists (NLM_F_EXCL)
  replace,    // take its place, or be created (NLM_F_CREATE | NLM_F_REPLACE)
  change,     // take its place; fail if there is none (NLM_F_REPLACE)
  prepend,    // go before them (NLM_F_CREATE)
  append,     // go after them (NLM_F_CREATE | NLM_F_APPEND)
};

// One path of a multipath route (`nexthop via ADDR dev DEV weight N`).
struct NexthopSpec {
  std::string via{};                 // gateway address; empty: directly connected
  std::string dev{};                 // output device; empty: the kernel finds one from via
  uint16_t weight = 1;               // 1..256, the path's share of the flows
  bool onlink = false;               // the gateway is on link even if no prefix says so
  std::optional<uint32_t> realms{};  // RTA_FLOW of this path: (source realm << 16) | destination realm
};

// A path of a multipath route as the kernel reports it.
struct NexthopInfo {
  std::optional<IpAddress> gateway{};
  int oif = 0;                       // output ifindex; 0: none
  uint16_t weight = 1;               // rtnh_hops + 1
  uint32_t flags = 0;                // RTNH_F_* (onlink, linkdown, dead)
  std::optional<uint32_t> realms{};  // the path's RTA_FLOW
  bool operator==(const NexthopInfo&) const = default;
};

// A lightweight tunnel on a route (RTA_ENCAP_TYPE and RTA_ENCAP): the
// route's packets leave encapsulated as this says. ip and ip6 give the
// outer header for a metadata (collect_md) tunnel device to send; mpls
// pushes a label stack.
struct RouteEncap {
  uint16_t type = LWTUNNEL_ENCAP_NONE;  // LWTUNNEL_ENCAP_IP, _IP6 or _MPLS
  std::optional<uint64_t> id{};         // ip, ip6: the tunnel id (key), in host order
  std::optional<IpAddress> src{};       // ip, ip6: the outer source
  std::optional<IpAddress> dst{};       // ip, ip6: the outer destination
  std::optional<uint8_t> ttl{};         // ip: ttl; ip6: hop limit; mpls: the labels' ttl
  std::optional<uint8_t> tos{};         // ip: tos; ip6: traffic class
  uint16_t flags = 0;              // ip, ip6: TUNNEL_KEY | TUNNEL_CSUM | TUNNEL_SEQ as the kernel takes them
  std::vector<uint32_t> labels{};  // mpls: the label stack, outermost first (each < 2^20)
  bool operator==(const RouteEncap&) const = default;
};

struct RouteSpec {
  std::string prefix{};               // "10.0.0.0/24", "fd00::/64", or "default" (IPv4; IPv6 if via is IPv6)
  std::string via{};                  // gateway address; empty: directly connected
  std::string dev{};                  // output device; empty: the kernel finds one from via
  std::optional<uint32_t> metric{};   // RTA_PRIORITY
  uint32_t table = RT_TABLE_MAIN;     // routing table id
  std::optional<uint8_t> scope{};     // RT_SCOPE_*; default as `ip route` picks it
  std::optional<uint8_t> protocol{};  // RTPROT_*; default boot for add, any for delete
  std::string src{};                  // preferred source address (RTA_PREFSRC)
  bool onlink = false;                // the gateway is on link even if no prefix says so
  RouteType type = RouteType::unicast;
  RouteMetrics metrics{};               // RTA_METRICS; none by default
  std::optional<uint8_t> pref{};        // IPv6 router preference (ICMPV6_ROUTER_PREF_*), RTA_PREF
  std::vector<NexthopSpec> nexthops{};  // a multipath route (RTA_MULTIPATH), instead of via and dev
  std::optional<uint32_t> nhid{};  // RTA_NH_ID: through this nexthop object, instead of via, dev or nexthops
  uint8_t tos = 0;                 // rtm_tos: only for packets with this TOS (DS field); 0: any
  std::optional<uint32_t> realms{};   // RTA_FLOW: (source realm << 16) | destination realm
  std::string from{};                 // IPv6 source prefix (RTA_SRC): a source-specific route; empty: any
  std::optional<uint32_t> expires{};  // IPv6: seconds until the kernel removes it (RTA_EXPIRES)
  std::optional<bool>
      ttl_propagate{};  // RTA_TTL_PROPAGATE, as ip sends it (MPLS routes use it; IP ones ignore it)
  std::optional<RouteEncap> encap{};  // a lightweight tunnel (RTA_ENCAP); none by default
};

struct RouteInfo {
  IpPrefix dst{};  // 0.0.0.0/0 or ::/0 for a default route
  std::optional<IpAddress> gateway{};
  int oif = 0;  // output ifindex; 0: none
  uint32_t metric = 0;
  uint32_t table = 0;
  uint8_t scope = 0;
  uint8_t protocol = 0;
  uint8_t type = 0;  // RTN_*
  uint8_t tos = 0;   // rtm_tos: the TOS (DS field) the route is for; 0: any
  std::optional<IpAddress> prefsrc{};
  uint32_t flags = 0;                   // RTNH_F_* (onlink)
  std::optional<uint8_t> pref{};        // IPv6 router preference (ICMPV6_ROUTER_PREF_*), RTA_PREF
  RouteMetrics metrics{};               // RTA_METRICS, as the kernel reports them
  std::vector<NexthopInfo> nexthops{};  // RTA_MULTIPATH: a multipath route's paths
  std::optional<uint32_t>
      nhid{};  // RTA_NH_ID: the nexthop object it goes through (its paths above, as resolved)
  std::optional<uint32_t> realms{};  // RTA_FLOW: (source realm << 16) | destination realm
  std::optional<RouteEncap>
      encap{};  // RTA_ENCAP: its lightweight tunnel (type 0 for a kind brisk does not read)
  std::optional<uint32_t> expires{};  // IPv6: seconds left (RTA_CACHEINFO's rta_expires), when it expires
  // RTA_SRC: a source-specific route's source prefix (its length is
  // src_len), or, in get_route() answers, the source the query gave.
  std::optional<IpAddress> src{};
  uint8_t src_len = 0;
  // Set in get_route() answers only:
  int iif = 0;                     // the input device the query gave
  std::optional<uint32_t> uid{};   // the uid the lookup was made for
  std::optional<uint32_t> mark{};  // the firewall mark the query gave
  bool cloned = false;             // RTM_F_CLONED: a cache entry (an IPv4 get_route answer without fib_match)
};

struct RouteQuery {
  std::string to{};                   // destination address (required)
  std::string from{};                 // source address; empty: the kernel picks one. (A prefix, as ip
                                      // passes one, goes out with its length, which the kernel refuses.)
  std::string iif{};                  // as if the packet arrived on this device (the kernel wants from too)
  std::string oif{};                  // force this output device
  std::optional<uint32_t> mark{};     // firewall mark
  uint8_t tos = 0;                    // the packet's TOS (DS field)
  std::optional<uint32_t> uid{};      // the socket owner a uid-range rule would match
  std::optional<uint8_t> ip_proto{};  // the L4 protocol, for rules that match on it
  std::optional<uint16_t> sport{};    // and its ports (host order)
  std::optional<uint16_t> dport{};
  // RTA_NEWDST, as `ip route get … as ADDR` sends it; the kernel refuses
  // it for IPv4 and IPv6 lookups, and brisk passes on that refusal.
  std::string as{};
  bool fib_match = false;  // answer with the FIB entry that matched, not the route built from it
  bool notify = false;     // RTM_F_NOTIFY (IPv4; the kernel refuses it for IPv6)
};

struct RouteFilter {
  int family = AF_INET;            // AF_INET, AF_INET6, or AF_UNSPEC for both
  uint32_t table = RT_TABLE_MAIN;  // filtered by the kernel; RT_TABLE_UNSPEC (0): every table
  std::string dev{};               // only routes out of this device (filtered by the kernel); empty: all
  bool cloned = false;             // the cache's exceptions (RTM_F_CLONED) instead of the table's routes
};

// The route one RTM_NEWROUTE message carries: a dump's, or one saved by `ip route save`.
BRISK_EXPORT NlResult<RouteInfo> route_from_message(const nlmsghdr& message);

BRISK_EXPORT NlResult<void> add_route(Connection& conn, const RouteSpec& spec);  // put_route(.., exclusive)
// Adds `spec` meeting routes with its key as `merge` says.
BRISK_EXPORT NlResult<void> put_route(Connection& conn, const RouteSpec& spec, RouteMerge merge);
BRISK_EXPORT NlResult<void> replace_route(Connection& conn, const RouteSpec& spec);
BRISK_EXPORT NlResult<void> delete_route(Connection& conn, const RouteSpec& spec);
BRISK_EXPORT NlResult<std::vector<RouteInfo>> list_routes(Connection& conn, const RouteFilter& filter = {});
// The route the kernel would take for one packet (`ip route get`): one
// RTM_GETROUTE answered by the FIB lookup, never a dump.
BRISK_EXPORT NlResult<RouteInfo> get_route(Connection& conn, const RouteQuery& query);

}  // namespace brisk::netlink
