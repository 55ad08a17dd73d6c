#include "netlink/overlap_policy.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <charconv>
#include <string>

#include "sys/syscalls.h"

namespace brisk::netlink::detail {
namespace {

// Long enough for the tick-based counters: 10 ms ticks on each CPU.
constexpr auto kMinInterval = std::chrono::milliseconds(50);

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// The "cpuN" line's fields after the name: user nice system idle iowait ...
std::optional<long long> idle_ticks(std::string_view line) {
  long long fields[5] = {};
  const char* p = line.data();
  const char* end = p + line.size();
  for (long long& field : fields) {
    while (p < end && *p == ' ') ++p;
    auto [next, ec] = std::from_chars(p, end, field);
    if (ec != std::errc{}) return std::nullopt;
    p = next;
  }
  return fields[3] + fields[4];
}

}  // namespace

bool overlap_pays(const OverlapInputs& in) {
  if (in.cpus < kOverlapMinCpus || in.round < kOverlapMinRound) return false;
  // While overlapping, the second thread kept one of the busy ones busy.
  double spare = in.idle_cpus + (in.overlapping ? 1.0 : 0.0);
  return spare >= kOverlapMinIdle;
}

std::optional<double> idle_seconds(std::string_view proc_stat, const std::vector<int>& cpus,
                                   long ticks_per_s) {
  if (ticks_per_s <= 0) return std::nullopt;
  long long total = 0;
  for (int cpu : cpus) {
    std::string name = "\ncpu" + std::to_string(cpu) + " ";
    auto at = proc_stat.find(name);
    if (at == std::string_view::npos) return std::nullopt;
    auto rest = proc_stat.substr(at + name.size());
    auto ticks = idle_ticks(rest.substr(0, rest.find('\n')));
    if (!ticks) return std::nullopt;
    total += *ticks;
  }
  return static_cast<double>(total) / static_cast<double>(ticks_per_s);
}

IdleMeter::IdleMeter() : cpus_(allowed_cpus()) {
  if (cpus_.size() < kOverlapMinCpus) return;  // overlap cannot pay: nothing to measure
  last_idle_s_ = sample();
  last_ = std::chrono::steady_clock::now();
}

std::optional<double> IdleMeter::sample() const {
  auto file = sys::open("/proc/stat", O_RDONLY);
  if (!file) return std::nullopt;
  std::string text;
  char buffer[8192];
  for (;;) {
    auto got = sys::read(file->get(), buffer);
    if (!got) return std::nullopt;
    if (*got == 0) break;
    text.append(buffer, *got);
  }
  return idle_seconds(text, cpus_, ::sysconf(_SC_CLK_TCK));
}

std::optional<double> IdleMeter::idle_since_last() {
  if (!last_idle_s_) return std::nullopt;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < kMinInterval) return std::nullopt;
  auto idle = sample();
  if (!idle) return std::nullopt;
  double elapsed = std::chrono::duration<double>(now - last_).count();
  double average = (*idle - *last_idle_s_) / elapsed;
  last_idle_s_ = idle;
  last_ = now;
  return average;
}

}  // namespace brisk::netlink::detail
