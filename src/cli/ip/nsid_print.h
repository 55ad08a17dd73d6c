// cli/ip/nsid_print.h: ip's print_nsid(): a namespace id as `netns list-id`
// and `monitor nsid` print it, with the /run/netns name it stands for.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "brisk/netlink/netns.h"

namespace brisk::ipcli {

// ip's nsid cache (netns_map) and the names it gives. ip reads it once per
// process and prints a name from it once, so one lives as long as a run.
class NsidNames {
 public:
  // `by_id`: the named namespaces by their ids here, as netns_map_init reads
  // them; `conn` (in the same namespace) looks up ids missing from it.
  NsidNames(netlink::Connection* conn, std::map<int, std::string> by_id)
      : conn_(conn), by_id_(std::move(by_id)) {}

  // The name printed beside `entry`: the cached one of its id here (the
  // current-nsid when there is one), which ip then drops from the cache;
  // else, for an id not being deleted, the name under /run/netns that has
  // the entry's nsid here, which is cached.
  std::optional<std::string> name_of(const netlink::NetnsIdEntry& entry, bool deleted);

 private:
  std::optional<std::string> named(int nsid);  // netns_get_name(): a scan of /run/netns

  netlink::Connection* conn_;
  std::map<int, std::string> by_id_;
};

// ip's get_netnsid_from_name(): /run/netns/NAME opened as it is (not
// checked to be a namespace) and its id here asked of the kernel. A refusal,
// such as "Peer netns reference is invalid." for a stale file, is printed to
// stderr as ip's rtnl_talk() prints it (unless `report` is false); an
// unopenable file is passed over.
std::optional<int> named_netns_id(netlink::Connection& conn, const std::string& name, bool report = true);

// "[Deleted ]nsid N [current-nsid M ](iproute2 netns name: NAME)\n", with
// "unassigned" for a negative id.
std::string nsid_text(const netlink::NetnsIdEntry& entry, bool deleted,
                      const std::optional<std::string>& name);
// The same as -j prints it (an unassigned id has no key).
nlohmann::ordered_json nsid_json(const netlink::NetnsIdEntry& entry, bool deleted,
                                 const std::optional<std::string>& name);

}  // namespace brisk::ipcli
