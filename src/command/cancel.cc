// command/cancel.cc: Wakeup, an eventfd that runs poll alongside their pipes.
#include "brisk/cancel.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <system_error>

#include "sys/syscalls.h"

namespace brisk {

Wakeup::Wakeup() {
  // Non-blocking: notify() may run in a signal handler and must never block.
  auto fd = sys::eventfd(EFD_NONBLOCK);
  if (!fd) throw std::system_error(fd.error().code, std::generic_category(), "eventfd");
  fd_ = std::move(*fd);
}

void Wakeup::notify() noexcept {
  if (notified_.exchange(true, std::memory_order_acq_rel)) return;
  // The counter stays non-zero until clear(), so every poll sees it readable.
  const std::uint64_t one = 1;
  ssize_t written = ::write(fd_.get(), &one, sizeof one);
  (void)written;  // only EAGAIN (counter full) can fail, and then it is readable anyway
}

void Wakeup::clear() noexcept {
  if (!notified_.exchange(false, std::memory_order_acq_rel)) return;
  std::uint64_t count = 0;
  ssize_t got = ::read(fd_.get(), &count, sizeof count);
  (void)got;  // EAGAIN: a notify() between the exchange and here has not written yet
}

}  // namespace brisk
