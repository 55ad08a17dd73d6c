// netlink/kernel_receive.h: reading one datagram the kernel sent on a
// netlink socket, shared by the request pipeline and the monitor.
#pragma once

#include <cstddef>
#include <span>

#include "brisk/netlink/error.h"

namespace brisk::netlink::detail {

// Reads one datagram into `buffer`: its length, or 0 for "nothing" when
// !wait and none is queued. Datagrams from any sender but the kernel
// (nl_pid 0) are skipped; one larger than the buffer is EMSGSIZE.
NlResult<std::size_t> receive_from_kernel(int fd, std::span<char> buffer, bool wait);

}  // namespace brisk::netlink::detail
