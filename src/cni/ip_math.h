// ip_math.h: address arithmetic for IPAM (next address, comparisons,
// subnets), on the engine's IpAddress in network byte order.
#pragma once

#include <cstring>

#include "brisk/netlink/address.h"

namespace brisk::cni::detail {

inline int compare(const netlink::IpAddress& a, const netlink::IpAddress& b) {
  if (a.family != b.family) return a.family < b.family ? -1 : 1;
  return std::memcmp(a.bytes.data(), b.bytes.data(), a.size());
}

inline netlink::IpAddress next(netlink::IpAddress a) {
  for (std::size_t i = a.size(); i-- > 0;)
    if (++a.bytes[i] != 0) break;
  return a;
}

inline netlink::IpAddress masked(netlink::IpAddress a, unsigned length, bool ones) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    unsigned bits = length > i * 8 ? std::min(8u, length - static_cast<unsigned>(i * 8)) : 0;
    uint8_t mask = static_cast<uint8_t>(bits == 0 ? 0 : 0xff << (8 - bits));
    a.bytes[i] = ones ? static_cast<uint8_t>(a.bytes[i] | ~mask) : static_cast<uint8_t>(a.bytes[i] & mask);
  }
  return a;
}

inline netlink::IpAddress network_of(const netlink::IpPrefix& p) {
  return masked(p.address, p.length, false);
}
inline netlink::IpAddress last_of(const netlink::IpPrefix& p) { return masked(p.address, p.length, true); }

inline bool in_prefix(const netlink::IpPrefix& p, const netlink::IpAddress& a) {
  return a.family == p.address.family && network_of({a, p.length}) == network_of(p);
}

inline unsigned host_length(int family) { return family == AF_INET ? 32 : 128; }

}  // namespace brisk::cni::detail
