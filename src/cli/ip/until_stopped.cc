#include "cli/ip/until_stopped.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>

#include <array>
#include <cerrno>

#include "brisk/fd.h"

namespace brisk::ipcli {

netlink::NlResult<void> until_stopped(int fd, const std::function<netlink::NlResult<void>()>& on_readable) {
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  if (::sigprocmask(SIG_BLOCK, &mask, nullptr) != 0)
    return netlink::NetlinkError::from(last_error("sigprocmask"));
  UniqueFd stop(::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
  if (!stop) return netlink::NetlinkError::from(last_error("signalfd"));
  std::array<pollfd, 2> fds{pollfd{.fd = fd, .events = POLLIN, .revents = 0},
                            pollfd{.fd = stop.get(), .events = POLLIN, .revents = 0}};
  for (;;) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return netlink::NetlinkError::from(last_error("poll"));
    }
    if (fds[1].revents) return {};
    if (fds[0].revents) BRISK_TRY(on_readable());
  }
}

}  // namespace brisk::ipcli
