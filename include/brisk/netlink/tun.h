// brisk/netlink/tun.h: tun/tap devices the way `ip tuntap` handles them,
// through /dev/net/tun in the connection's namespace: made persistent
// (optionally named by the kernel), un-persisted to delete, and listed with
// the state only sysfs shows (tun_flags, owner, group).
//
//   auto name = add_tun(conn, "", {.tap = true, .vnet_hdr = true}).value();  // "tap0"
//   for (const auto& t : list_tuns(conn).value()) ...;
//   delete_tun(conn, name, {.tap = true, .vnet_hdr = true}).value();
//
// add_link(conn, {.kind = TunOptions{...}}) makes the same devices inside a
// Batch; these calls differ in reporting the failing ioctl and its errno as
// they are ("ioctl(TUNSETIFF)", EBUSY for a name in use).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"
#include "brisk/netlink/link.h"

namespace brisk::netlink {

// Makes a persistent tun/tap device; `name` empty or a template ("tap%d")
// lets the kernel pick. Returns the device's name.
BRISK_EXPORT NlResult<std::string> add_tun(Connection& conn, const std::string& name, const TunOptions& tun);

// Attaches to `name` and drops its persistence, so it goes when the fd
// closes. The mode (tap) and multi_queue must be the device's (else
// EINVAL); a name no device has makes a transient device and succeeds, as
// `ip tuntap del` does.
BRISK_EXPORT NlResult<void> delete_tun(Connection& conn, const std::string& name, const TunOptions& tun);

struct TunInfo {
  int ifindex = 0;     // the device's index
  std::string name{};  // the device
  uint32_t flags = 0;  // sysfs tun_flags: IFF_TUN|IFF_TAP, IFF_NO_PI, IFF_ONE_QUEUE, IFF_VNET_HDR, ...
  std::optional<uid_t> owner{};  // user allowed to attach; none: -1 in sysfs
  std::optional<gid_t> group{};  // group allowed to attach
};

// Every tun/tap device in the connection's namespace, in ifindex order. The
// sysfs read is a fresh sysfs instance made in that namespace, so it is right
// after a setns too; without the privilege for one, /sys (the caller's).
// A device whose sysfs entries cannot be read (gone meanwhile) is left out.
BRISK_EXPORT NlResult<std::vector<TunInfo>> list_tuns(Connection& conn);

}  // namespace brisk::netlink
