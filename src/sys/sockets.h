// sys/sockets.h: thin wrappers for the socket and namespace syscalls the
// netlink engine uses. Same conventions as sys/syscalls.h: Result<T> naming
// the syscall, errno positive, O_CLOEXEC/SOCK_CLOEXEC always.
//
// EINTR: sendmsg and recvmsg retry it (netlink sends are atomic: the kernel
// either queues the whole datagram or none of it); the others never block.
// Namespace and mount wrappers are in sys/namespaces.h.
#pragma once

#include <linux/netlink.h>
#include <sys/socket.h>

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

Result<void> ioctl_int(int fd, unsigned long request, unsigned long arg, const char* what);
// An ioctl whose argument is a struct the kernel reads and may write back.
Result<void> ioctl_ptr(int fd, unsigned long request, void* arg, const char* what,
                       const std::string& object = "");
// ioctl(SIOCGIFINDEX): the ifindex of the device `name` in the namespace of
// socket `fd`. A hash lookup in the kernel that builds no reply message.
Result<int> interface_index(int fd, const std::string& name);

}  // namespace brisk::sys
