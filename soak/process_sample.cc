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
  return s;
}

bool report_flat(const char* title, const std::vector<Sample>& samples, std::size_t warm, double tolerance) {
  std::printf("%s\n  %-16s %8s %5s %9s %12s %10s\n", title, "step", "seconds", "fds", "children", "raw_rss_kib",
              "rss_kib");
  for (std::size_t i = 0; i < samples.size(); ++i)
    std::printf("  %-16s %8.1f %5zu %9zu %12ld %10ld%s\n", samples[i].label.c_str(), samples[i].seconds,
                samples[i].fds, samples[i].children, samples[i].raw_rss_kib, samples[i].rss_kib,
                i == warm ? "  <- after warm-up" : "");
  const Sample& base = samples.at(warm);
  bool flat = true;
  double worst = 0;
  for (std::size_t i = warm; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    double drift = std::fabs(static_cast<double>(s.rss_kib - base.rss_kib)) / static_cast<double>(base.rss_kib);
    worst = std::max(worst, drift);
    if (s.fds != base.fds || s.children != base.children || drift > tolerance) flat = false;
  }
  std::printf("  RSS drift after warm-up: %.2f%% (limit %.0f%%); fds %zu -> %zu; children %zu -> %zu: %s\n\n",
              worst * 100, tolerance * 100, base.fds, samples.back().fds, base.children, samples.back().children,
              flat ? "FLAT" : "NOT FLAT");
  return flat;
}

}  // namespace brisk::soak
