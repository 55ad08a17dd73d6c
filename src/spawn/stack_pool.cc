#include "spawn/stack_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <vector>

#include "sys/fault.h"

namespace brisk::detail {
namespace {

// The child's frames are small (its largest buffer is 1 KiB); 64 KiB leaves
// room for the kernel's signal frame should a synchronous fault occur.
constexpr std::size_t kStackSize = std::size_t{64} * 1024;

std::mutex g_mutex;
std::vector<StackArena>& pool() {
  static auto* arenas = new std::vector<StackArena>();  // never destroyed: spawns may run at exit
  return *arenas;
}

}  // namespace

Result<StackArena> acquire_stack() {
  {
    std::lock_guard lock(g_mutex);
    if (!pool().empty()) {
      StackArena arena = pool().back();
      pool().pop_back();
      clear(*arena.report);
      return arena;
    }
  }
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  StackArena arena;
  arena.mapping_size = page + kStackSize + page;
  arena.mapping = sys::fail_injected("mmap") ? MAP_FAILED
                                             : ::mmap(nullptr, arena.mapping_size, PROT_READ | PROT_WRITE,
                                                      MAP_SHARED | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (arena.mapping == MAP_FAILED) return last_error("mmap", "child stack");
  auto* base = static_cast<char*>(arena.mapping);
  if (::mprotect(base, page, PROT_NONE) < 0) {  // guard page below the stack
    SysError error = last_error("mprotect", "child stack guard");
    ::munmap(arena.mapping, arena.mapping_size);
    return error;
  }
  arena.stack = base + page;
  arena.stack_size = kStackSize;
  arena.report = reinterpret_cast<ChildReport*>(base + page + kStackSize);
  clear(*arena.report);
  return arena;
}

void release_stack(StackArena arena) noexcept {
  std::lock_guard lock(g_mutex);
  try {
    pool().push_back(arena);
  } catch (...) {  // out of memory: give the arena back to the kernel instead
    ::munmap(arena.mapping, arena.mapping_size);
  }
}

}  // namespace brisk::detail
