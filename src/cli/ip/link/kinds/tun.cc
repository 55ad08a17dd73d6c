// ip link's tun kind (tun and tap devices): its `-d` details, as ip 6.1's
// iplink_tuntap.c prints them. Such devices are made with `brisk tuntap add`
// (tuntap.cc), not `link add`.
#include <grp.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <pwd.h>

#include "cli/ip/link/link_kind.h"

namespace brisk::ipcli {
namespace {

using netlink::Attributes;
using netlink::AttrKind;

constexpr auto kTun = [] {
  Policies<IFLA_TUN_MAX + 1> p{};
  for (int t : {IFLA_TUN_TYPE, IFLA_TUN_PI, IFLA_TUN_VNET_HDR, IFLA_TUN_PERSIST, IFLA_TUN_MULTI_QUEUE})
    p[t] = {AttrKind::u8};
  for (int t : {IFLA_TUN_OWNER, IFLA_TUN_GROUP, IFLA_TUN_NUM_QUEUES, IFLA_TUN_NUM_DISABLED_QUEUES})
    p[t] = {AttrKind::u32};
  return p;
}();

// A user or group by name when the system knows it, else by number.
void owner_field(DetailPrinter& out, const char* word, const char* name, uint32_t id) {
  if (name)
    out.field(word, word, std::string(name));
  else
    out.field(word, word, id);
}

void print_tun(const Attributes& a, DetailPrinter& out, const NameOf&) {
  if (auto type = a.u8(IFLA_TUN_TYPE)) {
    std::string name = *type == IFF_TUN   ? "tun"
                       : *type == IFF_TAP ? "tap"
                                          : "UNKNOWN:" + std::to_string(*type);
    out.field("type", "type", name);
  }
  Fields f{a, out};
  f.on_off(IFLA_TUN_PI, "pi");
  f.on_off(IFLA_TUN_VNET_HDR, "vnet_hdr");
  if (auto mq = a.u8(IFLA_TUN_MULTI_QUEUE)) {
    out.json("multi_queue", *mq != 0);
    if (*mq) {
      out.text("multi_queue ");
      f.u32(IFLA_TUN_NUM_QUEUES, "numqueues", "numqueues");
      f.u32(IFLA_TUN_NUM_DISABLED_QUEUES, "numdisabled", "numdisabled");
    }
  }
  f.on_off(IFLA_TUN_PERSIST, "persist");
  if (auto uid = a.u32(IFLA_TUN_OWNER)) {
    const passwd* pw = ::getpwuid(*uid);
    owner_field(out, "user", pw ? pw->pw_name : nullptr, *uid);
  }
  if (auto gid = a.u32(IFLA_TUN_GROUP)) {
    const group* gr = ::getgrgid(*gid);
    owner_field(out, "group", gr ? gr->gr_name : nullptr, *gid);
  }
}

constexpr LinkKindModule kTunKind{.name = "tun", .data = {kTun, print_tun}};
BRISK_LINK_KIND(kTunKind);

}  // namespace
}  // namespace brisk::ipcli
