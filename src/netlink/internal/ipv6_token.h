// netlink/internal/ipv6_token.h: IPv6 tokenized interface identifiers (`ip
// token`): the interface id a device's SLAAC addresses take in place of one
// derived from its MAC (RFC 7136).
//
//   set_ipv6_token(conn, ifindex, IpAddress::parse("::1a:2b").value()).value();
#pragma once

#include <optional>
#include <vector>

#include "brisk/netlink/address.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// A device as the kernel's IPv6 side reports it.
struct Ipv6Token {
  int ifindex = 0;
  unsigned flags = 0;  // ifi_flags (ip lists no loopback or NOARP device)
  std::optional<IpAddress>
      token{};  // IFLA_INET6_TOKEN, :: when none is set; absent when the kernel sent none
};

// Every device's token (RTM_GETLINK, family AF_INET6).
NlResult<std::vector<Ipv6Token>> list_ipv6_tokens(Connection& conn);
// Gives the device `ifindex` the token (an IPv6 address whose low 64 bits
// are the id); :: takes it away. The kernel refuses a loopback or NOARP
// device, and one that takes no router advertisements.
NlResult<void> set_ipv6_token(Connection& conn, int ifindex, const IpAddress& token);

}  // namespace brisk::netlink
