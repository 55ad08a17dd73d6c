#include "cni/netns_scope.h"

#include <fcntl.h>
#include <sched.h>

#include <cerrno>
#include <cstring>

#include "brisk/cni/error.h"
#include "cni/files.h"

namespace brisk::cni::detail {

UniqueFd current_netns() { return open_file("/proc/thread-self/ns/net", O_RDONLY); }

void in_netns(int target, int home, const std::function<void()>& fn) {
  if (::setns(target, CLONE_NEWNET) != 0)
    fail(ErrorCode::internal, std::string("setns into the container's namespace: ") + std::strerror(errno));
  try {
    fn();
  } catch (...) {
    if (::setns(home, CLONE_NEWNET) != 0)
      fail(ErrorCode::internal, std::string("setns back to the host namespace: ") + std::strerror(errno));
    throw;
  }
  if (::setns(home, CLONE_NEWNET) != 0)
    fail(ErrorCode::internal, std::string("setns back to the host namespace: ") + std::strerror(errno));
}

}  // namespace brisk::cni::detail
