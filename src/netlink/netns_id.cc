// The id a namespace has in the connection's namespace (RTM_GETNSID): what
// IFLA_LINK_NETNSID names, so `ip link` can print a veth peer's namespace
// by name and `ip netns list` can show "(id: N)".
#include <linux/net_namespace.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <string>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/netns.h"
#include "netlink/dump_collect.h"

namespace brisk::netlink {
namespace {

constexpr AttrPolicy kNsidPolicies[] = {
    {},               // NETNSA_NONE
    {AttrKind::u32},  // NETNSA_NSID (an s32: -1 when none is assigned)
    {AttrKind::u32},  // NETNSA_PID
    {AttrKind::u32},  // NETNSA_FD
    {AttrKind::u32},  // NETNSA_TARGET_NSID
    {AttrKind::u32},  // NETNSA_CURRENT_NSID (an s32 too)
};

Message nsid_request(std::optional<int> target_nsid) {
  Message m(RTM_GETNSID, NLM_F_REQUEST, 64);
  m.put_header<rtgenmsg>().rtgen_family = AF_UNSPEC;
  if (target_nsid) m.put_u32(NETNSA_TARGET_NSID, static_cast<uint32_t>(*target_nsid));
  return m;
}

}  // namespace

NlResult<NetnsIdEntry> parse_netns_id(const nlmsghdr& message) {
  auto attrs = Attributes::parse_message(message, sizeof(rtgenmsg), Schema{kNsidPolicies});
  if (!attrs) return std::move(attrs).error();
  auto nsid = attrs->u32(NETNSA_NSID);
  if (!nsid)
    return NetlinkError{.code = EBADMSG, .op = "netns id", .detail = "a message without NETNSA_NSID"};
  NetnsIdEntry entry{.nsid = static_cast<int32_t>(*nsid)};
  if (auto current = attrs->u32(NETNSA_CURRENT_NSID)) entry.current_nsid = static_cast<int32_t>(*current);
  return entry;
}

NlResult<std::optional<int>> netns_id(Connection& conn, int netns_fd) {
  Message m(RTM_GETNSID, NLM_F_REQUEST, 64);
  m.put_header<rtgenmsg>().rtgen_family = AF_UNSPEC;
  m.put_u32(NETNSA_FD, static_cast<uint32_t>(netns_fd));
  std::optional<int> id;
  bool answered = false;
  Request r{
      .message = std::move(m), .op = "netns id", .object = "fd " + std::to_string(netns_fd), .ack = false};
  r.on_reply = [&](const nlmsghdr& reply) -> NlResult<void> {
    if (reply.nlmsg_type != RTM_NEWNSID) return {};
    auto attrs = Attributes::parse_message(reply, sizeof(rtgenmsg), Schema{kNsidPolicies});
    if (!attrs) return std::move(attrs).error();
    answered = true;
    if (auto value = attrs->u32(NETNSA_NSID); value && static_cast<int32_t>(*value) >= 0)
      id = static_cast<int32_t>(*value);
    return {};
  };
  if (auto done = conn.execute(std::move(r)); !done) return std::move(done).error();
  if (!answered) return NetlinkError{.code = EBADMSG, .op = "netns id", .detail = "no RTM_NEWNSID reply"};
  return id;
}

NlResult<void> set_netns_id(Connection& conn, int netns_fd, std::optional<int> id) {
  if (id && *id < 0)
    return invalid_argument("netns set", "fd " + std::to_string(netns_fd), "a namespace id is >= 0");
  Message m(RTM_NEWNSID, NLM_F_REQUEST | NLM_F_ACK, 64);
  m.put_header<rtgenmsg>().rtgen_family = AF_UNSPEC;
  m.put_u32(NETNSA_FD, static_cast<uint32_t>(netns_fd));
  m.put_u32(NETNSA_NSID, static_cast<uint32_t>(id.value_or(-1)));  // -1: the kernel picks
  return conn.execute(
      {.message = std::move(m), .op = "netns set", .object = "fd " + std::to_string(netns_fd)});
}

NlResult<std::vector<NetnsIdEntry>> list_netns_ids(Connection& conn, std::optional<int> target_nsid) {
  std::string object = target_nsid ? "target-nsid " + std::to_string(*target_nsid) : std::string();
  return detail::dump_collect<NetnsIdEntry>(conn, nsid_request(target_nsid), "netns id list", object,
                                            RTM_NEWNSID, parse_netns_id,
                                            [](const NetnsIdEntry&) { return true; });
}

NlResult<NetnsIdEntry> find_netns_id(Connection& conn, int nsid, std::optional<int> target_nsid) {
  Message m = nsid_request(target_nsid);
  m.put_u32(NETNSA_NSID, static_cast<uint32_t>(nsid));
  return detail::single_reply<NetnsIdEntry>(
      conn, {.message = std::move(m), .op = "netns id", .object = "nsid " + std::to_string(nsid)},
      RTM_NEWNSID, parse_netns_id, "no RTM_NEWNSID reply");
}

}  // namespace brisk::netlink
