// LinkDetails: what `ip -d link` reads from an RTM_NEWLINK message beyond
// LinkInfo. The kind's own attributes are copied raw (the CLI, or any
// caller, reads them with a schema for that kind); everything else is typed.
#include <linux/if_link.h>
#include <sys/socket.h>

#include <array>

#include "netlink/link_schema.h"

namespace brisk::netlink::detail {
namespace {

// IFLA_AF_SPEC holds one nest per address family, typed by AF_* number.
constexpr auto kAfSpecPolicies = [] {
  std::array<AttrPolicy, AF_INET6 + 1> p{};
  p[AF_INET6] = {AttrKind::nested};
  return p;
}();

constexpr auto kInet6Policies = [] {
  std::array<AttrPolicy, IFLA_INET6_ADDR_GEN_MODE + 1> p{};
  p[IFLA_INET6_ADDR_GEN_MODE] = {AttrKind::u8};
  return p;
}();

std::vector<char> copy_of(std::optional<std::span<const uint8_t>> raw) {
  if (!raw) return {};
  return {raw->begin(), raw->end()};
}

}  // namespace

NlResult<LinkDetails> parse_link_details(const Attributes& attrs) {
  LinkDetails d;
  d.promiscuity = attrs.u32(IFLA_PROMISCUITY);
  d.allmulti = attrs.u32(IFLA_ALLMULTI);
  d.min_mtu = attrs.u32(IFLA_MIN_MTU);
  d.max_mtu = attrs.u32(IFLA_MAX_MTU);
  d.num_tx_queues = attrs.u32(IFLA_NUM_TX_QUEUES);
  d.num_rx_queues = attrs.u32(IFLA_NUM_RX_QUEUES);
  d.gso_max_size = attrs.u32(IFLA_GSO_MAX_SIZE);
  d.gso_max_segs = attrs.u32(IFLA_GSO_MAX_SEGS);
  d.tso_max_size = attrs.u32(IFLA_TSO_MAX_SIZE);
  d.tso_max_segs = attrs.u32(IFLA_TSO_MAX_SEGS);
  d.gro_max_size = attrs.u32(IFLA_GRO_MAX_SIZE);
  auto af = attrs.nested(IFLA_AF_SPEC, kAfSpecPolicies);
  if (!af) return std::move(af).error();
  auto inet6 = af->nested(AF_INET6, kInet6Policies);
  if (!inet6) return std::move(inet6).error();
  d.addr_gen_mode = inet6->u8(IFLA_INET6_ADDR_GEN_MODE);
  auto info = attrs.nested(IFLA_LINKINFO, kLinkInfoSchema);
  if (!info) return std::move(info).error();
  d.slave_kind = std::string(info->string(IFLA_INFO_SLAVE_KIND).value_or(""));
  d.info_data = copy_of(info->bytes(IFLA_INFO_DATA));
  d.slave_data = copy_of(info->bytes(IFLA_INFO_SLAVE_DATA));
  return d;
}

}  // namespace brisk::netlink::detail
