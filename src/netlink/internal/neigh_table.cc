// RTM_GETNEIGHTBL and RTM_SETNEIGHTBL: the neighbour tables and their
// per-device parameters.
#include "netlink/internal/neigh_table.h"

#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "brisk/netlink/attributes.h"
#include "netlink/dump_collect.h"

namespace brisk::netlink {
namespace {

constexpr auto kTablePolicies = [] {
  std::array<AttrPolicy, NDTA_MAX + 1> p{};
  p[NDTA_NAME] = {AttrKind::string};
  for (int t : {NDTA_THRESH1, NDTA_THRESH2, NDTA_THRESH3}) p[t] = {AttrKind::u32};
  p[NDTA_GC_INTERVAL] = {AttrKind::u64};
  p[NDTA_PARMS] = {AttrKind::nested};
  p[NDTA_CONFIG] = {AttrKind::binary, 0, sizeof(ndt_config)};
  p[NDTA_STATS] = {AttrKind::binary, 0, sizeof(ndt_stats)};
  return p;
}();

constexpr auto kParmPolicies = [] {
  std::array<AttrPolicy, NDTPA_MAX + 1> p{};
  for (int t : {NDTPA_IFINDEX, NDTPA_REFCNT, NDTPA_QUEUE_LEN, NDTPA_APP_PROBES, NDTPA_UCAST_PROBES,
                NDTPA_MCAST_PROBES, NDTPA_PROXY_QLEN})
    p[t] = {AttrKind::u32};
  for (int t : {NDTPA_REACHABLE_TIME, NDTPA_BASE_REACHABLE_TIME, NDTPA_RETRANS_TIME, NDTPA_GC_STALETIME,
                NDTPA_DELAY_PROBE_TIME, NDTPA_ANYCAST_DELAY, NDTPA_PROXY_DELAY, NDTPA_LOCKTIME})
    p[t] = {AttrKind::u64};
  return p;
}();

// A kernel struct from an attribute at least its size (a newer kernel's may be longer).
template <class T>
std::optional<T> fixed(const Attributes& attrs, uint16_t type) {
  auto bytes = attrs.bytes(type);
  if (!bytes) return std::nullopt;
  T value{};
  std::memcpy(&value, bytes->data(), sizeof(T));
  return value;
}

}  // namespace

NlResult<NeighTableInfo> parse_neigh_table(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_LENGTH(sizeof(ndtmsg)))
    return NetlinkError{.code = EBADMSG, .op = "ntable", .detail = "a message shorter than ndtmsg"};
  auto attrs = Attributes::parse_message(message, sizeof(ndtmsg), Schema{kTablePolicies});
  if (!attrs) return std::move(attrs).error();
  NeighTableInfo info{.family = static_cast<const ndtmsg*>(NLMSG_DATA(&message))->ndtm_family};
  info.name = std::string(attrs->string(NDTA_NAME).value_or(""));
  info.thresh1 = attrs->u32(NDTA_THRESH1);
  info.thresh2 = attrs->u32(NDTA_THRESH2);
  info.thresh3 = attrs->u32(NDTA_THRESH3);
  info.gc_interval = attrs->u64(NDTA_GC_INTERVAL);
  info.config = fixed<ndt_config>(*attrs, NDTA_CONFIG);
  info.stats = fixed<ndt_stats>(*attrs, NDTA_STATS);
  if (attrs->has(NDTA_PARMS)) {
    auto p = attrs->nested(NDTA_PARMS, Schema{kParmPolicies});
    if (!p) return std::move(p).error();
    NeighTableParms parms;
    if (auto index = p->u32(NDTPA_IFINDEX)) parms.ifindex = static_cast<int>(*index);
    parms.refcnt = p->u32(NDTPA_REFCNT);
    parms.reachable_time = p->u64(NDTPA_REACHABLE_TIME);
    parms.base_reachable_time = p->u64(NDTPA_BASE_REACHABLE_TIME);
    parms.retrans_time = p->u64(NDTPA_RETRANS_TIME);
    parms.gc_staletime = p->u64(NDTPA_GC_STALETIME);
    parms.delay_probe_time = p->u64(NDTPA_DELAY_PROBE_TIME);
    parms.queue_len = p->u32(NDTPA_QUEUE_LEN);
    parms.app_probes = p->u32(NDTPA_APP_PROBES);
    parms.ucast_probes = p->u32(NDTPA_UCAST_PROBES);
    parms.mcast_probes = p->u32(NDTPA_MCAST_PROBES);
    parms.anycast_delay = p->u64(NDTPA_ANYCAST_DELAY);
    parms.proxy_delay = p->u64(NDTPA_PROXY_DELAY);
    parms.proxy_qlen = p->u32(NDTPA_PROXY_QLEN);
    parms.locktime = p->u64(NDTPA_LOCKTIME);
    info.parms = parms;
  }
  return info;
}

NlResult<std::vector<NeighTableInfo>> list_neigh_tables(Connection& conn, int family) {
  Message m(RTM_GETNEIGHTBL, NLM_F_REQUEST, 64);
  m.put_header<ndtmsg>().ndtm_family = static_cast<uint8_t>(family);
  return detail::dump_collect<NeighTableInfo>(conn, std::move(m), "ntable list", std::string(),
                                              RTM_NEWNEIGHTBL, parse_neigh_table,
                                              [](const NeighTableInfo&) { return true; });
}

Message neigh_table_change_message(const NeighTableChange& change) {
  Message m(RTM_SETNEIGHTBL, NLM_F_REQUEST | NLM_F_REPLACE, 256);
  m.put_header<ndtmsg>().ndtm_family = static_cast<uint8_t>(change.family);
  m.put_string(NDTA_NAME, change.name);
  auto u32 = [&m](uint16_t type, const std::optional<uint32_t>& value) {
    if (value) m.put_u32(type, *value);
  };
  auto u64 = [&m](uint16_t type, const std::optional<uint64_t>& value) {
    if (value) m.put_u64(type, *value);
  };
  u32(NDTA_THRESH1, change.thresh1);
  u32(NDTA_THRESH2, change.thresh2);
  u32(NDTA_THRESH3, change.thresh3);
  u64(NDTA_GC_INTERVAL, change.gc_interval);
  bool parms = change.ifindex || change.base_reachable_time || change.retrans_time || change.gc_staletime ||
               change.delay_probe_time || change.queue_len || change.app_probes || change.ucast_probes ||
               change.mcast_probes || change.anycast_delay || change.proxy_delay || change.proxy_qlen ||
               change.locktime;
  if (!parms) return m;
  auto nest = m.begin_nest(NDTA_PARMS);
  if (change.ifindex) m.put_u32(NDTPA_IFINDEX, static_cast<uint32_t>(*change.ifindex));
  u64(NDTPA_BASE_REACHABLE_TIME, change.base_reachable_time);
  u64(NDTPA_RETRANS_TIME, change.retrans_time);
  u64(NDTPA_GC_STALETIME, change.gc_staletime);
  u64(NDTPA_DELAY_PROBE_TIME, change.delay_probe_time);
  u32(NDTPA_QUEUE_LEN, change.queue_len);
  u32(NDTPA_APP_PROBES, change.app_probes);
  u32(NDTPA_UCAST_PROBES, change.ucast_probes);
  u32(NDTPA_MCAST_PROBES, change.mcast_probes);
  u64(NDTPA_ANYCAST_DELAY, change.anycast_delay);
  u64(NDTPA_PROXY_DELAY, change.proxy_delay);
  u32(NDTPA_PROXY_QLEN, change.proxy_qlen);
  u64(NDTPA_LOCKTIME, change.locktime);
  m.end_nest(nest);
  return m;
}

NlResult<void> change_neigh_table(Connection& conn, const NeighTableChange& change) {
  return conn.execute(
      {.message = neigh_table_change_message(change), .op = "ntable change", .object = change.name});
}

}  // namespace brisk::netlink
