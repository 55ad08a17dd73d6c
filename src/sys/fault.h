// sys/fault.h: the fault-injection seam, for tests.
//
// Why a seam and not an LD_PRELOAD shim: several calls never go through a
// libc symbol an interposer could catch (pidfd_open, waitid with rusage and
// clone3 are raw syscall() or the clone3 trampoline), libbrisk is usually
// linked statically, and a shim would need its own build and environment per
// test. The seam is compiled in always; when nothing is armed it costs one
// relaxed atomic load and a predictable branch per wrapped call.
//
// Only parent-side code may call it: it takes a mutex and writes errno. The
// vfork child region (spawn/child_main.cc) makes raw syscalls and never
// reaches a wrapper, so an armed plan cannot touch TLS or a lock there.
#pragma once

#include <atomic>
#include <cerrno>
#include <string_view>

namespace brisk::sys {

namespace detail {
extern std::atomic<bool> g_faults_armed;
int take_fault(std::string_view call);
}  // namespace detail

// The errno the wrapper for `call` must fail with now, or 0 to go ahead.
inline int injected_fault(std::string_view call) {
  if (!detail::g_faults_armed.load(std::memory_order_relaxed)) [[likely]]
    return 0;
  return detail::take_fault(call);
}

// For wrappers around libc calls: true (with errno set) when the call must fail.
inline bool fail_injected(std::string_view call) {
  int error = injected_fault(call);
  if (error == 0) [[likely]]
    return false;
  errno = error;
  return true;
}

namespace testing {
// Makes the nth next call (1 = the very next) of the wrapper named `call`
// ("read", "write", "poll", "waitid", "recvmsg", "sendmsg", "pipe2", "open",
// "socket", "pidfd_open", "mmap", "clone", ...) fail with `error`, `times`
// times in a row. Plans add up; each counts only the calls of its own name.
void inject(std::string_view call, int error, unsigned nth = 1, unsigned times = 1);
// Disarms every plan.
void clear_faults();
// How many injected failures have fired since the last clear_faults().
unsigned faults_fired();
}  // namespace testing

}  // namespace brisk::sys
