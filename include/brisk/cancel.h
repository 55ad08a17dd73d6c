// brisk/cancel.h: reaching a run that waits in poll() from another thread or
// a signal handler.
//
// A run waits in poll() in the calling thread. Both classes here are an
// eventfd that poll watches too, set with an atomic flag and a write(2), so
// they are safe to trigger from any thread and from signal handlers.
//
// CancelToken stops the runs that hold it (RunOptions::cancel) the way a
// timeout does: the polite signal (RunOptions::timeout_signal), then SIGKILL
// after kill_after; the run reports CommandStatus::cancelled and throws
// brisk::Cancelled when checked.
//
//   auto token = std::make_shared<brisk::CancelToken>();
//   std::thread stopper([&] { std::this_thread::sleep_for(1s); token->cancel(); });
//   brisk::Command("sleep").arg("60").cancel_on(token).status();  // throws Cancelled
//
// Wakeup only makes Process::wait_for() return early and leaves the run
// going. Language bindings use it for interrupts that may or may not end the
// wait: Ruby calls its unblocking function for every interrupt, including a
// signal trap that raises nothing, after which the wait must go on.
#pragma once

#include <atomic>

#include "brisk/export.h"
#include "brisk/fd.h"

namespace brisk {

class BRISK_EXPORT Wakeup {
 public:
  // Opens an eventfd; throws std::system_error("eventfd") when that fails.
  Wakeup();
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  // Thread-safe and async-signal-safe. Stays set until clear().
  void notify() noexcept;
  bool notified() const noexcept { return notified_.load(std::memory_order_acquire); }
  // Back to unset; call it from the waiting thread only.
  void clear() noexcept;
  // Readable while set; for event loops of the caller's own.
  int fd() const noexcept { return fd_.get(); }

 private:
  UniqueFd fd_;
  std::atomic<bool> notified_{false};
};

class CancelToken {
 public:
  // Throws std::system_error("eventfd") when the eventfd cannot be opened.
  CancelToken() = default;
  CancelToken(const CancelToken&) = delete;
  CancelToken& operator=(const CancelToken&) = delete;

  // Thread-safe and async-signal-safe. Once cancelled, a token stays cancelled.
  void cancel() noexcept { wakeup_.notify(); }
  bool cancelled() const noexcept { return wakeup_.notified(); }
  int fd() const noexcept { return wakeup_.fd(); }

 private:
  Wakeup wakeup_;
};

}  // namespace brisk
