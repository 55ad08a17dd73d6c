#include "netlink/route_encap.h"

#include <arpa/inet.h>
#include <endian.h>
#include <linux/mpls.h>
#include <linux/mpls_iptunnel.h>

#include <array>
#include <cstring>

namespace brisk::netlink::detail {
namespace {

// The address attributes of LWTUNNEL_IP_* and LWTUNNEL_IP6_*, by encap type.
struct IpAttrs {
  uint16_t id, dst, src, ttl, tos, flags;
};
constexpr IpAttrs kIp{LWTUNNEL_IP_ID,  LWTUNNEL_IP_DST, LWTUNNEL_IP_SRC,
                      LWTUNNEL_IP_TTL, LWTUNNEL_IP_TOS, LWTUNNEL_IP_FLAGS};
constexpr IpAttrs kIp6{LWTUNNEL_IP6_ID,       LWTUNNEL_IP6_DST, LWTUNNEL_IP6_SRC,
                       LWTUNNEL_IP6_HOPLIMIT, LWTUNNEL_IP6_TC,  LWTUNNEL_IP6_FLAGS};
static_assert(LWTUNNEL_IP_MAX <= 16 && LWTUNNEL_IP6_MAX <= 16 && MPLS_IPTUNNEL_MAX <= 16);

constexpr auto ip_policies(const IpAttrs& a, uint16_t address_bytes) {
  std::array<AttrPolicy, 17> p{};
  p[a.id] = {AttrKind::u64};
  p[a.dst] = {AttrKind::binary, address_bytes, address_bytes};
  p[a.src] = {AttrKind::binary, address_bytes, address_bytes};
  p[a.ttl] = {AttrKind::u8};
  p[a.tos] = {AttrKind::u8};
  p[a.flags] = {AttrKind::u16};
  return p;
}
constexpr auto kIpPolicies = ip_policies(kIp, 4);
constexpr auto kIp6Policies = ip_policies(kIp6, 16);
constexpr auto kMplsPolicies = [] {
  std::array<AttrPolicy, 17> p{};
  p[MPLS_IPTUNNEL_DST] = {AttrKind::binary};
  p[MPLS_IPTUNNEL_TTL] = {AttrKind::u8};
  return p;
}();

}  // namespace

void put_route_encap(Message& m, const RouteEncap& e, EncapAttrs where) {
  auto nest = m.begin_nest(where.encap);
  if (e.type == LWTUNNEL_ENCAP_MPLS) {
    std::vector<uint8_t> stack;
    for (std::size_t i = 0; i < e.labels.size(); ++i) {
      // Each entry: label << 12, bottom-of-stack on the last, in network order.
      uint32_t entry =
          htonl(e.labels[i] << MPLS_LS_LABEL_SHIFT | (i + 1 == e.labels.size() ? 1u << MPLS_LS_S_SHIFT : 0));
      auto* bytes = reinterpret_cast<const uint8_t*>(&entry);
      stack.insert(stack.end(), bytes, bytes + sizeof entry);
    }
    m.put_bytes(MPLS_IPTUNNEL_DST, stack);
    if (e.ttl) m.put_u8(MPLS_IPTUNNEL_TTL, *e.ttl);
  } else {
    const IpAttrs& a = e.type == LWTUNNEL_ENCAP_IP6 ? kIp6 : kIp;
    if (e.id) m.put_u64(a.id, htobe64(*e.id));  // the kernel keeps the key in network order
    if (e.dst) m.put_bytes(a.dst, e.dst->data());
    if (e.src) m.put_bytes(a.src, e.src->data());
    if (e.tos) m.put_u8(a.tos, *e.tos);
    if (e.ttl) m.put_u8(a.ttl, *e.ttl);
    if (e.flags) m.put_u16(a.flags, e.flags);
  }
  m.end_nest(nest);
  m.put_u16(where.type, e.type);
}

NlResult<std::optional<RouteEncap>> read_route_encap(const Attributes& owner, EncapAttrs where) {
  auto type = owner.u16(where.type);
  if (!type) return std::optional<RouteEncap>{};
  RouteEncap e{.type = *type};
  if (*type == LWTUNNEL_ENCAP_MPLS) {
    auto attrs = owner.nested(where.encap, Schema{kMplsPolicies});
    if (!attrs) return std::move(attrs).error();
    auto stack = attrs->bytes(MPLS_IPTUNNEL_DST).value_or(std::span<const uint8_t>{});
    for (std::size_t at = 0; at + 4 <= stack.size(); at += 4) {
      uint32_t entry;
      std::memcpy(&entry, stack.data() + at, sizeof entry);
      e.labels.push_back(ntohl(entry) >> MPLS_LS_LABEL_SHIFT);
    }
    e.ttl = attrs->u8(MPLS_IPTUNNEL_TTL);
  } else if (*type == LWTUNNEL_ENCAP_IP || *type == LWTUNNEL_ENCAP_IP6) {
    bool v6 = *type == LWTUNNEL_ENCAP_IP6;
    const IpAttrs& a = v6 ? kIp6 : kIp;
    auto attrs = owner.nested(where.encap, v6 ? Schema{kIp6Policies} : Schema{kIpPolicies});
    if (!attrs) return std::move(attrs).error();
    if (auto id = attrs->u64(a.id)) e.id = be64toh(*id);
    auto address = [&](uint16_t attr) -> std::optional<IpAddress> {
      auto raw = attrs->bytes(attr);
      if (!raw) return std::nullopt;
      auto ip = IpAddress::from_bytes(*raw);
      return ip ? std::optional(*ip) : std::nullopt;
    };
    e.dst = address(a.dst);
    e.src = address(a.src);
    e.ttl = attrs->u8(a.ttl);
    e.tos = attrs->u8(a.tos);
    e.flags = attrs->u16(a.flags).value_or(0);
  }
  return std::optional<RouteEncap>{std::move(e)};
}

}  // namespace brisk::netlink::detail
