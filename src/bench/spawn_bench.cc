#include "bench/spawn_bench.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "bench/interrupt.h"
#include "bench/spawn_methods.h"
#include "brisk/spawn.h"

namespace brisk::bench {

HeapBallast::HeapBallast(std::size_t mb) : size_(mb << 20) {
  if (size_ == 0) return;
  // Small pages, like a real heap: fork's cost is in copying their tables.
  data_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data_ == MAP_FAILED) throw std::runtime_error(fmt::format("cannot map a {} MiB heap", mb));
  ::madvise(data_, size_, MADV_NOHUGEPAGE);
  ::madvise(data_, size_, MADV_POPULATE_WRITE);  // one call instead of a fault per page (5.14+)
  long page = ::sysconf(_SC_PAGESIZE);
  auto* bytes = static_cast<volatile char*>(data_);
  for (std::size_t off = 0; off < size_; off += static_cast<std::size_t>(page)) bytes[off] = 1;
}

HeapBallast::~HeapBallast() {
  if (data_) ::munmap(data_, size_);
}

NofileScope::NofileScope(rlim_t wanted) {
  ::getrlimit(RLIMIT_NOFILE, &saved_);
  outcome_.requested = wanted;
  if (wanted != 0 && wanted != saved_.rlim_cur) {
    rlimit raised{wanted, std::max(wanted, saved_.rlim_max)};
    if (::setrlimit(RLIMIT_NOFILE, &raised) < 0) {
      // Raising the hard limit needs CAP_SYS_RESOURCE (and fs.nr_open room):
      // go as far as the current hard limit allows, and say so.
      int why = errno;
      rlimit capped{std::min(wanted, saved_.rlim_max), saved_.rlim_max};
      ::setrlimit(RLIMIT_NOFILE, &capped);
      outcome_.note =
          fmt::format("asked {}, hard limit is {}: raising it failed ({}; needs CAP_SYS_RESOURCE)", wanted,
                      saved_.rlim_max, std::strerror(why));
    }
  }
  rlimit now{};
  ::getrlimit(RLIMIT_NOFILE, &now);
  outcome_.reached = now.rlim_cur;
  outcome_.hard = now.rlim_max;
}

NofileScope::~NofileScope() { ::setrlimit(RLIMIT_NOFILE, &saved_); }

namespace {

std::vector<const SpawnMethodDef*> pick_methods(const SpawnBenchConfig& config, const SpawnTarget& target,
                                                std::vector<SkippedMethod>& skipped) {
  const auto& family = config.workload ? workload_methods() : spawn_methods();
  for (const auto& name : config.methods)
    if (std::none_of(family.begin(), family.end(), [&](const auto& m) { return name == m.name; }))
      throw std::runtime_error("unknown method: " + name);
  std::vector<const SpawnMethodDef*> methods;
  for (const auto& def : family) {
    bool wanted = config.methods.empty() || &def == &family.front() ||
                  std::find(config.methods.begin(), config.methods.end(), def.name) != config.methods.end();
    if (!wanted) continue;
    if (std::string why = why_unavailable(def, target); !why.empty())
      skipped.push_back({def.name, why});
    else
      methods.push_back(&def);
  }
  return methods;
}

}  // namespace

SpawnBenchReport run_spawn_bench(const SpawnBenchConfig& config) {
  if (config.n <= 0 || config.rounds <= 0) throw std::runtime_error("--n and --rounds must be positive");
  if (config.argv.empty() || config.argv[0].empty() || config.argv[0][0] != '/')
    throw std::runtime_error("the program must be an absolute path");
  std::string probe = config.chroot.empty() ? config.argv[0] : config.chroot + config.argv[0];
  if (::access(probe.c_str(), X_OK) != 0) throw std::runtime_error("cannot execute " + probe);

  SpawnBenchReport report;
  report.config = config;
  SpawnTarget target{config.argv, config.chroot, config.env};
  auto methods = pick_methods(config, target, report.skipped);

  NofileScope nofile(config.nofile);
  HeapBallast heap(config.rss_mb);
  const int rounds = std::min(config.rounds, config.n);
  const int per_round = std::max(1, config.n / rounds);
  report.heap_mb = heap.mb();
  report.nofile = nofile.outcome();

  std::vector<SpawnMethodResult> results(methods.size());
  for (size_t m = 0; m < methods.size(); ++m) {
    results[m].name = methods[m]->name;
    results[m].description = methods[m]->description;
    // Warms up the page cache and the engine's probe, and sizes the method's
    // share: one that would overrun the time budget (fork at 4 GB) makes
    // fewer calls per round, at least one, and the report says how many.
    // The first call pays for cold caches (and brisk's engine probe), so
    // the estimate is the faster of the next two.
    (void)time_method(*methods[m], target, 1);
    double estimate_us = std::min(time_method(*methods[m], target, 1).us_per_call,
                                  time_method(*methods[m], target, 1).us_per_call);
    throw_if_interrupted();
    results[m].calls_per_round = per_round;
    if (config.budget_seconds > 0 && estimate_us > 0) {
      double affordable = config.budget_seconds * 1e6 / (rounds * estimate_us);
      results[m].calls_per_round = std::clamp(static_cast<int>(affordable), 1, per_round);
    }
    results[m].calls = results[m].calls_per_round * rounds;
  }
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < methods.size(); ++k) {
      size_t m = (k + static_cast<size_t>(round)) % methods.size();
      MethodTiming timing = time_method(*methods[m], target, results[m].calls_per_round);
      throw_if_interrupted();
      results[m].failures += timing.failures;
      results[m].round_us.push_back(timing.us_per_call);
    }
  }
  for (auto& result : results) {
    std::vector<double> ratios;
    for (int round = 0; round < rounds; ++round)
      ratios.push_back(result.round_us[static_cast<size_t>(round)] /
                       results[0].round_us[static_cast<size_t>(round)]);
    result.us_per_spawn = median(result.round_us);
    result.ratio_to_brisk = median(ratios);
  }
  report.engine_method = to_string(spawn_engine_info().method);
  report.results = std::move(results);
  return report;
}

}  // namespace brisk::bench
