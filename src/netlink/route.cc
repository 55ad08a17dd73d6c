// Routes: add, replace, delete and a kernel-filtered list.
#include "brisk/netlink/route.h"

#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/link.h"
#include "netlink/dump_collect.h"
#include "netlink/op.h"
#include "netlink/reply_parsers.h"
#include "netlink/route_encap.h"
#include "netlink/route_multipath.h"

namespace brisk::netlink {
namespace detail {
namespace {

// A selector's device that resolve_link did not find, as the missing `dev`
// argument of `op`; what the lookup learnt (the kernel's refusal, its
// extended ACK) is kept.
NetlinkError as_missing(NetlinkError lookup, const char* op, const std::string& dev) {
  NetlinkError e = missing_argument(op, lookup.object, Argument::device, dev);
  e.kernel = lookup.kernel;
  e.ext_ack = std::move(lookup.ext_ack);
  return e;
}

constexpr auto kRoutePolicies = [] {
  std::array<AttrPolicy, RTA_MAX + 1> p{};
  p[RTA_DST] = {AttrKind::binary, 16, 4};
  p[RTA_GATEWAY] = {AttrKind::binary, 16, 4};
  p[RTA_OIF] = {AttrKind::u32};
  p[RTA_PRIORITY] = {AttrKind::u32};
  p[RTA_PREFSRC] = {AttrKind::binary, 16, 4};
  p[RTA_TABLE] = {AttrKind::u32};
  p[RTA_SRC] = {AttrKind::binary, 16, 4};
  p[RTA_IIF] = {AttrKind::u32};
  p[RTA_UID] = {AttrKind::u32};
  p[RTA_MARK] = {AttrKind::u32};
  p[RTA_PREF] = {AttrKind::u8};
  p[RTA_METRICS] = {AttrKind::nested};
  p[RTA_MULTIPATH] = {AttrKind::binary};
  p[RTA_NH_ID] = {AttrKind::u32};
  p[RTA_FLOW] = {AttrKind::u32};
  p[RTA_CACHEINFO] = {AttrKind::binary, 0, static_cast<uint16_t>(sizeof(rta_cacheinfo))};
  p[RTA_ENCAP] = {AttrKind::nested};
  p[RTA_ENCAP_TYPE] = {AttrKind::u16};
  return p;
}();

constexpr auto kMetricPolicies = [] {
  std::array<AttrPolicy, RTAX_MAX + 1> p{};
  for (auto& policy : p) policy = {AttrKind::u32};
  p[RTAX_CC_ALGO] = {AttrKind::string};  // the congestion control's name
  return p;
}();

uint16_t merge_flags(RouteMerge merge) {
  switch (merge) {
    case RouteMerge::exclusive:
      return NLM_F_CREATE | NLM_F_EXCL;
    case RouteMerge::replace:
      return NLM_F_CREATE | NLM_F_REPLACE;
    case RouteMerge::change:
      return NLM_F_REPLACE;
    case RouteMerge::prepend:
      return NLM_F_CREATE;
    case RouteMerge::append:
      return NLM_F_CREATE | NLM_F_APPEND;
  }
  return NLM_F_CREATE | NLM_F_EXCL;
}

const char* merge_op(RouteMerge merge) {
  switch (merge) {
    case RouteMerge::exclusive:
      return "route add";
    case RouteMerge::replace:
      return "route replace";
    case RouteMerge::change:
      return "route change";
    case RouteMerge::prepend:
      return "route prepend";
    case RouteMerge::append:
      return "route append";
  }
  return "route add";
}

struct ParsedRoute {
  IpPrefix dst;
  std::optional<IpAddress> via;
  std::optional<IpAddress> src;
  std::optional<IpPrefix> from;
  std::vector<std::optional<IpAddress>> nexthop_vias;  // by RouteSpec::nexthops
};

NlResult<ParsedRoute> parse_spec(const RouteSpec& spec, const char* op, const std::string& object) {
  ParsedRoute parsed;
  if (!spec.via.empty()) {
    auto via = IpAddress::parse(spec.via);
    if (!via) return invalid_argument(op, object, "malformed gateway '" + spec.via + "'");
    parsed.via = *via;
  }
  if (spec.prefix == "default") {
    parsed.dst.address.family = parsed.via ? parsed.via->family : AF_INET;
    parsed.dst.length = 0;
  } else {
    auto dst = IpPrefix::parse(spec.prefix);
    if (!dst) return invalid_argument(op, object, "malformed prefix '" + spec.prefix + "'");
    parsed.dst = *dst;
  }
  if (parsed.via && parsed.via->family != parsed.dst.address.family)
    return invalid_argument(op, object, "gateway and prefix are of different families");
  if (!spec.src.empty()) {
    auto src = IpAddress::parse(spec.src);
    if (!src || src->family != parsed.dst.address.family)
      return invalid_argument(op, object, "malformed source address '" + spec.src + "'");
    parsed.src = *src;
  }
  if (!spec.from.empty()) {
    auto from = IpPrefix::parse(spec.from);
    if (!from || from->address.family != parsed.dst.address.family)
      return invalid_argument(op, object, "malformed source prefix '" + spec.from + "'");
    parsed.from = *from;
  }
  const bool goes_nowhere = spec.type == RouteType::blackhole || spec.type == RouteType::unreachable ||
                            spec.type == RouteType::prohibit || spec.type == RouteType::throw_;
  if (goes_nowhere && (parsed.via || !spec.dev.empty() || !spec.nexthops.empty()))
    return invalid_argument(op, object,
                            "blackhole, unreachable, prohibit and throw routes take no gateway or device");
  if (!spec.nexthops.empty() && (parsed.via || !spec.dev.empty()))
    return invalid_argument(op, object, "a multipath route has its gateways and devices in its nexthops");
  for (const auto& nh : spec.nexthops) {
    if (nh.weight < 1 || nh.weight > 256)
      return invalid_argument(op, object,
                              "nexthop weight " + std::to_string(nh.weight) + " is not in 1..256");
    std::optional<IpAddress> via;
    if (!nh.via.empty()) {
      auto parsed_via = IpAddress::parse(nh.via);
      if (!parsed_via || parsed_via->family != parsed.dst.address.family)
        return invalid_argument(op, object, "malformed nexthop gateway '" + nh.via + "'");
      via = *parsed_via;
    }
    parsed.nexthop_vias.push_back(via);
  }
  return parsed;
}

}  // namespace

NlResult<RouteInfo> parse_route(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(rtmsg))
    return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "short RTM_NEWROUTE"};
  rtmsg rtm;
  std::memcpy(&rtm, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof rtm);
  auto attrs = Attributes::parse_message(message, sizeof(rtmsg), Schema{kRoutePolicies});
  if (!attrs) return std::move(attrs).error();
  RouteInfo route;
  route.dst.address.family = rtm.rtm_family;
  route.dst.length = rtm.rtm_dst_len;
  if (auto dst = attrs->bytes(RTA_DST)) {
    auto ip = IpAddress::from_bytes(*dst);
    if (!ip) return std::move(ip).error();
    route.dst.address = *ip;
  }
  if (auto gw = attrs->bytes(RTA_GATEWAY))
    if (auto ip = IpAddress::from_bytes(*gw)) route.gateway = *ip;
  if (auto src = attrs->bytes(RTA_PREFSRC))
    if (auto ip = IpAddress::from_bytes(*src)) route.prefsrc = *ip;
  if (auto src = attrs->bytes(RTA_SRC))
    if (auto ip = IpAddress::from_bytes(*src)) route.src = *ip;
  route.src_len = rtm.rtm_src_len;
  route.realms = attrs->u32(RTA_FLOW);
  auto encap = read_route_encap(*attrs);
  if (!encap) return std::move(encap).error();
  route.encap = std::move(*encap);
  if (auto raw = attrs->bytes(RTA_CACHEINFO)) {
    rta_cacheinfo cache{};
    std::memcpy(&cache, raw->data(), sizeof cache);  // the schema guarantees the size
    // In clock ticks (USER_HZ), as the kernel's jiffies_to_clock_t gives them.
    static const long ticks = std::max(::sysconf(_SC_CLK_TCK), 1L);
    if (cache.rta_expires) route.expires = static_cast<uint32_t>(cache.rta_expires / ticks);
  }
  route.oif = static_cast<int>(attrs->u32(RTA_OIF).value_or(0));
  route.iif = static_cast<int>(attrs->u32(RTA_IIF).value_or(0));
  route.uid = attrs->u32(RTA_UID);
  route.mark = attrs->u32(RTA_MARK);
  route.cloned = (rtm.rtm_flags & RTM_F_CLONED) != 0;
  route.metric = attrs->u32(RTA_PRIORITY).value_or(0);
  route.pref = attrs->u8(RTA_PREF);
  route.nhid = attrs->u32(RTA_NH_ID);
  route.table = attrs->u32(RTA_TABLE).value_or(rtm.rtm_table);
  if (auto multipath = attrs->bytes(RTA_MULTIPATH)) {
    auto paths = decode_multipath(*multipath);
    if (!paths) return std::move(paths).error();
    route.nexthops = std::move(*paths);
  }
  auto metrics = attrs->nested(RTA_METRICS, Schema{kMetricPolicies});
  if (!metrics) return std::move(metrics).error();
  for (uint16_t type = 1; type <= RTAX_MAX; ++type) {
    if (type == RTAX_LOCK)
      route.metrics.locked = metrics->u32(type).value_or(0);
    else if (type != RTAX_CC_ALGO)
      route.metrics.values[type] = metrics->u32(type);
  }
  route.metrics.congctl = std::string(metrics->string(RTAX_CC_ALGO).value_or(""));
  route.scope = rtm.rtm_scope;
  route.protocol = rtm.rtm_protocol;
  route.type = rtm.rtm_type;
  route.flags = rtm.rtm_flags;
  route.tos = rtm.rtm_tos;
  return route;
}

Op route_op(RouteSpec spec, int kind, RouteMerge merge) {
  const char* op = kind == RTM_DELROUTE ? "route del" : merge_op(merge);
  std::string object;
  object.reserve(spec.prefix.size() + spec.via.size() + spec.dev.size() + 10);
  object += spec.prefix;
  if (!spec.via.empty()) object.append(" via ").append(spec.via);
  if (!spec.dev.empty()) object.append(" dev ").append(spec.dev);
  if (spec.nhid) object.append(" nhid ").append(std::to_string(*spec.nhid));
  auto parsed = parse_spec(spec, op, object);
  if (!parsed) return failed_op(op, std::move(object), std::move(parsed).error());
  Op result{.op = op};
  result.needs.reserve(1 + spec.nexthops.size());
  if (!spec.dev.empty()) {
    if (auto valid = check_dev(spec.dev, op, object); !valid)
      return failed_op(op, object, std::move(valid).error());
    result.needs.push_back({spec.dev, Argument::device});
  }
  for (const auto& nh : spec.nexthops) {
    if (nh.dev.empty()) continue;
    if (auto valid = check_dev(nh.dev, op, object); !valid)
      return failed_op(op, object, std::move(valid).error());
    result.needs.push_back({nh.dev, Argument::nexthop_device});
  }
  result.object = object;
  // One copy of the spec and of what the closures need, shared by them
  // through Op::state: a copy per closure was most of what queueing one cost.
  struct State {
    RouteSpec spec;
    ParsedRoute route;
    int kind;
    RouteMerge merge;
    const char* op;
    std::string object;
  };
  auto owned = std::make_shared<const State>(
      State{std::move(spec), std::move(*parsed), kind, merge, op, std::move(object)});
  const State* state = owned.get();
  result.state = std::move(owned);
  // NLM_F_EXCL refused any route with the same key (prefix, table, tos,
  // metric), so the delete can only match the one this add made.
  if (kind == RTM_NEWROUTE && merge == RouteMerge::exclusive)
    result.undo = [state] { return route_op(state->spec, RTM_DELROUTE); };
  result.build = [state](Connection& conn) -> NlResult<std::vector<Request>> {
    const RouteSpec& spec = state->spec;
    const ParsedRoute& route = state->route;
    bool del = state->kind == RTM_DELROUTE;
    uint16_t flags = del ? 0 : merge_flags(state->merge);
    Message m(del ? RTM_DELROUTE : RTM_NEWROUTE, flags);
    auto& rtm = m.put_header<rtmsg>();
    rtm.rtm_family = static_cast<uint8_t>(route.dst.address.family);
    rtm.rtm_dst_len = route.dst.length;
    rtm.rtm_table =
        static_cast<uint8_t>(spec.table < 256 ? spec.table : static_cast<uint32_t>(RT_TABLE_UNSPEC));
    rtm.rtm_protocol = spec.protocol.value_or(del ? RTPROT_UNSPEC : RTPROT_BOOT);
    // A unicast delete matches a route of any type, as ip's (RTN_UNSPEC).
    rtm.rtm_type =
        del && spec.type == RouteType::unicast ? uint8_t{RTN_UNSPEC} : static_cast<uint8_t>(spec.type);
    rtm.rtm_tos = spec.tos;
    // `ip route`'s defaults, for IPv4 (IPv6 has universe alone): host scope
    // for a local or nat route, link for broadcast, multicast and anycast,
    // link for a directly connected unicast route; a delete matches any.
    uint8_t scope = RT_SCOPE_UNIVERSE;
    const bool v4 = route.dst.address.family == AF_INET;
    if (v4 && (spec.type == RouteType::local || spec.type == RouteType::nat)) {
      scope = RT_SCOPE_HOST;
    } else if (v4 && (spec.type == RouteType::broadcast || spec.type == RouteType::multicast ||
                      spec.type == RouteType::anycast)) {
      scope = RT_SCOPE_LINK;
    } else if (v4 && del) {
      scope = RT_SCOPE_NOWHERE;
    } else if (v4 && spec.type == RouteType::unicast && !route.via && spec.nexthops.empty() && !spec.nhid) {
      scope = RT_SCOPE_LINK;
    }
    rtm.rtm_scope = spec.scope.value_or(scope);
    if (spec.onlink) rtm.rtm_flags |= RTNH_F_ONLINK;
    if (route.dst.length > 0) m.put_bytes(RTA_DST, route.dst.address.data());
    if (route.via) m.put_bytes(RTA_GATEWAY, route.via->data());
    if (!spec.dev.empty()) m.put_u32(RTA_OIF, static_cast<uint32_t>(cached(conn, spec.dev)));
    if (spec.metric) m.put_u32(RTA_PRIORITY, *spec.metric);
    if (route.src) m.put_bytes(RTA_PREFSRC, route.src->data());
    m.put_u32(RTA_TABLE, spec.table);
    if (!del && !spec.metrics.empty()) {
      auto nest = m.begin_nest(RTA_METRICS);
      if (spec.metrics.locked) m.put_u32(RTAX_LOCK, spec.metrics.locked);
      for (uint16_t type = 1; type <= RTAX_MAX; ++type)
        if (spec.metrics.values[type]) m.put_u32(type, *spec.metrics.values[type]);
      if (!spec.metrics.congctl.empty()) m.put_string(RTAX_CC_ALGO, spec.metrics.congctl);
      m.end_nest(nest);
    }
    if (!del && spec.pref) m.put_u8(RTA_PREF, *spec.pref);
    if (spec.realms) m.put_u32(RTA_FLOW, *spec.realms);
    if (route.from) {
      rtm.rtm_src_len = route.from->length;
      if (route.from->length) m.put_bytes(RTA_SRC, route.from->address.data());
    }
    if (!del && spec.expires) m.put_u32(RTA_EXPIRES, *spec.expires);
    if (!del && spec.ttl_propagate) m.put_u8(RTA_TTL_PROPAGATE, *spec.ttl_propagate ? 1 : 0);
    if (spec.nhid) m.put_u32(RTA_NH_ID, *spec.nhid);
    if (spec.encap) put_route_encap(m, *spec.encap);
    if (!spec.nexthops.empty()) {
      std::vector<Nexthop> paths;
      for (std::size_t k = 0; k < spec.nexthops.size(); ++k) {
        const auto& nh = spec.nexthops[k];
        paths.push_back({.via = route.nexthop_vias[k],
                         .ifindex = nh.dev.empty() ? 0 : cached(conn, nh.dev),
                         .weight = nh.weight,
                         .onlink = nh.onlink,
                         .realms = nh.realms});
      }
      m.put_bytes(RTA_MULTIPATH, encode_multipath(paths));
    }
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = state->op, .object = state->object});
    // After ENOBUFS: is a route with this destination (and metric) in the table?
    requests.back().recheck = [state](Connection& c) -> NlResult<bool> {
      const RouteSpec& spec = state->spec;
      const ParsedRoute& route = state->route;
      const bool del = state->kind == RTM_DELROUTE;
      auto now = list_routes(c, {.family = route.dst.address.family, .table = spec.table});
      if (!now) return std::move(now).error();
      bool present = false;
      for (const auto& r : *now)
        present |= r.dst.length == route.dst.length && (route.dst.length == 0 || r.dst == route.dst) &&
                   (!spec.metric || r.metric == *spec.metric) &&
                   ((del && spec.type == RouteType::unicast) || r.type == static_cast<uint8_t>(spec.type));
      return del ? !present : present;
    };
    return requests;
  };
  return result;
}

}  // namespace detail

NlResult<RouteInfo> route_from_message(const nlmsghdr& message) { return detail::parse_route(message); }

NlResult<void> add_route(Connection& conn, const RouteSpec& spec) {
  return detail::run_one(conn, detail::route_op(spec, RTM_NEWROUTE));
}
NlResult<void> replace_route(Connection& conn, const RouteSpec& spec) {
  return put_route(conn, spec, RouteMerge::replace);
}
NlResult<void> put_route(Connection& conn, const RouteSpec& spec, RouteMerge merge) {
  return detail::run_one(conn, detail::route_op(spec, RTM_NEWROUTE, merge));
}

bool RouteMetrics::empty() const {
  if (locked || !congctl.empty()) return false;
  for (const auto& v : values)
    if (v) return false;
  return true;
}
NlResult<void> delete_route(Connection& conn, const RouteSpec& spec) {
  return detail::run_one(conn, detail::route_op(spec, RTM_DELROUTE));
}

NlResult<std::vector<RouteInfo>> list_routes(Connection& conn, const RouteFilter& filter) {
  Message m(RTM_GETROUTE, NLM_F_REQUEST);
  auto& rtm = m.put_header<rtmsg>();
  rtm.rtm_family = static_cast<uint8_t>(filter.family);
  if (filter.cloned) rtm.rtm_flags |= RTM_F_CLONED;  // the kernel then dumps the exceptions
  if (filter.table != RT_TABLE_UNSPEC)
    m.put_u32(RTA_TABLE, filter.table);  // kernel-side filters under strict checking
  int oif = 0;
  if (!filter.dev.empty()) {
    auto index = resolve_link(conn, filter.dev);
    if (!index) {
      if (index.error().code == ENODEV)
        return detail::as_missing(std::move(index).error(), "route list", filter.dev);
      index.error().op = "route list";
      return std::move(index).error();
    }
    oif = *index;
    m.put_u32(RTA_OIF, static_cast<uint32_t>(oif));
  }
  return detail::dump_collect<RouteInfo>(
      conn, std::move(m), "route list", filter.dev, RTM_NEWROUTE, detail::parse_route,
      [&](const RouteInfo& route) {
        // IPv6 dumps carry cached clones and other tables unless filtered; keep ours.
        return (filter.table == RT_TABLE_UNSPEC || route.table == filter.table) &&
               (!oif || route.oif == oif) && route.cloned == filter.cloned;
      });
}

NlResult<RouteInfo> get_route(Connection& conn, const RouteQuery& query) {
  const char* op = "route get";
  auto to = IpAddress::parse(query.to);
  if (!to) return invalid_argument(op, query.to, "malformed destination '" + query.to + "'");
  std::optional<IpPrefix> from;
  if (!query.from.empty()) {
    auto parsed = IpPrefix::parse(query.from);
    if (!parsed || parsed->address.family != to->family)
      return invalid_argument(op, query.to, "malformed source address '" + query.from + "'");
    from = *parsed;
  }
  auto device = [&](const std::string& name) -> NlResult<uint32_t> {
    auto index = resolve_link(conn, name);
    if (!index) {
      if (index.error().code == ENODEV) return detail::as_missing(std::move(index).error(), op, name);
      index.error().op = op;
      return std::move(index).error();
    }
    return static_cast<uint32_t>(*index);
  };
  Message m(RTM_GETROUTE, NLM_F_REQUEST);
  auto& rtm = m.put_header<rtmsg>();
  rtm.rtm_family = static_cast<uint8_t>(to->family);
  // As ip: an IPv4 answer reports the table it came from (IPv6 always does,
  // and refuses the flag under strict checking).
  if (to->family == AF_INET) rtm.rtm_flags |= RTM_F_LOOKUP_TABLE;
  if (query.notify) rtm.rtm_flags |= RTM_F_NOTIFY;  // which IPv6 refuses, as it does for ip
  if (query.fib_match) rtm.rtm_flags |= RTM_F_FIB_MATCH;
  rtm.rtm_tos = query.tos;
  const auto full = static_cast<uint8_t>(to->family == AF_INET ? 32 : 128);
  rtm.rtm_dst_len = full;
  m.put_bytes(RTA_DST, to->data());
  if (from) {
    rtm.rtm_src_len = from->length;  // the kernel takes only a host's
    m.put_bytes(RTA_SRC, from->address.data());
  }
  if (!query.iif.empty()) m.put_u32(RTA_IIF, BRISK_TRY(device(query.iif)));
  if (!query.oif.empty()) m.put_u32(RTA_OIF, BRISK_TRY(device(query.oif)));
  if (query.mark) m.put_u32(RTA_MARK, *query.mark);
  if (query.uid) m.put_u32(RTA_UID, *query.uid);
  if (query.ip_proto) m.put_u8(RTA_IP_PROTO, *query.ip_proto);
  if (query.sport) m.put_u16(RTA_SPORT, htons(*query.sport));
  if (query.dport) m.put_u16(RTA_DPORT, htons(*query.dport));
  if (!query.as.empty()) {
    auto as = IpAddress::parse(query.as);
    if (!as || as->family != to->family)
      return invalid_argument(op, query.to, "malformed 'as' address '" + query.as + "'");
    m.put_bytes(RTA_NEWDST, as->data());
  }

  return detail::single_reply<RouteInfo>(conn, {.message = std::move(m), .op = op, .object = query.to},
                                         RTM_NEWROUTE, detail::parse_route, "no route in the reply");
}

}  // namespace brisk::netlink
