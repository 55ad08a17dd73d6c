// ip link's vrf kind, as ip 6.1's iplink_vrf.c: `type vrf table TABLE` for a
// new VRF device, its `-d` details, and its ports' (vrf_slave). The library
// has no typed options for a VRF: the kind sends its own IFLA_INFO_DATA
// (netlink::OtherKind::info_data). docs/adding-a-link-kind.md walks through it.
#include <linux/if_link.h>

#include "cli/ip/link/link_kind.h"
#include "cli/ip/names.h"

namespace brisk::ipcli {
namespace {

constexpr std::string_view kUsage = "Usage: ... vrf table TABLEID";

// ip's reply to `help` or an option it lacks: its text then its usage, status 1.
Failure<UsageError> refused(const std::string& what) {
  return fail(UsageError{.message = what + std::string(kUsage), .exact = true, .exit_code = 1});
}

// `table TABLE`: a name from rt_tables or a number, as ip's rtnl_rttable_a2n.
Parsed<netlink::LinkKind> parse(KindArgs& args) {
  Cursor& c = args.c;
  netlink::OtherKind vrf{.kind = "vrf"};
  while (!c.done()) {
    std::string key = c.next();
    if (matches(key, "table")) {
      uint32_t table = 0;
      TRY_SET(table, c.read(key, [](const std::string& text) -> Parsed<uint32_t> {
        if (auto number = table_number(text)) return *number;
        return invarg("invalid table ID\n", text);
      }));
      put_u32(vrf.info_data, IFLA_VRF_TABLE, table);
    } else if (matches(key, "help")) {
      return refused("");
    } else {
      return refused("vrf: unknown option \"" + key + "\"?\n");
    }
  }
  return netlink::LinkKind{std::move(vrf)};
}

constexpr auto kVrf = [] {
  Policies<IFLA_VRF_MAX + 1> p{};
  p[IFLA_VRF_TABLE] = {netlink::AttrKind::u32};
  return p;
}();

constexpr auto kVrfPort = [] {
  Policies<IFLA_VRF_PORT_MAX + 1> p{};
  p[IFLA_VRF_PORT_TABLE] = {netlink::AttrKind::u32};
  return p;
}();

// "table N " for the VRF (IFLA_VRF_TABLE) and for its ports (IFLA_VRF_PORT_TABLE).
void print_vrf(const netlink::Attributes& a, DetailPrinter& out, const NameOf&) {
  Fields{a, out}.u32(IFLA_VRF_TABLE, "table", "table");
}
void print_port(const netlink::Attributes& a, DetailPrinter& out, const NameOf&) {
  Fields{a, out}.u32(IFLA_VRF_PORT_TABLE, "table", "table");
}

constexpr LinkKindModule kVrfKind{
    .name = "vrf",
    .parse = parse,
    .data = {kVrf, print_vrf},
    .help = [](std::string_view) { return std::string(kUsage); },
    .synopsis = "table TABLE",
};
constexpr LinkKindModule kVrfSlaveKind{.name = "vrf_slave", .data = {kVrfPort, print_port}};
BRISK_LINK_KIND(kVrfKind);
BRISK_LINK_KIND(kVrfSlaveKind);

}  // namespace
}  // namespace brisk::ipcli
