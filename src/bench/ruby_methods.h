// bench/ruby_methods.h: Ruby's system(), as the YaST write-up measured it.
//
// One ruby process per batch calls system(target) k times and times the
// loop itself with CLOCK_MONOTONIC, so interpreter start-up is excluded.
// Ruby vforks when it runs unprivileged and forks as root; the `nobody`
// variant is started through brisk with nobody's uid and gid.
#pragma once

#include <string>

#include "bench/spawn_methods.h"

namespace brisk::bench {

MethodTiming run_ruby_as_root(const SpawnTarget& target, int count);
MethodTiming run_ruby_as_nobody(const SpawnTarget& target, int count);
std::string ruby_unavailable_as_root(const SpawnTarget& target);
std::string ruby_unavailable_as_nobody(const SpawnTarget& target);

}  // namespace brisk::bench
