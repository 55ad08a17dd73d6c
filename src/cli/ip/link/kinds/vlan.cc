// ip link's vlan kind: `link DEV type vlan id VLANID [ protocol PROTO ]`.
// A subset of ip 6.1's iplink_vlan.c, in brisk's own words; no details.
#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

Parsed<netlink::LinkKind> parse(KindArgs& args) {
  Cursor& c = args.c;
  netlink::VlanOptions vl{.link = args.lower};
  if (args.lower.empty()) return usage("\"link\" is required for vlan");
  bool have_id = false;
  while (!c.done()) {
    std::string key = c.next(), v;
    TRY_SET(v, c.value(key));
    if (is(key, "id")) {
      TRY_SET(vl.id, number<uint16_t>(key, v, 4095));
      have_id = true;
    } else if (is(key, "protocol")) {
      if (v == "802.1Q" || v == "802.1q")
        vl.protocol = 0x8100;
      else if (v == "802.1ad")
        vl.protocol = 0x88a8;
      else
        return invalid("protocol must be 802.1Q or 802.1ad", v);
    } else {
      return usage("unknown vlan option \"" + key + "\"");
    }
  }
  if (!have_id) return usage("vlan id is required");
  return netlink::LinkKind{vl};
}

KindDevice lower_device(const netlink::LinkKind& kind) {
  auto* vl = std::get_if<netlink::VlanOptions>(&kind);
  return {.name = vl ? vl->link : std::string()};
}

constexpr LinkKindModule kVlanKind{.name = "vlan",
                                   .parse = parse,
                                   .takes_link = true,
                                   .synopsis = "link DEV id VLANID [ protocol { 802.1Q | 802.1ad } ]",
                                   .named_device = lower_device};
BRISK_LINK_KIND(kVlanKind);

}  // namespace
}  // namespace brisk::ipcli
