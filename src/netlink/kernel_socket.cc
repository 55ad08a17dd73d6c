#include "netlink/kernel_socket.h"

#include "netlink/kernel_receive.h"
#include "sys/sockets.h"

namespace brisk::netlink::detail {
namespace {

// Sets a buffer size, with the FORCE variant (CAP_NET_ADMIN, ignores
// rmem_max/wmem_max) first and the plain one as the fallback.
Result<void> size_buffer(int fd, int force, int plain, int bytes, const char* what) {
  if (sys::setsockopt_int(fd, SOL_SOCKET, force, bytes, what)) return {};
  return sys::setsockopt_int(fd, SOL_SOCKET, plain, bytes, what);
}

// Optional features: an older kernel without them (ENOPROTOOPT) still works,
// only with less detail in errors.
Result<void> enable(int fd, int option, const char* what) {
  auto set = sys::setsockopt_int(fd, SOL_NETLINK, option, 1, what);
  if (!set && set.error().code != ENOPROTOOPT) return set;
  return {};
}

}  // namespace

NlResult<std::unique_ptr<KernelSocket>> KernelSocket::configure(UniqueFd socket,
                                                                const ConnectionOptions& options) {
  std::unique_ptr<KernelSocket> self(new KernelSocket(std::move(socket)));
  int fd = self->fd_.get();
  for (auto [option, name] : {std::pair{NETLINK_EXT_ACK, "setsockopt(NETLINK_EXT_ACK)"},
                              std::pair{NETLINK_CAP_ACK, "setsockopt(NETLINK_CAP_ACK)"},
                              std::pair{NETLINK_GET_STRICT_CHK, "setsockopt(NETLINK_GET_STRICT_CHK)"}}) {
    auto set = enable(fd, option, name);
    if (!set) return NetlinkError::from(set.error());
  }
  auto rcv = size_buffer(fd, SO_RCVBUFFORCE, SO_RCVBUF, options.receive_buffer, "setsockopt(SO_RCVBUF)");
  if (!rcv) return NetlinkError::from(rcv.error());
  auto snd = size_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, options.send_buffer, "setsockopt(SO_SNDBUF)");
  if (!snd) return NetlinkError::from(snd.error());
  auto bound =
      sys::bind_netlink(fd, sockaddr_nl{.nl_family = AF_NETLINK, .nl_pad = 0, .nl_pid = 0, .nl_groups = 0});
  if (!bound) return NetlinkError::from(bound.error());
  auto rcvbuf = sys::getsockopt_int(fd, SOL_SOCKET, SO_RCVBUF, "getsockopt(SO_RCVBUF)");
  if (!rcvbuf) return NetlinkError::from(rcvbuf.error());
  auto sndbuf = sys::getsockopt_int(fd, SOL_SOCKET, SO_SNDBUF, "getsockopt(SO_SNDBUF)");
  if (!sndbuf) return NetlinkError::from(sndbuf.error());
  self->receive_buffer_ = *rcvbuf;
  self->send_buffer_ = *sndbuf;
  return self;
}

NlResult<void> KernelSocket::send(std::span<const iovec> parts) {
  sockaddr_nl kernel{.nl_family = AF_NETLINK, .nl_pad = 0, .nl_pid = 0, .nl_groups = 0};
  msghdr msg{};
  msg.msg_name = &kernel;
  msg.msg_namelen = sizeof kernel;
  msg.msg_iov = const_cast<iovec*>(parts.data());
  msg.msg_iovlen = parts.size();
  auto sent = sys::sendmsg(fd_.get(), msg, 0);
  if (!sent) return NetlinkError::from(sent.error());
  return {};
}

NlResult<std::size_t> KernelSocket::receive(std::span<char> buffer, bool wait) {
  return receive_from_kernel(fd_.get(), buffer, wait);
}

NlResult<int> KernelSocket::interface_index(const std::string& name) {
  auto index = sys::interface_index(fd_.get(), name);
  if (!index) return NetlinkError::from(index.error());
  return *index;
}

}  // namespace brisk::netlink::detail
