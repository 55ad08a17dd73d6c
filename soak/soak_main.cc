// soak/soak_main.cc: `brisk-soak [spawn|link|all]`.
//
// spawn: 100,000 Command::output() runs with capture, sampled every 10,000.
// link:  10 cycles of creating 5,000 veth pairs (10,000 interfaces) in one
//        Batch and bulk-deleting them, in a throwaway network namespace.
// `brisk-soak link CYCLES PAIRS` changes the link run's size.
// Each samples fds, children, RSS and the heap in use after warm-up. Exit 1 if
// anything is not flat (fds and children exactly, the heap in use within 1%).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "brisk/command.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/link.h"
#include "process_sample.h"
#include "support/test_support.h"

namespace {

using brisk::soak::Sample;
using brisk::soak::take_sample;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

bool soak_spawn(long total, long step) {
  auto start = Clock::now();
  // Sized up front: the samples' own growth would show in the heap in use.
  std::vector<Sample> samples;
  samples.reserve(static_cast<std::size_t>(total / step) + 2);
  samples.push_back(take_sample("start", 0));
  for (long i = 1; i <= total; ++i) {
    brisk::Output out = brisk::Command({"/bin/echo", "soak"}).output();
    if (out.out != "soak\n" || !out.status.success()) {
      std::fprintf(stderr, "spawn %ld: wrong output '%s'\n", i, out.out.c_str());
      return false;
    }
    if (i % step == 0) samples.push_back(take_sample(std::to_string(i) + " spawns", since(start)));
  }
  std::printf("spawn soak: %ld spawns in %.1f s (%.0f/s)\n", total, since(start),
              static_cast<double>(total) / since(start));
  return brisk::soak::report_flat("spawn soak (Command::output, capture)", samples, 1, 0.01);
}

bool soak_link(int cycles, int pairs) {
  if (!brisk::test::can_unshare_net()) {
    std::fprintf(stderr, "link soak needs CAP_SYS_ADMIN\n");
    return false;
  }
  brisk::UniqueFd ns = brisk::test::make_netns();
  auto conn = brisk::netlink::Connection::open_in(ns.get());
  if (!conn) {
    std::fprintf(stderr, "%s\n", conn.error().message().c_str());
    return false;
  }
  auto start = Clock::now();
  std::vector<Sample> samples;
  samples.reserve(static_cast<std::size_t>(cycles) + 2);  // as in soak_spawn
  samples.push_back(take_sample("start", 0));
  for (int c = 1; c <= cycles; ++c) {
    auto t0 = Clock::now();
    brisk::netlink::Batch create(*conn);
    for (int i = 0; i < pairs; ++i)
      create.add_link({.name = "s" + std::to_string(i),
                       .kind = brisk::netlink::VethOptions{.peer = "t" + std::to_string(i)}});
    for (const auto& r : create.flush())
      if (!r) {
        std::fprintf(stderr, "cycle %d create: %s\n", c, r.error().message().c_str());
        return false;
      }
    double created = since(t0);
    auto listed = brisk::netlink::list_links(*conn);
    if (!listed || listed->size() != static_cast<std::size_t>(2 * pairs + 1)) {
      std::fprintf(stderr, "cycle %d: %zu links after create\n", c, listed ? listed->size() : 0);
      return false;
    }
    auto t1 = Clock::now();
    brisk::netlink::Batch remove(*conn);
    for (int i = 0; i < pairs; ++i) remove.delete_link("s" + std::to_string(i));
    for (const auto& r : remove.flush())
      if (!r) {
        std::fprintf(stderr, "cycle %d delete: %s\n", c, r.error().message().c_str());
        return false;
      }
    double deleted = since(t1);
    listed = brisk::netlink::list_links(*conn);
    if (!listed || listed->size() != 1) {
      std::fprintf(stderr, "cycle %d: %zu links left after delete\n", c, listed ? listed->size() : 0);
      return false;
    }
    std::printf("link soak cycle %d: %d interfaces created in %.2f s, deleted in %.2f s\n", c, 2 * pairs,
                created, deleted);
    samples.push_back(take_sample("cycle " + std::to_string(c), since(start)));
  }
  // Two cycles of warm-up: the second keeps the capacity a 10,000-request
  // batch needs (request vectors, the name cache), reused from then on.
  return brisk::soak::report_flat("link soak (2 x pairs interfaces per cycle)", samples, 2, 0.01);
}

}  // namespace

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "all";
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  bool ok = true;
  if (what == "spawn" || what == "all") ok = soak_spawn(100000, 10000) && ok;
  // `brisk-soak link CYCLES PAIRS` for a longer or smaller run.
  int cycles = argc > 2 ? std::atoi(argv[2]) : 10, pairs = argc > 3 ? std::atoi(argv[3]) : 5000;
  if (what == "link" || what == "all") ok = soak_link(std::max(cycles, 2), std::max(pairs, 1)) && ok;
  if (what != "spawn" && what != "link" && what != "all") {
    std::fprintf(stderr, "usage: brisk-soak [spawn|link|all]\n");
    return 2;
  }
  std::printf("soak: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
