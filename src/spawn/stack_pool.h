// spawn/stack_pool.h: reusable child stacks.
//
// Mapping a fresh stack per spawn is what makes glibc's posix_spawn 10% slower
// than vfork. The pool keeps the stacks of finished spawns and hands them out
// again; concurrent spawns each get their own. An arena is one MAP_SHARED
// mapping: a guard page, the stack, and the ChildReport page, shared so that
// the report also reaches the parent from a fork() fallback.
#pragma once

#include <cstddef>

#include "brisk/result.h"
#include "spawn/child_plan.h"

namespace brisk::detail {

struct StackArena {
  void* mapping = nullptr;
  std::size_t mapping_size = 0;
  void* stack = nullptr;  // lowest usable address
  std::size_t stack_size = 0;
  ChildReport* report = nullptr;
};

// Takes an arena from the pool or maps a new one; the report is cleared.
Result<StackArena> acquire_stack();
// Returns it to the pool. Arenas are kept for the life of the process, so the
// pool holds as many as the peak number of concurrent spawns.
void release_stack(StackArena arena) noexcept;

// RAII holder for one arena.
class StackLease {
 public:
  explicit StackLease(StackArena arena) : arena_(arena) {}
  StackLease(const StackLease&) = delete;
  StackLease& operator=(const StackLease&) = delete;
  ~StackLease() { release_stack(arena_); }
  const StackArena& operator*() const { return arena_; }
  const StackArena* operator->() const { return &arena_; }

 private:
  StackArena arena_;
};

}  // namespace brisk::detail
