// brisk/netns_dir.h: where named network namespaces live, the iproute2 way.
//
// One home for the paths the spawn, command and netlink modules and the CLI
// all use, so that "run in namespace blue" means the same everywhere.
#pragma once

#include <string>
#include <string_view>

namespace brisk {

// The bind mounts of namespace files that `ip netns add NAME` makes.
inline constexpr const char* kNetnsDir = "/run/netns";
// Per-namespace files that `ip netns exec NAME` binds over /etc.
inline constexpr const char* kNetnsEtcDir = "/etc/netns";

// A namespace name as iproute2 takes it: not empty, not "." or "..", no '/'.
// (netlink::validate_netns_name also bounds the length.)
inline bool is_netns_name(std::string_view text) {
  return !text.empty() && text != "." && text != ".." && text.find('/') == std::string_view::npos &&
         text.find('\0') == std::string_view::npos;
}

// kNetnsDir/NAME for a name; anything else is a path already, used as is.
inline std::string netns_path(const std::string& name_or_path) {
  return is_netns_name(name_or_path) ? std::string(kNetnsDir) + "/" + name_or_path : name_or_path;
}

}  // namespace brisk
