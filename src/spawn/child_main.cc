// spawn/child_main.cc: the code that runs in the child between clone and exec.
//
// ============================ DANGER: CHILD REGION ============================
// Everything in this file runs in a CLONE_VM|CLONE_VFORK child that shares the
// parent's memory, on a small private stack, with every signal blocked. It must
// not allocate, lock, throw, log, touch TLS (errno included) or call libc: only
// the raw syscalls of raw_syscall.h, and only reads of the plan the parent
// prepared. This file is built without stack protector, sanitizers or
// exceptions (see src/CMakeLists.txt).
// ==============================================================================
#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>

#include <cstdint>

#include "brisk/spawn.h"
#include "spawn/child_plan.h"
#include "spawn/raw_syscall.h"

namespace brisk::detail {
namespace {

// The kernel's struct sigaction for rt_sigaction (not glibc's).
struct KernelSigaction {
  unsigned long handler;
  unsigned long flags;
  unsigned long restorer;
  std::uint64_t mask;
};

struct LinuxDirent64 {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

[[gnu::noinline]] int fail(const ChildPlan& plan, SpawnStep step, long rc, long index = 0) {
  plan.report->code = static_cast<std::int32_t>(-rc);
  plan.report->index = static_cast<std::int32_t>(index);
  plan.report->step = static_cast<std::uint32_t>(step);
  return 127;
}

long reset_signals(const ChildPlan& plan) {
  for (int sig = 1; sig < 65; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    bool is_pipe = sig == SIGPIPE && plan.default_sigpipe;
    if (!plan.reset_handlers && !is_pipe) continue;
    KernelSigaction old{};
    if (raw::call(SYS_rt_sigaction, sig, nullptr, &old, 8) < 0) continue;  // reserved by libc
    bool handled = old.handler != reinterpret_cast<unsigned long>(SIG_DFL) &&
                   old.handler != reinterpret_cast<unsigned long>(SIG_IGN);
    bool ignored = old.handler == reinterpret_cast<unsigned long>(SIG_IGN);
    if (handled || (is_pipe && ignored)) {
      KernelSigaction dfl{};
      long rc = raw::call(SYS_rt_sigaction, sig, &dfl, nullptr, 8);
      if (rc < 0) return rc;
    }
  }
  return 0;
}

bool is_kept(const ChildPlan& plan, long fd) {
  for (std::size_t i = 0; i < plan.keep_count; ++i)
    if (plan.keep[i] == fd) return true;
  return false;
}

// Marks every descriptor not in plan.keep close-on-exec, through /proc/self/fd.
// Marking rather than closing keeps the namespace fds usable until exec.
long cloexec_by_proc_walk(const ChildPlan& plan) {
  long dir = raw::call(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return dir;
  alignas(8) char buffer[1024];
  for (;;) {
    long n = raw::call(SYS_getdents64, dir, buffer, sizeof buffer);
    if (n < 0) {
      raw::call(SYS_close, dir);
      return n;
    }
    if (n == 0) break;
    for (long off = 0; off < n;) {
      auto* entry = reinterpret_cast<LinuxDirent64*>(buffer + off);
      off += entry->reclen;
      long fd = 0;
      const char* p = entry->name;
      if (*p < '0' || *p > '9') continue;  // "." and ".."
      for (; *p >= '0' && *p <= '9'; ++p) fd = fd * 10 + (*p - '0');
      if (fd == dir || is_kept(plan, fd)) continue;
      raw::call(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
    }
  }
  raw::call(SYS_close, dir);
  return 0;
}

long mark_unmapped_cloexec(const ChildPlan& plan) {
  if (!plan.use_close_range) return cloexec_by_proc_walk(plan);
  unsigned long next = 0;
  for (std::size_t i = 0; i <= plan.keep_count; ++i) {
    unsigned long end = i < plan.keep_count ? static_cast<unsigned long>(plan.keep[i]) : ~0UL;
    if (end > next) {
      unsigned long last = i < plan.keep_count ? end - 1 : ~0U;
      long rc = raw::call(SYS_close_range, next, last, CLOSE_RANGE_CLOEXEC);
      if (rc == -ENOSYS || rc == -EINVAL) return cloexec_by_proc_walk(plan);
      if (rc < 0) return rc;
    }
    if (i < plan.keep_count) next = end + 1;
  }
  return 0;
}

long map_fds(const ChildPlan& plan) {
  // Two passes so that a mapping never overwrites another mapping's source:
  // first park every source at or above high_fd (close-on-exec copies that
  // vanish at exec), then dup the parked copies onto their targets, which
  // clears close-on-exec on the targets.
  for (std::size_t i = 0; i < plan.map_count; ++i) {
    long parked = raw::call(SYS_fcntl, plan.map_source[i], F_DUPFD_CLOEXEC, plan.high_fd);
    if (parked < 0) return parked;
    plan.map_parked[i] = static_cast<int>(parked);
  }
  for (std::size_t i = 0; i < plan.map_count; ++i) {
    long rc = raw::call(SYS_dup3, plan.map_parked[i], plan.map_target[i], 0);
    if (rc < 0) return rc;
  }
  return 0;
}

long exec_candidates(const ChildPlan& plan, long* index) {
  long first_error = -ENOENT;
  for (std::size_t i = 0; i < plan.candidate_count; ++i) {
    long rc = raw::call(SYS_execve, plan.candidates[i], plan.argv, plan.envp);
    *index = static_cast<long>(i);
    // Like execvp: a missing candidate lets the search go on; remember that
    // one existed but was not executable.
    if (rc == -ENOENT || rc == -ENOTDIR) continue;
    if (rc == -EACCES) {
      first_error = rc;
      continue;
    }
    return rc;
  }
  return first_error;
}

}  // namespace

[[gnu::noinline]] int child_main(void* opaque) {
  const ChildPlan& plan = *static_cast<const ChildPlan*>(opaque);
  long rc = 0;

  if ((rc = reset_signals(plan)) < 0) return fail(plan, SpawnStep::signals, rc);

  if (plan.setsid && (rc = raw::call(SYS_setsid)) < 0) return fail(plan, SpawnStep::process_group, rc);
  if (plan.setpgid && (rc = raw::call(SYS_setpgid, 0, plan.pgid)) < 0)
    return fail(plan, SpawnStep::process_group, rc);

  if ((rc = map_fds(plan)) < 0) return fail(plan, SpawnStep::fd_map, rc);
  if ((rc = mark_unmapped_cloexec(plan)) < 0) return fail(plan, SpawnStep::close_fds, rc);

  for (std::size_t i = 0; i < plan.ns_count; ++i)
    if ((rc = raw::call(SYS_setns, plan.ns_fds[i], plan.ns_types[i])) < 0)
      return fail(plan, SpawnStep::setns, rc, static_cast<long>(i));

  if (plan.netns_view.enabled) {
    SpawnStep step = SpawnStep::none;
    long index = 0;
    if ((rc = run_netns_view(plan.netns_view, &step, &index, nullptr, nullptr)) < 0)
      return fail(plan, step, rc, index);
  }

  if (plan.cgroup_procs_fd >= 0 && (rc = raw::call(SYS_write, plan.cgroup_procs_fd, "0", 1)) < 0)
    return fail(plan, SpawnStep::cgroup, rc);

  if (plan.chroot) {
    if ((rc = raw::call(SYS_chroot, plan.chroot)) < 0) return fail(plan, SpawnStep::chroot, rc);
    if ((rc = raw::call(SYS_chdir, "/")) < 0) return fail(plan, SpawnStep::chroot, rc);
  }
  if (plan.cwd && (rc = raw::call(SYS_chdir, plan.cwd)) < 0) return fail(plan, SpawnStep::chdir, rc);
  if (plan.set_umask) raw::call(SYS_umask, plan.umask);

  for (std::size_t i = 0; i < plan.rlimit_count; ++i)
    if ((rc = raw::call(SYS_prlimit64, 0, plan.rlimits[i].resource, &plan.rlimits[i].limit, nullptr)) < 0)
      return fail(plan, SpawnStep::rlimit, rc, static_cast<long>(i));

  if (plan.set_groups && (rc = raw::call(SYS_setgroups, plan.group_count, plan.groups)) < 0)
    return fail(plan, SpawnStep::setgroups, rc);
  if (plan.set_ids) {
    if ((rc = raw::call(SYS_setresgid, plan.gid, plan.gid, plan.gid)) < 0)
      return fail(plan, SpawnStep::setgid, rc);
    if ((rc = raw::call(SYS_setresuid, plan.uid, plan.uid, plan.uid)) < 0)
      return fail(plan, SpawnStep::setuid, rc);
  }

  // After the credential change, which clears the parent-death signal.
  if (plan.parent_death_signal) {
    if ((rc = raw::call(SYS_prctl, PR_SET_PDEATHSIG, plan.parent_death_signal)) < 0)
      return fail(plan, SpawnStep::parent_death_signal, rc);
    // The parent may have died before the prctl took effect.
    if (raw::call(SYS_getppid) != plan.parent_pid) return fail(plan, SpawnStep::parent_death_signal, -ESRCH);
  }

  // Test hook: wait, with the final identity and before exec, until the test
  // writes a byte or closes the pipe. A plain read: no TLS, no lock.
  if (plan.pause_fd >= 0) [[unlikely]] {
    char byte;
    raw::call(SYS_read, plan.pause_fd, &byte, 1);
  }

  std::uint64_t mask = plan.signal_mask;
  if ((rc = raw::call(SYS_rt_sigprocmask, SIG_SETMASK, &mask, nullptr, 8)) < 0)
    return fail(plan, SpawnStep::signals, rc);

  long index = 0;
  rc = exec_candidates(plan, &index);
  return fail(plan, SpawnStep::exec, rc, index);
}

}  // namespace brisk::detail
