// spawn/child_netns_view.cc: ip netns exec's mounts, run in the child
// between its setns steps and exec (and by apply_netns_view in place).
//
// ============================ DANGER: CHILD REGION ============================
// Runs in the CLONE_VM|CLONE_VFORK child, under the same rules as
// child_main.cc: no allocation, locks, exceptions, logging, TLS (errno
// included) or libc; only raw syscalls on what the parent laid out. Built
// with child_main.cc's flags (see src/CMakeLists.txt).
// ==============================================================================
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>

#include "spawn/netns_view.h"
#include "spawn/raw_syscall.h"

namespace brisk::detail {
namespace {

// Unmounts the old /sys and mounts one for the current network namespace.
// A /sys that cannot be detached is shadowed instead, and a read-only one
// only by a read-only instance.
long remount_sysfs(const NetnsViewPlan& plan) {
  unsigned long flags = 0;
  if (raw::call(SYS_umount2, "/sys", MNT_DETACH) < 0) {
    struct statfs st;  // filled by the kernel; an initializer could become a memset call
    if (raw::call(SYS_statfs, "/sys", &st) == 0 && (st.f_flags & ST_RDONLY)) flags = MS_RDONLY;
  }
  return raw::call(SYS_mount, plan.sysfs_source, "/sys", "sysfs", flags, nullptr);
}

}  // namespace

long run_netns_view(const NetnsViewPlan& plan, SpawnStep* step, long* index, SkippedBind on_skip,
                    void* context) {
  long rc = 0;
  *step = SpawnStep::mount_namespace;
  *index = 0;
  if ((rc = raw::call(SYS_unshare, CLONE_NEWNS)) < 0) return rc;
  *index = 1;
  // A slave of the parent's mounts: what the child mounts never propagates back.
  if ((rc = raw::call(SYS_mount, "", "/", "none", MS_SLAVE | MS_REC, nullptr)) < 0) return rc;
  *step = SpawnStep::sysfs;
  *index = 0;
  if ((rc = remount_sysfs(plan)) < 0) return rc;
  *step = SpawnStep::bind_etc;
  for (std::size_t i = 0; i < plan.bind_count; ++i) {
    rc = raw::call(SYS_mount, plan.bind_from[i], plan.bind_to[i], "none", MS_BIND, nullptr);
    if (rc == 0) continue;
    *index = static_cast<long>(i);
    if (!plan.skip_failed_binds) return rc;
    if (on_skip) on_skip(context, i, rc);
  }
  *step = SpawnStep::none;
  return 0;
}

}  // namespace brisk::detail
