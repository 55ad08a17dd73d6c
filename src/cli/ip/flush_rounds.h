// cli/ip/flush_rounds.h: ip's flush loop. ip deletes what a dump finds,
// dumps again, and stops at the first round that finds nothing; with -s it
// says how many each round deleted, and with -s -s prints each entry too.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "cli/ip/runner.h"

namespace brisk::ipcli {

struct FlushRounds {
  const char* counted = "entries";  // ip's word in "deleting N ...": "addresses" for addr flush
  int max_rounds = 0;               // rounds before giving up; 0: no limit
  // ip's words, on stdout, when the rounds run out (neigh flush); empty:
  // "*** Flush remains incomplete after N rounds. ***" on stderr (addr flush).
  std::string out_of_rounds{};
};

// Runs `round` (which deletes what it finds and returns how many) until a
// round finds nothing, printing ip's -s lines between; a failure (exit 1)
// when max_rounds run out first.
netlink::NlResult<void> flush_in_rounds(Runner& r, const FlushRounds& how,
                                        const std::function<netlink::NlResult<std::size_t>()>& round);

}  // namespace brisk::ipcli
