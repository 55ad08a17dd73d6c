#include "bench/spawn_bench.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

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

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

namespace {

// Restores RLIMIT_NOFILE when the bench ends.
class NofileScope {
 public:
  explicit NofileScope(rlim_t wanted) {
    ::getrlimit(RLIMIT_NOFILE, &saved_);
    if (wanted == 0) return;
    rlimit raised{wanted, std::max(wanted, saved_.rlim_max)};
    if (::setrlimit(RLIMIT_NOFILE, &raised) < 0)
      throw std::runtime_error(fmt::format("cannot raise RLIMIT_NOFILE to {}: {}", wanted, std::strerror(errno)));
  }
  ~NofileScope() { ::setrlimit(RLIMIT_NOFILE, &saved_); }
  rlim_t current() const {
    rlimit now{};
    ::getrlimit(RLIMIT_NOFILE, &now);
    return now.rlim_cur;
  }

 private:
  rlimit saved_{};
};

}  // namespace

SpawnBenchReport run_spawn_bench(const SpawnBenchConfig& config) {
  if (config.n <= 0 || config.rounds <= 0) throw std::runtime_error("--n and --rounds must be positive");
  if (config.argv.empty() || config.argv[0].empty() || config.argv[0][0] != '/')
    throw std::runtime_error("the program must be an absolute path");
  std::string probe = config.chroot.empty() ? config.argv[0] : config.chroot + config.argv[0];
  if (::access(probe.c_str(), X_OK) != 0) throw std::runtime_error("cannot execute " + probe);

  std::vector<const SpawnMethodDef*> methods;
  for (const auto& def : spawn_methods()) {
    bool wanted = config.methods.empty() || def.name == std::string_view("brisk") ||
                  std::find(config.methods.begin(), config.methods.end(), def.name) != config.methods.end();
    if (wanted) methods.push_back(&def);
  }
  for (const auto& name : config.methods)
    if (std::none_of(methods.begin(), methods.end(), [&](auto* m) { return name == m->name; }))
      throw std::runtime_error("unknown method: " + name);

  NofileScope nofile(config.nofile);
  HeapBallast heap(config.rss_mb);
  SpawnTarget target{config.argv, config.chroot};
  const int rounds = std::min(config.rounds, config.n);
  const int per_round = std::max(1, config.n / rounds);

  SpawnBenchReport report;
  report.config = config;
  report.heap_mb = heap.mb();
  report.nofile = nofile.current();
  std::vector<SpawnMethodResult> results(methods.size());
  for (size_t m = 0; m < methods.size(); ++m) {
    results[m].name = methods[m]->name;
    results[m].description = methods[m]->description;
    methods[m]->run(target);  // warm up page cache and the engine's probe
  }
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < methods.size(); ++k) {
      size_t m = (k + static_cast<size_t>(round)) % methods.size();
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < per_round; ++i)
        if (methods[m]->run(target) != 0) ++results[m].failures;
      std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
      results[m].round_us.push_back(took.count() / per_round);
    }
  }
  for (auto& result : results) {
    std::vector<double> ratios;
    for (int round = 0; round < rounds; ++round)
      ratios.push_back(result.round_us[static_cast<size_t>(round)] / results[0].round_us[static_cast<size_t>(round)]);
    result.us_per_spawn = median(result.round_us);
    result.ratio_to_brisk = median(ratios);
  }
  report.engine_method = to_string(spawn_engine_info().method);
  report.results = std::move(results);
  return report;
}

std::string format_table(const SpawnBenchReport& report) {
  std::string out = fmt::format("spawn {} x{} per method | heap {} MiB | nofile {} | {}| engine: {}\n",
                                report.config.argv[0], report.config.n, report.heap_mb, report.nofile,
                                report.config.chroot.empty() ? "" : "chroot " + report.config.chroot + " ",
                                report.engine_method);
  out += fmt::format("{:<12} {:>12} {:>10}  {}\n", "method", "µs/spawn", "× brisk", "how");
  for (const auto& r : report.results) {
    out += fmt::format("{:<12} {:>12.1f} {:>10.2f}  {}{}\n", r.name, r.us_per_spawn, r.ratio_to_brisk,
                       r.description, r.failures ? fmt::format(" ({} FAILED)", r.failures) : "");
  }
  return out;
}

nlohmann::json to_json(const SpawnBenchReport& report) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& r : report.results) {
    methods.push_back({{"name", r.name},
                       {"description", r.description},
                       {"us_per_spawn", r.us_per_spawn},
                       {"ratio_to_brisk", r.ratio_to_brisk},
                       {"round_us", r.round_us},
                       {"failures", r.failures}});
  }
  return {{"bench", "spawn"},
          {"program", report.config.argv},
          {"n", report.config.n},
          {"rounds", report.config.rounds},
          {"heap_mb", report.heap_mb},
          {"nofile", report.nofile},
          {"chroot", report.config.chroot},
          {"engine_method", report.engine_method},
          {"methods", methods}};
}

}  // namespace brisk::bench
