// cli/ip/until_stopped.h: the loop of the commands that run until told to
// stop (monitor, netns monitor), as ip's run until SIGINT or SIGTERM.
#pragma once

#include <functional>

#include "brisk/netlink/error.h"

namespace brisk::ipcli {

// Calls `on_readable` each time `fd` is readable, until SIGINT or SIGTERM
// (success) or until `on_readable` fails (its error). The two signals are
// blocked and read from a signalfd, so the loop ends between two events,
// never inside one's output.
netlink::NlResult<void> until_stopped(int fd, const std::function<netlink::NlResult<void>()>& on_readable);

}  // namespace brisk::ipcli
