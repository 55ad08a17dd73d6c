// wakeup_pool.h: the Wakeups that Ruby's unblocking function notifies.
//
// Two reasons to pool them rather than open one per run:
// - an eventfd costs two system calls per run (eventfd2 and close);
// - Ruby may call an async-signal-safe unblocking function from a signal
//   handler on another thread a moment after the blocking region has ended
//   (it reads the function and its argument without a lock), so the
//   argument must stay valid for ever. Pooled Wakeups are never freed.
//
// Take and give back only with the GVL held: it is the pool's lock.
#pragma once

#include "brisk/cancel.h"

namespace brisk_ruby {

// A Wakeup from the pool, cleared; back to the pool (cleared) when dropped.
class PooledWakeup {
 public:
  // Throws std::system_error("eventfd") when the pool is empty and a new
  // eventfd cannot be opened.
  PooledWakeup();
  ~PooledWakeup();
  PooledWakeup(const PooledWakeup&) = delete;
  PooledWakeup& operator=(const PooledWakeup&) = delete;

  brisk::Wakeup* operator->() const { return wakeup_; }
  brisk::Wakeup* get() const { return wakeup_; }

 private:
  brisk::Wakeup* wakeup_;
};

}  // namespace brisk_ruby
