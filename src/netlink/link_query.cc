// Reading links: get by name or index (one RTM_GETLINK), list (one dump
// with kernel-side filters), and name resolution through the cache.
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "netlink/dump_collect.h"
#include "netlink/link_schema.h"
#include "netlink/op.h"
#include "sys/sockets.h"

namespace brisk::netlink {
namespace detail {
namespace {

constexpr auto kLinkPolicies = [] {
  std::array<AttrPolicy, IFLA_MAX + 1> p{};
  p[IFLA_ADDRESS] = {AttrKind::binary, 32, 0};
  p[IFLA_IFNAME] = {AttrKind::string, IFNAMSIZ};
  p[IFLA_MTU] = {AttrKind::u32};
  p[IFLA_LINK] = {AttrKind::u32};
  p[IFLA_MASTER] = {AttrKind::u32};
  p[IFLA_TXQLEN] = {AttrKind::u32};
  p[IFLA_OPERSTATE] = {AttrKind::u8};
  p[IFLA_LINKINFO] = {AttrKind::nested};
  p[IFLA_IFALIAS] = {AttrKind::string};
  p[IFLA_GROUP] = {AttrKind::u32};
  p[IFLA_LINK_NETNSID] = {AttrKind::u32};
  p[IFLA_BROADCAST] = {AttrKind::binary, 32, 0};
  p[IFLA_QDISC] = {AttrKind::string, IFNAMSIZ};
  p[IFLA_LINKMODE] = {AttrKind::u8};
  p[IFLA_STATS64] = {AttrKind::binary, 0,
                     static_cast<uint16_t>(sizeof(rtnl_link_stats64) - 2 * sizeof(uint64_t))};
  p[IFLA_CARRIER_CHANGES] = {AttrKind::u32};
  // Read only for LinkDetails (link_details.cc).
  for (int type :
       {IFLA_PROMISCUITY, IFLA_ALLMULTI, IFLA_MIN_MTU, IFLA_MAX_MTU, IFLA_NUM_TX_QUEUES, IFLA_NUM_RX_QUEUES,
        IFLA_GSO_MAX_SIZE, IFLA_GSO_MAX_SEGS, IFLA_TSO_MAX_SIZE, IFLA_TSO_MAX_SEGS, IFLA_GRO_MAX_SIZE})
    p[type] = {AttrKind::u32};
  p[IFLA_AF_SPEC] = {AttrKind::nested};
  p[IFLA_PROP_LIST] = {AttrKind::binary};  // repeated IFLA_ALT_IFNAMEs: walked in altnames_of()
  return p;
}();

constexpr auto kInfoPolicies = [] {
  std::array<AttrPolicy, IFLA_INFO_MAX + 1> p{};
  p[IFLA_INFO_KIND] = {AttrKind::string};
  p[IFLA_INFO_SLAVE_KIND] = {AttrKind::string};
  // The kind's own attributes stay bytes: a reader parses them with a schema for that kind.
  p[IFLA_INFO_DATA] = {AttrKind::binary};
  p[IFLA_INFO_SLAVE_DATA] = {AttrKind::binary};
  return p;
}();

// Each IFLA_ALT_IFNAME in IFLA_PROP_LIST's payload, in order.
NlResult<std::vector<std::string>> altnames_of(std::span<const uint8_t> list) {
  std::vector<std::string> names;
  const char* cursor = reinterpret_cast<const char*>(list.data());
  std::size_t left = list.size();
  while (left >= sizeof(nlattr)) {
    nlattr attr;
    std::memcpy(&attr, cursor, sizeof attr);
    if (attr.nla_len < sizeof(nlattr) || attr.nla_len > left)
      return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "truncated IFLA_PROP_LIST"};
    if ((attr.nla_type & NLA_TYPE_MASK) == IFLA_ALT_IFNAME) {
      std::string_view payload(cursor + sizeof(nlattr), attr.nla_len - sizeof(nlattr));
      auto nul = payload.find('\0');
      if (nul == std::string_view::npos)
        return NetlinkError{
            .code = EBADMSG, .op = "netlink parse", .detail = "IFLA_ALT_IFNAME without a NUL"};
      names.emplace_back(payload.substr(0, nul));
    }
    std::size_t step = NLA_ALIGN(attr.nla_len);
    if (step >= left) break;
    cursor += step;
    left -= step;
  }
  return names;
}

}  // namespace

void put_link_ref(Message& m, const std::string& name) {
  m.put_string(name.size() < IFNAMSIZ ? IFLA_IFNAME : IFLA_ALT_IFNAME, name);
}

const Schema kLinkSchema{kLinkPolicies};
const Schema kLinkInfoSchema{kInfoPolicies};

NlResult<LinkInfo> parse_link(const nlmsghdr& message, bool details) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(ifinfomsg))
    return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "short RTM_NEWLINK"};
  ifinfomsg ifi;
  std::memcpy(&ifi, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof ifi);
  auto attrs = Attributes::parse_message(message, sizeof(ifinfomsg), kLinkSchema);
  if (!attrs) return std::move(attrs).error();
  LinkInfo link;
  link.ifindex = ifi.ifi_index;
  link.flags = ifi.ifi_flags;
  link.type = ifi.ifi_type;
  link.name = std::string(attrs->string(IFLA_IFNAME).value_or(""));
  link.mtu = attrs->u32(IFLA_MTU).value_or(0);
  auto mac_of = [&](int type) -> std::optional<MacAddress> {
    auto raw = attrs->bytes(type);
    if (!raw || raw->size() != 6) return std::nullopt;
    MacAddress mac;
    std::memcpy(mac.bytes.data(), raw->data(), 6);
    return mac;
  };
  link.address = mac_of(IFLA_ADDRESS);
  link.broadcast = mac_of(IFLA_BROADCAST);
  link.qdisc = std::string(attrs->string(IFLA_QDISC).value_or(""));
  link.linkmode = attrs->u8(IFLA_LINKMODE).value_or(0);
  link.master = static_cast<int>(attrs->u32(IFLA_MASTER).value_or(0));
  link.link = static_cast<int>(attrs->u32(IFLA_LINK).value_or(0));
  link.has_link = attrs->u32(IFLA_LINK).has_value();
  if (auto id = attrs->u32(IFLA_LINK_NETNSID)) link.link_netnsid = static_cast<int>(*id);
  link.group = attrs->u32(IFLA_GROUP).value_or(0);
  link.txqueuelen = attrs->u32(IFLA_TXQLEN).value_or(0);
  link.alias = std::string(attrs->string(IFLA_IFALIAS).value_or(""));
  link.operstate = attrs->u8(IFLA_OPERSTATE).value_or(0);
  if (auto list = attrs->bytes(IFLA_PROP_LIST)) {
    auto names = altnames_of(*list);
    if (!names) return std::move(names).error();
    link.altnames = std::move(*names);
  }
  auto info = attrs->nested(IFLA_LINKINFO, kLinkInfoSchema);
  if (!info) return std::move(info).error();
  link.kind = std::string(info->string(IFLA_INFO_KIND).value_or(""));
  if (details) {
    auto more = parse_link_details(*attrs);
    if (!more) return std::move(more).error();
    link.details = std::move(*more);
  }
  if (auto raw = attrs->bytes(IFLA_STATS64)) {
    rtnl_link_stats64 s{};
    std::memcpy(&s, raw->data(), std::min(raw->size(), sizeof s));
    link.stats = LinkStats{.rx_packets = s.rx_packets,
                           .tx_packets = s.tx_packets,
                           .rx_bytes = s.rx_bytes,
                           .tx_bytes = s.tx_bytes,
                           .rx_errors = s.rx_errors,
                           .tx_errors = s.tx_errors,
                           .rx_dropped = s.rx_dropped,
                           .tx_dropped = s.tx_dropped,
                           .rx_over_errors = s.rx_over_errors,
                           .rx_missed_errors = s.rx_missed_errors,
                           .multicast = s.multicast,
                           .tx_carrier_errors = s.tx_carrier_errors,
                           .collisions = s.collisions,
                           .rx_length_errors = s.rx_length_errors,
                           .rx_crc_errors = s.rx_crc_errors,
                           .rx_frame_errors = s.rx_frame_errors,
                           .rx_fifo_errors = s.rx_fifo_errors,
                           .rx_nohandler = s.rx_nohandler,
                           .tx_aborted_errors = s.tx_aborted_errors,
                           .tx_fifo_errors = s.tx_fifo_errors,
                           .tx_window_errors = s.tx_window_errors,
                           .tx_heartbeat_errors = s.tx_heartbeat_errors,
                           .carrier_changes = attrs->u32(IFLA_CARRIER_CHANGES).value_or(0)};
  }
  return link;
}

Message link_get_message(const std::string& name, int ifindex, bool stats) {
  Message m(RTM_GETLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>().ifi_index = ifindex;
  if (ifindex == 0) put_link_ref(m, name);
  // Skipping stats keeps the reply (and the kernel's work) small.
  m.put_u32(IFLA_EXT_MASK, stats ? 0u : static_cast<uint32_t>(RTEXT_FILTER_SKIP_STATS));
  return m;
}

int cached(Connection& conn, const std::string& name) { return conn.cached_ifindex(name).value_or(0); }

}  // namespace detail

bool LinkInfo::up() const { return flags & IFF_UP; }

namespace {

NlResult<LinkInfo> get_one(Connection& conn, const std::string& name, int ifindex, const LinkRead& read) {
  std::optional<LinkInfo> found;
  Request r{.message = detail::link_get_message(name, ifindex, read.stats),
            .op = "link get",
            .object = ifindex ? "ifindex " + std::to_string(ifindex) : name,
            .reply_budget = kGetBudget,
            .ack = false};
  r.on_reply = [&found, &read](const nlmsghdr& reply) -> NlResult<void> {
    if (reply.nlmsg_type != RTM_NEWLINK) return {};
    auto link = detail::parse_link(reply, read.details);
    if (!link) return std::move(link).error();
    found = std::move(*link);
    return {};
  };
  auto done = conn.execute(std::move(r));
  if (!done) {
    detail::mark_missing_device(done.error());
    return std::move(done).error();
  }
  if (!found) return NetlinkError{.code = ENODEV, .op = "link get", .object = name, .detail = "no reply"};
  if (!read.stats) found->stats.reset();
  return std::move(*found);
}

}  // namespace

NlResult<LinkInfo> get_link(Connection& conn, const std::string& name, const LinkRead& read) {
  auto valid = validate_link_ref(name, "link get");
  if (!valid) return std::move(valid).error();
  auto link = get_one(conn, name, 0, read);
  if (link) {
    internal::ConnectionHooks::remember_ifindex(conn, link->name, link->ifindex);
    if (name != link->name)
      internal::ConnectionHooks::remember_ifindex(conn, name, link->ifindex);  // asked for by an altname
  } else {
    conn.forget_name(name);
  }
  return link;
}

NlResult<void> sync_link_state(Connection& conn, const std::string& name) {
  auto link = get_link(conn, name);
  if (!link && link.error().code != ENODEV) return std::move(link).error();
  return {};
}

NlResult<LinkInfo> get_link(Connection& conn, int ifindex, const LinkRead& read) {
  if (ifindex <= 0) return invalid_argument("link get", std::to_string(ifindex), "ifindex must be positive");
  return get_one(conn, {}, ifindex, read);
}

// One ioctl(SIOCGIFINDEX) on the connection's own socket, which lives in the
// connection's namespace: a hash lookup that builds no reply (~1 us here,
// where a GETLINK costs ~6 us for the kernel's whole link message). GETLINK
// stays the fallback should a seccomp or LSM policy refuse the ioctl.
namespace detail {

std::optional<NlResult<int>> resolve_link_without_socket(Connection& conn, const std::string& name) {
  if (auto index = conn.cached_ifindex(name)) return *index;
  if (auto valid = validate_link_ref(name, "link get"); !valid) return std::move(valid).error();
  ++conn.stats().link_lookups;
  // SIOCGIFINDEX takes IFNAMSIZ bytes: a longer altname needs the GETLINK.
  if (name.size() >= IFNAMSIZ) return std::nullopt;
  auto index = internal::ConnectionHooks::transport(conn).interface_index(name);
  if (index) {
    internal::ConnectionHooks::remember_ifindex(conn, name, *index);
    return *index;
  }
  if (index.error().code == ENODEV) {
    NetlinkError e{.code = ENODEV, .op = "link get", .object = name};
    mark_missing_device(e);
    return e;
  }
  return std::nullopt;
}

NlResult<int> resolve_link_by_getlink(Connection& conn, const std::string& name) {
  auto link = get_link(conn, name);
  if (!link) return std::move(link).error();
  return link->ifindex;
}

}  // namespace detail

NlResult<int> resolve_link(Connection& conn, const std::string& name) {
  if (auto local = detail::resolve_link_without_socket(conn, name)) return std::move(*local);
  return detail::resolve_link_by_getlink(conn, name);
}

NlResult<std::vector<LinkInfo>> list_links(Connection& conn, const LinkFilter& filter) {
  Message m(RTM_GETLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>();
  m.put_u32(IFLA_EXT_MASK, filter.stats ? 0u : static_cast<uint32_t>(RTEXT_FILTER_SKIP_STATS));
  // Kernel-side filters (honoured under NETLINK_GET_STRICT_CHK).
  if (!filter.master.empty()) {
    auto master = resolve_link(conn, filter.master);
    if (!master) {
      master.error().op = "link list";
      master.error().detail = "master " + filter.master;
      return std::move(master).error();
    }
    m.put_u32(IFLA_MASTER, static_cast<uint32_t>(*master));
  }
  if (!filter.kind.empty()) {
    auto info = m.begin_nest(IFLA_LINKINFO);
    m.put_string(IFLA_INFO_KIND, filter.kind);
    m.end_nest(info);
  }
  return detail::dump_collect<LinkInfo>(
      conn, std::move(m), "link list", filter.kind.empty() ? filter.master : filter.kind, RTM_NEWLINK,
      [&](const nlmsghdr& message) { return detail::parse_link(message, filter.details); },
      [&](LinkInfo& link) {
        if (!filter.stats) link.stats.reset();
        return true;
      });
}

}  // namespace brisk::netlink
