// Policy routing rules: add, delete, and a per-family dump.
#include "brisk/netlink/rule.h"

#include <linux/if.h>
#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "brisk/netlink/attributes.h"
#include "netlink/dump_collect.h"
#include "netlink/op.h"
#include "netlink/reply_parsers.h"

namespace brisk::netlink {
namespace detail {
namespace {

constexpr auto kRulePolicies = [] {
  std::array<AttrPolicy, FRA_MAX + 1> p{};
  p[FRA_DST] = {AttrKind::binary, 16, 4};
  p[FRA_SRC] = {AttrKind::binary, 16, 4};
  p[FRA_IIFNAME] = {AttrKind::string, IFNAMSIZ};
  p[FRA_OIFNAME] = {AttrKind::string, IFNAMSIZ};
  p[FRA_GOTO] = {AttrKind::u32};
  p[FRA_PRIORITY] = {AttrKind::u32};
  p[FRA_FWMARK] = {AttrKind::u32};
  p[FRA_FLOW] = {AttrKind::u32};
  p[FRA_TUN_ID] = {AttrKind::u64};
  p[FRA_SUPPRESS_IFGROUP] = {AttrKind::u32};
  p[FRA_SUPPRESS_PREFIXLEN] = {AttrKind::u32};
  p[FRA_TABLE] = {AttrKind::u32};
  p[FRA_FWMASK] = {AttrKind::u32};
  p[FRA_L3MDEV] = {AttrKind::u8};
  p[FRA_UID_RANGE] = {AttrKind::binary, sizeof(fib_rule_uid_range), sizeof(fib_rule_uid_range)};
  p[FRA_PROTOCOL] = {AttrKind::u8};
  p[FRA_IP_PROTO] = {AttrKind::u8};
  p[FRA_SPORT_RANGE] = {AttrKind::binary, sizeof(fib_rule_port_range), sizeof(fib_rule_port_range)};
  p[FRA_DPORT_RANGE] = {AttrKind::binary, sizeof(fib_rule_port_range), sizeof(fib_rule_port_range)};
  static_assert(int(RTA_GATEWAY) == int(FRA_UNUSED2), "an RTN_NAT rule carries RTA_GATEWAY in FRA_ space");
  p[RTA_GATEWAY] = {AttrKind::binary, 4, 4};
  return p;
}();

template <class T>
std::optional<T> struct_attr(const Attributes& attrs, uint16_t type) {
  auto raw = attrs.bytes(type);
  if (!raw || raw->size() != sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, raw->data(), sizeof(T));
  return value;
}

std::optional<IpAddress> address_attr(const Attributes& attrs, uint16_t type) {
  auto raw = attrs.bytes(type);
  if (!raw) return std::nullopt;
  auto ip = IpAddress::from_bytes(*raw);
  if (!ip) return std::nullopt;
  return *ip;
}

// A prefix of the spec, parsed; an empty text is "all" (length 0).
struct SpecPrefix {
  std::optional<IpPrefix> prefix{};
  bool ok = true;
};
SpecPrefix spec_prefix(const std::string& text) {
  if (text.empty()) return {};
  auto parsed = IpPrefix::parse(text);
  if (!parsed) return {.ok = false};
  return {.prefix = *parsed};
}

bool same_prefix(const std::optional<IpPrefix>& want, const std::optional<IpAddress>& have,
                 uint8_t have_len) {
  if (!want) return true;  // not part of the match
  if (want->length != have_len) return false;
  if (want->length == 0) return true;
  return have && *have == want->address;
}

uint32_t effective_table(const RuleSpec& spec, bool add) {
  if (spec.table) return *spec.table;
  // As ip: an add with no table and no action of its own looks up main
  // (an l3mdev rule takes the device's table instead).
  return add && spec.action == FR_ACT_UNSPEC && !spec.l3mdev ? uint32_t(RT_TABLE_MAIN) : 0u;
}

// An add without an action looks up a table.
uint8_t add_action(const RuleSpec& spec, bool add) {
  return add && spec.action == FR_ACT_UNSPEC ? uint8_t(FR_ACT_TO_TBL) : spec.action;
}

}  // namespace

NlResult<RuleInfo> parse_rule(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(fib_rule_hdr))
    return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "short RTM_NEWRULE"};
  fib_rule_hdr frh;
  std::memcpy(&frh, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof(frh));
  auto attrs = Attributes::parse_message(message, sizeof(frh), Schema{kRulePolicies});
  if (!attrs) return std::move(attrs).error();
  RuleInfo rule{.family = frh.family,
                .priority = attrs->u32(FRA_PRIORITY).value_or(0),
                .flags = frh.flags,
                .src = address_attr(*attrs, FRA_SRC),
                .src_len = frh.src_len,
                .dst = address_attr(*attrs, FRA_DST),
                .dst_len = frh.dst_len,
                .tos = frh.tos,
                .fwmark = attrs->u32(FRA_FWMARK),
                .fwmask = attrs->u32(FRA_FWMASK),
                .iif = std::string(attrs->string(FRA_IIFNAME).value_or("")),
                .oif = std::string(attrs->string(FRA_OIFNAME).value_or("")),
                .l3mdev = attrs->u8(FRA_L3MDEV).value_or(0) != 0,
                .uid_range = {},
                .ip_proto = attrs->u8(FRA_IP_PROTO),
                .sport = {},
                .dport = {},
                .tun_id = {},
                .table = attrs->u32(FRA_TABLE).value_or(frh.table),
                .suppress_prefixlength = {},
                .suppress_ifgroup = attrs->u32(FRA_SUPPRESS_IFGROUP),
                .realms = attrs->u32(FRA_FLOW),
                .action = frh.action,
                .goto_target = attrs->u32(FRA_GOTO),
                .nat_gateway = frh.action == RTN_NAT ? address_attr(*attrs, RTA_GATEWAY) : std::nullopt,
                .protocol = attrs->u8(FRA_PROTOCOL)};
  if (auto range = struct_attr<fib_rule_uid_range>(*attrs, FRA_UID_RANGE))
    rule.uid_range = UidRange{range->start, range->end};
  if (auto range = struct_attr<fib_rule_port_range>(*attrs, FRA_SPORT_RANGE))
    rule.sport = PortRange{range->start, range->end};
  if (auto range = struct_attr<fib_rule_port_range>(*attrs, FRA_DPORT_RANGE))
    rule.dport = PortRange{range->start, range->end};
  if (auto id = attrs->u64(FRA_TUN_ID)) rule.tun_id = be64toh(*id);
  if (auto pl = attrs->u32(FRA_SUPPRESS_PREFIXLEN)) rule.suppress_prefixlength = static_cast<int32_t>(*pl);
  return rule;
}

// Whether `rule` is one the kernel would take `spec` to name: every field
// the spec sets is equal (the kernel's own rule lookup for a delete).
bool rule_matches(const RuleInfo& rule, const RuleSpec& spec, bool add) {
  auto from = spec_prefix(spec.from), to = spec_prefix(spec.to);
  uint32_t table = effective_table(spec, add);
  uint8_t action = add_action(spec, add);
  return rule.family == spec.family && (!spec.priority || rule.priority == *spec.priority) &&
         ((rule.flags & FIB_RULE_INVERT) != 0) == spec.invert &&
         same_prefix(from.prefix, rule.src, rule.src_len) && same_prefix(to.prefix, rule.dst, rule.dst_len) &&
         (!spec.tos || rule.tos == spec.tos) && (!spec.fwmark || rule.fwmark.value_or(0) == *spec.fwmark) &&
         (!spec.fwmask || rule.fwmask.value_or(0) == *spec.fwmask) &&
         (spec.iif.empty() || rule.iif == spec.iif) && (spec.oif.empty() || rule.oif == spec.oif) &&
         (!spec.l3mdev || rule.l3mdev) && (!spec.uid_range || rule.uid_range == spec.uid_range) &&
         (!spec.ip_proto || rule.ip_proto == spec.ip_proto) && (!spec.sport || rule.sport == spec.sport) &&
         (!spec.dport || rule.dport == spec.dport) && (!spec.tun_id || rule.tun_id == spec.tun_id) &&
         (!table || rule.table == table) && (!action || rule.action == action) &&
         (!spec.goto_target || rule.goto_target == spec.goto_target) &&
         (!spec.protocol || rule.protocol == spec.protocol) && (!spec.realms || rule.realms == spec.realms) &&
         (!spec.suppress_prefixlength || rule.suppress_prefixlength == spec.suppress_prefixlength) &&
         (!spec.suppress_ifgroup || rule.suppress_ifgroup == spec.suppress_ifgroup);
}

// kind: RTM_NEWRULE (an exclusive add) or RTM_DELRULE.
Op rule_op(RuleSpec spec, int kind) {
  bool add = kind == RTM_NEWRULE;
  const char* op = add ? "rule add" : "rule del";
  std::string object = spec.from.empty() ? "from all" : "from " + spec.from;
  if (!spec.to.empty()) object += " to " + spec.to;
  if (spec.priority) object = std::to_string(*spec.priority) + ": " + object;
  Op result{.op = op, .object = object};
  auto reject = [&](std::string detail) {
    result.rejected = std::make_unique<const NetlinkError>(invalid_argument(op, object, std::move(detail)));
    return std::move(result);
  };
  auto from = spec_prefix(spec.from), to = spec_prefix(spec.to);
  if (!from.ok) return reject("malformed source prefix '" + spec.from + "'");
  if (!to.ok) return reject("malformed destination prefix '" + spec.to + "'");
  for (const auto* name : {&spec.iif, &spec.oif})
    if (name->size() >= IFNAMSIZ) return reject("device name '" + *name + "' is longer than 15 bytes");
  std::optional<IpAddress> nat;
  if (!spec.nat_gateway.empty()) {
    auto gw = IpAddress::parse(spec.nat_gateway);
    if (!gw || gw->family != AF_INET) return reject("malformed NAT address '" + spec.nat_gateway + "'");
    nat = *gw;
  }
  if (spec.l3mdev && spec.table) return reject("an l3mdev rule takes no table");
  // Without a priority the kernel picks one, and a delete of the same spec
  // could then name an older twin: only a prioritised add is undone.
  if (add && spec.priority) result.undo = [spec] { return rule_op(spec, RTM_DELRULE); };
  result.build = [spec = std::move(spec), from = from.prefix, to = to.prefix, nat, add, op,
                  object](Connection&) -> NlResult<std::vector<Request>> {
    Message m(add ? RTM_NEWRULE : RTM_DELRULE, add ? NLM_F_CREATE | NLM_F_EXCL : 0);
    auto& frh = m.put_header<fib_rule_hdr>();
    frh.family = static_cast<uint8_t>(spec.family);
    frh.tos = spec.tos;
    frh.action = add_action(spec, add);
    if (spec.invert) frh.flags |= FIB_RULE_INVERT;
    if (from) {
      frh.src_len = from->length;
      m.put_bytes(FRA_SRC, from->address.data());
    }
    if (to) {
      frh.dst_len = to->length;
      m.put_bytes(FRA_DST, to->address.data());
    }
    // Tables past 255 do not fit the header's byte.
    uint32_t table = effective_table(spec, add);
    if (table < 256)
      frh.table = static_cast<uint8_t>(table);
    else
      m.put_u32(FRA_TABLE, table);
    if (spec.priority) m.put_u32(FRA_PRIORITY, *spec.priority);
    if (spec.fwmark) m.put_u32(FRA_FWMARK, *spec.fwmark);
    if (spec.fwmask) m.put_u32(FRA_FWMASK, *spec.fwmask);
    if (spec.realms) m.put_u32(FRA_FLOW, *spec.realms);
    if (spec.protocol) m.put_u8(FRA_PROTOCOL, *spec.protocol);
    if (spec.tun_id) m.put_u64(FRA_TUN_ID, htobe64(*spec.tun_id));
    if (spec.suppress_prefixlength) m.put_s32(FRA_SUPPRESS_PREFIXLEN, *spec.suppress_prefixlength);
    if (spec.suppress_ifgroup) m.put_u32(FRA_SUPPRESS_IFGROUP, *spec.suppress_ifgroup);
    if (!spec.iif.empty()) m.put_string(FRA_IIFNAME, spec.iif);
    if (!spec.oif.empty()) m.put_string(FRA_OIFNAME, spec.oif);
    if (spec.l3mdev) m.put_u8(FRA_L3MDEV, 1);
    if (spec.uid_range) {
      fib_rule_uid_range r{.start = spec.uid_range->start, .end = spec.uid_range->end};
      m.put_bytes(FRA_UID_RANGE, std::span(reinterpret_cast<const uint8_t*>(&r), sizeof(r)));
    }
    if (nat) m.put_bytes(RTA_GATEWAY, nat->data());
    if (spec.ip_proto) m.put_u8(FRA_IP_PROTO, *spec.ip_proto);
    for (auto [type, range] :
         {std::pair{FRA_SPORT_RANGE, spec.sport}, std::pair{FRA_DPORT_RANGE, spec.dport}}) {
      if (!range) continue;
      fib_rule_port_range r{.start = range->start, .end = range->end};
      m.put_bytes(static_cast<uint16_t>(type), std::span(reinterpret_cast<const uint8_t*>(&r), sizeof(r)));
    }
    if (spec.goto_target) m.put_u32(FRA_GOTO, *spec.goto_target);
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = op, .object = object});
    // After ENOBUFS: is a rule like this one there (add) or gone (delete)?
    requests.back().recheck = [spec, add](Connection& c) -> NlResult<bool> {
      auto now = list_rules(c, {.family = spec.family});
      if (!now) return std::move(now).error();
      bool present = false;
      for (const auto& rule : *now) present |= rule_matches(rule, spec, add);
      return add ? present : !present;
    };
    return requests;
  };
  return result;
}

}  // namespace detail

RuleSpec RuleInfo::spec() const {
  auto prefix = [](const std::optional<IpAddress>& ip, uint8_t len) {
    return ip && len ? ip->to_string() + "/" + std::to_string(len) : std::string();
  };
  return RuleSpec{.family = family,
                  .priority = priority,
                  .invert = (flags & FIB_RULE_INVERT) != 0,
                  .from = prefix(src, src_len),
                  .to = prefix(dst, dst_len),
                  .tos = tos,
                  .fwmark = fwmark,
                  .fwmask = fwmask,
                  .iif = iif,
                  .oif = oif,
                  .l3mdev = l3mdev,
                  .uid_range = uid_range,
                  .ip_proto = ip_proto,
                  .sport = sport,
                  .dport = dport,
                  .tun_id = tun_id,
                  .table = table ? std::optional<uint32_t>(table) : std::nullopt,
                  .protocol = protocol,
                  .realms = realms,
                  .suppress_prefixlength = suppress_prefixlength,
                  .suppress_ifgroup = suppress_ifgroup,
                  .action = action,
                  .goto_target = goto_target,
                  .nat_gateway = nat_gateway ? nat_gateway->to_string() : std::string()};
}

NlResult<void> add_rule(Connection& conn, const RuleSpec& spec) {
  return detail::run_one(conn, detail::rule_op(spec, RTM_NEWRULE));
}

NlResult<void> delete_rule(Connection& conn, const RuleSpec& spec) {
  return detail::run_one(conn, detail::rule_op(spec, RTM_DELRULE));
}

NlResult<std::vector<RuleInfo>> list_rules(Connection& conn, const RuleFilter& filter) {
  Message m(RTM_GETRULE, NLM_F_REQUEST);
  auto& frh = m.put_header<fib_rule_hdr>();
  frh.family = static_cast<uint8_t>(filter.family);
  return detail::dump_collect<RuleInfo>(conn, std::move(m), "rule list", "", RTM_NEWRULE, detail::parse_rule,
                                        [](const RuleInfo&) { return true; });
}

}  // namespace brisk::netlink
