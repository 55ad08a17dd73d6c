#include <fmt/format.h>

#include "brisk/cni/error.h"
#include "brisk/netlink/addr.h"
#include "cni/bridge_ops.h"

namespace brisk::cni::detail {

netlink::Connection open_connection() {
  // Small buffers: a plugin sends a handful of requests, and a 4 MiB
  // SO_RCVBUFFORCE per socket is memory the kernel must find for each pod.
  return checked(netlink::Connection::open({.receive_buffer = 256 << 10, .send_buffer = 64 << 10}),
                 "netlink socket");
}

}  // namespace brisk::cni::detail
