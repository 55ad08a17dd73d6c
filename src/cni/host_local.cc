// host-local's allocator: round-robin from the last reservation of each
// range set, skipping gateways, as the reference's IPAllocator and
// RangeIter do (so both pick the same next address from a shared store).
#include "brisk/cni/host_local.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "brisk/cni/error.h"
#include "cni/files.h"
#include "cni/ip_math.h"
#include "cni/lease_store.h"

namespace brisk::cni {

using detail::LeaseKey;
using detail::LeaseStore;
using netlink::IpAddress;

namespace {

std::string set_text(const RangeSet& set) {
  std::vector<std::string> parts;
  for (const auto& r : set)
    parts.push_back(fmt::format("{}-{}", r.range_start.to_string(), r.range_end.to_string()));
  return fmt::format("{}", fmt::join(parts, ","));
}

const AddressRange* range_for(const RangeSet& set, const IpAddress& a) {
  for (const auto& r : set)
    if (r.contains(a)) return &r;
  return nullptr;
}

// The reference's RangeIter, step for step.
class RangeIter {
 public:
  RangeIter(const RangeSet& set, std::optional<IpAddress> last) : set_(set) {
    if (last && range_for(set, *last)) {
      for (std::size_t i = 0; i < set.size(); ++i)
        if (set[i].contains(*last)) {
          index_ = i;
          cur_ = *last;
          break;
        }
    } else {
      start_ = set[0].range_start;
    }
  }

  // The next candidate and its range; nullopt once every address was offered.
  std::optional<std::pair<IpAddress, const AddressRange*>> next() {
    for (;;) {
      const AddressRange* r = &set_[index_];
      if (!cur_) {
        cur_ = r->range_start;
        start_ = cur_;
        if (*cur_ == r->gateway) continue;
        return std::make_pair(*cur_, r);
      }
      if (*cur_ == r->range_end) {
        index_ = (index_ + 1) % set_.size();
        r = &set_[index_];
        cur_ = r->range_start;
      } else {
        cur_ = detail::next(*cur_);
      }
      if (!start_) {
        start_ = cur_;
      } else if (*cur_ == *start_) {
        return std::nullopt;
      }
      if (*cur_ == r->gateway) continue;
      return std::make_pair(*cur_, r);
    }
  }

 private:
  const RangeSet& set_;
  std::size_t index_ = 0;
  std::optional<IpAddress> cur_{};
  std::optional<IpAddress> start_{};
};

IpConfig allocate(LeaseStore& store, const RangeSet& set, std::size_t index, const LeaseKey& key,
                  const std::optional<IpAddress>& requested) {
  if (requested) {
    const AddressRange* r = range_for(set, *requested);
    if (!r)
      fail(ErrorCode::invalid_config,
           fmt::format("{} not in range set {}", requested->to_string(), set_text(set)));
    if (*requested == r->gateway)
      fail(ErrorCode::invalid_config,
           fmt::format("requested ip {} is subnet's gateway", requested->to_string()));
    if (!store.reserve(*requested, key, index))
      fail(ErrorCode::internal, fmt::format("requested IP address {} is not available in range set {}",
                                            requested->to_string(), set_text(set)));
    return IpConfig{.address = {*requested, r->subnet.length}, .gateway = r->gateway};
  }
  for (const IpAddress& a : store.held_by(key))
    if (range_for(set, a))
      fail(ErrorCode::internal,
           fmt::format("{} has been allocated to {}, duplicate allocation is not allowed", a.to_string(),
                       key.container_id));
  RangeIter iter(set, store.last_reserved(index));
  while (auto candidate = iter.next())
    if (store.reserve(candidate->first, key, index))
      return IpConfig{.address = {candidate->first, candidate->second->subnet.length},
                      .gateway = candidate->second->gateway};
  fail(ErrorCode::try_again_later, fmt::format("no IP addresses available in range set: {}", set_text(set)));
}

// The reference's parseResolvConf: nameserver, domain, search, options.
Dns read_resolv_conf(const std::string& path) {
  auto text = detail::read_file(path);
  if (!text) detail::fail_io("open", path, ENOENT);
  Dns dns;
  std::size_t start = 0;
  while (start < text->size()) {
    std::size_t end = text->find('\n', start);
    if (end == std::string::npos) end = text->size();
    std::string line = text->substr(start, end - start);
    start = end + 1;
    std::vector<std::string> words;
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
      if (j > i) words.push_back(line.substr(i, j - i));
      i = j;
    }
    if (words.empty() || words[0][0] == '#' || words[0][0] == ';' || words.size() < 2) continue;
    if (words[0] == "nameserver")
      dns.nameservers.push_back(words[1]);
    else if (words[0] == "domain")
      dns.domain = words[1];
    else if (words[0] == "search")
      dns.search.assign(words.begin() + 1, words.end());
    else if (words[0] == "options")
      dns.options.assign(words.begin() + 1, words.end());
  }
  return dns;
}

}  // namespace

Result host_local_add(const HostLocalConfig& config, const std::string& container_id,
                      const std::string& ifname) {
  Result result;
  if (!config.resolv_conf.empty()) result.dns = read_resolv_conf(config.resolv_conf);
  LeaseStore store(config.data_dir, config.network);
  LeaseKey key{container_id, ifname};
  std::vector<IpAddress> requested = config.requested;
  try {
    for (std::size_t i = 0; i < config.ranges.size(); ++i) {
      std::optional<IpAddress> wanted;
      for (auto it = requested.begin(); it != requested.end(); ++it)
        if (range_for(config.ranges[i], *it)) {
          wanted = *it;
          requested.erase(it);
          break;
        }
      try {
        result.ips.push_back(allocate(store, config.ranges[i], i, key, wanted));
      } catch (const CniException& e) {
        fail(e.error().code, fmt::format("failed to allocate for range {}: {}", i, e.error().msg),
             e.error().details);
      }
    }
    if (!requested.empty()) {
      std::vector<std::string> left;
      for (const auto& a : requested) left.push_back(a.to_string());
      fail(ErrorCode::invalid_config,
           fmt::format("failed to allocate all requested IPs: {}", fmt::join(left, " ")));
    }
  } catch (...) {
    // Nothing half-allocated stays behind; leases held before this ADD stay.
    std::vector<IpAddress> mine;
    for (const auto& ip : result.ips) mine.push_back(ip.address.address);
    store.release_addresses(key, mine);
    throw;
  }
  result.routes = config.routes;
  return result;
}

std::vector<IpAddress> host_local_del(const HostLocalConfig& config, const std::string& container_id,
                                      const std::string& ifname) {
  LeaseStore store(config.data_dir, config.network);
  return store.release({container_id, ifname});
}

void host_local_check(const HostLocalConfig& config, const std::string& container_id,
                      const std::string& ifname) {
  LeaseStore store(config.data_dir, config.network);
  if (store.held_by({container_id, ifname}).empty())
    fail(ErrorCode::internal,
         fmt::format("host-local: Failed to find address added by container {}", container_id));
}

std::vector<IpAddress> host_local_gc(const HostLocalConfig& config, const std::vector<Attachment>& keep) {
  LeaseStore store(config.data_dir, config.network);
  std::set<LeaseKey> wanted;
  std::set<std::string> wanted_ids;
  for (const auto& a : keep) {
    wanted.insert({a.container_id, a.ifname});
    wanted_ids.insert(a.container_id);
  }
  std::vector<IpAddress> released;
  for (const auto& [key, addresses] : store.scan()) {
    bool in_use = key.ifname.empty() ? wanted_ids.count(key.container_id) > 0 : wanted.count(key) > 0;
    if (in_use) continue;
    auto gone = store.release(key);
    released.insert(released.end(), gone.begin(), gone.end());
  }
  return released;
}

}  // namespace brisk::cni
