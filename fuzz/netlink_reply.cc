// Fuzz target: a datagram received on the rtnetlink socket, every byte of it
// hostile. It is walked message by message as Connection does (NLMSG_OK /
// NLMSG_NEXT), and each message goes to the parser its type selects:
// NLMSG_ERROR to parse_ack (error, ACK and extended-ACK TLVs, the offending
// attribute looked up in our own request), RTM_NEWLINK/ADDR/ROUTE/NEIGH/NEXTHOP
// to the parsers that fill LinkInfo, AddressInfo, RouteInfo, neighbour/fdb
// data and NexthopEntry.
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "brisk/netlink/message.h"
#include "fuzz_check.h"
#include "netlink/ack.h"
#include "netlink/internal/nexthop.h"
#include "netlink/link_schema.h"
#include "netlink/reply_parsers.h"

namespace nl = brisk::netlink;

namespace {

// The request an ACK answers: a link add with a few attributes, so that an
// extended ACK's attribute offset has something to point at.
const nl::Message& sample_request() {
  static const nl::Message request = [] {
    nl::Message m(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL);
    m.put_header<ifinfomsg>();
    m.put_string(IFLA_IFNAME, "fuzz0");
    m.put_u32(IFLA_MTU, 1500);
    auto info = m.begin_nest(IFLA_LINKINFO);
    m.put_string(IFLA_INFO_KIND, "veth");
    m.end_nest(info);
    return m;
  }();
  return request;
}

// Errors carry a positive errno and must format without trouble.
void check_error(const nl::NetlinkError& error) {
  FUZZ_CHECK(error.code > 0);
  FUZZ_CHECK(!error.message().empty());
}

template <class T>
void check(const nl::NlResult<T>& result) {
  if (!result) check_error(result.error());
}

void parse_one(const nlmsghdr& message) {
  switch (message.nlmsg_type) {
    case NLMSG_ERROR:
      check(nl::parse_ack(message, sample_request().bytes(), "fuzz", "fuzz0"));
      break;
    case RTM_NEWLINK: {
      auto link = nl::detail::parse_link(message, /*details=*/true);  // the superset: details parse more
      check(link);
      if (link && link->address) (void)link->address->to_string();
      break;
    }
    case RTM_NEWADDR: {
      auto address = nl::detail::parse_address(message);
      check(address);
      if (address) (void)address->prefix.to_string();
      break;
    }
    case RTM_NEWROUTE: {
      auto route = nl::detail::parse_route(message);
      check(route);
      if (route) (void)route->dst.to_string();
      break;
    }
    case RTM_NEWRULE: {
      auto rule = nl::detail::parse_rule(message);
      check(rule);
      if (rule) (void)rule->spec();  // what flush_rules sends back
      break;
    }
    case RTM_NEWNEIGH: {
      auto neigh = nl::detail::parse_neigh(message);
      check(neigh);
      if (!neigh) break;
      // What list_neighbours and list_fdb read from it.
      const nl::Attributes& attrs = *neigh->attrs;
      if (auto dst = attrs.bytes(NDA_DST)) check(nl::IpAddress::from_bytes(*dst));
      (void)attrs.bytes(NDA_LLADDR);
      (void)attrs.u16(NDA_VLAN);
      (void)attrs.u32(NDA_MASTER);
      break;
    }
    case RTM_NEWNEXTHOP: {
      auto nh = nl::parse_nexthop(message);
      check(nh);
      if (nh && nh->gateway) (void)nh->gateway->to_string();
      break;
    }
    default:
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  // A heap copy of exactly `size` bytes: aligned as the receive buffer is,
  // and a read past the datagram is a read past the allocation.
  std::vector<char> datagram(data, data + size);
  int left = static_cast<int>(size);
  for (auto* nlh = reinterpret_cast<const nlmsghdr*>(datagram.data()); NLMSG_OK(nlh, left);
       nlh = NLMSG_NEXT(nlh, left))
    parse_one(*nlh);
  return 0;
}
