// IPv6 address labels: RTM_NEWADDRLABEL and RTM_DELADDRLABEL built from
// their spec, and the table dumped.
#include "netlink/internal/addrlabel.h"

#include <linux/if_addrlabel.h>
#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "netlink/dump_collect.h"
#include "netlink/op.h"
#include "netlink/reply_parsers.h"

namespace brisk::netlink {
namespace {

constexpr auto kLabelPolicies = [] {
  std::array<AttrPolicy, IFAL_MAX + 1> p{};
  p[IFAL_ADDRESS] = {AttrKind::binary, 16, 4};
  p[IFAL_LABEL] = {AttrKind::u32};
  return p;
}();

NlResult<AddrLabelInfo> parse_addrlabel(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(ifaddrlblmsg))
    return NetlinkError{
        .code = EBADMSG, .op = "netlink parse", .detail = "RTM_NEWADDRLABEL: shorter than its header"};
  ifaddrlblmsg header;
  std::memcpy(&header, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof header);
  auto attrs = Attributes::parse_message(message, sizeof(ifaddrlblmsg), Schema{kLabelPolicies});
  if (!attrs) return std::move(attrs).error();
  AddrLabelInfo info{.family = header.ifal_family,
                     .ifindex = static_cast<int>(header.ifal_index),
                     .label = attrs->u32(IFAL_LABEL).value_or(0)};
  if (auto bytes = attrs->bytes(IFAL_ADDRESS)) {
    auto address = IpAddress::from_bytes(*bytes);
    if (!address)
      return NetlinkError{
          .code = EBADMSG, .op = "netlink parse", .detail = "RTM_NEWADDRLABEL: a malformed address"};
    info.prefix = IpPrefix{.address = *address, .length = header.ifal_prefixlen};
  }
  return info;
}

}  // namespace

namespace detail {

Op addrlabel_op(AddrLabelSpec spec, bool add) {
  const char* op = add ? "addrlabel add" : "addrlabel del";
  std::string object = spec.prefix;
  auto prefix = IpPrefix::parse(spec.prefix);
  if (!prefix)
    return failed_op(op, object, invalid_argument(op, object, "malformed prefix '" + spec.prefix + "'"));
  Op result{.op = op, .object = object};
  if (!spec.dev.empty()) {
    if (auto valid = check_dev(spec.dev, op, object); !valid)
      return failed_op(op, object, std::move(valid).error());
    result.needs.push_back({spec.dev, Argument::device});
  }
  if (add) result.undo = [spec] { return addrlabel_op(spec, false); };
  result.build = [spec = std::move(spec), prefix = *prefix, add, op,
                  object](Connection& conn) -> NlResult<std::vector<Request>> {
    Message m(add ? RTM_NEWADDRLABEL : RTM_DELADDRLABEL, add ? NLM_F_CREATE | NLM_F_EXCL : 0);
    auto& ifal = m.put_header<ifaddrlblmsg>();
    ifal.ifal_family = static_cast<uint8_t>(spec.family);
    ifal.ifal_prefixlen = prefix.length;
    if (!spec.dev.empty()) ifal.ifal_index = static_cast<uint32_t>(cached(conn, spec.dev));
    m.put_u32(IFAL_LABEL, spec.label);
    m.put_bytes(IFAL_ADDRESS, prefix.address.data());
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = op, .object = object});
    return requests;
  };
  return result;
}

}  // namespace detail

std::size_t add_addrlabel(Batch& batch, AddrLabelSpec spec) {
  return detail::BatchAccess::push(batch, detail::addrlabel_op(std::move(spec), true));
}
std::size_t delete_addrlabel(Batch& batch, AddrLabelSpec spec) {
  return detail::BatchAccess::push(batch, detail::addrlabel_op(std::move(spec), false));
}

NlResult<void> add_addrlabel(Connection& conn, const AddrLabelSpec& spec) {
  return detail::run_one(conn, detail::addrlabel_op(spec, true));
}

NlResult<void> delete_addrlabel(Connection& conn, const AddrLabelSpec& spec) {
  return detail::run_one(conn, detail::addrlabel_op(spec, false));
}

NlResult<std::vector<AddrLabelInfo>> list_addrlabels(Connection& conn, int family) {
  Message m(RTM_GETADDRLABEL, NLM_F_REQUEST);
  m.put_header<ifaddrlblmsg>().ifal_family = static_cast<uint8_t>(family);
  return detail::dump_collect<AddrLabelInfo>(conn, std::move(m), "addrlabel list", "", RTM_NEWADDRLABEL,
                                             parse_addrlabel, [](const AddrLabelInfo&) { return true; });
}

}  // namespace brisk::netlink
