#include "cni/netns_scope.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "brisk/cni/error.h"
#include "cni/files.h"

namespace brisk::cni::detail {

UniqueFd current_netns() { return open_file("/proc/thread-self/ns/net", O_RDONLY); }

bool same_netns(int a, int b) {
  struct stat sa {
  }, sb{};
  if (::fstat(a, &sa) != 0) fail_io("fstat", "the pod's namespace", errno);
  if (::fstat(b, &sb) != 0) fail_io("fstat", "the plugin's namespace", errno);
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

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
