// Google Benchmark view of the command API against its baselines, side by
// side in one run (issue 3's targets):
//   command/overhead_*:   output() of /bin/true, both streams captured, vs a bare engine spawn
//   command/*_ratio_interleaved: the same pairs alternated, with the ratio as a counter
//   command/throughput_*: capturing 1 GiB of stdout vs cat reading the same producer
//   command/batch_*:      `brisk run --batch` of 10,000 x /bin/true at -j1 and -j2
//   command/yast_*:       1000 calls of `ls -l /` with LANG=C, captured: brisk, system()
//                         plus temp files (SCR's way) and fork+exec+pipes (Cheetah's way),
//                         directly and chrooted into a minimal root (root only); the
//                         methods of `brisk bench spawn --sweep`'s workload point
// Ratios are left to the reader of the table: every pair runs in the same binary.
#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "bench/spawn_methods.h"
#include "bench/spawn_sweep.h"
#include "brisk/command.h"
#include "brisk/spawn.h"
#include "sandbox/minimal_root.h"

namespace {

namespace fs = std::filesystem;
constexpr long long kGiB = 1LL << 30;

// The brisk CLI next to this binary (build/bench/brisk-gbench -> build/brisk),
// or $BRISK_CLI.
std::string brisk_cli() {
  if (const char* env = std::getenv("BRISK_CLI")) return env;
  return (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "brisk").string();
}

void overhead_bare_spawn(benchmark::State& state) {
  brisk::SpawnOptions options{.argv = {"/bin/true"}, .search_path = false};
  for (auto _ : state) {
    auto child = brisk::spawn(options);
    if (!child || !child->wait()->success()) state.SkipWithError("spawn failed");
  }
}

void overhead_output_captured(benchmark::State& state) {
  brisk::Command command({"/bin/true"});
  for (auto _ : state) {
    brisk::Output out = command.output();
    benchmark::DoNotOptimize(out);
  }
}

// Both sides alternated within each iteration, so that load from elsewhere
// on a shared machine hits them alike; the counter is the ratio
// (target: at most 1.15).
void overhead_ratio_interleaved(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  brisk::SpawnOptions options{.argv = {"/bin/true"}, .search_path = false};
  brisk::Command command({"/bin/true"});
  Clock::duration bare{}, captured{};
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto child = brisk::spawn(options);
    if (!child || !child->wait()->success()) state.SkipWithError("spawn failed");
    auto t1 = Clock::now();
    brisk::Output out = command.output();
    auto t2 = Clock::now();
    benchmark::DoNotOptimize(out);
    bare += t1 - t0;
    captured += t2 - t1;
  }
  state.counters["output_over_bare"] =
      std::chrono::duration<double>(captured) / std::chrono::duration<double>(bare);
}

// The same for 1 GiB: capture against cat, alternated (target: at least 0.7).
void throughput_ratio_interleaved(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  brisk::Command capture({"head", "-c", std::to_string(kGiB), "/dev/zero"});
  brisk::Command cat({"/bin/sh", "-c", "head -c " + std::to_string(kGiB) + " /dev/zero | cat > /dev/null"});
  Clock::duration brisk_time{}, cat_time{};
  for (auto _ : state) {
    auto t0 = Clock::now();
    (void)cat.status();
    auto t1 = Clock::now();
    brisk::Output out = capture.output();
    auto t2 = Clock::now();
    if (out.out.size() != static_cast<std::size_t>(kGiB)) state.SkipWithError("short capture");
    cat_time += t1 - t0;
    brisk_time += t2 - t1;
  }
  state.counters["capture_throughput_over_cat"] =
      std::chrono::duration<double>(cat_time) / std::chrono::duration<double>(brisk_time);
}

void throughput_brisk_capture(benchmark::State& state) {
  brisk::Command command({"head", "-c", std::to_string(kGiB), "/dev/zero"});
  for (auto _ : state) {
    brisk::Output out = command.output();
    if (out.out.size() != static_cast<std::size_t>(kGiB)) state.SkipWithError("short capture");
  }
  state.SetBytesProcessed(state.iterations() * kGiB);
}

void throughput_brisk_chunks(benchmark::State& state) {
  std::size_t bytes = 0;
  brisk::Command command({"head", "-c", std::to_string(kGiB), "/dev/zero"});
  command.stdout_to(brisk::Sink::chunks([&bytes](std::string_view c) { bytes += c.size(); }));
  for (auto _ : state) (void)command.status();
  benchmark::DoNotOptimize(bytes);
  state.SetBytesProcessed(state.iterations() * kGiB);
}

// The floor under any capture into fresh memory: writing 1 GiB of pages this
// process never touched (page faults and zeroing, no pipe at all). Where it
// is slower than cat_pipe, no capture into a new std::string can reach cat.
void throughput_first_touch(benchmark::State& state) {
  for (auto _ : state) {
    void* p = ::mmap(nullptr, kGiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      state.SkipWithError("mmap of 1 GiB failed");
      return;
    }
    std::memset(p, 1, kGiB);
    benchmark::DoNotOptimize(p);
    ::munmap(p, kGiB);
  }
  state.SetBytesProcessed(state.iterations() * kGiB);
}

void throughput_cat_pipe(benchmark::State& state) {
  // The same producer piped into cat, which writes to /dev/null.
  brisk::Command command(
      {"/bin/sh", "-c", "head -c " + std::to_string(kGiB) + " /dev/zero | cat > /dev/null"});
  for (auto _ : state) (void)command.status();
  state.SetBytesProcessed(state.iterations() * kGiB);
}

// `brisk run --batch` over a file of `lines` x /bin/true.
void batch(benchmark::State& state) {
  const long lines = state.range(0);
  const long jobs = state.range(1);
  fs::path file = fs::temp_directory_path() / ("brisk-bench-batch-" + std::to_string(::getpid()));
  {
    std::ofstream out(file);
    for (long i = 0; i < lines; ++i) out << "/bin/true\n";
  }
  brisk::Command command({brisk_cli(), "run", "--batch", file.string(), "-j", std::to_string(jobs)});
  command.stderr_to(brisk::Sink::null());
  for (auto _ : state) {
    if (!command.status().success()) state.SkipWithError("batch failed");
  }
  fs::remove(file);
  state.counters["us_per_line"] =
      benchmark::Counter(static_cast<double>(lines) * 1e-6,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The CLI's own start-up, to subtract from the batch figures.
void batch_cli_start(benchmark::State& state) {
  brisk::Command command({brisk_cli(), "--version"});
  command.stdout_to(brisk::Sink::null());
  for (auto _ : state) (void)command.status();
}

// ---- The YaST benchmark's shape -------------------------------------------
// The three methods are the ones `brisk bench spawn --sweep` runs
// (src/bench/workload_methods.cc); here each gets its own Google Benchmark.

const std::string& minimal_root() {
  static brisk::sandbox::MinimalRoot root({brisk::bench::workload_argv()[0]});
  return root.path();
}

void yast_method(benchmark::State& state, const char* name) {
  brisk::bench::SpawnTarget target{brisk::bench::workload_argv(), {}, {{"LANG", "C"}}};
  if (state.range(0)) target.chroot = minimal_root();
  for (const auto& method : brisk::bench::workload_methods()) {
    if (method.name != std::string_view(name)) continue;
    for (auto _ : state)
      if (method.run(target) != 0) state.SkipWithError("the command failed or printed nothing");
  }
}

int register_command_benchmarks() {
  using benchmark::kMicrosecond;
  using benchmark::kMillisecond;
  benchmark::RegisterBenchmark("command/overhead_bare_spawn", overhead_bare_spawn)
      ->Unit(kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("command/overhead_output_captured", overhead_output_captured)
      ->Unit(kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("command/overhead_ratio_interleaved", overhead_ratio_interleaved)
      ->Unit(kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("command/throughput_ratio_interleaved_1GiB", throughput_ratio_interleaved)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_brisk_capture_1GiB", throughput_brisk_capture)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_brisk_chunks_1GiB", throughput_brisk_chunks)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_cat_pipe_1GiB", throughput_cat_pipe)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/throughput_first_touch_1GiB", throughput_first_touch)
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("command/batch_cli_start", batch_cli_start)->Unit(kMicrosecond)->UseRealTime();
  benchmark::RegisterBenchmark("command/batch_true", batch)
      ->Args({10000, 1})
      ->Args({10000, 2})
      ->ArgNames({"lines", "j"})
      ->Unit(kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
  const bool root = ::geteuid() == 0;
  for (int chrooted : {0, 1}) {
    if (chrooted && !root) continue;  // chroot needs root
    for (const auto& method : brisk::bench::workload_methods()) {
      benchmark::RegisterBenchmark((std::string("command/yast_") + method.name).c_str(), yast_method,
                                   method.name)
          ->Arg(chrooted)
          ->ArgName("chroot")
          ->Iterations(1000)
          ->Unit(kMillisecond)
          ->UseRealTime();
    }
  }
  return 0;
}
const int command_benchmarks_registered = register_command_benchmarks();

}  // namespace
