// Nexthop objects: RTM_NEWNEXTHOP parsed, dumped and asked for by id.
#include "brisk/netlink/nexthop.h"

#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "netlink/dump_collect.h"
#include "netlink/reply_parsers.h"

namespace brisk::netlink {
namespace {

constexpr auto kNexthopPolicies = [] {
  std::array<AttrPolicy, NHA_MAX + 1> p{};
  p[NHA_ID] = {AttrKind::u32};
  p[NHA_GROUP] = {AttrKind::binary};
  p[NHA_GROUP_TYPE] = {AttrKind::u16};
  p[NHA_BLACKHOLE] = {AttrKind::flag};
  p[NHA_OIF] = {AttrKind::u32};
  p[NHA_GATEWAY] = {AttrKind::binary, 16, 4};
  p[NHA_ENCAP] = {AttrKind::nested};
  p[NHA_FDB] = {AttrKind::flag};
  p[NHA_RES_GROUP] = {AttrKind::nested};
  return p;
}();

constexpr auto kResilientPolicies = [] {
  std::array<AttrPolicy, NHA_RES_GROUP_MAX + 1> p{};
  p[NHA_RES_GROUP_BUCKETS] = {AttrKind::u16};
  p[NHA_RES_GROUP_IDLE_TIMER] = {AttrKind::u32};
  p[NHA_RES_GROUP_UNBALANCED_TIMER] = {AttrKind::u32};
  p[NHA_RES_GROUP_UNBALANCED_TIME] = {AttrKind::u64};
  return p;
}();

NetlinkError bad_nexthop(const std::string& why) {
  return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "RTM_NEWNEXTHOP: " + why};
}

Message nexthop_request(uint16_t flags) {
  Message m(RTM_GETNEXTHOP, flags);
  m.put_header<nhmsg>().nh_family = AF_UNSPEC;
  return m;
}

}  // namespace

namespace detail {

NlResult<NexthopEntry> parse_nexthop(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(nhmsg)) return bad_nexthop("shorter than its header");
  nhmsg header;
  std::memcpy(&header, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof header);
  auto attrs = Attributes::parse_message(message, sizeof(nhmsg), Schema{kNexthopPolicies});
  if (!attrs) return std::move(attrs).error();
  NexthopEntry nh{.id = attrs->u32(NHA_ID).value_or(0),
                  .family = header.nh_family,
                  .scope = header.nh_scope,
                  .protocol = header.nh_protocol,
                  .flags = header.nh_flags,
                  .oif = static_cast<int>(attrs->u32(NHA_OIF).value_or(0)),
                  .blackhole = attrs->has(NHA_BLACKHOLE),
                  .fdb = attrs->has(NHA_FDB),
                  .group_type = attrs->u16(NHA_GROUP_TYPE).value_or(NEXTHOP_GRP_TYPE_MPATH),
                  .encap = attrs->has(NHA_ENCAP)};
  if (auto gw = attrs->bytes(NHA_GATEWAY)) {
    auto address = IpAddress::from_bytes(*gw);
    if (!address) return bad_nexthop("a gateway of " + std::to_string(gw->size()) + " bytes");
    nh.gateway = *address;
  }
  if (auto members = attrs->bytes(NHA_GROUP)) {
    if (members->empty() || members->size() % sizeof(nexthop_grp) != 0)
      return bad_nexthop("a malformed group");
    for (std::size_t at = 0; at < members->size(); at += sizeof(nexthop_grp)) {
      nexthop_grp member;
      std::memcpy(&member, members->data() + at, sizeof member);
      nh.group.push_back({.id = member.id, .weight = static_cast<uint16_t>(member.weight + 1)});
    }
  }
  if (attrs->has(NHA_RES_GROUP)) {
    auto res = attrs->nested(NHA_RES_GROUP, Schema{kResilientPolicies});
    if (!res) return std::move(res).error();
    nh.resilient = ResilientGroup{.buckets = res->u16(NHA_RES_GROUP_BUCKETS).value_or(0),
                                  .idle_timer = res->u32(NHA_RES_GROUP_IDLE_TIMER).value_or(0),
                                  .unbalanced_timer = res->u32(NHA_RES_GROUP_UNBALANCED_TIMER).value_or(0),
                                  .unbalanced_time = res->u64(NHA_RES_GROUP_UNBALANCED_TIME).value_or(0)};
  }
  return nh;
}

}  // namespace detail

NlResult<std::vector<NexthopEntry>> list_nexthops(Connection& conn) {
  return detail::dump_collect<NexthopEntry>(conn, nexthop_request(NLM_F_REQUEST), "nexthop list", "",
                                            RTM_NEWNEXTHOP, detail::parse_nexthop,
                                            [](const NexthopEntry&) { return true; });
}

NlResult<NexthopEntry> get_nexthop(Connection& conn, uint32_t id) {
  Message m = nexthop_request(NLM_F_REQUEST);
  m.put_u32(NHA_ID, id);
  std::optional<NexthopEntry> found;
  Request r{.message = std::move(m),
            .op = "nexthop get",
            .object = "id " + std::to_string(id),
            .reply_budget = kGetBudget,
            .ack = false};
  r.on_reply = [&found](const nlmsghdr& reply) -> NlResult<void> {
    if (reply.nlmsg_type != RTM_NEWNEXTHOP) return {};
    auto nh = detail::parse_nexthop(reply);
    if (!nh) return std::move(nh).error();
    found = std::move(*nh);
    return {};
  };
  auto done = conn.execute(std::move(r));
  if (!done) return std::move(done).error();
  if (!found)
    return NetlinkError{
        .code = ENOENT, .op = "nexthop get", .object = "id " + std::to_string(id), .detail = "no reply"};
  return std::move(*found);
}

}  // namespace brisk::netlink
