#include "process_sample.h"

#include <malloc.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace brisk::soak {

namespace {
long rss_kib() {
  long kib = 0;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) std::istringstream(line.substr(6)) >> kib;
  return kib;
}
}  // namespace

Sample take_sample(std::string label, double seconds) {
  Sample s{.label = std::move(label), .seconds = seconds};
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++s.fds;
  --s.fds;  // the directory_iterator's own descriptor
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "children");
    for (long pid; in >> pid;) ++s.children;
  }
  s.raw_rss_kib = rss_kib();
  // glibc keeps freed heap pages of a peak (a 10,000-request batch) mapped:
  // give them back so that what is compared is what is still allocated.
  ::malloc_trim(0);
  s.rss_kib = rss_kib();
  s.heap_kib = static_cast<long>(::mallinfo2().uordblks / 1024);
  return s;
}

bool report_flat(const char* title, const std::vector<Sample>& samples, std::size_t warm, double tolerance) {
  std::printf("%s\n  %-16s %8s %5s %9s %12s %10s %9s\n", title, "step", "seconds", "fds", "children",
              "raw_rss_kib", "rss_kib", "heap_kib");
  for (std::size_t i = 0; i < samples.size(); ++i)
    std::printf("  %-16s %8.1f %5zu %9zu %12ld %10ld %9ld%s\n", samples[i].label.c_str(), samples[i].seconds,
                samples[i].fds, samples[i].children, samples[i].raw_rss_kib, samples[i].rss_kib,
                samples[i].heap_kib, i == warm ? "  <- after warm-up" : "");
  const Sample& base = samples.at(warm);
  bool flat = true;
  double heap_drift = 0;
  for (std::size_t i = warm; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    double drift = std::fabs(static_cast<double>(s.heap_kib - base.heap_kib)) /
                   static_cast<double>(std::max(1L, base.heap_kib));
    heap_drift = std::max(heap_drift, drift);
    if (s.fds != base.fds || s.children != base.children) flat = false;
  }
  if (heap_drift > tolerance) flat = false;
  long rss_min = base.rss_kib, rss_max = base.rss_kib;
  for (std::size_t i = warm; i < samples.size(); ++i) {
    rss_min = std::min(rss_min, samples[i].rss_kib);
    rss_max = std::max(rss_max, samples[i].rss_kib);
  }
  std::printf(
      "  after warm-up: heap in use %ld -> %ld KiB (drift %.2f%%, limit %.0f%%); RSS band %ld-%ld KiB "
      "(not judged); fds %zu -> %zu; children %zu -> %zu: %s\n\n",
      base.heap_kib, samples.back().heap_kib, heap_drift * 100, tolerance * 100, rss_min, rss_max, base.fds,
      samples.back().fds, base.children, samples.back().children, flat ? "FLAT" : "NOT FLAT");
  return flat;
}

}  // namespace brisk::soak
