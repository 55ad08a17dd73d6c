// spawn/start_child.h: creates the child with the best method this system has.
//
// Order of preference, probed on first use and remembered: clone3 with
// CLONE_VM|CLONE_VFORK|CLONE_PIDFD (and CLONE_CLEAR_SIGHAND, CLONE_INTO_CGROUP
// when accepted); clone() with CLONE_PIDFD; vfork(); fork(). clone3 refused
// with ENOSYS, EINVAL or EPERM (seccomp filters in older container runtimes
// answer EPERM) moves down the list.
#pragma once

#include <sys/types.h>

#include "brisk/fd.h"
#include "brisk/result.h"
#include "brisk/spawn.h"
#include "spawn/child_plan.h"
#include "spawn/stack_pool.h"

namespace brisk::detail {

struct StartedChild {
  pid_t pid = -1;
  UniqueFd pidfd;
};

// Runs child_main(plan) in a new process and returns once it has exec'd or
// failed (check plan.report). All signals are blocked in the calling thread
// meanwhile. cgroup_dir is an open cgroup v2 directory or -1.
Result<StartedChild> start_child(ChildPlan& plan, const StackArena& arena, int cgroup_dir);

// What probing settled on (unknown before the first spawn).
SpawnMethod probed_method();
bool probed_clear_sighand();

}  // namespace brisk::detail
