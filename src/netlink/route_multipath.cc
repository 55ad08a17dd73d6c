#include "netlink/route_multipath.h"

#include <linux/rtnetlink.h>

#include <cstring>

#include "brisk/netlink/attributes.h"

namespace brisk::netlink::detail {
namespace {

constexpr auto kNexthopPolicies = [] {
  std::array<AttrPolicy, RTA_MAX + 1> p{};
  p[RTA_GATEWAY] = {AttrKind::binary, 16, 4};
  p[RTA_FLOW] = {AttrKind::u32};
  return p;
}();

}  // namespace

std::vector<uint8_t> encode_multipath(const std::vector<Nexthop>& paths) {
  std::vector<uint8_t> out;
  for (const auto& path : paths) {
    std::size_t start = out.size();
    rtnexthop rtnh{};
    rtnh.rtnh_hops = static_cast<uint8_t>(path.weight - 1);
    rtnh.rtnh_ifindex = path.ifindex;
    rtnh.rtnh_flags = path.onlink ? RTNH_F_ONLINK : 0;
    out.resize(start + RTNH_ALIGN(sizeof rtnh));
    if (path.via) {
      auto address = path.via->data();
      rtattr rta{.rta_len = static_cast<unsigned short>(RTA_LENGTH(address.size())), .rta_type = RTA_GATEWAY};
      std::size_t at = out.size();
      out.resize(at + RTA_SPACE(address.size()));
      std::memcpy(out.data() + at, &rta, sizeof rta);
      std::memcpy(out.data() + at + RTA_LENGTH(0), address.data(), address.size());
    }
    if (path.realms) {
      rtattr rta{.rta_len = static_cast<unsigned short>(RTA_LENGTH(sizeof(uint32_t))), .rta_type = RTA_FLOW};
      std::size_t at = out.size();
      out.resize(at + RTA_SPACE(sizeof(uint32_t)));
      std::memcpy(out.data() + at, &rta, sizeof rta);
      std::memcpy(out.data() + at + RTA_LENGTH(0), &*path.realms, sizeof(uint32_t));
    }
    rtnh.rtnh_len = static_cast<unsigned short>(out.size() - start);
    std::memcpy(out.data() + start, &rtnh, sizeof rtnh);
  }
  return out;
}

NlResult<std::vector<NexthopInfo>> decode_multipath(std::span<const uint8_t> payload) {
  std::vector<NexthopInfo> paths;
  while (payload.size() >= sizeof(rtnexthop)) {
    rtnexthop rtnh;
    std::memcpy(&rtnh, payload.data(), sizeof rtnh);
    if (rtnh.rtnh_len < sizeof rtnh || rtnh.rtnh_len > payload.size())
      return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "truncated RTA_MULTIPATH entry"};
    NexthopInfo path{.oif = rtnh.rtnh_ifindex,
                     .weight = static_cast<uint16_t>(rtnh.rtnh_hops + 1),
                     .flags = rtnh.rtnh_flags};
    auto inner =
        payload.subspan(RTNH_ALIGN(sizeof rtnh),
                        rtnh.rtnh_len - std::min<std::size_t>(rtnh.rtnh_len, RTNH_ALIGN(sizeof rtnh)));
    auto attrs = Attributes::parse({reinterpret_cast<const char*>(inner.data()), inner.size()},
                                   Schema{kNexthopPolicies});
    if (!attrs) return std::move(attrs).error();
    if (auto gw = attrs->bytes(RTA_GATEWAY)) {
      auto address = IpAddress::from_bytes(*gw);
      if (!address) return std::move(address).error();
      path.gateway = *address;
    }
    path.realms = attrs->u32(RTA_FLOW);
    paths.push_back(std::move(path));
    payload = payload.subspan(std::min<std::size_t>(payload.size(), RTNH_ALIGN(rtnh.rtnh_len)));
  }
  return paths;
}

}  // namespace brisk::netlink::detail
