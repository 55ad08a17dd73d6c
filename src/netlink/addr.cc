// Addresses: add, replace, delete, list (one filtered dump) and flush.
#include "brisk/netlink/addr.h"

#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include <array>
#include <cstring>
#include <map>
#include <memory>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/link.h"
#include "netlink/dump_collect.h"
#include "netlink/op.h"
#include "netlink/reply_parsers.h"

namespace brisk::netlink {
namespace detail {
namespace {

constexpr auto kAddrPolicies = [] {
  std::array<AttrPolicy, IFA_MAX + 1> p{};
  p[IFA_ADDRESS] = {AttrKind::binary, 16, 4};
  p[IFA_LOCAL] = {AttrKind::binary, 16, 4};
  p[IFA_LABEL] = {AttrKind::string, 16};
  p[IFA_BROADCAST] = {AttrKind::binary, 4, 4};
  p[IFA_ANYCAST] = {AttrKind::binary, 16, 4};
  p[IFA_RT_PRIORITY] = {AttrKind::u32};
  p[IFA_FLAGS] = {AttrKind::u32};
  p[IFA_CACHEINFO] = {AttrKind::binary, 0, static_cast<uint16_t>(sizeof(ifa_cacheinfo))};
  return p;
}();

}  // namespace

NlResult<AddressInfo> parse_address(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(ifaddrmsg))
    return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "short RTM_NEWADDR"};
  ifaddrmsg ifa;
  std::memcpy(&ifa, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof ifa);
  auto attrs = Attributes::parse_message(message, sizeof(ifaddrmsg), Schema{kAddrPolicies});
  if (!attrs) return std::move(attrs).error();
  AddressInfo info;
  info.ifindex = static_cast<int>(ifa.ifa_index);
  info.scope = ifa.ifa_scope;
  info.flags = attrs->u32(IFA_FLAGS).value_or(ifa.ifa_flags);
  auto local = attrs->bytes(IFA_LOCAL), address = attrs->bytes(IFA_ADDRESS);
  if (!local) local = address;
  if (!local)
    return NetlinkError{
        .code = EBADMSG, .op = "netlink parse", .detail = "address without IFA_LOCAL/IFA_ADDRESS"};
  auto ip = IpAddress::from_bytes(*local);
  if (!ip) return std::move(ip).error();
  info.prefix = {*ip, ifa.ifa_prefixlen};
  auto optional_address = [&attrs](int type) -> std::optional<IpAddress> {
    auto raw = attrs->bytes(type);
    if (!raw) return std::nullopt;
    auto a = IpAddress::from_bytes(*raw);
    return a ? std::optional(*a) : std::nullopt;
  };
  // A point-to-point address names its far end in IFA_ADDRESS.
  if (auto peer = optional_address(IFA_ADDRESS); peer && *peer != *ip) info.peer = *peer;
  info.broadcast = optional_address(IFA_BROADCAST);
  info.anycast = optional_address(IFA_ANYCAST);
  if (auto metric = attrs->u32(IFA_RT_PRIORITY)) info.metric = *metric;
  info.label = std::string(attrs->string(IFA_LABEL).value_or(""));
  if (auto raw = attrs->bytes(IFA_CACHEINFO)) {
    ifa_cacheinfo cache{};
    std::memcpy(&cache, raw->data(), sizeof cache);  // the schema guarantees the size
    info.valid_lifetime = cache.ifa_valid;
    info.preferred_lifetime = cache.ifa_prefered;
  }
  return info;
}

namespace {

const char* op_name(AddressWrite write) {
  switch (write) {
    case AddressWrite::del:
      return "addr del";
    case AddressWrite::replace:
      return "addr replace";
    case AddressWrite::change:
      return "addr change";
    case AddressWrite::add:
      break;
  }
  return "addr add";
}

uint16_t write_flags(AddressWrite write) {
  switch (write) {
    case AddressWrite::del:
      return 0;
    case AddressWrite::replace:
      return NLM_F_CREATE | NLM_F_REPLACE;
    case AddressWrite::change:
      return NLM_F_REPLACE;
    case AddressWrite::add:
      break;
  }
  return NLM_F_CREATE | NLM_F_EXCL;
}

NlResult<std::vector<AddressInfo>> dump_addresses(Connection& conn, int ifindex, int family,
                                                  const std::string& object) {
  Message m(RTM_GETADDR, NLM_F_REQUEST);
  auto& ifa = m.put_header<ifaddrmsg>();
  ifa.ifa_family = static_cast<uint8_t>(family);
  ifa.ifa_index = static_cast<uint32_t>(ifindex);  // a kernel-side filter under strict checking
  return dump_collect<AddressInfo>(
      conn, std::move(m), "addr list", object, RTM_NEWADDR, parse_address,
      [&](const AddressInfo& a) { return ifindex == 0 || a.ifindex == ifindex; });
}

}  // namespace

Op address_op(AddressSpec spec, AddressWrite write) {
  const char* op = op_name(write);
  std::string object = spec.prefix + " dev " + spec.dev;
  Op result{.op = op, .object = object};
  auto fail = [&](NetlinkError e) { return failed_op(op, object, std::move(e)); };
  if (auto valid = check_dev(spec.dev, op, object); !valid) return fail(std::move(valid).error());
  auto prefix = IpPrefix::parse(spec.prefix);
  if (!prefix) return fail(invalid_argument(op, object, "malformed prefix '" + spec.prefix + "'"));
  std::optional<IpPrefix> peer;
  if (!spec.peer.empty()) {
    auto p = IpPrefix::parse(spec.peer);
    if (!p || p->address.family != prefix->address.family)
      return fail(invalid_argument(op, object, "malformed peer '" + spec.peer + "' for this address family"));
    peer = *p;
  }
  std::optional<IpAddress> anycast;
  if (!spec.anycast.empty()) {
    auto a = IpAddress::parse(spec.anycast);
    if (!a || a->family != prefix->address.family)
      return fail(
          invalid_argument(op, object, "malformed anycast '" + spec.anycast + "' for this address family"));
    anycast = *a;
  }
  if (spec.any_length && (write != AddressWrite::del || peer))
    return fail(invalid_argument(op, object, "any_length is for a delete without a peer"));
  std::optional<IpAddress> broadcast;
  if (!spec.broadcast.empty()) {
    auto b = IpAddress::parse(spec.broadcast);
    if (!b || b->family != AF_INET)
      return fail(invalid_argument(op, object, "malformed IPv4 broadcast '" + spec.broadcast + "'"));
    if (prefix->address.family != AF_INET)
      return fail(invalid_argument(op, object, "broadcast is IPv4 only"));
    broadcast = *b;
  }
  if (!spec.label.empty()) {
    if (prefix->address.family != AF_INET) return fail(invalid_argument(op, object, "labels are IPv4 only"));
    if (spec.label.size() >= 16) return fail(invalid_argument(op, object, "label longer than 15 bytes"));
  }
  if (spec.valid_lifetime || spec.preferred_lifetime) {
    uint32_t valid = spec.valid_lifetime.value_or(AddressInfo::kForever);
    if (valid == 0) return fail(invalid_argument(op, object, "valid_lft is zero"));
    if (spec.preferred_lifetime.value_or(AddressInfo::kForever) > valid)
      return fail(invalid_argument(op, object, "preferred_lft is greater than valid_lft"));
  }
  result.needs.push_back({spec.dev, Argument::device});
  // One copy of the spec and of what the closures need, shared by them
  // through Op::state (see route_op).
  struct State {
    AddressSpec spec;
    IpPrefix prefix;  // the local address, with the address's own length (a peer's when there is one)
    std::optional<IpPrefix> peer;
    std::optional<IpAddress> broadcast, anycast;
    AddressWrite write;
    const char* op;
    std::string object;
  };
  // As ip: with a peer, the address's length is the peer's (unless that is 0).
  IpPrefix local = *prefix;
  if (peer && peer->length) local.length = peer->length;
  auto owned = std::make_shared<const State>(
      State{std::move(spec), local, peer, broadcast, anycast, write, op, std::move(object)});
  const State* state = owned.get();
  result.state = std::move(owned);
  // An exclusive add that succeeded made the address: deleting it is the way back.
  if (write == AddressWrite::add)
    result.undo = [state] { return address_op(state->spec, AddressWrite::del); };
  result.build = [state](Connection& conn) -> NlResult<std::vector<Request>> {
    const AddressSpec& spec = state->spec;
    const IpPrefix& prefix = state->prefix;
    const auto& broadcast = state->broadcast;
    const AddressWrite write = state->write;
    const bool del = write == AddressWrite::del;
    Message m(del ? RTM_DELADDR : RTM_NEWADDR, write_flags(write));
    auto& ifa = m.put_header<ifaddrmsg>();
    ifa.ifa_family = static_cast<uint8_t>(prefix.address.family);
    ifa.ifa_prefixlen = prefix.length;
    ifa.ifa_scope = spec.scope.value_or(RT_SCOPE_UNIVERSE);
    int ifindex = cached(conn, spec.dev);
    ifa.ifa_index = static_cast<uint32_t>(ifindex);
    m.put_bytes(IFA_LOCAL, prefix.address.data());
    // Without IFA_ADDRESS the kernel deletes the local address whatever its length.
    if (!spec.any_length)
      m.put_bytes(IFA_ADDRESS, (state->peer ? state->peer->address : prefix.address).data());
    if (spec.metric) m.put_u32(IFA_RT_PRIORITY, *spec.metric);
    if (!del) {
      if (broadcast) m.put_bytes(IFA_BROADCAST, broadcast->data());
      if (state->anycast) m.put_bytes(IFA_ANYCAST, state->anycast->data());
      if (!spec.label.empty()) m.put_string(IFA_LABEL, spec.label);
      uint32_t extra = (spec.noprefixroute ? IFA_F_NOPREFIXROUTE : 0) | (spec.nodad ? IFA_F_NODAD : 0) |
                       (spec.home ? IFA_F_HOMEADDRESS : 0) | (spec.mngtmpaddr ? IFA_F_MANAGETEMPADDR : 0) |
                       (spec.optimistic ? IFA_F_OPTIMISTIC : 0) | (spec.autojoin ? IFA_F_MCAUTOJOIN : 0);
      if (extra) m.put_u32(IFA_FLAGS, extra);
      if (spec.valid_lifetime || spec.preferred_lifetime) {
        ifa_cacheinfo lifetimes{};
        lifetimes.ifa_prefered = spec.preferred_lifetime.value_or(AddressInfo::kForever);
        lifetimes.ifa_valid = spec.valid_lifetime.value_or(AddressInfo::kForever);
        m.put_bytes(IFA_CACHEINFO, {reinterpret_cast<const uint8_t*>(&lifetimes), sizeof lifetimes});
      }
    }
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = state->op, .object = state->object});
    requests.back().recheck = [state, ifindex](Connection& c) -> NlResult<bool> {
      const IpPrefix& prefix = state->prefix;
      const bool del = state->write == AddressWrite::del;
      auto now = dump_addresses(c, ifindex, prefix.address.family, state->object);
      if (!now) return std::move(now).error();
      bool present = false;
      for (const auto& a : *now)
        present |= a.prefix.address == prefix.address &&
                   (state->spec.any_length || a.prefix.length == prefix.length);
      return del ? !present : present;
    };
    return requests;
  };
  return result;
}

}  // namespace detail

NlResult<void> add_address(Connection& conn, const AddressSpec& spec) {
  return detail::run_one(conn, detail::address_op(spec, detail::AddressWrite::add));
}
NlResult<void> replace_address(Connection& conn, const AddressSpec& spec) {
  return detail::run_one(conn, detail::address_op(spec, detail::AddressWrite::replace));
}
NlResult<void> change_address(Connection& conn, const AddressSpec& spec) {
  return detail::run_one(conn, detail::address_op(spec, detail::AddressWrite::change));
}
NlResult<void> delete_address(Connection& conn, const AddressSpec& spec) {
  return detail::run_one(conn, detail::address_op(spec, detail::AddressWrite::del));
}

NlResult<std::vector<AddressInfo>> list_addresses(Connection& conn, const AddressFilter& filter) {
  int ifindex = 0;
  if (!filter.dev.empty()) {
    auto index = resolve_link(conn, filter.dev);
    if (!index) {
      index.error().op = "addr list";
      return std::move(index).error();
    }
    ifindex = *index;
  }
  return detail::dump_addresses(conn, ifindex, filter.family, filter.dev);
}

NlResult<std::size_t> flush_addresses(Connection& conn, const std::string& dev, int family,
                                      const std::function<bool(const AddressInfo&)>& which) {
  auto addresses = list_addresses(conn, {.dev = dev, .family = family});
  if (!addresses) return std::move(addresses).error();
  // Without a device, each address is deleted on its own, named by its index.
  std::map<int, std::string> names;
  if (dev.empty()) {
    auto links = list_links(conn, {});
    if (!links) return std::move(links).error();
    for (const auto& l : *links) names[l.ifindex] = l.name;
  }
  std::vector<detail::Op> ops;
  for (const auto& a : *addresses)
    if (!which || which(a))
      ops.push_back(detail::address_op(
          {.dev = dev.empty() ? names[a.ifindex] : dev,
           .prefix = a.prefix.to_string(),
           // the kernel matches a point-to-point address by its peer
           .peer = a.peer ? IpPrefix{*a.peer, a.prefix.length}.to_string() : std::string()},
          detail::AddressWrite::del));
  for (auto& result : detail::run_ops(conn, ops, {.coalesce_deletes = false})) {
    // An address the kernel already removed (an IPv6 one with its prefix) is fine.
    if (!result && result.error().code != EADDRNOTAVAIL) return std::move(result).error();
  }
  return ops.size();
}

}  // namespace brisk::netlink
