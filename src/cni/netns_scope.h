// netns_scope.h: running a step inside the pod's network namespace.
//
// Sysctls under /proc/sys/net belong to the namespace of the thread that
// opens them, and a netlink socket to the namespace it was made in, so the
// plugin enters the pod's namespace on its own (single) thread for just
// those steps: a setns each way, no helper thread.
#pragma once

#include <functional>

#include "brisk/fd.h"

namespace brisk::cni::detail {

// The calling thread's network namespace, to come back to.
UniqueFd current_netns();
// Whether two namespace fds are the same namespace (nsfs device and inode).
bool same_netns(int a, int b);
// setns(target), fn(), setns(home): also when fn throws. Failing to come
// home throws (every later step would act on the wrong namespace).
void in_netns(int target, int home, const std::function<void()>& fn);

}  // namespace brisk::cni::detail
