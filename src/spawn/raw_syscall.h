// spawn/raw_syscall.h: syscalls for code that runs in the vfork child.
//
// glibc's wrappers, syscall() included, store failures in errno, which lives
// in the parent thread's TLS that a CLONE_VM child shares. These inline
// wrappers return -errno in the result instead and touch no memory but their
// arguments. They are the only calls child code may make.
#pragma once

#include <sys/syscall.h>

#include <type_traits>

namespace brisk::raw {

#if defined(__x86_64__)
inline long syscall6(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
#elif defined(__aarch64__)
inline long syscall6(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
}
#else
#error "brisk's spawn engine needs raw syscall support for this architecture (x86_64 or aarch64)"
#endif

// Casts any argument (pointer, int, unsigned) to the register type.
template <class T>
inline long arg(T value) {
  if constexpr (std::is_null_pointer_v<T>) {
    return 0;
  } else if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<long>(value);
  } else {
    return static_cast<long>(value);
  }
}

template <class... Args>
inline long call(long n, Args... args) {
  return syscall6(n, arg(args)...);
}

[[noreturn]] inline void exit(int code) {
  for (;;) syscall6(SYS_exit, code);
}

}  // namespace brisk::raw
