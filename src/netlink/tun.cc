// tun/tap devices: rtnetlink cannot create them, /dev/net/tun can.
//
// The device is made in the connection's namespace (the queue fd is opened
// on a helper thread inside it), made persistent so it outlives the fd. For
// add_link the common options then go out as an ordinary link set; if that
// set fails the device is deleted again: nothing is left half-created.
#include "brisk/netlink/tun.h"

#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>
#include <sys/ioctl.h>

#include <cstdlib>
#include <cstring>

#include "netlink/op.h"
#include "sys/namespaces.h"
#include "sys/sockets.h"
#include "sys/syscalls.h"

namespace brisk::netlink {
namespace {

short iff_flags(const TunOptions& tun) {
  int flags = tun.tap ? IFF_TAP : IFF_TUN;
  if (!tun.pi) flags |= IFF_NO_PI;
  if (tun.vnet_hdr) flags |= IFF_VNET_HDR;
  if (tun.multi_queue) flags |= IFF_MULTI_QUEUE;
  if (tun.one_queue) flags |= IFF_ONE_QUEUE;
  return static_cast<short>(flags);
}

// Attaches a /dev/net/tun fd to `name` (TUNSETIFF; `create` refuses an
// existing device), then runs `then` on it. Returns the device's name.
Result<std::string> with_tun_fd(Connection& conn, const std::string& name, const TunOptions& tun, bool create,
                                const std::function<Result<void>(int)>& then) {
  if (name.size() >= IFNAMSIZ)
    return SysError{
        .code = EINVAL, .call = "ioctl(TUNSETIFF)", .object = name, .detail = "name longer than 15 bytes"};
  std::string made;
  auto done = sys::run_in_netns(conn.netns_fd(), [&]() -> Result<void> {
    auto fd = BRISK_TRY(sys::open("/dev/net/tun", O_RDWR));
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, name.data(), name.size());
    ifr.ifr_flags = static_cast<short>(iff_flags(tun) | (create ? IFF_TUN_EXCL : 0));
    BRISK_TRY(sys::ioctl_ptr(fd.get(), TUNSETIFF, &ifr, "ioctl(TUNSETIFF)", name));
    made.assign(ifr.ifr_name, strnlen(ifr.ifr_name, IFNAMSIZ));
    return then(fd.get());
  });
  if (!done) return done.error();
  return made;
}

// Until TUNSETPERSIST the device dies with fd, so an error before it leaves nothing.
Result<std::string> make_tun(Connection& conn, const std::string& name, const TunOptions& tun) {
  return with_tun_fd(conn, name, tun, true, [&tun](int fd) -> Result<void> {
    if (tun.owner) BRISK_TRY(sys::ioctl_int(fd, TUNSETOWNER, *tun.owner, "ioctl(TUNSETOWNER)"));
    if (tun.group) BRISK_TRY(sys::ioctl_int(fd, TUNSETGROUP, *tun.group, "ioctl(TUNSETGROUP)"));
    return sys::ioctl_int(fd, TUNSETPERSIST, 1, "ioctl(TUNSETPERSIST)");
  });
}

NetlinkError tun_error(const SysError& e, const std::string& name) {
  NetlinkError out = NetlinkError::from(e);
  out.object = name;
  return out;
}

// A sysfs property as ip's read_prop() takes it: a whole C number (0x... too).
std::optional<long> read_property(int sysfs, const std::string& path) {
  auto fd = sys::openat(sysfs, path, O_RDONLY);
  if (!fd) return std::nullopt;
  char buffer[80];
  auto n = sys::read(fd->get(), std::span<char>(buffer, sizeof buffer - 1));
  if (!n || *n == 0) return std::nullopt;
  buffer[*n] = '\0';
  if (char* nl = std::strchr(buffer, '\n')) *nl = '\0';
  char* end = nullptr;
  long value = std::strtol(buffer, &end, 0);
  if (end == buffer || *end) return std::nullopt;
  return value;
}

}  // namespace

NlResult<std::string> add_tun(Connection& conn, const std::string& name, const TunOptions& tun) {
  auto made = make_tun(conn, name, tun);
  if (!made) return tun_error(made.error(), name);
  return *made;
}

NlResult<void> delete_tun(Connection& conn, const std::string& name, const TunOptions& tun) {
  auto done = with_tun_fd(conn, name, tun, false, [](int fd) -> Result<void> {
    return sys::ioctl_int(fd, TUNSETPERSIST, 0, "ioctl(TUNSETPERSIST)");
  });
  if (!done) return tun_error(done.error(), name);
  conn.forget_name(name);
  return {};
}

NlResult<std::vector<TunInfo>> list_tuns(Connection& conn) {
  auto links = BRISK_TRY(list_links(conn, {.kind = "tun"}));
  UniqueFd sysfs;
  auto opened = sys::run_in_netns(conn.netns_fd(), [&sysfs]() -> Result<void> {
    sysfs = BRISK_TRY(sys::open_sysfs());
    return {};
  });
  if (!opened) {
    // No privilege for a sysfs of our own: then no setns either, and /sys is ours.
    auto root = sys::open("/sys", O_RDONLY | O_DIRECTORY);
    if (!root) return NetlinkError::from(root.error());
    sysfs = std::move(*root);
  }
  std::vector<TunInfo> out;
  for (const auto& l : links) {
    std::string dir = "class/net/" + l.name + "/";
    auto flags = read_property(sysfs.get(), dir + "tun_flags");
    auto owner = read_property(sysfs.get(), dir + "owner");
    auto group = read_property(sysfs.get(), dir + "group");
    if (!flags || !owner || !group) continue;
    TunInfo info{.ifindex = l.ifindex, .name = l.name, .flags = static_cast<uint32_t>(*flags)};
    if (*owner != -1) info.owner = static_cast<uid_t>(*owner);
    if (*group != -1) info.group = static_cast<gid_t>(*group);
    out.push_back(std::move(info));
  }
  return out;
}

namespace detail {

Op tun_add_op(LinkAdd spec) {
  Op result{.op = "link add", .object = spec.name, .object_is_device = true};
  if (!spec.common.master.empty()) result.needs.push_back({spec.common.master, Argument::master});
  result.local = [spec](Connection& conn) -> NlResult<void> {
    const auto& tun = std::get<TunOptions>(spec.kind);
    if (auto made = make_tun(conn, spec.name, tun); !made) {
      NetlinkError e = NetlinkError::from(made.error());
      if (e.code == EBUSY) e = {.code = EEXIST, .detail = "a device with this name exists"};
      e.op = "link add";
      e.object = spec.name;
      if (e.detail.empty())
        e.detail = std::string("kind ") + (tun.tap ? "tap" : "tun") + ": " + made.error().call;
      return e;
    }
    const LinkCommon& c = spec.common;
    if (c == LinkCommon{}) return {};
    LinkSet set{.name = spec.name,
                .mtu = c.mtu,
                .address = c.address,
                .txqueuelen = c.txqueuelen,
                .group = c.group,
                .tuning = c.tuning};
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

}  // namespace detail
}  // namespace brisk::netlink
