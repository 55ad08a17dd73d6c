#include "netlink/kernel_receive.h"

#include <sys/uio.h>

#include "sys/sockets.h"

namespace brisk::netlink::detail {

NlResult<std::size_t> receive_from_kernel(int fd, std::span<char> buffer, bool wait) {
  for (;;) {
    sockaddr_nl from{};
    iovec iov{buffer.data(), buffer.size()};
    msghdr msg{};
    msg.msg_name = &from;
    msg.msg_namelen = sizeof from;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    auto n = sys::recvmsg(fd, msg, wait ? 0 : MSG_DONTWAIT);
    if (!n) {
      if (!wait && (n.error().code == EAGAIN || n.error().code == EWOULDBLOCK)) return std::size_t{0};
      return NetlinkError::from(n.error());
    }
    // Only the kernel may answer us. Checked before the size, so that another
    // process cannot fail our request by sending an oversized datagram; and
    // skipped, not returned as empty, so that a forged datagram cannot end a
    // drain early either.
    if (msg.msg_namelen < sizeof from || from.nl_family != AF_NETLINK || from.nl_pid != 0) continue;
    if (*n > buffer.size())
      return NetlinkError{
          .code = EMSGSIZE, .op = "recvmsg", .detail = "datagram larger than the receive buffer"};
    return *n;
  }
}

}  // namespace brisk::netlink::detail
