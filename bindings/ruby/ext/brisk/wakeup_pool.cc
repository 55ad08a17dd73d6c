// wakeup_pool.cc: see wakeup_pool.h.
#include "wakeup_pool.h"

#include <vector>

namespace brisk_ruby {
namespace {

// Never destroyed, like the Wakeups it holds (see the header); it grows to
// the largest number of runs in progress at once (threads, nested runs).
std::vector<brisk::Wakeup*>& free_wakeups() {
  static auto* pool = new std::vector<brisk::Wakeup*>();
  return *pool;
}
std::size_t created = 0;

}  // namespace

PooledWakeup::PooledWakeup() {
  auto& pool = free_wakeups();
  if (pool.empty()) {
    pool.reserve(created + 1);  // room for every Wakeup: giving back never throws
    wakeup_ = new brisk::Wakeup();
    ++created;
    return;
  }
  wakeup_ = pool.back();
  pool.pop_back();
  // A late notify from the previous run's unblocking function may have set it.
  wakeup_->clear();
}

PooledWakeup::~PooledWakeup() {
  wakeup_->clear();
  free_wakeups().push_back(wakeup_);
}

}  // namespace brisk_ruby
