// brisk/netlink/transport.h: what a Connection needs of its socket.
//
// A Connection builds requests, stamps them, sizes windows and matches
// replies; the transport only moves datagrams and answers one name lookup.
// The kernel socket is one implementation; a scripted fake is another, so
// that batch logic (windows, lost ACKs, undo, coalescing) can be tested
// without a kernel or privilege — the seam sd-netlink's tests use.
//
//   auto conn = Connection::over(std::make_unique<MyFake>(...));
//   add_address(conn, {...});  // the fake sees the request and answers it
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <span>
#include <string>

#include "brisk/export.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

class BRISK_EXPORT Transport {
 public:
  virtual ~Transport() = default;

  // Sends `parts`, concatenated, as one datagram to the kernel. Either all
  // of it is taken or none of it is (an error).
  virtual NlResult<void> send(std::span<const iovec> parts) = 0;
  // Reads one datagram into `buffer`: its length, or 0 when !wait and none
  // is queued. ENOBUFS means replies were dropped since the last receive.
  // Datagrams from anyone but the kernel never reach the caller.
  virtual NlResult<std::size_t> receive(std::span<char> buffer, bool wait) = 0;
  // The ifindex of the device `name` (shorter than IFNAMSIZ); ENODEV when
  // there is none. For the kernel: one ioctl(SIOCGIFINDEX).
  virtual NlResult<int> interface_index(const std::string& name) = 0;

  // Bytes the receive buffer holds, as the kernel counts them (replies
  // beyond it are dropped: ENOBUFS). Windows are sized from it.
  virtual int receive_buffer() const = 0;
  // Bytes one send may carry.
  virtual int send_buffer() const = 0;
  // The socket, for calls that name it (RTM_GETNSID of our own socket);
  // -1 for a transport without one.
  virtual int fd() const { return -1; }
  // Whether interface_index() may run on other threads, several at once,
  // while send() and receive() run on another. A batch then looks names up
  // for its next window while the kernel works through the current one (and
  // brisk's CLI looks them up further ahead on a helper). The kernel socket
  // can (ioctls beside a sendmsg); a fake that shares its state between the
  // calls cannot, and keeps the default.
  virtual bool concurrent_lookups() const { return false; }
};

}  // namespace brisk::netlink
