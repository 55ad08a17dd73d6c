// Neighbours and bridge fdb entries: one request each, no dumps to resolve.
#include "brisk/netlink/neighbour.h"

#include <linux/rtnetlink.h>

#include <array>
#include <cstring>

#include "brisk/netlink/attributes.h"
#include "brisk/netlink/link.h"
#include "netlink/dump_collect.h"
#include "netlink/op.h"
#include "netlink/reply_parsers.h"

namespace brisk::netlink {
namespace detail {
namespace {

constexpr auto kNeighPolicies = [] {
  std::array<AttrPolicy, NDA_MAX + 1> p{};
  p[NDA_DST] = {AttrKind::binary, 16, 4};
  p[NDA_LLADDR] = {AttrKind::binary, 32, 0};
  p[NDA_VLAN] = {AttrKind::u16};
  p[NDA_MASTER] = {AttrKind::u32};
  p[NDA_FLAGS_EXT] = {AttrKind::u32};
  p[NDA_PROTOCOL] = {AttrKind::u8};
  p[NDA_CACHEINFO] = {AttrKind::binary, 0, sizeof(nda_cacheinfo)};
  p[NDA_PROBES] = {AttrKind::u32};
  return p;
}();

}  // namespace

NlResult<ParsedNeigh> parse_neigh(const nlmsghdr& message) {
  if (message.nlmsg_len < NLMSG_HDRLEN + sizeof(ndmsg))
    return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "short RTM_NEWNEIGH"};
  ParsedNeigh parsed{.attrs = Attributes::parse_message(message, sizeof(ndmsg), Schema{kNeighPolicies})};
  std::memcpy(&parsed.header, reinterpret_cast<const char*>(&message) + NLMSG_HDRLEN, sizeof(ndmsg));
  if (!parsed.attrs) return parsed.attrs.error();
  return parsed;
}

namespace {

std::optional<MacAddress> mac_of(const Attributes& attrs) {
  auto raw = attrs.bytes(NDA_LLADDR);
  if (!raw || raw->size() != 6) return std::nullopt;
  MacAddress mac;
  std::memcpy(mac.bytes.data(), raw->data(), 6);
  return mac;
}

// master: an ifindex, -1 for "no master" (the kernel's NDA_MASTER filter), 0 for any.
NlResult<void> dump_neigh(Connection& conn, int family, uint8_t flags, int ifindex, int master,
                          const char* op, const std::string& object,
                          const std::function<void(const ParsedNeigh&)>& take,
                          const std::function<void()>& restart) {
  Message m(RTM_GETNEIGH, NLM_F_REQUEST);
  auto& ndm = m.put_header<ndmsg>();
  ndm.ndm_family = static_cast<uint8_t>(family);
  ndm.ndm_flags = flags;  // NTF_PROXY: the proxy table
  // Kernel-side filters under strict checking are attributes, not ndm_ifindex.
  if (ifindex) m.put_u32(NDA_IFINDEX, static_cast<uint32_t>(ifindex));
  if (master) m.put_u32(NDA_MASTER, static_cast<uint32_t>(master));
  return conn.dump(
      std::move(m), op, object,
      [&](const nlmsghdr& message) -> NlResult<void> {
        if (message.nlmsg_type != RTM_NEWNEIGH) return {};
        auto parsed = parse_neigh(message);
        if (!parsed) return std::move(parsed).error();
        take(*parsed);
        return {};
      },
      restart);
}

}  // namespace

namespace {

const char* neigh_op_name(NeighWrite write) {
  switch (write) {
    case NeighWrite::add:
      return "neigh add";
    case NeighWrite::replace:
      return "neigh replace";
    case NeighWrite::change:
      return "neigh change";
    case NeighWrite::del:
      return "neigh del";
  }
  return "neigh";
}

uint16_t neigh_write_flags(NeighWrite write) {
  switch (write) {
    case NeighWrite::add:
      return NLM_F_CREATE | NLM_F_EXCL;
    case NeighWrite::replace:
      return NLM_F_CREATE | NLM_F_REPLACE;
    case NeighWrite::change:
      return NLM_F_REPLACE;  // no NLM_F_CREATE: the entry must exist
    case NeighWrite::del:
      return 0;
  }
  return 0;
}

}  // namespace

Op neighbour_op(NeighbourSpec spec, NeighWrite write) {
  const char* op = neigh_op_name(write);
  bool del = write == NeighWrite::del;
  bool proxy = spec.flags & NTF_PROXY;
  std::string object = (proxy ? "proxy " : "") + spec.address + (spec.dev.empty() ? "" : " dev " + spec.dev);
  Op result{.op = op, .object = object};
  auto reject = [&](NetlinkError e) { return failed_op(op, object, std::move(e)); };
  bool no_dev = proxy && spec.dev.empty();  // a proxy entry for every device
  if (auto valid = check_dev(spec.dev, op, object); !valid && !no_dev)
    return reject(std::move(valid).error());
  auto ip = IpAddress::parse(spec.address);
  if (!ip) return reject(invalid_argument(op, object, "malformed address '" + spec.address + "'"));
  std::optional<MacAddress> mac;
  if (!spec.lladdr.empty()) {
    auto parsed = MacAddress::parse(spec.lladdr);
    if (!parsed) return reject(invalid_argument(op, object, "malformed MAC address '" + spec.lladdr + "'"));
    mac = *parsed;
  }
  // No lladdr is the kernel's to judge: a change keeps the entry's, a proxy
  // entry has none, nor has one the kernel is still to resolve.
  if (!no_dev) result.needs.push_back({spec.dev, Argument::device});
  // A proxy add succeeds on an entry already there: undoing it would take
  // that entry away.
  if (write == NeighWrite::add && !proxy)
    result.undo = [spec] { return neighbour_op(spec, NeighWrite::del); };
  result.build = [spec, ip = *ip, mac, write, del, proxy, op,
                  object](Connection& conn) -> NlResult<std::vector<Request>> {
    Message m(del ? RTM_DELNEIGH : RTM_NEWNEIGH, neigh_write_flags(write));
    auto& ndm = m.put_header<ndmsg>();
    ndm.ndm_family = static_cast<uint8_t>(ip.family);
    ndm.ndm_ifindex = spec.dev.empty() ? 0 : cached(conn, spec.dev);
    ndm.ndm_state = del ? 0 : spec.state;
    // A delete names a proxy entry by its flag; the others it ignores.
    ndm.ndm_flags = del ? static_cast<uint8_t>(spec.flags & NTF_PROXY) : spec.flags;
    m.put_bytes(NDA_DST, ip.data());
    if (mac && !del) m.put_bytes(NDA_LLADDR, mac->bytes);
    if (spec.managed && !del) m.put_u32(NDA_FLAGS_EXT, NTF_EXT_MANAGED);
    if (spec.protocol && !del) m.put_u8(NDA_PROTOCOL, spec.protocol);
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = op, .object = object});
    // After ENOBUFS: is the entry there (with our lladdr) or gone?
    requests.back().recheck = [dev = spec.dev, ip, mac, del, proxy](Connection& c) -> NlResult<bool> {
      auto now = list_neighbours(c, {.dev = dev, .family = ip.family, .proxy = proxy});
      if (!now) return std::move(now).error();
      bool present = false;
      for (const auto& n : *now) present |= n.address == ip && (del || !mac || n.lladdr == mac);
      return del ? !present : present;
    };
    return requests;
  };
  return result;
}

// kind: RTM_NEWNEIGH or RTM_DELNEIGH, on AF_BRIDGE.
Op fdb_op(FdbSpec spec, int kind) {
  const char* op = kind == RTM_DELNEIGH ? "fdb del" : "fdb add";
  std::string object = spec.lladdr + " dev " + spec.dev;
  Op result{.op = op, .object = object};
  auto reject = [&](NetlinkError e) { return failed_op(op, object, std::move(e)); };
  if (auto valid = check_dev(spec.dev, op, object); !valid) return reject(std::move(valid).error());
  auto mac = MacAddress::parse(spec.lladdr);
  if (!mac) return reject(invalid_argument(op, object, "malformed MAC address '" + spec.lladdr + "'"));
  std::optional<IpAddress> dst;
  if (!spec.dst.empty()) {
    auto parsed = IpAddress::parse(spec.dst);
    if (!parsed) return reject(invalid_argument(op, object, "malformed dst '" + spec.dst + "'"));
    dst = *parsed;
  }
  if (spec.vlan && *spec.vlan > 4095)
    return reject(invalid_argument(op, object, "vlan id above 4095", ERANGE));
  result.needs.push_back({spec.dev, Argument::device});
  if (kind == RTM_NEWNEIGH) result.undo = [spec] { return fdb_op(spec, RTM_DELNEIGH); };
  result.build = [spec, mac = *mac, dst, kind, op,
                  object](Connection& conn) -> NlResult<std::vector<Request>> {
    bool del = kind == RTM_DELNEIGH;
    Message m(static_cast<uint16_t>(kind), del ? 0 : NLM_F_CREATE | NLM_F_EXCL);
    auto& ndm = m.put_header<ndmsg>();
    ndm.ndm_family = AF_BRIDGE;
    ndm.ndm_ifindex = cached(conn, spec.dev);
    ndm.ndm_state = spec.state;
    // Neither flag means "master" to the kernel; say it explicitly.
    ndm.ndm_flags =
        static_cast<uint8_t>((spec.master || !spec.self ? NTF_MASTER : 0) | (spec.self ? NTF_SELF : 0));
    m.put_bytes(NDA_LLADDR, mac.bytes);
    if (spec.vlan) m.put_u16(NDA_VLAN, *spec.vlan);
    if (dst) m.put_bytes(NDA_DST, dst->data());
    std::vector<Request> requests;
    requests.push_back({.message = std::move(m), .op = op, .object = object});
    // After ENOBUFS: does the device's fdb hold this MAC (vlan, table)?
    // One dump of that device's entries, filtered by the kernel. The
    // bridge reports its own entries with NDA_MASTER and no flag; a
    // device's own table flags them NTF_SELF.
    bool self = spec.self && !spec.master;
    requests.back().recheck = [dev = spec.dev, mac, vlan = spec.vlan, self,
                               del](Connection& c) -> NlResult<bool> {
      auto ifindex = resolve_link(c, dev);
      if (!ifindex) return std::move(ifindex).error();
      bool present = false;
      auto done = dump_neigh(
          c, AF_BRIDGE, 0, *ifindex, 0, "fdb recheck", dev,
          [&](const ParsedNeigh& n) {
            bool in_table =
                self ? (n.header.ndm_flags & NTF_SELF) != 0 : n.attrs->u32(NDA_MASTER).has_value();
            present |= n.header.ndm_ifindex == *ifindex && in_table && mac_of(*n.attrs) == mac &&
                       (!vlan || n.attrs->u16(NDA_VLAN) == vlan);
          },
          [&] { present = false; });
      if (!done) return std::move(done).error();
      return del ? !present : present;
    };
    return requests;
  };
  return result;
}

std::optional<NeighbourInfo> neighbour_info(const ParsedNeigh& n) {
  auto dst = n.attrs->bytes(NDA_DST);
  if (!dst) return std::nullopt;
  auto ip = IpAddress::from_bytes(*dst);
  if (!ip) return std::nullopt;
  nda_cacheinfo cache{};
  if (auto raw = n.attrs->bytes(NDA_CACHEINFO)) std::memcpy(&cache, raw->data(), sizeof cache);
  return NeighbourInfo{.ifindex = n.header.ndm_ifindex,
                       .address = *ip,
                       .lladdr = mac_of(*n.attrs),
                       .state = n.header.ndm_state,
                       .flags = n.header.ndm_flags,
                       .managed = (n.attrs->u32(NDA_FLAGS_EXT).value_or(0) & NTF_EXT_MANAGED) != 0,
                       .protocol = n.attrs->u8(NDA_PROTOCOL).value_or(0),
                       .refcnt = cache.ndm_refcnt,
                       .used = cache.ndm_used,
                       .confirmed = cache.ndm_confirmed,
                       .updated = cache.ndm_updated,
                       .probes = n.attrs->u32(NDA_PROBES)};
}

}  // namespace detail

NlResult<void> add_neighbour(Connection& conn, const NeighbourSpec& spec) {
  return detail::run_one(conn, detail::neighbour_op(spec, detail::NeighWrite::add));
}
NlResult<void> replace_neighbour(Connection& conn, const NeighbourSpec& spec) {
  return detail::run_one(conn, detail::neighbour_op(spec, detail::NeighWrite::replace));
}
NlResult<void> change_neighbour(Connection& conn, const NeighbourSpec& spec) {
  return detail::run_one(conn, detail::neighbour_op(spec, detail::NeighWrite::change));
}
NlResult<void> delete_neighbour(Connection& conn, const NeighbourSpec& spec) {
  return detail::run_one(conn, detail::neighbour_op(spec, detail::NeighWrite::del));
}

NlResult<std::vector<NeighbourInfo>> list_neighbours(Connection& conn, const NeighbourFilter& filter) {
  auto index_of = [&conn](const std::string& dev) -> NlResult<int> {
    if (dev.empty()) return 0;
    auto index = resolve_link(conn, dev);
    if (!index) index.error().op = "neigh list";
    return index;
  };
  int ifindex = BRISK_TRY(index_of(filter.dev));
  int master = -1;
  if (!filter.no_master) master = BRISK_TRY(index_of(filter.master));
  std::vector<NeighbourInfo> found;
  auto done = detail::dump_neigh(
      conn, filter.family, filter.proxy ? NTF_PROXY : 0, ifindex, master, "neigh list", filter.dev,
      [&](const detail::ParsedNeigh& n) {
        auto info = detail::neighbour_info(n);
        if (!info || (ifindex && info->ifindex != ifindex)) return;
        found.push_back(std::move(*info));
      },
      [&] { found.clear(); });
  if (!done) return std::move(done).error();
  return found;
}

NlResult<NeighbourInfo> get_neighbour(Connection& conn, const std::string& dev, const std::string& address,
                                      bool proxy) {
  const char* op = "neigh get";
  std::string object = (proxy ? "proxy " : "") + address + (dev.empty() ? "" : " dev " + dev);
  auto ip = IpAddress::parse(address);
  if (!ip) return invalid_argument(op, object, "malformed address '" + address + "'");
  if (dev.empty() && !proxy) return invalid_argument(op, object, "a cache entry is asked for on a device");
  int ifindex = 0;
  if (!dev.empty()) {
    auto index = resolve_link(conn, dev);
    if (!index && index.error().code == ENODEV) return missing_argument(op, object, Argument::device, dev);
    ifindex = BRISK_TRY(std::move(index));
  }
  Message m(RTM_GETNEIGH, NLM_F_REQUEST);
  auto& ndm = m.put_header<ndmsg>();
  ndm.ndm_family = static_cast<uint8_t>(ip->family);
  ndm.ndm_ifindex = ifindex;
  ndm.ndm_flags = proxy ? NTF_PROXY : 0;
  m.put_bytes(NDA_DST, ip->data());
  auto parse = [&](const nlmsghdr& reply) -> NlResult<NeighbourInfo> {
    auto info = detail::neighbour_info(BRISK_TRY(detail::parse_neigh(reply)));
    if (!info)
      return NetlinkError{.code = EBADMSG, .op = op, .object = object, .detail = "no entry in the reply"};
    return std::move(*info);
  };
  return detail::single_reply<NeighbourInfo>(conn, {.message = std::move(m), .op = op, .object = object},
                                             RTM_NEWNEIGH, parse, "no entry in the reply");
}

NlResult<void> add_fdb(Connection& conn, const FdbSpec& spec) {
  return detail::run_one(conn, detail::fdb_op(spec, RTM_NEWNEIGH));
}
NlResult<void> delete_fdb(Connection& conn, const FdbSpec& spec) {
  return detail::run_one(conn, detail::fdb_op(spec, RTM_DELNEIGH));
}

NlResult<std::vector<FdbInfo>> list_fdb(Connection& conn, const std::string& bridge) {
  auto master = resolve_link(conn, bridge);
  if (!master) {
    master.error().op = "fdb list";
    return std::move(master).error();
  }
  std::vector<FdbInfo> found;
  auto done = detail::dump_neigh(
      conn, AF_BRIDGE, 0, 0, *master, "fdb list", bridge,
      [&](const detail::ParsedNeigh& n) {
        auto mac = detail::mac_of(*n.attrs);
        if (!mac) return;
        found.push_back({.ifindex = n.header.ndm_ifindex,
                         .lladdr = *mac,
                         .state = n.header.ndm_state,
                         .flags = n.header.ndm_flags,
                         .vlan = n.attrs->u16(NDA_VLAN),
                         .master = static_cast<int>(n.attrs->u32(NDA_MASTER).value_or(0))});
      },
      [&] { found.clear(); });
  if (!done) return std::move(done).error();
  return found;
}

}  // namespace brisk::netlink
