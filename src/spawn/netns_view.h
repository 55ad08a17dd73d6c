// spawn/netns_view.h: the NetnsView steps (brisk/spawn.h), laid out by the
// parent and run by the child, or by the calling thread itself for a
// program that execs in place (apply_netns_view).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "brisk/result.h"
#include "brisk/spawn.h"

namespace brisk::detail {

// What the steps read; every string lives in a NetnsViewStorage.
struct NetnsViewPlan {
  bool enabled = false;
  const char* sysfs_source = nullptr;
  const char* const* bind_from = nullptr;  // etc_dir/ENTRY
  const char* const* bind_to = nullptr;    // /etc/ENTRY
  std::size_t bind_count = 0;
  bool skip_failed_binds = false;
};

// The strings a NetnsViewPlan points into; outlives the child's exec.
struct NetnsViewStorage {
  std::string sysfs_source;
  std::vector<std::string> from, to;
  std::vector<const char*> from_ptrs, to_ptrs;
};

// Parent side: lists view.etc_dir (a missing one binds nothing) and fills
// plan from storage. Fails when the directory exists but cannot be read.
Result<void> prepare_netns_view(const NetnsView& view, NetnsViewStorage& storage, NetnsViewPlan& plan);

// The object a failed step names: "/sys", "FROM -> TO" for a bind, ...
std::string netns_view_object(const NetnsViewStorage& storage, SpawnStep step, std::size_t index);

// Called for a bind that failed under skip_failed_binds: which one, -errno.
using SkippedBind = void (*)(void* context, std::size_t index, long rc);

// CHILD REGION (spawn/child_netns_view.cc): raw syscalls only. Runs every
// step in order; returns 0, or the failing step's -errno with *step and
// *index set (index: which bind, or 0/1 for unshare/rslave). on_skip may
// be null, and then skipped binds go unreported.
long run_netns_view(const NetnsViewPlan& plan, SpawnStep* step, long* index, SkippedBind on_skip,
                    void* context);

}  // namespace brisk::detail
