// IPv6 tokens: read from a device's IFLA_PROTINFO, set through its
// IFLA_AF_SPEC (the kernel's inet6_set_link_af).
#include "netlink/internal/ipv6_token.h"

#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <array>
#include <string>

#include "brisk/netlink/attributes.h"
#include "netlink/dump_collect.h"

namespace brisk::netlink {
namespace {

constexpr auto kLinkPolicies = [] {
  std::array<AttrPolicy, IFLA_MAX + 1> p{};
  p[IFLA_PROTINFO] = {AttrKind::nested};
  return p;
}();

constexpr auto kInet6Policies = [] {
  std::array<AttrPolicy, IFLA_INET6_MAX + 1> p{};
  p[IFLA_INET6_TOKEN] = {AttrKind::binary, 16, 16};
  return p;
}();

NlResult<Ipv6Token> parse_token(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_LENGTH(sizeof(ifinfomsg)))
    return NetlinkError{.code = EBADMSG, .op = "token list", .detail = "a message shorter than ifinfomsg"};
  const auto* ifi = static_cast<const ifinfomsg*>(NLMSG_DATA(&message));
  Ipv6Token out{.ifindex = ifi->ifi_index, .flags = ifi->ifi_flags};
  auto attrs = BRISK_TRY(Attributes::parse_message(message, sizeof(ifinfomsg), Schema{kLinkPolicies}));
  if (!attrs.has(IFLA_PROTINFO)) return out;
  auto inet6 = BRISK_TRY(attrs.nested(IFLA_PROTINFO, Schema{kInet6Policies}));
  if (auto token = inet6.bytes(IFLA_INET6_TOKEN)) out.token = BRISK_TRY(IpAddress::from_bytes(*token));
  return out;
}

}  // namespace

NlResult<std::vector<Ipv6Token>> list_ipv6_tokens(Connection& conn) {
  Message m(RTM_GETLINK, NLM_F_REQUEST);
  m.put_header<ifinfomsg>().ifi_family = AF_INET6;
  return detail::dump_collect<Ipv6Token>(conn, std::move(m), "token list", std::string(), RTM_NEWLINK,
                                         parse_token, [](const Ipv6Token&) { return true; });
}

NlResult<void> set_ipv6_token(Connection& conn, int ifindex, const IpAddress& token) {
  std::string object = "ifindex " + std::to_string(ifindex);
  if (token.family != AF_INET6) return invalid_argument("token set", object, "a token is an IPv6 address");
  Message m(RTM_SETLINK, NLM_F_REQUEST);
  auto& ifi = m.put_header<ifinfomsg>();
  ifi.ifi_family = AF_INET6;
  ifi.ifi_index = ifindex;
  auto af_spec = m.begin_nest(IFLA_AF_SPEC);
  auto inet6 = m.begin_nest(AF_INET6);
  m.put_bytes(IFLA_INET6_TOKEN, token.data());
  m.end_nest(inet6);
  m.end_nest(af_spec);
  return conn.execute({.message = std::move(m), .op = "token set", .object = object});
}

}  // namespace brisk::netlink
