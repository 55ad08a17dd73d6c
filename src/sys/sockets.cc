#include "sys/sockets.h"

#include <net/if.h>
#include <sys/ioctl.h>

#include <cerrno>

#include "sys/fault.h"

namespace brisk::sys {

Result<UniqueFd> socket(int domain, int type, int protocol) {
  int fd = fail_injected("socket") ? -1 : ::socket(domain, type | SOCK_CLOEXEC, protocol);
  if (fd < 0) return last_error("socket");
  return UniqueFd(fd);
}

Result<void> setsockopt_int(int fd, int level, int name, int value, const char* what) {
  if (::setsockopt(fd, level, name, &value, sizeof value) < 0) return last_error(what);
  return {};
}

Result<int> getsockopt_int(int fd, int level, int name, const char* what) {
  int value = 0;
  socklen_t size = sizeof value;
  if (::getsockopt(fd, level, name, &value, &size) < 0) return last_error(what);
  return value;
}

Result<void> bind_netlink(int fd, const sockaddr_nl& address) {
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) < 0) return last_error("bind");
  return {};
}

Result<size_t> sendmsg(int fd, const msghdr& message, int flags) {
  for (;;) {
    ssize_t n = fail_injected("sendmsg") ? -1 : ::sendmsg(fd, &message, flags);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return last_error("sendmsg");
  }
}

Result<size_t> recvmsg(int fd, msghdr& message, int flags) {
  for (;;) {
    ssize_t n = fail_injected("recvmsg") ? -1 : ::recvmsg(fd, &message, flags | MSG_TRUNC);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return last_error("recvmsg");
  }
}

Result<void> ioctl_int(int fd, unsigned long request, unsigned long arg, const char* what) {
  if (::ioctl(fd, request, arg) < 0) return last_error(what);
  return {};
}

Result<void> ioctl_ptr(int fd, unsigned long request, void* arg, const char* what,
                       const std::string& object) {
  if (::ioctl(fd, request, arg) < 0) return last_error(what, object);
  return {};
}

Result<int> interface_index(int fd, const std::string& name) {
  ifreq request{};
  if (name.empty() || name.size() >= sizeof request.ifr_name)
    return SysError{.code = ENODEV, .call = "ioctl(SIOCGIFINDEX)", .object = name};
  name.copy(request.ifr_name, name.size());
  if (fail_injected("ioctl") || ::ioctl(fd, SIOCGIFINDEX, &request) < 0)
    return last_error("ioctl(SIOCGIFINDEX)", name);
  return request.ifr_ifindex;
}

}  // namespace brisk::sys
