// ip's route filter (filter_nlmsg): a prefix selector compares the first
// bits of an address, with "root" (routes inside the prefix), "match"
// (routes covering it) and "exact" (both) deciding which lengths pass.
#include "cli/ip/route/route_match.h"

#include <algorithm>

namespace brisk::ipcli {
namespace {

using Prefix = RouteMatch::Prefix;

int host_bits(int family) { return family == AF_INET6 ? 128 : 32; }

// ip's inet_addr_match() == 0: the first `bits` bits are the same.
bool same_bits(const std::array<uint8_t, 16>& a, const std::array<uint8_t, 16>& b, int bits) {
  int bytes = bits / 8;
  if (!std::equal(a.begin(), a.begin() + bytes, b.begin())) return false;
  if (bits % 8 == 0) return true;
  auto mask = static_cast<uint8_t>(0xff << (8 - bits % 8));
  return ((a[bytes] ^ b[bytes]) & mask) == 0;
}

std::array<uint8_t, 16> bytes_of(const netlink::IpAddress* a) {
  std::array<uint8_t, 16> out{};
  if (a) {
    auto data = a->data();
    std::copy_n(data.begin(), std::min<std::size_t>(data.size(), out.size()), out.begin());
  }
  return out;
}

// root: the route's prefix lies inside p (at least p's length, p's bits).
bool root_passes(const Prefix& p, int family, const std::array<uint8_t, 16>& dst, int len) {
  if (p.family && (family != p.family || p.bits > len)) return false;
  if (!p.family && p.length_given && p.bits > len) return false;
  return !(p.family || p.length_given) || same_bits(dst, p.bytes, p.bits);
}

// match: the route's prefix covers p (at most p's length, the route's bits).
bool match_passes(const Prefix& p, int family, const std::array<uint8_t, 16>& dst, int len) {
  if (p.family && (family != p.family || p.bits < len)) return false;
  if (!p.family && p.length_given && p.bits < len) return false;
  return !(p.family || p.length_given) || same_bits(dst, p.bytes, len);
}

// via and src: an address of the route's family within p.
bool address_passes(const Prefix& p, int family, const netlink::IpAddress* a) {
  if (!p.family) return true;
  return family == p.family && same_bits(bytes_of(a), p.bytes, p.bits);
}

}  // namespace

Parsed<Prefix> match_prefix(const std::string& text, int family) {
  Prefix p{.family = family};
  if (family == AF_PACKET) return ip_prefix("", text, family).error();  // -0: ip's error, before the words
  if (text == "default" || text == "all" || text == "any") {
    p.length_given = text == "default";  // as ip: default is 0/0, all and any no prefix at all
    return p;
  }
  std::string canonical;
  TRY_SET(canonical, ip_prefix("", text, family));  // ip's error for what is no prefix
  auto parsed = netlink::IpPrefix::parse(canonical);
  p.family = parsed->address.family;
  p.bits = parsed->length;
  p.length_given = canonical.find('/') != std::string::npos;
  p.bytes = bytes_of(&parsed->address);
  return p;
}

bool route_selected(const RouteMatch& m, const netlink::RouteInfo& r, int iif) {
  int family = r.dst.address.family;
  // ip copies only the prefix's bytes of the destination and the source.
  auto prefix_bytes = [](const netlink::IpAddress* a, int length) {
    auto bytes = bytes_of(length ? a : nullptr);
    for (int bit = length; bit < 128; ++bit) bytes[bit / 8] &= static_cast<uint8_t>(~(0x80 >> (bit % 8)));
    return bytes;
  };
  auto dst = prefix_bytes(&r.dst.address, r.dst.length);
  if (m.root && !root_passes(*m.root, family, dst, r.dst.length)) return false;
  if (m.match && !match_passes(*m.match, family, dst, r.dst.length)) return false;
  if (m.src_root || m.src_match) {
    auto src = prefix_bytes(r.src ? &*r.src : nullptr, r.src_len);
    if (m.src_root && !root_passes(*m.src_root, family, src, r.src_len)) return false;
    if (m.src_match && !match_passes(*m.src_match, family, src, r.src_len)) return false;
  }
  if ((r.realms.value_or(0) ^ m.realms) & m.realm_mask) return false;
  if (!m.vrf.empty() && (r.type == RTN_LOCAL || r.type == RTN_BROADCAST))
    return false;  // ip's typemask for vrf
  if (m.via && !address_passes(*m.via, family, r.gateway ? &*r.gateway : nullptr)) return false;
  if (m.prefsrc && !address_passes(*m.prefsrc, family, r.prefsrc ? &*r.prefsrc : nullptr)) return false;
  if (m.tos && r.tos != *m.tos) return false;
  if (m.iif.size() && r.iif != iif) return false;
  if (m.mark && r.mark.value_or(0) != *m.mark) return false;
  if (m.metric && r.metric != *m.metric) return false;
  return true;
}

bool names_host(const std::optional<Prefix>& p) { return p && p->family && p->bits == host_bits(p->family); }

}  // namespace brisk::ipcli
