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
  long heap_kib = 0;         // bytes malloc has handed out and not had back (mallinfo2): a leak grows it
  double seconds = 0;        // since the soak started
};

Sample take_sample(std::string label, double seconds);

// Prints the samples; true when, from samples[warm] on, fds and children
// equal samples[warm] exactly and the heap in use stays within `tolerance`
// of it. RSS is printed with its band but not judged: after a peak such as
// a 10,000-request batch it swings by megabytes with where the allocator's
// free chunks fall, even after malloc_trim, without growing; a leak through
// malloc shows in the heap in use first, and exactly.
bool report_flat(const char* title, const std::vector<Sample>& samples, std::size_t warm, double tolerance);

}  // namespace brisk::soak
