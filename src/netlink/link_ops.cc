// Changing links: the add, set and delete requests, built at flush time.
#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include <algorithm>
#include <cctype>

#include "brisk/netlink/netns.h"
#include "netlink/link_schema.h"
#include "netlink/op.h"

namespace brisk::netlink {

namespace {

// The kernel's dev_valid_name() characters, for a name of any length.
NlResult<void> check_name_chars(const std::string& name, const char* op) {
  if (name.empty()) return invalid_argument(op, name, "empty interface name");
  if (name == "." || name == "..") return invalid_argument(op, name, "invalid interface name");
  for (unsigned char c : name) {
    if (c == '%')
      return invalid_argument(op, name, "name templates are refused: the kernel scans every device for them");
    if (c == '/' || c == ':' || std::isspace(c) || c < 0x20)
      return invalid_argument(op, name,
                              "interface name contains '/', ':', whitespace or a control character");
  }
  return {};
}

}  // namespace

NlResult<void> validate_link_name(const std::string& name, const char* op) {
  if (name.size() >= IFNAMSIZ)
    return invalid_argument(op, name, "interface name longer than 15 bytes", ENAMETOOLONG);
  return check_name_chars(name, op);
}

NlResult<void> validate_link_ref(const std::string& name, const char* op) {
  if (name.size() >= ALTIFNAMSIZ) {  // no device can have it
    NetlinkError e{.code = ENODEV, .op = op, .object = name};
    detail::mark_missing_device(e);
    return e;
  }
  return check_name_chars(name, op);
}

NlResult<void> validate_altname(const std::string& name, const char* op) {
  if (name.empty()) return invalid_argument(op, name, "empty alternative name");
  for (unsigned char c : name)
    if (c == '/' || std::isspace(c) || c < 0x20)
      return invalid_argument(op, name, "alternative name contains '/', whitespace or a control character");
  return {};
}

namespace detail {
namespace {

// Recheck helpers after ENOBUFS: look at the device itself.
NlResult<bool> link_exists(Connection& conn, const std::string& name) {
  auto link = get_link(conn, name);
  if (link) return true;
  if (link.error().code == ENODEV) return false;
  return std::move(link).error();
}

// The tuning's interface flags, into the header (before any attribute).
void tuning_flags(ifinfomsg& ifi, const LinkTuning& t) {
  // Each flag asked for goes in ifi_change, and in ifi_flags when it is to be set.
  auto flag = [&ifi](const std::optional<bool>& set, unsigned bit) {
    if (!set) return;
    ifi.ifi_change |= bit;
    if (*set) ifi.ifi_flags |= bit;
  };
  auto negated = [](const std::optional<bool>& on) { return on ? std::optional<bool>(!*on) : std::nullopt; };
  flag(t.dynamic, IFF_DYNAMIC);
  flag(negated(t.trailers), IFF_NOTRAILERS);
  flag(t.promisc, IFF_PROMISC);
  flag(negated(t.arp), IFF_NOARP);
  flag(t.multicast, IFF_MULTICAST);
  flag(t.allmulticast, IFF_ALLMULTI);
}

// The tuning's attributes; a malformed broadcast address is refused.
NlResult<void> put_tuning(Message& m, const LinkTuning& t, const char* op, const std::string& name) {
  if (!t.broadcast.empty()) {
    auto mac = MacAddress::parse(t.broadcast);
    if (!mac) return invalid_argument(op, name, "malformed broadcast address '" + t.broadcast + "'");
    m.put_bytes(IFLA_BROADCAST, mac->bytes);
  }
  if (t.gso_max_size) m.put_u32(IFLA_GSO_MAX_SIZE, *t.gso_max_size);
  if (t.gso_max_segs) m.put_u32(IFLA_GSO_MAX_SEGS, *t.gso_max_segs);
  if (t.gro_max_size) m.put_u32(IFLA_GRO_MAX_SIZE, *t.gro_max_size);
  if (t.num_tx_queues) m.put_u32(IFLA_NUM_TX_QUEUES, *t.num_tx_queues);
  if (t.num_rx_queues) m.put_u32(IFLA_NUM_RX_QUEUES, *t.num_rx_queues);
  if (t.carrier) m.put_u8(IFLA_CARRIER, *t.carrier);
  if (t.protodown) m.put_u8(IFLA_PROTO_DOWN, *t.protodown);
  if (t.protodown_reason) {
    auto [bit, on] = *t.protodown_reason;
    if (bit > 31) return invalid_argument(op, name, "protodown reason above 31", ERANGE);
    auto reason = m.begin_nest(IFLA_PROTO_DOWN_REASON | NLA_F_NESTED);
    m.put_u32(IFLA_PROTO_DOWN_REASON_MASK, 1u << bit);
    m.put_u32(IFLA_PROTO_DOWN_REASON_VALUE, on ? 1u << bit : 0u);
    m.end_nest(reason);
  }
  if (t.operstate) m.put_u8(IFLA_OPERSTATE, *t.operstate);
  if (t.link_mode) m.put_u8(IFLA_LINKMODE, *t.link_mode);
  if (t.link_netnsid) m.put_u32(IFLA_LINK_NETNSID, static_cast<uint32_t>(*t.link_netnsid));
  if (t.addr_gen_mode) {
    auto af = m.begin_nest(IFLA_AF_SPEC);
    auto inet6 = m.begin_nest(AF_INET6);
    m.put_u8(IFLA_INET6_ADDR_GEN_MODE, *t.addr_gen_mode);
    m.end_nest(inet6);
    m.end_nest(af);
  }
  if (t.xdp_off) {
    auto xdp = m.begin_nest(IFLA_XDP);
    m.put_u32(IFLA_XDP_FD, static_cast<uint32_t>(-1));
    if (t.xdp_flags) m.put_u32(IFLA_XDP_FLAGS, t.xdp_flags);
    m.end_nest(xdp);
  }
  return {};
}

// A bridge port's options: IFLA_LINKINFO { SLAVE_KIND bridge, SLAVE_DATA }.
void put_bridge_port(Message& m, Connection& conn, const BridgePortOptions& p) {
  auto info = m.begin_nest(IFLA_LINKINFO);
  m.put_string(IFLA_INFO_SLAVE_KIND, "bridge");
  auto data = m.begin_nest(IFLA_INFO_SLAVE_DATA);
  if (p.fdb_flush) m.put_flag(IFLA_BRPORT_FLUSH);
  if (p.state) m.put_u8(IFLA_BRPORT_STATE, *p.state);
  if (p.priority) m.put_u16(IFLA_BRPORT_PRIORITY, *p.priority);
  if (p.cost) m.put_u32(IFLA_BRPORT_COST, *p.cost);
  static constexpr std::pair<std::optional<bool> BridgePortOptions::*, uint16_t> kSwitches[] = {
      {&BridgePortOptions::hairpin, IFLA_BRPORT_MODE},
      {&BridgePortOptions::guard, IFLA_BRPORT_GUARD},
      {&BridgePortOptions::root_block, IFLA_BRPORT_PROTECT},
      {&BridgePortOptions::fast_leave, IFLA_BRPORT_FAST_LEAVE},
      {&BridgePortOptions::learning, IFLA_BRPORT_LEARNING},
      {&BridgePortOptions::flood, IFLA_BRPORT_UNICAST_FLOOD},
      {&BridgePortOptions::mcast_flood, IFLA_BRPORT_MCAST_FLOOD},
      {&BridgePortOptions::bcast_flood, IFLA_BRPORT_BCAST_FLOOD},
      {&BridgePortOptions::mcast_to_unicast, IFLA_BRPORT_MCAST_TO_UCAST},
      {&BridgePortOptions::proxy_arp, IFLA_BRPORT_PROXYARP},
      {&BridgePortOptions::proxy_arp_wifi, IFLA_BRPORT_PROXYARP_WIFI},
      {&BridgePortOptions::neigh_suppress, IFLA_BRPORT_NEIGH_SUPPRESS},
      {&BridgePortOptions::vlan_tunnel, IFLA_BRPORT_VLAN_TUNNEL},
      {&BridgePortOptions::isolated, IFLA_BRPORT_ISOLATED},
      {&BridgePortOptions::locked, IFLA_BRPORT_LOCKED}};
  for (auto [field, type] : kSwitches)
    if (p.*field) m.put_u8(type, *(p.*field) ? 1 : 0);
  if (p.mcast_router) m.put_u8(IFLA_BRPORT_MULTICAST_ROUTER, *p.mcast_router);
  if (p.group_fwd_mask) m.put_u16(IFLA_BRPORT_GROUP_FWD_MASK, *p.group_fwd_mask);
  if (p.backup_port)
    m.put_u32(IFLA_BRPORT_BACKUP_PORT,
              p.backup_port->empty() ? 0u : static_cast<uint32_t>(cached(conn, *p.backup_port)));
  m.end_nest(data);
  m.end_nest(info);
}

// The common options, shared by add and by the set that follows a tun add.
NlResult<void> put_common(Message& m, Connection& conn, const LinkCommon& c, const char* op,
                          const std::string& name) {
  if (c.mtu) m.put_u32(IFLA_MTU, *c.mtu);
  if (!c.address.empty()) {
    auto mac = MacAddress::parse(c.address);
    if (!mac) return invalid_argument(op, name, "malformed MAC address '" + c.address + "'");
    m.put_bytes(IFLA_ADDRESS, mac->bytes);
  }
  if (c.txqueuelen) m.put_u32(IFLA_TXQLEN, *c.txqueuelen);
  if (!c.master.empty()) m.put_u32(IFLA_MASTER, static_cast<uint32_t>(cached(conn, c.master)));
  if (c.group) m.put_u32(IFLA_GROUP, *c.group);
  return put_tuning(m, c.tuning, op, name);
}

NlResult<void> check_alias(const std::string& alias, const char* op, const std::string& name) {
  if (alias.size() >= IFALIASZ) return invalid_argument(op, name, "alias longer than 255 bytes");
  return {};
}

NlResult<IpAddress> parse_ip(const std::string& text, const char* what, const char* op,
                             const std::string& name) {
  auto ip = IpAddress::parse(text);
  if (!ip) return invalid_argument(op, name, std::string("malformed ") + what + " address '" + text + "'");
  return ip;
}

// IFLA_INFO_KIND and IFLA_INFO_DATA for each kind.
struct KindWriter {
  Message& m;
  Connection& conn;
  const std::string& name;
  int& lower;  // IFLA_LINK, written after the IFLA_LINKINFO nest closes; 0: none
  static constexpr const char* op = "link add";

  NlResult<void> operator()(const VethOptions& v) {
    m.put_string(IFLA_INFO_KIND, "veth");
    auto data = m.begin_nest(IFLA_INFO_DATA);
    // Without a peer (no name, nothing else of it) the kernel makes one named vethN, as for ip.
    if (v.peer.empty() && v.peer_netns_fd < 0 && v.peer_common == LinkCommon{}) {
      m.end_nest(data);
      return {};
    }
    auto peer = m.begin_nest(VETH_INFO_PEER);
    ifinfomsg ifi{};
    ifi.ifi_index = v.peer_common.index;
    if (v.peer_common.up) ifi.ifi_flags = ifi.ifi_change = IFF_UP;
    tuning_flags(ifi, v.peer_common.tuning);
    m.put_raw(&ifi, sizeof ifi);
    if (!v.peer.empty()) m.put_string(IFLA_IFNAME, v.peer);
    // Created in place in its namespace: no unregister/register of a move.
    if (v.peer_netns_fd >= 0) m.put_u32(IFLA_NET_NS_FD, static_cast<uint32_t>(v.peer_netns_fd));
    if (auto settings = put_common(m, conn, v.peer_common, op, name); !settings) {
      settings.error().detail = "peer: " + settings.error().detail;
      return settings;
    }
    m.end_nest(peer);
    m.end_nest(data);
    return {};
  }
  NlResult<void> operator()(const BridgeOptions& b) {
    m.put_string(IFLA_INFO_KIND, "bridge");
    auto data = m.begin_nest(IFLA_INFO_DATA);
    auto flag = [this](uint16_t type, const std::optional<bool>& on) {
      if (on) m.put_u8(type, *on ? 1 : 0);
    };
    if (b.stp) m.put_u32(IFLA_BR_STP_STATE, *b.stp ? 1 : 0);
    if (b.forward_delay) m.put_u32(IFLA_BR_FORWARD_DELAY, *b.forward_delay);
    if (b.hello_time) m.put_u32(IFLA_BR_HELLO_TIME, *b.hello_time);
    if (b.max_age) m.put_u32(IFLA_BR_MAX_AGE, *b.max_age);
    if (b.ageing_time) m.put_u32(IFLA_BR_AGEING_TIME, *b.ageing_time);
    if (b.priority) m.put_u16(IFLA_BR_PRIORITY, *b.priority);
    flag(IFLA_BR_VLAN_FILTERING, b.vlan_filtering);
    if (b.vlan_default_pvid) m.put_u16(IFLA_BR_VLAN_DEFAULT_PVID, *b.vlan_default_pvid);
    flag(IFLA_BR_MCAST_SNOOPING, b.mcast_snooping);
    flag(IFLA_BR_MCAST_QUERIER, b.mcast_querier);
    flag(IFLA_BR_NF_CALL_IPTABLES, b.nf_call_iptables);
    flag(IFLA_BR_NF_CALL_IP6TABLES, b.nf_call_ip6tables);
    flag(IFLA_BR_NF_CALL_ARPTABLES, b.nf_call_arptables);
    if (b.group_fwd_mask) m.put_u16(IFLA_BR_GROUP_FWD_MASK, *b.group_fwd_mask);
    if (b.group_address) {
      auto group = MacAddress::parse(*b.group_address);
      if (!group) return invalid_argument(op, name, "malformed group_address '" + *b.group_address + "'");
      m.put_bytes(IFLA_BR_GROUP_ADDR, group->bytes);
    }
    if (b.fdb_flush) m.put_flag(IFLA_BR_FDB_FLUSH);
    if (b.vlan_protocol) m.put_u16(IFLA_BR_VLAN_PROTOCOL, htons(*b.vlan_protocol));
    flag(IFLA_BR_VLAN_STATS_ENABLED, b.vlan_stats_enabled);
    flag(IFLA_BR_VLAN_STATS_PER_PORT, b.vlan_stats_per_port);
    if (b.mcast_router) m.put_u8(IFLA_BR_MCAST_ROUTER, *b.mcast_router);
    flag(IFLA_BR_MCAST_QUERY_USE_IFADDR, b.mcast_query_use_ifaddr);
    if (b.mcast_hash_elasticity) m.put_u32(IFLA_BR_MCAST_HASH_ELASTICITY, *b.mcast_hash_elasticity);
    if (b.mcast_hash_max) m.put_u32(IFLA_BR_MCAST_HASH_MAX, *b.mcast_hash_max);
    if (b.mcast_last_member_count) m.put_u32(IFLA_BR_MCAST_LAST_MEMBER_CNT, *b.mcast_last_member_count);
    if (b.mcast_startup_query_count) m.put_u32(IFLA_BR_MCAST_STARTUP_QUERY_CNT, *b.mcast_startup_query_count);
    for (auto [type, value] : {std::pair{IFLA_BR_MCAST_LAST_MEMBER_INTVL, &b.mcast_last_member_interval},
                               {IFLA_BR_MCAST_MEMBERSHIP_INTVL, &b.mcast_membership_interval},
                               {IFLA_BR_MCAST_QUERIER_INTVL, &b.mcast_querier_interval},
                               {IFLA_BR_MCAST_QUERY_INTVL, &b.mcast_query_interval},
                               {IFLA_BR_MCAST_QUERY_RESPONSE_INTVL, &b.mcast_query_response_interval},
                               {IFLA_BR_MCAST_STARTUP_QUERY_INTVL, &b.mcast_startup_query_interval}})
      if (*value) m.put_u64(static_cast<uint16_t>(type), **value);
    flag(IFLA_BR_MCAST_STATS_ENABLED, b.mcast_stats_enabled);
    if (b.mcast_igmp_version) m.put_u8(IFLA_BR_MCAST_IGMP_VERSION, *b.mcast_igmp_version);
    if (b.mcast_mld_version) m.put_u8(IFLA_BR_MCAST_MLD_VERSION, *b.mcast_mld_version);
    // Two options ride in one attribute: a mask of those given, and their values.
    br_boolopt_multi bools{};
    for (auto [bit, value] : {std::pair{BR_BOOLOPT_NO_LL_LEARN, &b.no_linklocal_learn},
                              {BR_BOOLOPT_MCAST_VLAN_SNOOPING, &b.mcast_vlan_snooping}}) {
      if (!*value) continue;
      bools.optmask |= 1u << bit;
      if (**value) bools.optval |= 1u << bit;
    }
    if (bools.optmask)
      m.put_bytes(IFLA_BR_MULTI_BOOLOPT, {reinterpret_cast<const uint8_t*>(&bools), sizeof bools});
    m.end_nest(data);
    return {};
  }
  NlResult<void> operator()(const MacvlanOptions& v) {
    m.put_string(IFLA_INFO_KIND, v.tap ? "macvtap" : "macvlan");
    auto data = m.begin_nest(IFLA_INFO_DATA);
    if (v.mode) m.put_u32(IFLA_MACVLAN_MODE, static_cast<uint32_t>(*v.mode));
    if (v.flags) m.put_u16(IFLA_MACVLAN_FLAGS, *v.flags);
    if (v.bcqueuelen) m.put_u32(IFLA_MACVLAN_BC_QUEUE_LEN, *v.bcqueuelen);
    if (v.macaddr) {
      m.put_u32(IFLA_MACVLAN_MACADDR_MODE, static_cast<uint32_t>(*v.macaddr));
      std::vector<MacAddress> macs;
      for (const auto& text : v.macaddrs) {
        auto mac = MacAddress::parse(text);
        if (!mac) return invalid_argument(op, name, "malformed macaddr '" + text + "'");
        macs.push_back(*mac);
      }
      bool one = *v.macaddr == MacvlanMacaddr::add || *v.macaddr == MacvlanMacaddr::del;
      if (one && macs.size() != 1) return invalid_argument(op, name, "macaddr add and del take one address");
      if (one) m.put_bytes(IFLA_MACVLAN_MACADDR, macs[0].bytes);
      if (*v.macaddr == MacvlanMacaddr::set) {
        auto list = m.begin_nest(IFLA_MACVLAN_MACADDR_DATA);
        for (const auto& mac : macs) m.put_bytes(IFLA_MACVLAN_MACADDR, mac.bytes);
        m.end_nest(list);
      }
    }
    m.end_nest(data);
    lower = cached(conn, v.link);
    return {};
  }
  NlResult<void> operator()(const VxlanOptions& v) {
    m.put_string(IFLA_INFO_KIND, "vxlan");
    auto data = m.begin_nest(IFLA_INFO_DATA);
    if (v.id) m.put_u32(IFLA_VXLAN_ID, *v.id);
    if (v.dstport) m.put_u16(IFLA_VXLAN_PORT, htons(*v.dstport));
    if (!v.local.empty()) {
      auto ip = parse_ip(v.local, "local", op, name);
      if (!ip) return std::move(ip).error();
      m.put_bytes(ip->family == AF_INET ? IFLA_VXLAN_LOCAL : IFLA_VXLAN_LOCAL6, ip->data());
    }
    if (!v.remote.empty() || !v.group.empty()) {
      bool remote = !v.remote.empty();
      auto ip = parse_ip(remote ? v.remote : v.group, remote ? "remote" : "group", op, name);
      if (!ip) return std::move(ip).error();
      m.put_bytes(ip->family == AF_INET ? IFLA_VXLAN_GROUP : IFLA_VXLAN_GROUP6, ip->data());
    }
    if (!v.dev.empty()) m.put_u32(IFLA_VXLAN_LINK, static_cast<uint32_t>(cached(conn, v.dev)));
    if (v.ttl) m.put_u8(IFLA_VXLAN_TTL, *v.ttl);
    if (v.ttl_inherit) m.put_flag(IFLA_VXLAN_TTL_INHERIT);
    if (v.learning) m.put_u8(IFLA_VXLAN_LEARNING, *v.learning ? 1 : 0);
    if (v.tos) m.put_u8(IFLA_VXLAN_TOS, *v.tos);
    if (v.df) m.put_u8(IFLA_VXLAN_DF, *v.df);
    if (v.flowlabel) m.put_u32(IFLA_VXLAN_LABEL, htonl(*v.flowlabel));
    if (v.ageing) m.put_u32(IFLA_VXLAN_AGEING, *v.ageing);
    if (v.max_addresses) m.put_u32(IFLA_VXLAN_LIMIT, *v.max_addresses);
    if (v.source_ports) {
      ifla_vxlan_port_range range{.low = htons(v.source_ports->first), .high = htons(v.source_ports->second)};
      m.put_bytes(IFLA_VXLAN_PORT_RANGE, {reinterpret_cast<const uint8_t*>(&range), sizeof range});
    }
    for (auto [attr, value] : {std::pair{IFLA_VXLAN_PROXY, v.proxy},
                               {IFLA_VXLAN_RSC, v.rsc},
                               {IFLA_VXLAN_L2MISS, v.l2miss},
                               {IFLA_VXLAN_L3MISS, v.l3miss},
                               {IFLA_VXLAN_UDP_CSUM, v.udp_csum},
                               {IFLA_VXLAN_UDP_ZERO_CSUM6_TX, v.udp6_zero_csum_tx},
                               {IFLA_VXLAN_UDP_ZERO_CSUM6_RX, v.udp6_zero_csum_rx},
                               {IFLA_VXLAN_REMCSUM_TX, v.remcsum_tx},
                               {IFLA_VXLAN_REMCSUM_RX, v.remcsum_rx},
                               {IFLA_VXLAN_COLLECT_METADATA, v.external},
                               {IFLA_VXLAN_VNIFILTER, v.vnifilter}}) {
      if (value) m.put_u8(static_cast<uint16_t>(attr), *value ? 1 : 0);
    }
    if (v.gbp) m.put_flag(IFLA_VXLAN_GBP);
    if (v.gpe) m.put_flag(IFLA_VXLAN_GPE);
    m.end_nest(data);
    return {};
  }
  NlResult<void> operator()(const VlanOptions& v) {
    m.put_string(IFLA_INFO_KIND, "vlan");
    auto data = m.begin_nest(IFLA_INFO_DATA);
    m.put_u16(IFLA_VLAN_ID, v.id);
    m.put_u16(IFLA_VLAN_PROTOCOL, htons(v.protocol));
    m.end_nest(data);
    lower = cached(conn, v.link);
    return {};
  }
  NlResult<void> operator()(const OtherKind& k) {
    m.put_string(IFLA_INFO_KIND, k.kind);
    if (!k.info_data.empty())  // the caller's attributes, as a nest would hold them
      m.put_bytes(IFLA_INFO_DATA | NLA_F_NESTED,
                  {reinterpret_cast<const uint8_t*>(k.info_data.data()), k.info_data.size()});
    return {};
  }
  NlResult<void> operator()(const TunOptions&) { return {}; }  // never sent: see tun.cc
};

std::string kind_name(const LinkKind& kind) {
  return std::visit(
      [](const auto& k) -> std::string {
        using K = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<K, VethOptions>) return "veth";
        if constexpr (std::is_same_v<K, BridgeOptions>) return "bridge";
        if constexpr (std::is_same_v<K, MacvlanOptions>) return k.tap ? "macvtap" : "macvlan";
        if constexpr (std::is_same_v<K, VxlanOptions>) return "vxlan";
        if constexpr (std::is_same_v<K, VlanOptions>) return "vlan";
        if constexpr (std::is_same_v<K, TunOptions>) return k.tap ? "tap" : "tun";
        if constexpr (std::is_same_v<K, OtherKind>) return k.kind;
      },
      kind);
}

// Local checks done before anything is queued: they fail the op alone.
NlResult<void> validate_add(const LinkAdd& spec) {
  const char* op = "link add";
  BRISK_TRY(validate_link_name(spec.name, op));
  BRISK_TRY(check_alias(spec.common.alias, op, spec.name));
  if (!spec.common.master.empty()) BRISK_TRY(validate_link_ref(spec.common.master, op));
  if (spec.netns_fd >= 0 && !spec.common.alias.empty())
    return invalid_argument(op, spec.name, "an alias is set once the device exists, from its own namespace");
  if (auto* v = std::get_if<VethOptions>(&spec.kind)) {
    if (!v->peer.empty()) {  // empty: the kernel names it
      auto peer = validate_link_name(v->peer, op);
      if (!peer) {
        peer.error().detail = "peer: " + peer.error().detail;
        return peer;
      }
    }
    if (v->peer == spec.name && v->peer_netns_fd < 0)
      return invalid_argument(op, spec.name, "peer has the same name", EEXIST);
    // The kernel would ignore both without a word.
    if (!v->peer_common.master.empty() || !v->peer_common.alias.empty())
      return invalid_argument(op, spec.name,
                              "a veth peer takes its master and alias once it exists (set_link)");
  }
  if (auto* v = std::get_if<MacvlanOptions>(&spec.kind); v && v->link.empty())
    return invalid_argument(op, spec.name, "macvlan needs a lower device (link)");
  if (auto* v = std::get_if<VlanOptions>(&spec.kind)) {
    if (v->link.empty()) return invalid_argument(op, spec.name, "vlan needs a lower device (link)");
    if (v->id > 4095) return invalid_argument(op, spec.name, "vlan id above 4095", ERANGE);
  }
  if (auto* v = std::get_if<VxlanOptions>(&spec.kind)) {
    // In metadata mode (external) the VNI comes with each packet instead.
    bool external = v->external.value_or(false);
    if (!v->id && !external) return invalid_argument(op, spec.name, "vxlan needs an id (VNI), or external");
    if (v->id && external) return invalid_argument(op, spec.name, "vxlan takes an id or external, not both");
    if (v->id && *v->id > 0xffffff) return invalid_argument(op, spec.name, "vxlan id above 16777215", ERANGE);
    if (v->flowlabel && *v->flowlabel > 0xfffff)
      return invalid_argument(op, spec.name, "vxlan flowlabel above 0xfffff", ERANGE);
    if (!v->remote.empty() && !v->group.empty())
      return invalid_argument(op, spec.name, "vxlan takes remote or group, not both");
  }
  if (auto* k = std::get_if<OtherKind>(&spec.kind); k && k->kind.empty())
    return invalid_argument(op, spec.name, "no link kind given");
  return {};
}

std::vector<NameNeed> add_needs(const LinkAdd& spec) {
  std::vector<NameNeed> needs;
  if (!spec.common.master.empty()) needs.push_back({spec.common.master, Argument::master});
  if (auto* v = std::get_if<MacvlanOptions>(&spec.kind)) needs.push_back({v->link, Argument::link});
  if (auto* v = std::get_if<VlanOptions>(&spec.kind)) needs.push_back({v->link, Argument::link});
  if (auto* v = std::get_if<VxlanOptions>(&spec.kind); v && !v->dev.empty())
    needs.push_back({v->dev, Argument::vxlan_device});
  return needs;
}

// A change of kind options (LinkSet::kind): only what the kernel can change
// on an existing device and brisk models.
NlResult<void> validate_kind_change(const LinkKind& kind, const std::string& name) {
  const char* op = "link set";
  if (auto* v = std::get_if<MacvlanOptions>(&kind); v && !v->link.empty())
    return invalid_argument(op, name, "a macvlan's lower device cannot be changed");
  if (auto* k = std::get_if<OtherKind>(&kind); k && k->kind.empty())
    return invalid_argument(op, name, "no link kind given");
  if (auto* v = std::get_if<VxlanOptions>(&kind)) {
    if (v->id && *v->id > 0xffffff) return invalid_argument(op, name, "vxlan id above 16777215", ERANGE);
    if (!v->remote.empty() && !v->group.empty())
      return invalid_argument(op, name, "vxlan takes remote or group, not both");
  }
  // What the kernel cannot change on a live device (a vxlan's port) it
  // refuses with a message of its own.
  if (std::holds_alternative<BridgeOptions>(kind) || std::holds_alternative<MacvlanOptions>(kind) ||
      std::holds_alternative<VxlanOptions>(kind) || std::holds_alternative<OtherKind>(kind))
    return {};
  return invalid_argument(op, name, "the options of a " + kind_name(kind) + " cannot be changed");
}

}  // namespace

Op failed_op(const char* op, std::string object, NetlinkError error) {
  Op failed{.op = op, .object = std::move(object)};
  failed.rejected = std::make_unique<const NetlinkError>(std::move(error));
  return failed;
}

NlResult<void> check_dev(const std::string& dev, const char* op, const std::string& object) {
  auto valid = validate_link_ref(dev, op);
  if (!valid) {
    // Reported as the op's own failure on its object (an address, a
    // route), as ip reports it, not as a device it could not find.
    valid.error().object = object;
    valid.error().missing = Argument::none;
    valid.error().missing_name.clear();
  }
  return valid;
}

Op link_add_op(LinkAdd spec) {
  const char* op = "link add";
  if (auto valid = validate_add(spec); !valid) return failed_op(op, spec.name, std::move(valid).error());
  if (std::holds_alternative<TunOptions>(spec.kind)) return tun_add_op(std::move(spec));
  Op result{.op = op, .object = spec.name, .needs = add_needs(spec), .object_is_device = true};
  const bool here = spec.netns_fd < 0;
  // NLM_F_EXCL: the device is ours, and deleting it takes a veth peer along.
  if (here) result.undo = [name = spec.name] { return link_delete_op(name); };
  result.build = [spec, here](Connection& conn) -> NlResult<std::vector<Request>> {
    // NLM_F_ECHO: the kernel answers with the new device, so its ifindex
    // goes into the cache and later ops on it need no RTM_GETLINK.
    Message m(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ECHO);
    auto& ifi = m.put_header<ifinfomsg>();
    if (spec.common.up) ifi.ifi_flags = ifi.ifi_change = IFF_UP;
    ifi.ifi_index = spec.common.index;
    tuning_flags(ifi, spec.common.tuning);
    m.put_string(IFLA_IFNAME, spec.name);
    if (spec.netns_fd >= 0) m.put_u32(IFLA_NET_NS_FD, static_cast<uint32_t>(spec.netns_fd));
    BRISK_TRY(put_common(m, conn, spec.common, "link add", spec.name));
    int lower = 0;
    auto info = m.begin_nest(IFLA_LINKINFO);
    BRISK_TRY(std::visit(KindWriter{m, conn, spec.name, lower}, spec.kind));
    m.end_nest(info);
    if (lower) m.put_u32(IFLA_LINK, static_cast<uint32_t>(lower));
    std::vector<Request> requests;
    requests.push_back(
        {.message = std::move(m), .op = "link add", .object = spec.name, .reply_budget = kGetBudget});
    requests.back().on_reply = [&conn, name = spec.name, here](const nlmsghdr& reply) -> NlResult<void> {
      if (reply.nlmsg_type != RTM_NEWLINK || !here) return {};  // an index elsewhere means nothing here
      auto link = parse_link(reply);
      if (link && link->name == name) internal::ConnectionHooks::remember_ifindex(conn, name, link->ifindex);
      return {};  // the echo is a bonus: a parse problem does not fail the add
    };
    if (here) requests.back().recheck = [name = spec.name](Connection& c) { return link_exists(c, name); };
    // The kernel applies an alias only to an existing device.
    if (!spec.common.alias.empty()) {
      Message alias(RTM_NEWLINK, 0);
      alias.put_header<ifinfomsg>();
      alias.put_string(IFLA_IFNAME, spec.name);
      alias.put_string(IFLA_IFALIAS, spec.common.alias);
      requests.push_back({.message = std::move(alias), .op = "link add", .object = spec.name});
    }
    return requests;
  };
  // EEXIST: the name is someone else's device, whose cache entry stays true.
  result.after = [name = spec.name](Connection& conn, const NlResult<void>& outcome) {
    if (!outcome && outcome.error().code != EEXIST) conn.forget_name(name);
  };
  result.explain = [kind = kind_name(spec.kind)](NetlinkError& error) {
    if (error.code != EOPNOTSUPP) return;
    // The kernel says "Unknown device type" only for a kind it cannot load,
    // and has no other way to say it; only the words for people depend on it.
    bool unknown =
        error.ext_ack.find("Unknown device type") != std::string::npos;  // error-text: kernel's only signal
    error.detail = unknown ? "link kind '" + kind + "' is not available in this kernel"
                           : "link kind '" + kind + "' does not support an option given";
  };
  return result;
}

namespace {

// The checks of a link set that need no kernel: the first that fails, as
// the op's result (its object named).
std::optional<Op> refused_set(const LinkSet& spec) {
  const char* op = "link set";
  const bool by_group = spec.name.empty() && spec.group;
  if (by_group) {
    if (!spec.new_name.empty() || spec.netns_fd >= 0 || spec.netns_pid || !spec.netns_name.empty() ||
        spec.kind || spec.bridge_port)
      return failed_op(op, "group " + std::to_string(*spec.group),
                       invalid_argument(op, "group " + std::to_string(*spec.group),
                                        "a group change cannot rename, move or change a kind"));
  } else if (auto valid = validate_link_ref(spec.name, op); !valid) {
    return failed_op(op, spec.name, std::move(valid).error());
  }
  if (spec.kind) {
    if (auto valid = validate_kind_change(*spec.kind, spec.name); !valid)
      return failed_op(op, spec.name, std::move(valid).error());
  }
  if (spec.kind && spec.bridge_port)
    return failed_op(op, spec.name,
                     invalid_argument(op, spec.name, "a kind's options and a bridge port's in one change"));
  if (!spec.new_name.empty()) {
    if (auto valid = validate_link_name(spec.new_name, op); !valid) {
      valid.error().detail = "new name: " + valid.error().detail;
      return failed_op(op, spec.name, std::move(valid).error());
    }
  }
  if (spec.alias) {
    if (auto valid = check_alias(*spec.alias, op, spec.name); !valid)
      return failed_op(op, spec.name, std::move(valid).error());
  }
  if (!spec.netns_name.empty()) {
    if (auto valid = validate_netns_name(spec.netns_name); !valid) {
      valid.error().op = op;
      valid.error().object = spec.name;
      valid.error().detail = "netns '" + spec.netns_name + "': " + valid.error().detail;
      return failed_op(op, spec.name, std::move(valid).error());
    }
  }
  if (!spec.address.empty() && !MacAddress::parse(spec.address))
    return failed_op(op, spec.name,
                     invalid_argument(op, spec.name, "malformed MAC address '" + spec.address + "'"));
  const bool moves = spec.netns_fd >= 0 || spec.netns_pid.has_value() || !spec.netns_name.empty();
  if (spec.new_index && !moves)
    return failed_op(
        op, spec.name,
        invalid_argument(op, spec.name, "a new ifindex is given only with a move to a namespace"));
  return std::nullopt;
}

// Whether a link set whose ACK was lost is in place (Request::recheck).
NlResult<bool> link_set_in_place(Connection& c, const LinkSet& spec) {
  bool moved = spec.netns_fd >= 0 || spec.netns_pid || !spec.netns_name.empty();
  const std::string& now = spec.new_name.empty() ? spec.name : spec.new_name;
  if (moved) {
    auto here = link_exists(c, spec.name);
    if (!here) return here;
    return !*here;
  }
  auto link = get_link(c, now);
  if (!link)
    return link.error().code == ENODEV ? NlResult<bool>(false) : NlResult<bool>(std::move(link).error());
  if (spec.up && link->up() != *spec.up) return false;
  if (spec.mtu && link->mtu != *spec.mtu) return false;
  if (spec.group && link->group != *spec.group) return false;
  if (spec.txqueuelen && link->txqueuelen != *spec.txqueuelen) return false;
  if (spec.master && link->master != (spec.master->empty() ? 0 : cached(c, *spec.master))) return false;
  return true;
}

// The RTM_NEWLINK of a link set, with its recheck.
NlResult<std::vector<Request>> build_link_set(Connection& conn, const LinkSet* shared) {
  const LinkSet& spec = *shared;
  Message m(RTM_NEWLINK, 0);
  auto& ifi = m.put_header<ifinfomsg>();
  if (spec.up) {
    ifi.ifi_change |= IFF_UP;
    if (*spec.up) ifi.ifi_flags |= IFF_UP;
  }
  tuning_flags(ifi, spec.tuning);
  if (spec.name.empty()) {
    // A group change: no device named, IFLA_GROUP (below) picks them.
  } else if (spec.new_name.empty()) {
    put_link_ref(m, spec.name);
  } else {
    ifi.ifi_index = cached(conn, spec.name);
    m.put_string(IFLA_IFNAME, spec.new_name);
  }
  if (spec.mtu) m.put_u32(IFLA_MTU, *spec.mtu);
  if (!spec.address.empty()) m.put_bytes(IFLA_ADDRESS, MacAddress::parse(spec.address)->bytes);
  if (spec.master)
    m.put_u32(IFLA_MASTER, spec.master->empty() ? 0u : static_cast<uint32_t>(cached(conn, *spec.master)));
  if (spec.netns_fd >= 0) m.put_u32(IFLA_NET_NS_FD, static_cast<uint32_t>(spec.netns_fd));
  if (spec.netns_pid) m.put_u32(IFLA_NET_NS_PID, static_cast<uint32_t>(*spec.netns_pid));
  if (spec.new_index) m.put_u32(IFLA_NEW_IFINDEX, static_cast<uint32_t>(spec.new_index));
  UniqueFd named;
  if (!spec.netns_name.empty()) {
    auto fd = open_netns(spec.netns_name);
    if (!fd) {
      NetlinkError e = std::move(fd).error();
      e.detail = "netns '" + spec.netns_name + "': " + e.message();
      e.op = "link set";
      e.object = spec.name;
      return e;
    }
    named = std::move(*fd);
    m.put_u32(IFLA_NET_NS_FD, static_cast<uint32_t>(named.get()));
  }
  if (spec.alias) m.put_string(IFLA_IFALIAS, *spec.alias);
  if (spec.txqueuelen) m.put_u32(IFLA_TXQLEN, *spec.txqueuelen);
  if (spec.group) m.put_u32(IFLA_GROUP, *spec.group);
  BRISK_TRY(put_tuning(m, spec.tuning, "link set", spec.name));
  if (spec.bridge_port) put_bridge_port(m, conn, *spec.bridge_port);
  if (spec.kind) {
    int lower = 0;  // a change names no IFLA_LINK lower device (validate_kind_change)
    auto info = m.begin_nest(IFLA_LINKINFO);
    BRISK_TRY(std::visit(KindWriter{m, conn, spec.name, lower}, *spec.kind));
    m.end_nest(info);
  }
  std::vector<Request> requests;
  requests.push_back({.message = std::move(m), .op = "link set", .object = spec.name});
  if (named) requests.back().fds.push_back(std::move(named));
  if (spec.name.empty()) return requests;  // a group change: nothing one read could confirm
  requests.back().recheck = [shared](Connection& c) { return link_set_in_place(c, *shared); };
  return requests;
}

// Keeps the connection's name cache true once a link set's outcome is known.
void after_link_set(Connection& conn, const LinkSet& spec, const NlResult<void>& outcome) {
  // A move takes every name of the device (its altnames too) away.
  if (outcome && (spec.netns_fd >= 0 || spec.netns_pid || !spec.netns_name.empty())) {
    conn.forget_all_names();
    return;
  }
  // A rename changes what the old name means; a failure may have raced.
  if (!outcome || !spec.new_name.empty()) {
    conn.forget_name(spec.name);
    if (!spec.new_name.empty()) conn.forget_name(spec.new_name);
  }
}

}  // namespace

Op link_set_op(LinkSet spec) {
  if (auto refused = refused_set(spec)) return std::move(*refused);
  // No device, a group: the change goes to every device in it (ip's `link set group N ...`).
  const bool by_group = spec.name.empty() && spec.group;
  const bool moves = spec.netns_fd >= 0 || spec.netns_pid.has_value() || !spec.netns_name.empty();
  Op result{.op = "link set",
            .object = by_group ? "group " + std::to_string(*spec.group) : spec.name,
            .object_is_device = true};
  result.changes_names = !spec.new_name.empty() || moves;
  // A rename must address the device by index: IFLA_IFNAME carries the new name.
  if (!spec.new_name.empty()) result.needs.push_back({spec.name, Argument::device});
  if (spec.master && !spec.master->empty()) result.needs.push_back({*spec.master, Argument::master});
  if (spec.bridge_port && spec.bridge_port->backup_port && !spec.bridge_port->backup_port->empty())
    result.needs.push_back({*spec.bridge_port->backup_port, Argument::backup_port});
  if (spec.kind) {
    if (auto* v = std::get_if<VxlanOptions>(&*spec.kind); v && !v->dev.empty())
      result.needs.push_back({v->dev, Argument::vxlan_device});
  }
  // One copy of the spec, shared by the closures through Op::state (see
  // route_op): a set is the commonest line of a batch, and copying the spec
  // into each closure cost more than the request.
  auto owned = std::make_shared<const LinkSet>(std::move(spec));
  const LinkSet* shared = owned.get();
  result.state = std::move(owned);
  result.build = [shared](Connection& conn) { return build_link_set(conn, shared); };
  result.after = [shared](Connection& conn, const NlResult<void>& outcome) {
    after_link_set(conn, *shared, outcome);
  };
  return result;
}

Op link_delete_op(std::string name) {
  const char* op = "link del";
  if (auto valid = validate_link_ref(name, op); !valid) return failed_op(op, name, std::move(valid).error());
  Op result{.op = op, .object = name, .delete_name = name, .object_is_device = true, .changes_names = true};
  result.build = [name](Connection&) -> NlResult<std::vector<Request>> {
    Message m(RTM_DELLINK, 0);
    m.put_header<ifinfomsg>();
    put_link_ref(m, name);
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = "link del", .object = name});
    requests.back().recheck = [name](Connection& c) -> NlResult<bool> {
      auto there = link_exists(c, name);
      if (!there) return there;
      return !*there;
    };
    return requests;
  };
  // Deleting a device may delete others (a veth's peer, macvlans on it).
  result.after = [](Connection& conn, const NlResult<void>&) { conn.forget_all_names(); };
  return result;
}

Op link_group_delete_op(uint32_t group) {
  std::string object = "group " + std::to_string(group);
  Op result{.op = "link del", .object = object, .object_is_device = true, .changes_names = true};
  result.build = [group, object](Connection&) -> NlResult<std::vector<Request>> {
    Message m(RTM_DELLINK, 0);
    m.put_header<ifinfomsg>();
    m.put_u32(IFLA_GROUP, group);
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = "link del", .object = object});
    return requests;
  };
  result.after = [](Connection& conn, const NlResult<void>&) { conn.forget_all_names(); };
  return result;
}

Op link_property_op(AltnameChange change, bool add) {
  const char* op = add ? "link property add" : "link property del";
  if (auto valid = validate_link_ref(change.name, op); !valid)
    return failed_op(op, change.name, std::move(valid).error());
  for (const auto& alt : change.altnames)
    if (auto valid = validate_altname(alt, op); !valid)
      return failed_op(op, change.name, std::move(valid).error());
  // An added name may shadow nothing, a removed one must leave the cache.
  Op result{.op = op, .object = change.name, .object_is_device = true, .changes_names = true};
  result.build = [change, add, op](Connection&) -> NlResult<std::vector<Request>> {
    Message m(add ? RTM_NEWLINKPROP : RTM_DELLINKPROP, 0);
    m.put_header<ifinfomsg>();
    put_link_ref(m, change.name);
    auto list = m.begin_nest(IFLA_PROP_LIST);
    for (const auto& alt : change.altnames) m.put_string(IFLA_ALT_IFNAME, alt);
    m.end_nest(list);
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = op, .object = change.name});
    requests.back().recheck = [change, add](Connection& c) -> NlResult<bool> {
      auto link = get_link(c, change.name);
      if (!link) return std::move(link).error();
      for (const auto& alt : change.altnames) {
        bool has = std::find(link->altnames.begin(), link->altnames.end(), alt) != link->altnames.end();
        if (has != add) return false;
      }
      return true;
    };
    return requests;
  };
  result.after = [change](Connection& conn, const NlResult<void>&) {
    for (const auto& alt : change.altnames) conn.forget_name(alt);
  };
  return result;
}

}  // namespace detail

NlResult<void> add_altnames(Connection& conn, const AltnameChange& change) {
  return detail::run_one(conn, detail::link_property_op(change, true));
}
NlResult<void> delete_altnames(Connection& conn, const AltnameChange& change) {
  return detail::run_one(conn, detail::link_property_op(change, false));
}

NlResult<void> add_link(Connection& conn, const LinkAdd& spec) {
  return detail::run_one(conn, detail::link_add_op(spec));
}
NlResult<void> set_link(Connection& conn, const LinkSet& spec) {
  return detail::run_one(conn, detail::link_set_op(spec));
}
NlResult<void> delete_link(Connection& conn, const std::string& name) {
  return detail::run_one(conn, detail::link_delete_op(name));
}
NlResult<void> delete_link_group(Connection& conn, uint32_t group) {
  return detail::run_one(conn, detail::link_group_delete_op(group));
}

}  // namespace brisk::netlink
