// cli/ip/name_prefetch.h: the devices a long run of plain changes names,
// looked up on a helper thread ahead of the batch.
//
// A line that names its device costs a name lookup (ioctl SIOCGIFINDEX: the
// kernel's name hash) besides its request. The batch's thread, which also
// parses each line again and builds its request, did those lookups, and was
// the slower half of the pipeline: the send thread waited on it. The helper
// looks the names up ahead, on the connection's transport, and the batch's
// thread takes each line's answer into the connection's name cache as it
// queues the line, so that the engine's own lookup is a cache hit. A line
// the helper has not reached, or whose device it did not find, is looked up
// by the engine as before, with the same errors.
//
// Only for a run whose lines can neither make, rename, move nor remove a
// device (addresses, routes, rules, neighbours...): there a name means the
// same device from the run's first line to its last, as it does in ip's own
// name cache for a whole batch.
#pragma once

#include <net/if.h>

#include <atomic>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <thread>
#include <vector>

#include "brisk/netlink/transport.h"
#include "cli/ip/ip.h"

namespace brisk::ipcli {

// A device a line names, as the helper found it.
struct PrefetchedName {
  std::string_view name;
  int ifindex = 0;
};

class NamePrefetch {
 public:
  // Starts the helper on `run` when it is worth it (worth_prefetching) and
  // the transport may look names up beside a send; otherwise take() finds
  // nothing. `run` and `transport` must outlive the object.
  NamePrefetch(netlink::Transport& transport, std::span<const BatchCommand> run);
  ~NamePrefetch();  // stops the helper where it is and joins it
  NamePrefetch(const NamePrefetch&) = delete;
  NamePrefetch& operator=(const NamePrefetch&) = delete;

  // The device run[k] names (the word after its first `dev`) and its
  // ifindex, once the helper has found it; nothing otherwise. Valid while
  // the object is.
  std::optional<PrefetchedName> take(std::size_t k) const;
  bool started() const { return helper_.joinable(); }

 private:
  struct Found {
    char name[IFNAMSIZ];  // NUL-terminated; empty when the line names none
    int ifindex;          // 0: not found
  };
  void look_up(netlink::Transport& transport, std::span<const BatchCommand> run);

  std::vector<Found> found_;          // a slot per line, filled in order by the helper
  std::atomic<std::size_t> done_{0};  // found_[0, done_) are final
  std::atomic<bool> stop_{false};
  std::thread helper_;  // last: joined before the rest goes
};

// Whether `run` is long enough for the helper to pay off, and made only of
// plain changes that leave every device's name where it is.
bool worth_prefetching(std::span<const BatchCommand> run);

// The word after the first `dev` in a plain change's text, or nothing.
std::optional<std::string> named_device(std::string_view text);

}  // namespace brisk::ipcli
