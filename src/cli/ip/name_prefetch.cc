#include "cli/ip/name_prefetch.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <system_error>
#include <unordered_map>

#include "cli/ip/batch_rules.h"

namespace brisk::ipcli {
namespace {

// The engine overlaps its sends with the building of the next window from
// two windows' worth of ops on (batch_run.cc); below that there is no send
// thread to keep busy, and a helper thread's start costs about what it saves.
constexpr std::size_t kMinLines = 512;

}  // namespace

bool worth_prefetching(std::span<const BatchCommand> run) {
  if (run.size() < kMinLines) return false;
  return std::all_of(run.begin(), run.end(),
                     [](const BatchCommand& c) { return !c.held && c.verb->keeps_device_names; });
}

std::optional<std::string> named_device(std::string_view text) {
  BatchSplitter splitter(text);
  BatchLine line;
  auto more = splitter.next(line);
  if (!more || !*more) return std::nullopt;
  auto dev = std::find(line.args.begin(), line.args.end(), "dev");
  if (dev == line.args.end() || dev + 1 == line.args.end()) return std::nullopt;
  return std::move(dev[1]);
}

NamePrefetch::NamePrefetch(netlink::Transport& transport, std::span<const BatchCommand> run) {
  if (!transport.concurrent_lookups() || !worth_prefetching(run)) return;
  try {
    helper_ = std::thread([this, &transport, run] { look_up(transport, run); });
  } catch (const std::system_error&) {
    // No thread to be had: the engine looks every name up itself.
  }
}

NamePrefetch::~NamePrefetch() {
  stop_.store(true, std::memory_order_relaxed);
  if (helper_.joinable()) helper_.join();
}

void NamePrefetch::look_up(netlink::Transport& transport, std::span<const BatchCommand> run) {
  // Reserved here, before the first slot is published, so the pages are
  // touched by this thread and found_ never moves under a reader.
  found_.reserve(run.size());
  // Each name once: many lines may name one device (0: not found).
  std::unordered_map<std::string, int> seen;
  for (std::size_t k = 0; k < run.size() && !stop_.load(std::memory_order_relaxed); ++k) {
    Found& slot = found_.emplace_back(Found{.name = {}, .ifindex = 0});
    // SIOCGIFINDEX takes IFNAMSIZ bytes: a longer altname is the engine's (a GETLINK).
    if (auto dev = named_device(run[k].text); dev && !dev->empty() && dev->size() < IFNAMSIZ) {
      auto [at, fresh] = seen.try_emplace(*dev, 0);
      if (fresh) {
        if (auto index = transport.interface_index(*dev)) at->second = *index;
      }
      if (at->second > 0) {
        std::memcpy(slot.name, dev->c_str(), dev->size() + 1);
        slot.ifindex = at->second;
      }
    }
    done_.store(k + 1, std::memory_order_release);
  }
}

std::optional<PrefetchedName> NamePrefetch::take(std::size_t k) const {
  if (k >= done_.load(std::memory_order_acquire)) return std::nullopt;
  const Found& slot = found_[k];
  if (slot.ifindex <= 0) return std::nullopt;
  return PrefetchedName{.name = slot.name, .ifindex = slot.ifindex};
}

}  // namespace brisk::ipcli
