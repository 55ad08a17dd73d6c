// What a run of link deletes does, replayed on one dump: the prediction
// behind coalesced deletes, shared with front ends that schedule them.
#include "netlink/internal/delete_prediction.h"

#include <unordered_map>
#include <unordered_set>

namespace brisk::netlink {

std::vector<DeleteOutcome> predict_link_deletes(std::span<const LinkInfo> links,
                                                std::span<const std::string> names) {
  std::unordered_map<std::string_view, const LinkInfo*> by_name;
  // Devices that go along with a device: a veth's peer here, and what is
  // stacked on it (macvlan, vlan).
  std::unordered_map<int, std::vector<int>> children;
  for (const auto& link : links) {
    by_name[link.name] = &link;
    if (link.link && !link.link_netnsid) children[link.link].push_back(link.ifindex);
  }
  std::unordered_set<int> gone;
  std::vector<int> stack;
  std::vector<DeleteOutcome> out;
  out.reserve(names.size());
  for (const auto& name : names) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      out.push_back(DeleteOutcome::missing);
    } else if (gone.count(it->second->ifindex)) {
      out.push_back(DeleteOutcome::gone_earlier);
    } else if (it->second->kind.empty()) {
      out.push_back(DeleteOutcome::unpredictable);
    } else {
      out.push_back(DeleteOutcome::deleted);
      stack.push_back(it->second->ifindex);
      while (!stack.empty()) {
        int current = stack.back();
        stack.pop_back();
        if (!gone.insert(current).second) continue;
        for (int child : children[current]) stack.push_back(child);
      }
    }
  }
  return out;
}

}  // namespace brisk::netlink
