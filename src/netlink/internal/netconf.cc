// RTM_GETNETCONF: a dump of a family's settings, or one device's.
#include "netlink/internal/netconf.h"

#include <linux/netconf.h>
#include <linux/rtnetlink.h>

#include <array>
#include <string>

#include "brisk/netlink/attributes.h"
#include "netlink/dump_collect.h"

namespace brisk::netlink {
namespace {

constexpr auto kPolicies = [] {
  std::array<AttrPolicy, NETCONFA_MAX + 1> p{};
  for (int t : {NETCONFA_IFINDEX, NETCONFA_FORWARDING, NETCONFA_RP_FILTER, NETCONFA_MC_FORWARDING,
                NETCONFA_PROXY_NEIGH, NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN, NETCONFA_INPUT})
    p[t] = {AttrKind::u32};
  return p;
}();

Message netconf_request(int family) {
  Message m(RTM_GETNETCONF, NLM_F_REQUEST, 64);
  m.put_header<netconfmsg>().ncm_family = static_cast<uint8_t>(family);
  return m;
}

}  // namespace

NlResult<NetconfInfo> parse_netconf(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_LENGTH(sizeof(netconfmsg)))
    return NetlinkError{.code = EBADMSG, .op = "netconf", .detail = "a message shorter than netconfmsg"};
  auto attrs = Attributes::parse_message(message, sizeof(netconfmsg), Schema{kPolicies});
  if (!attrs) return std::move(attrs).error();
  NetconfInfo info{.family = static_cast<const netconfmsg*>(NLMSG_DATA(&message))->ncm_family};
  if (auto index = attrs->u32(NETCONFA_IFINDEX)) info.ifindex = static_cast<int32_t>(*index);
  info.forwarding = attrs->u32(NETCONFA_FORWARDING);
  info.rp_filter = attrs->u32(NETCONFA_RP_FILTER);
  info.mc_forwarding = attrs->u32(NETCONFA_MC_FORWARDING);
  info.proxy_neigh = attrs->u32(NETCONFA_PROXY_NEIGH);
  info.ignore_routes_with_linkdown = attrs->u32(NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN);
  info.input = attrs->u32(NETCONFA_INPUT);
  return info;
}

NlResult<std::vector<NetconfInfo>> list_netconf(Connection& conn, int family) {
  return detail::dump_collect<NetconfInfo>(conn, netconf_request(family), "netconf list", std::string(),
                                           RTM_NEWNETCONF, parse_netconf,
                                           [](const NetconfInfo&) { return true; });
}

NlResult<NetconfInfo> get_netconf(Connection& conn, int family, int ifindex) {
  Message m = netconf_request(family);
  m.put_u32(NETCONFA_IFINDEX, static_cast<uint32_t>(ifindex));
  return detail::single_reply<NetconfInfo>(
      conn, {.message = std::move(m), .op = "netconf", .object = "ifindex " + std::to_string(ifindex)},
      RTM_NEWNETCONF, parse_netconf, "no RTM_NEWNETCONF reply");
}

}  // namespace brisk::netlink
