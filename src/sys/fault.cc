#include "sys/fault.h"

#include <mutex>
#include <string>
#include <vector>

namespace brisk::sys {
namespace {

struct Plan {
  std::string call;
  int error;
  unsigned skip;   // calls to let through before failing
  unsigned times;  // failures left
};

std::mutex g_mutex;
std::vector<Plan>& plans() {
  static auto* all = new std::vector<Plan>();  // never destroyed: wrappers may run at exit
  return *all;
}
unsigned g_fired = 0;

}  // namespace

std::atomic<bool> detail::g_faults_armed{false};

int detail::take_fault(std::string_view call) {
  std::lock_guard lock(g_mutex);
  for (auto& plan : plans()) {
    if (plan.times == 0 || plan.call != call) continue;
    if (plan.skip > 0) {
      --plan.skip;
      continue;
    }
    --plan.times;
    ++g_fired;
    return plan.error;
  }
  return 0;
}

void testing::inject(std::string_view call, int error, unsigned nth, unsigned times) {
  std::lock_guard lock(g_mutex);
  plans().push_back({std::string(call), error, nth > 0 ? nth - 1 : 0, times});
  detail::g_faults_armed.store(true, std::memory_order_relaxed);
}

void testing::clear_faults() {
  std::lock_guard lock(g_mutex);
  plans().clear();
  g_fired = 0;
  detail::g_faults_armed.store(false, std::memory_order_relaxed);
}

unsigned testing::faults_fired() {
  std::lock_guard lock(g_mutex);
  return g_fired;
}

}  // namespace brisk::sys
