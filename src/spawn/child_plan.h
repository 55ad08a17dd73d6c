// spawn/child_plan.h: everything the vfork child needs, prepared by the parent.
//
// The child reads this plan and makes raw syscalls; it never allocates, so
// every array lives in parent memory that outlives the child's exec.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "spawn/netns_view.h"

namespace brisk::detail {

// Written by the child before it exits on failure; read by the parent once
// the child has exec'd or exited. It lives in MAP_SHARED memory so that it
// also works when the fallback is a real fork().
struct ChildReport {
  volatile std::uint32_t step;  // SpawnStep, 0 while all is well
  volatile std::int32_t code;   // errno
  volatile std::int32_t index;  // which namespace, rlimit or candidate failed
};

inline void clear(ChildReport& report) {
  report.step = 0;
  report.code = 0;
  report.index = 0;
}

struct ChildRlimit {
  int resource;
  rlimit limit;
};

struct ChildPlan {
  // exec: candidates tried in order (several only when PATH is searched in
  // the child's mount namespace), with argv and envp as execve takes them.
  const char* const* candidates = nullptr;
  std::size_t candidate_count = 0;
  char* const* argv = nullptr;
  char* const* envp = nullptr;

  // Signals. reset_handlers is false when CLONE_CLEAR_SIGHAND did it already.
  bool reset_handlers = true;
  bool default_sigpipe = true;
  std::uint64_t signal_mask = 0;  // kernel sigset: bit n-1 for signal n

  bool setsid = false;
  bool setpgid = false;
  pid_t pgid = 0;

  // fd map: source[i] becomes target[i]. Sources are first duplicated at or
  // above high_fd so that no mapping overwrites another's source.
  const int* map_source = nullptr;
  const int* map_target = nullptr;
  std::size_t map_count = 0;
  int* map_parked = nullptr;  // scratch, map_count entries, written by the child
  int high_fd = 3;
  // Descriptors to keep open, sorted ascending: 0, 1, 2 and every target.
  const int* keep = nullptr;
  std::size_t keep_count = 0;
  bool use_close_range = true;  // else walk /proc/self/fd

  const int* ns_fds = nullptr;
  const int* ns_types = nullptr;
  std::size_t ns_count = 0;

  NetnsViewPlan netns_view{};  // after the setns steps, when enabled

  int cgroup_procs_fd = -1;  // cgroup.procs to write "0" to, when not CLONE_INTO_CGROUP

  const char* chroot = nullptr;
  const char* cwd = nullptr;
  bool set_umask = false;
  mode_t umask = 0;

  const ChildRlimit* rlimits = nullptr;
  std::size_t rlimit_count = 0;

  bool set_groups = false;
  const gid_t* groups = nullptr;
  std::size_t group_count = 0;
  bool set_ids = false;
  uid_t uid = 0;
  gid_t gid = 0;

  int parent_death_signal = 0;
  pid_t parent_pid = 0;

  // Test only (brisk::testing::pause_before_exec): a pipe end the child reads
  // one byte from after its last setup step and before exec. -1 in normal use.
  int pause_fd = -1;

  ChildReport* report = nullptr;
};

// The child's whole life: set up, exec. Returns only on failure, with the
// report filled in; the caller exits with that value.
int child_main(void* plan);

}  // namespace brisk::detail
