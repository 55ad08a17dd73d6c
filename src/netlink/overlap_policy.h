// netlink/overlap_policy.h: when setup_netns_many's second thread pays
// (NetnsOverlap::automatic, brisk/netlink/netns_setup.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace brisk::netlink::detail {

struct OverlapInputs {
  std::size_t cpus = 1;      // CPUs the calling thread may run on
  double idle_cpus = 0;      // of those, how many were idle on average lately
  bool overlapping = false;  // whether the second thread was at work meanwhile
  std::size_t round = 0;     // containers in the coming round
};

inline constexpr std::size_t kOverlapMinCpus = 3;
inline constexpr double kOverlapMinIdle = 2.0;
inline constexpr std::size_t kOverlapMinRound = 8;

// Whether to overlap the coming round. The second thread needs a core of
// its own, and the kernel's deferred work (RCU, the namespace cleanup
// workqueue, uevents) another, beside the caller's; a thread's start is
// worth it only for a round long enough to hide it.
bool overlap_pays(const OverlapInputs& in);

// The idle time of the CPUs in a set, summed, in seconds, from the text of
// /proc/stat (idle plus iowait); nullopt when a CPU's line is missing or malformed.
std::optional<double> idle_seconds(std::string_view proc_stat, const std::vector<int>& cpus,
                                   long ticks_per_s);

// Measures how many of the calling thread's CPUs sit idle, from /proc/stat.
class IdleMeter {
 public:
  IdleMeter();  // reads the thread's CPU set; takes the first sample when there are enough CPUs to matter
  std::size_t cpus() const { return cpus_.size(); }
  // The average number of idle CPUs since the last value returned (or the
  // meter's start); nullopt until enough time has passed for the kernel's
  // counters (10 ms ticks) to say, or when /proc/stat cannot be read.
  std::optional<double> idle_since_last();

 private:
  std::optional<double> sample() const;

  std::vector<int> cpus_;
  std::optional<double> last_idle_s_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace brisk::netlink::detail
