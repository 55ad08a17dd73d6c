// Google Benchmark view of the spawn methods: one benchmark per method and
// parent heap size. `brisk bench spawn` gives the side-by-side ratios.
#include "bench/spawn_bench.h"

#include <benchmark/benchmark.h>

#include "bench/spawn_methods.h"

namespace {

void spawn_method(benchmark::State& state, const brisk::bench::SpawnMethodDef* method) {
  brisk::bench::HeapBallast heap(static_cast<std::size_t>(state.range(0)));
  brisk::bench::SpawnTarget target{{"/bin/true"}, {}};
  for (auto _ : state) {
    if (method->run(target) != 0) state.SkipWithError("spawn failed");
  }
  state.counters["heap_MiB"] = static_cast<double>(heap.mb());
}

int register_spawn_benchmarks() {
  for (const auto& method : brisk::bench::spawn_methods()) {
    if (!method.run) continue;  // batch-only (Ruby): `brisk bench spawn` times those
    benchmark::RegisterBenchmark((std::string("spawn/") + method.name).c_str(), spawn_method, &method)
        ->Arg(10)
        ->Arg(1024)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  return 0;
}
const int spawn_benchmarks_registered = register_spawn_benchmarks();

}  // namespace
