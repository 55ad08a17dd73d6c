// sys/sockets.h: thin wrappers for the socket and namespace syscalls the
// netlink engine uses. Same conventions as sys/syscalls.h: Result<T> naming
// the syscall, errno positive, O_CLOEXEC/SOCK_CLOEXEC always.
//
// EINTR: sendmsg and recvmsg retry it (netlink sends are atomic: the kernel
// either queues the whole datagram or none of it); the others never block.
#pragma once

#include <linux/netlink.h>
#include <sys/socket.h>

#include <functional>
#include <string>

#include "brisk/fd.h"
#include "brisk/result.h"

namespace brisk::sys {

Result<UniqueFd> socket(int domain, int type, int protocol);  // adds SOCK_CLOEXEC
Result<void> setsockopt_int(int fd, int level, int name, int value, const char* what);
Result<int> getsockopt_int(int fd, int level, int name, const char* what);
Result<void> bind_netlink(int fd, const sockaddr_nl& address);
Result<size_t> sendmsg(int fd, const msghdr& message, int flags);
// Returns the datagram's full length (MSG_TRUNC is always passed, so a
// result larger than the buffer means the datagram was cut).
Result<size_t> recvmsg(int fd, msghdr& message, int flags);

Result<void> setns(int fd, int nstype);
Result<void> unshare(int flags);
Result<void> mount(const std::string& source, const std::string& target, const char* fstype,
                   unsigned long flags);
Result<void> umount2(const std::string& target, int flags);
Result<void> ioctl_int(int fd, unsigned long request, unsigned long arg, const char* what);

// Runs fn on a short-lived helper thread that first joins the network
// namespace netns_fd, so the calling thread never changes namespace.
// Sockets and /dev/net/tun devices made there stay bound to that namespace.
// netns_fd < 0 runs fn directly on the calling thread.
Result<void> run_in_netns(int netns_fd, const std::function<Result<void>()>& fn);

}  // namespace brisk::sys
