// Link-layer multicast addresses: SIOCADDMULTI and SIOCDELMULTI on the
// connection's own socket, which lives in the connection's namespace (the
// kernel serves device ioctls on any socket).
#include "netlink/internal/multicast.h"

#include <net/if.h>
#include <sys/ioctl.h>

#include "netlink/op.h"
#include "sys/sockets.h"

namespace brisk::netlink {
namespace {

NlResult<void> multicast_ioctl(Connection& conn, const std::string& dev, std::span<const uint8_t> address,
                               bool add) {
  const char* op = add ? "maddr add" : "maddr del";
  if (auto valid = detail::check_dev(dev, op, dev); !valid) return valid;
  ifreq ifr{};
  if (dev.size() >= sizeof ifr.ifr_name) return invalid_argument(op, dev, "device name longer than 15 bytes");
  if (address.empty() || address.size() > sizeof ifr.ifr_hwaddr.sa_data)
    return invalid_argument(op, dev, "an address of " + std::to_string(address.size()) + " bytes");
  if (conn.fd() < 0)
    return invalid_argument(op, dev, "the connection has no socket to ask the kernel through");
  dev.copy(ifr.ifr_name, dev.size());
  ifr.ifr_hwaddr.sa_family = AF_UNSPEC;
  for (std::size_t i = 0; i < address.size(); ++i) ifr.ifr_hwaddr.sa_data[i] = static_cast<char>(address[i]);
  auto done = add ? sys::ioctl_ptr(conn.fd(), SIOCADDMULTI, &ifr, "ioctl(SIOCADDMULTI)", dev)
                  : sys::ioctl_ptr(conn.fd(), SIOCDELMULTI, &ifr, "ioctl(SIOCDELMULTI)", dev);
  if (!done) {
    NetlinkError e = NetlinkError::from(done.error());
    e.op = op;
    e.object = dev;
    return e;
  }
  return {};
}

}  // namespace

NlResult<void> add_link_multicast(Connection& conn, const std::string& dev,
                                  std::span<const uint8_t> address) {
  return multicast_ioctl(conn, dev, address, true);
}

NlResult<void> delete_link_multicast(Connection& conn, const std::string& dev,
                                     std::span<const uint8_t> address) {
  return multicast_ioctl(conn, dev, address, false);
}

}  // namespace brisk::netlink
