// Prefix, multicast-route and stats notifications, read from their raw
// messages: nothing else in brisk reads these objects.
#include "cli/ip/monitor/monitor_raw.h"

#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netinet/icmp6.h>

#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cli/ip/names.h"

namespace brisk::ipcli {
namespace {

using netlink::AttrKind;
using netlink::AttrPolicy;
using netlink::MonitorEvent;

// The kernel's flags of a prefix (include/net/if_inet6.h).
constexpr uint8_t kPrefixOnlink = 0x01, kPrefixAutoconf = 0x02;

constexpr auto kPrefixPolicies = [] {
  std::array<AttrPolicy, PREFIX_MAX + 1> p{};
  p[PREFIX_ADDRESS] = {AttrKind::binary, 16, 16};
  p[PREFIX_CACHEINFO] = {AttrKind::binary, 0, sizeof(prefix_cacheinfo)};
  return p;
}();

constexpr auto kMroutePolicies = [] {
  std::array<AttrPolicy, RTA_MAX + 1> p{};
  p[RTA_SRC] = {AttrKind::binary, 16, 4};
  p[RTA_DST] = {AttrKind::binary, 16, 4};
  p[RTA_IIF] = {AttrKind::u32};
  p[RTA_TABLE] = {AttrKind::u32};
  p[RTA_MULTIPATH] = {AttrKind::binary};
  p[RTA_MFC_STATS] = {AttrKind::binary, 0, sizeof(rta_mfc_stats)};
  p[RTA_EXPIRES] = {AttrKind::u64};
  return p;
}();

constexpr auto kStatsPolicies = [] {
  std::array<AttrPolicy, IFLA_STATS_MAX + 1> p{};
  p[IFLA_STATS_LINK_OFFLOAD_XSTATS] = {AttrKind::nested};
  return p;
}();

constexpr auto kOffloadPolicies = [] {
  std::array<AttrPolicy, IFLA_OFFLOAD_XSTATS_MAX + 1> p{};
  p[IFLA_OFFLOAD_XSTATS_HW_S_INFO] = {AttrKind::nested};
  return p;
}();

constexpr auto kHwInfoPolicies = [] {
  std::array<AttrPolicy, IFLA_OFFLOAD_XSTATS_MAX + 1> p{};
  p[IFLA_OFFLOAD_XSTATS_L3_STATS] = {AttrKind::nested};
  return p;
}();

constexpr auto kHwInfoOnePolicies = [] {
  std::array<AttrPolicy, IFLA_OFFLOAD_XSTATS_HW_S_INFO_MAX + 1> p{};
  p[IFLA_OFFLOAD_XSTATS_HW_S_INFO_REQUEST] = {AttrKind::u8};
  p[IFLA_OFFLOAD_XSTATS_HW_S_INFO_USED] = {AttrKind::u8};
  return p;
}();

// The family header that follows the message's nlmsghdr.
template <class Header>
std::optional<Header> header_of(const MonitorEvent& e) {
  if (e.raw.size() < NLMSG_HDRLEN + sizeof(Header)) return std::nullopt;
  Header h;
  std::memcpy(&h, e.raw.data() + NLMSG_HDRLEN, sizeof h);
  return h;
}

std::string raw_address_text(int family, std::span<const uint8_t> raw) {
  char text[INET6_ADDRSTRLEN];
  if (raw.size() != (family == AF_INET ? 4u : 16u)) return "?";
  return ::inet_ntop(family, raw.data(), text, sizeof text) ? text : "?";
}

}  // namespace

std::optional<netlink::Attributes> attributes_of(const MonitorEvent& e, std::size_t header,
                                                 netlink::Schema schema) {
  if (e.raw.size() < NLMSG_HDRLEN + header) return std::nullopt;
  const auto& message = *reinterpret_cast<const nlmsghdr*>(e.raw.data());
  auto parsed = netlink::Attributes::parse_message(message, header, schema);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

std::string prefix_text(const MonitorEvent& e, const NameOf& name) {
  auto p = header_of<prefixmsg>(e);
  auto a = attributes_of(e, sizeof(prefixmsg), netlink::Schema{kPrefixPolicies});
  if (!p || !a || p->prefix_family != AF_INET6 || p->prefix_type != ND_OPT_PREFIX_INFORMATION) return {};
  std::string t;
  // As ip 6.1: no space between the prefix and "dev".
  if (auto address = a->bytes(PREFIX_ADDRESS))
    t += "prefix " + raw_address_text(AF_INET6, *address) + "/" + std::to_string(p->prefix_len);
  t += "dev " + name(p->prefix_ifindex) + " ";
  if (p->prefix_flags & kPrefixOnlink) t += "onlink ";
  if (p->prefix_flags & kPrefixAutoconf) t += "autoconf ";
  if (auto info = a->bytes(PREFIX_CACHEINFO)) {
    prefix_cacheinfo times;
    std::memcpy(&times, info->data(), sizeof times);
    t += "valid " + std::to_string(times.valid_time) + " preferred " + std::to_string(times.preferred_time) +
         " ";
  }
  return t + "\n";
}

bool is_mroute(const MonitorEvent& e) {
  if (e.type != RTM_NEWROUTE && e.type != RTM_DELROUTE) return false;
  auto r = header_of<rtmsg>(e);
  return r && (r->rtm_family == RTNL_FAMILY_IPMR || r->rtm_family == RTNL_FAMILY_IP6MR);
}

std::string mroute_text(const MonitorEvent& e, const NameOf& name, int dev, const Globals& g) {
  auto r = header_of<rtmsg>(e);
  auto a = attributes_of(e, sizeof(rtmsg), netlink::Schema{kMroutePolicies});
  if (!r || !a || r->rtm_type != RTN_MULTICAST) return {};
  int iif = static_cast<int>(a->u32(RTA_IIF).value_or(0));
  if (dev && iif != dev) return {};
  int family = r->rtm_family == RTNL_FAMILY_IPMR ? AF_INET : AF_INET6;
  auto end_text = [&](uint16_t attr) {
    auto raw = a->bytes(attr);
    return raw ? raw_address_text(family, *raw) : std::string("unknown");
  };
  std::string t = e.deleted ? "Deleted " : "";
  char column[300];
  std::snprintf(column, sizeof column,
                "%-32s Iif: ", ("(" + end_text(RTA_SRC) + "," + end_text(RTA_DST) + ")").c_str());
  t += column;
  if (iif) {
    std::snprintf(column, sizeof column, "%-10s ", name(iif).c_str());
    t += column;
  } else {
    t += "unresolved ";
  }
  if (auto paths = a->bytes(RTA_MULTIPATH)) {
    std::size_t at = 0;
    bool first = true;
    while (paths->size() - at >= sizeof(rtnexthop)) {
      rtnexthop hop;
      std::memcpy(&hop, paths->data() + at, sizeof hop);
      if (hop.rtnh_len < sizeof hop || hop.rtnh_len > paths->size() - at) break;
      if (first) t += "Oifs: ";
      first = false;
      t += name(hop.rtnh_ifindex);
      t += hop.rtnh_hops > 1 ? "(ttl " + std::to_string(hop.rtnh_hops) + ") " : " ";
      at += RTNH_ALIGN(hop.rtnh_len);
    }
  }
  t += std::string(" State: ") + (r->rtm_flags & RTNH_F_UNRESOLVED ? "unresolved" : "resolved");
  if (r->rtm_flags & RTNH_F_OFFLOAD) t += " offload";
  if (g.stats) {
    if (auto counts = a->bytes(RTA_MFC_STATS)) {
      rta_mfc_stats s;
      std::memcpy(&s, counts->data(), sizeof s);
      t += "\n  " + std::to_string(s.mfcs_packets) + " packets, " + std::to_string(s.mfcs_bytes) + " bytes";
      if (s.mfcs_wrong_if) t += ", " + std::to_string(s.mfcs_wrong_if) + " arrived on wrong iif.";
    }
    if (auto expires = a->u64(RTA_EXPIRES)) {
      char age[48];
      std::snprintf(age, sizeof age, ", Age %.2f", static_cast<double>(*expires) / 100);  // ip's 100 Hz ticks
      t += age;
    }
  }
  uint32_t table = a->u32(RTA_TABLE).value_or(r->rtm_table);
  if (table && (table != RT_TABLE_MAIN || g.details)) t += " Table: " + table_name(table);
  return t + "\n";
}

std::string stats_text(const MonitorEvent& e, const NameOf& name) {
  auto s = header_of<if_stats_msg>(e);
  auto a = attributes_of(e, sizeof(if_stats_msg), netlink::Schema{kStatsPolicies});
  if (!s || !a) return {};
  std::string t = std::to_string(s->ifindex) + ": " + name(static_cast<int>(s->ifindex)) + ":";
  // Only the hardware stats' state, as ip monitor shows it: on, off, and whether in use.
  auto offload = a->nested(IFLA_STATS_LINK_OFFLOAD_XSTATS, netlink::Schema{kOffloadPolicies});
  if (offload && offload->has(IFLA_OFFLOAD_XSTATS_HW_S_INFO)) {
    t += "\n";
    auto info = offload->nested(IFLA_OFFLOAD_XSTATS_HW_S_INFO, netlink::Schema{kHwInfoPolicies});
    if (!info) return {};
    if (info->has(IFLA_OFFLOAD_XSTATS_L3_STATS)) {
      auto l3 = info->nested(IFLA_OFFLOAD_XSTATS_L3_STATS, netlink::Schema{kHwInfoOnePolicies});
      if (!l3) return {};
      t += "    l3_stats";
      auto on_off = [&](uint16_t attr, const char* prefix) {
        if (auto v = l3->u8(attr); v && *v <= 1) t += std::string(prefix) + (*v ? "on" : "off");
      };
      on_off(IFLA_OFFLOAD_XSTATS_HW_S_INFO_REQUEST, " ");
      on_off(IFLA_OFFLOAD_XSTATS_HW_S_INFO_USED, " used ");
    }
  }
  return t + "\n";
}

}  // namespace brisk::ipcli
