#include "cni/spoof_check.h"

#include <fmt/format.h>
#include <net/if.h>

#include "brisk/cni/error.h"
#include "cni/nft.h"

namespace brisk::cni::detail {

void spoof_check_add(const std::string& host_veth, const std::string& mac) {
  std::string commands = fmt::format(
      "add table bridge brisk_cni\n"
      "add chain bridge brisk_cni prerouting {{ type filter hook prerouting priority -300; policy accept; "
      "}}\n"
      "add set bridge brisk_cni ports {{ type ifname; }}\n"
      "add set bridge brisk_cni allowed {{ type ifname . ether_addr; }}\n"
      "flush chain bridge brisk_cni prerouting\n"
      "add rule bridge brisk_cni prerouting iifname @ports iifname . ether saddr != @allowed drop\n"
      "add element bridge brisk_cni ports {{ \"{0}\" }}\n"
      "add element bridge brisk_cni allowed {{ \"{0}\" . {1} }}\n",
      host_veth, mac);
  std::string error = Nft().run(commands);
  if (!error.empty()) fail(ErrorCode::internal, "failed to setup spoof-check", error);
}

void spoof_check_del(const std::string& host_veth, const std::string& mac) {
  delete_tolerating_missing(
      {fmt::format("delete element bridge brisk_cni ports {{ \"{}\" }}", host_veth),
       fmt::format("delete element bridge brisk_cni allowed {{ \"{}\" . {} }}", host_veth, mac)});
}

void spoof_check_gc() {
  std::vector<std::string> commands;
  for (const SetElement& e : list_set("bridge", "brisk_cni", "ports"))
    if (::if_nametoindex(e.value.c_str()) == 0)  // that host veth is gone
      commands.push_back(fmt::format("delete element bridge brisk_cni ports {{ \"{}\" }}", e.value));
  for (const SetElement& e : list_set("bridge", "brisk_cni", "allowed"))
    if (::if_nametoindex(e.value.c_str()) == 0)
      commands.push_back(
          fmt::format("delete element bridge brisk_cni allowed {{ \"{}\" . {} }}", e.value, e.second));
  delete_tolerating_missing(commands);
}

}  // namespace brisk::cni::detail
