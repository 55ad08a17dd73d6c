#include "cli/ip/nsid_print.h"

#include <cstdio>

#include "cli/ip/ip_errors.h"
#include "cli/ip/objects.h"
#include "cli/ip/runner.h"

namespace brisk::ipcli {

std::optional<std::string> NsidNames::name_of(const netlink::NetnsIdEntry& entry, bool deleted) {
  if (auto it = by_id_.find(entry.current_nsid.value_or(entry.nsid)); it != by_id_.end()) {
    std::string name = std::move(it->second);
    by_id_.erase(it);
    return name;
  }
  if (deleted) return std::nullopt;
  auto name = named(entry.nsid);
  if (name) by_id_.emplace(entry.nsid, *name);
  return name;
}

std::optional<std::string> NsidNames::named(int nsid) {
  if (nsid < 0 || !conn_) return std::nullopt;
  auto names = netlink::list_netns(netlink::NetnsOrder::directory);
  if (!names) return std::nullopt;
  for (const auto& name : *names)
    if (named_netns_id(*conn_, name) == nsid) return name;
  return std::nullopt;
}

std::optional<int> named_netns_id(netlink::Connection& conn, const std::string& name, bool report) {
  UniqueFd fd = open_run_netns(name);
  if (!fd) return std::nullopt;
  auto id = netlink::netns_id(conn, fd.get());
  if (!id) {
    if (report) std::fprintf(stderr, "%s\n", runtime_message(id.error()).c_str());
    return std::nullopt;
  }
  return *id;
}

std::string nsid_text(const netlink::NetnsIdEntry& entry, bool deleted,
                      const std::optional<std::string>& name) {
  std::string t = deleted ? "Deleted " : "";
  t += entry.nsid < 0 ? "nsid unassigned " : "nsid " + std::to_string(entry.nsid) + " ";
  if (auto current = entry.current_nsid)
    t += *current < 0 ? "current-nsid unassigned " : "current-nsid " + std::to_string(*current) + " ";
  if (name) t += "(iproute2 netns name: " + *name + ")";
  return t + "\n";
}

nlohmann::ordered_json nsid_json(const netlink::NetnsIdEntry& entry, bool deleted,
                                 const std::optional<std::string>& name) {
  auto j = nlohmann::ordered_json::object();
  if (deleted) j["deleted"] = true;
  if (entry.nsid >= 0) j["nsid"] = entry.nsid;
  if (entry.current_nsid && *entry.current_nsid >= 0) j["current-nsid"] = *entry.current_nsid;
  if (name) j["name"] = *name;
  return j;
}

}  // namespace brisk::ipcli
