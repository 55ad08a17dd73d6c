// bench_engine.h: Brisk::Native.bench_engine, the engine's own cost of the
// spawns bench/bench.rb times, with no Ruby in the loop.
#pragma once
#include <ruby.h>

namespace brisk_ruby {
// Defines Brisk::Native.bench_engine(argv, count, capture) on `native`.
void define_bench_engine(VALUE native);
}  // namespace brisk_ruby
