// Nexthop objects: RTM_NEWNEXTHOP parsed, dumped and asked for by id.
#include "netlink/internal/nexthop.h"

#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "netlink/dump_collect.h"
#include "netlink/op.h"
#include "netlink/reply_parsers.h"
#include "netlink/route_encap.h"

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
  p[NHA_ENCAP_TYPE] = {AttrKind::u16};
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

constexpr auto kBucketPolicies = [] {
  std::array<AttrPolicy, NHA_MAX + 1> p{};
  p[NHA_ID] = {AttrKind::u32};
  p[NHA_RES_BUCKET] = {AttrKind::nested};
  return p;
}();

constexpr auto kBucketNestPolicies = [] {
  std::array<AttrPolicy, NHA_RES_BUCKET_MAX + 1> p{};
  p[NHA_RES_BUCKET_INDEX] = {AttrKind::u16};
  p[NHA_RES_BUCKET_IDLE_TIME] = {AttrKind::u64};
  p[NHA_RES_BUCKET_NH_ID] = {AttrKind::u32};
  return p;
}();

NlResult<NexthopBucket> parse_bucket(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(nhmsg))
    return NetlinkError{
        .code = EBADMSG, .op = "netlink parse", .detail = "RTM_NEWNEXTHOPBUCKET: shorter than its header"};
  nhmsg header;
  std::memcpy(&header, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof header);
  auto attrs = Attributes::parse_message(message, sizeof(nhmsg), Schema{kBucketPolicies});
  if (!attrs) return std::move(attrs).error();
  NexthopBucket bucket{.id = attrs->u32(NHA_ID).value_or(0), .flags = header.nh_flags};
  if (attrs->has(NHA_RES_BUCKET)) {
    auto nest = attrs->nested(NHA_RES_BUCKET, Schema{kBucketNestPolicies});
    if (!nest) return std::move(nest).error();
    bucket.index = nest->u16(NHA_RES_BUCKET_INDEX).value_or(0);
    bucket.idle_time = nest->u64(NHA_RES_BUCKET_IDLE_TIME).value_or(0);
    bucket.nhid = nest->u32(NHA_RES_BUCKET_NH_ID).value_or(0);
  }
  return bucket;
}

NetlinkError bad_nexthop(const std::string& why) {
  return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "RTM_NEWNEXTHOP: " + why};
}

Message nexthop_request(uint16_t flags) {
  Message m(RTM_GETNEXTHOP, flags);
  m.put_header<nhmsg>().nh_family = AF_UNSPEC;
  return m;
}

const char* write_name(NexthopWrite write) {
  switch (write) {
    case NexthopWrite::add:
      return "nexthop add";
    case NexthopWrite::replace:
      return "nexthop replace";
    case NexthopWrite::del:
      return "nexthop del";
  }
  return "nexthop";
}

std::string id_object(const NexthopObjectSpec& spec) {
  return spec.id ? "id " + std::to_string(*spec.id) : std::string("new nexthop");
}

}  // namespace

namespace detail {

Op nexthop_op(NexthopObjectSpec spec, NexthopWrite write) {
  const char* op = write_name(write);
  std::string object = id_object(spec);
  std::optional<IpAddress> via;
  if (!spec.via.empty()) {
    auto parsed = IpAddress::parse(spec.via);
    if (!parsed)
      return failed_op(op, object, invalid_argument(op, object, "malformed gateway '" + spec.via + "'"));
    via = *parsed;
    if (spec.family != AF_UNSPEC && via->family != spec.family)
      return failed_op(
          op, object,
          invalid_argument(op, object, "gateway '" + spec.via + "' is not of the nexthop's family"));
  }
  for (const auto& member : spec.group)
    if (member.weight < 1 || member.weight > 256)
      return failed_op(
          op, object,
          invalid_argument(op, object,
                           "group weight " + std::to_string(member.weight) + " is outside 1..256"));
  Op result{.op = op, .object = object};
  if (!spec.dev.empty()) {
    if (auto valid = check_dev(spec.dev, op, object); !valid)
      return failed_op(op, object, std::move(valid).error());
    result.needs.push_back({spec.dev, Argument::device});
  }
  // An add that named its id made that object, so deleting the id undoes it.
  if (write == NexthopWrite::add && spec.id && *spec.id)
    result.undo = [id = *spec.id] { return nexthop_op({.id = id}, NexthopWrite::del); };
  struct State {
    NexthopObjectSpec spec;
    std::optional<IpAddress> via;
    NexthopWrite write;
    const char* op;
    std::string object;
  };
  auto owned = std::make_shared<const State>(State{std::move(spec), via, write, op, object});
  const State* state = owned.get();
  result.state = std::move(owned);
  result.build = [state](Connection& conn) -> NlResult<std::vector<Request>> {
    const NexthopObjectSpec& spec = state->spec;
    bool del = state->write == NexthopWrite::del;
    uint16_t flags =
        del ? 0 : NLM_F_CREATE | (state->write == NexthopWrite::add ? NLM_F_EXCL : NLM_F_REPLACE);
    Message m(del ? RTM_DELNEXTHOP : RTM_NEWNEXTHOP, flags);
    auto& nhm = m.put_header<nhmsg>();
    nhm.nh_family = static_cast<uint8_t>(spec.family);
    nhm.nh_protocol = spec.protocol;
    if (spec.onlink) nhm.nh_flags |= RTNH_F_ONLINK;
    if (spec.id) m.put_u32(NHA_ID, *spec.id);
    if (!spec.dev.empty()) m.put_u32(NHA_OIF, static_cast<uint32_t>(cached(conn, spec.dev)));
    if (state->via) m.put_bytes(NHA_GATEWAY, state->via->data());
    if (spec.blackhole) m.put_flag(NHA_BLACKHOLE);
    if (spec.fdb) m.put_flag(NHA_FDB);
    if (spec.encap) put_route_encap(m, *spec.encap, {.encap = NHA_ENCAP, .type = NHA_ENCAP_TYPE});
    if (!spec.group.empty()) {
      // nexthop_grp's weight is one less than the weight ip reads and prints.
      std::vector<nexthop_grp> members;
      for (const auto& member : spec.group) {
        nexthop_grp g{};
        g.id = member.id;
        g.weight = static_cast<uint8_t>(member.weight - 1);
        members.push_back(g);
      }
      m.put_bytes(NHA_GROUP, std::span(reinterpret_cast<const uint8_t*>(members.data()),
                                       members.size() * sizeof(nexthop_grp)));
    }
    if (spec.group_type) {
      m.put_u16(NHA_GROUP_TYPE, *spec.group_type);
      if (*spec.group_type == NEXTHOP_GRP_TYPE_RES) {
        auto nest = m.begin_nest(NHA_RES_GROUP);
        if (spec.buckets) m.put_u16(NHA_RES_GROUP_BUCKETS, *spec.buckets);
        if (spec.idle_timer) m.put_u32(NHA_RES_GROUP_IDLE_TIMER, *spec.idle_timer);
        if (spec.unbalanced_timer) m.put_u32(NHA_RES_GROUP_UNBALANCED_TIMER, *spec.unbalanced_timer);
        m.end_nest(nest);
      }
    }
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = state->op, .object = state->object});
    // After ENOBUFS: is the id there (add, replace) or gone (delete)? An
    // add without an id cannot be told from another's, so it has no recheck.
    if (spec.id && *spec.id)
      requests.back().recheck = [state](Connection& c) -> NlResult<bool> {
        auto now = get_nexthop(c, *state->spec.id);
        bool present = static_cast<bool>(now);
        if (!now && now.error().code != ENOENT) return std::move(now).error();
        return state->write == NexthopWrite::del ? !present : present;
      };
    return requests;
  };
  return result;
}

}  // namespace detail

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
                  .group_type = attrs->u16(NHA_GROUP_TYPE).value_or(NEXTHOP_GRP_TYPE_MPATH)};
  auto encap = detail::read_route_encap(*attrs, {.encap = NHA_ENCAP, .type = NHA_ENCAP_TYPE});
  if (!encap) return std::move(encap).error();
  nh.encap = std::move(*encap);
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

std::size_t put_nexthop(Batch& batch, NexthopObjectSpec spec, NexthopWrite write) {
  return detail::BatchAccess::push(batch, detail::nexthop_op(std::move(spec), write));
}

NlResult<void> add_nexthop(Connection& conn, const NexthopObjectSpec& spec) {
  return detail::run_one(conn, detail::nexthop_op(spec, NexthopWrite::add));
}
NlResult<void> replace_nexthop(Connection& conn, const NexthopObjectSpec& spec) {
  return detail::run_one(conn, detail::nexthop_op(spec, NexthopWrite::replace));
}
NlResult<void> delete_nexthop(Connection& conn, uint32_t id) {
  return detail::run_one(conn, detail::nexthop_op({.id = id}, NexthopWrite::del));
}

NlResult<std::vector<NexthopEntry>> list_nexthops(Connection& conn, const NexthopFilter& filter) {
  Message m(RTM_GETNEXTHOP, NLM_F_REQUEST);
  m.put_header<nhmsg>().nh_family = static_cast<uint8_t>(filter.family);
  if (filter.oif) m.put_u32(NHA_OIF, static_cast<uint32_t>(filter.oif));
  if (filter.groups) m.put_flag(NHA_GROUPS);
  if (filter.master) m.put_u32(NHA_MASTER, static_cast<uint32_t>(filter.master));
  if (filter.fdb) m.put_flag(NHA_FDB);
  return detail::dump_collect<NexthopEntry>(conn, std::move(m), "nexthop list", "", RTM_NEWNEXTHOP,
                                            parse_nexthop, [](const NexthopEntry&) { return true; });
}

NlResult<std::vector<NexthopBucket>> list_nexthop_buckets(Connection& conn,
                                                          const NexthopBucketFilter& filter) {
  Message m(RTM_GETNEXTHOPBUCKET, NLM_F_REQUEST);
  m.put_header<nhmsg>().nh_family = static_cast<uint8_t>(filter.family);
  if (filter.oif) m.put_u32(NHA_OIF, static_cast<uint32_t>(filter.oif));
  if (filter.master) m.put_u32(NHA_MASTER, static_cast<uint32_t>(filter.master));
  if (filter.id) m.put_u32(NHA_ID, filter.id);
  if (filter.nhid) {
    auto nest = m.begin_nest(NHA_RES_BUCKET);
    m.put_u32(NHA_RES_BUCKET_NH_ID, filter.nhid);
    m.end_nest(nest);
  }
  return detail::dump_collect<NexthopBucket>(conn, std::move(m), "nexthop bucket list", "",
                                             RTM_NEWNEXTHOPBUCKET, parse_bucket,
                                             [](const NexthopBucket&) { return true; });
}

NlResult<NexthopBucket> get_nexthop_bucket(Connection& conn, uint32_t id, uint16_t index) {
  Message m(RTM_GETNEXTHOPBUCKET, NLM_F_REQUEST);
  m.put_header<nhmsg>();
  m.put_u32(NHA_ID, id);
  auto nest = m.begin_nest(NHA_RES_BUCKET);
  m.put_u16(NHA_RES_BUCKET_INDEX, index);
  m.end_nest(nest);
  std::string object = "id " + std::to_string(id) + " index " + std::to_string(index);
  return detail::single_reply<NexthopBucket>(
      conn, {.message = std::move(m), .op = "nexthop bucket get", .object = object}, RTM_NEWNEXTHOPBUCKET,
      parse_bucket, "no reply", ENOENT);
}

NlResult<NexthopEntry> get_nexthop(Connection& conn, uint32_t id) {
  Message m = nexthop_request(NLM_F_REQUEST);
  m.put_u32(NHA_ID, id);
  return detail::single_reply<NexthopEntry>(
      conn, {.message = std::move(m), .op = "nexthop get", .object = "id " + std::to_string(id)},
      RTM_NEWNEXTHOP, parse_nexthop, "no reply", ENOENT);
}

}  // namespace brisk::netlink
