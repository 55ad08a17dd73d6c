// soak/process_sample.h: what a soak watches in its own process, and the
// flatness check over the samples taken after warm-up.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace brisk::soak {

struct Sample {
  std::string label;
  std::size_t fds = 0;       // entries in /proc/self/fd
  std::size_t children = 0;  // pids in /proc/self/task/*/children (zombies included)
  long raw_rss_kib = 0;      // VmRSS as found
  long rss_kib = 0;          // VmRSS after malloc_trim(0): live memory, not the allocator's cache
  double seconds = 0;        // since the soak started
};

Sample take_sample(std::string label, double seconds);

// Prints the samples; true when, from samples[warm] on, fds and children
// equal samples[warm] exactly and RSS stays within `tolerance` of it.
bool report_flat(const char* title, const std::vector<Sample>& samples, std::size_t warm, double tolerance);

}  // namespace brisk::soak
