// fuzz/fuzz_check.h: what every fuzz target shares.
//
// FUZZ_CHECK states a property the parser must keep on any input. It aborts
// on failure in both builds: under libFuzzer that is a crash with the input
// saved; in the replay test (fuzz/replay_main.cc) it fails the test.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                 \
  do {                                                                                        \
    if (!(condition)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (0)
