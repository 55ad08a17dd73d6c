// tun/tap devices: rtnetlink cannot create them, /dev/net/tun can.
//
// The device is made in the connection's namespace (the queue fd is opened
// on a helper thread inside it), made persistent so it outlives the fd, and
// then configured with an ordinary link set for the common options. If that
// set fails the device is deleted again: nothing is left half-created.
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>
#include <sys/ioctl.h>

#include <cstring>

#include "netlink/op.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"
#include "sys/syscalls.h"

namespace brisk::netlink::detail {
namespace {

NlResult<void> make_tun(Connection& conn, const std::string& name, const TunOptions& tun) {
  auto made = sys::run_in_netns(conn.netns_fd(), [&]() -> Result<void> {
    auto fd = sys::open("/dev/net/tun", O_RDWR);
    if (!fd) return fd.error();
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, name.data(), name.size());
    // IFF_TUN_EXCL: fail on an existing device instead of attaching to it.
    ifr.ifr_flags = static_cast<short>((tun.tap ? IFF_TAP : IFF_TUN) | IFF_NO_PI | IFF_TUN_EXCL);
    if (::ioctl(fd->get(), TUNSETIFF, &ifr) < 0) {
      SysError e = last_error("ioctl(TUNSETIFF)", name);
      if (e.code == EBUSY) e = SysError{.code = EEXIST, .call = "ioctl(TUNSETIFF)", .object = name,
                                        .detail = "a device with this name exists"};
      return e;
    }
    // Until TUNSETPERSIST the device dies with fd, so an error here leaves nothing.
    if (tun.owner) BRISK_TRY(sys::ioctl_int(fd->get(), TUNSETOWNER, *tun.owner, "ioctl(TUNSETOWNER)"));
    if (tun.group) BRISK_TRY(sys::ioctl_int(fd->get(), TUNSETGROUP, *tun.group, "ioctl(TUNSETGROUP)"));
    BRISK_TRY(sys::ioctl_int(fd->get(), TUNSETPERSIST, 1, "ioctl(TUNSETPERSIST)"));
    return {};
  });
  if (!made) {
    NetlinkError e = NetlinkError::from(made.error());
    e.op = "link add";
    e.object = name;
    if (e.detail.empty()) e.detail = std::string("kind ") + (tun.tap ? "tap" : "tun") + ": " + made.error().call;
    return e;
  }
  return {};
}

}  // namespace

Op tun_add_op(LinkAdd spec) {
  Op result{.op = "link add", .object = spec.name};
  if (!spec.common.master.empty()) result.needs.push_back({spec.common.master, "master"});
  result.local = [spec](Connection& conn) -> NlResult<void> {
    BRISK_TRY(make_tun(conn, spec.name, std::get<TunOptions>(spec.kind)));
    const LinkCommon& c = spec.common;
    bool configure = c.mtu || !c.address.empty() || c.txqueuelen || !c.master.empty() || !c.alias.empty() ||
                     c.group || c.up;
    if (!configure) return {};
    LinkSet set{.name = spec.name, .mtu = c.mtu, .address = c.address, .txqueuelen = c.txqueuelen, .group = c.group};
    if (c.up) set.up = true;
    if (!c.master.empty()) set.master = c.master;
    if (!c.alias.empty()) set.alias = c.alias;
    auto configured = run_one(conn, link_set_op(set));
    if (configured) return {};
    (void)run_one(conn, link_delete_op(spec.name));  // undo: no half-configured device
    NetlinkError e = std::move(configured).error();
    e.op = "link add";
    return e;
  };
  result.after = [name = spec.name](Connection& conn, const NlResult<void>&) { conn.forget_name(name); };
  return result;
}

}  // namespace brisk::netlink::detail
