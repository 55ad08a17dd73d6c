#include "cni/spoof_check.h"

#include <net/if.h>

#include <fmt/format.h>

#include "brisk/cni/error.h"
#include "cni/nft.h"

namespace brisk::cni::detail {

void spoof_check_add(const std::string& host_veth, const std::string& mac) {
  std::string commands = fmt::format(
      "add table bridge brisk_cni\n"
      "add chain bridge brisk_cni prerouting {{ type filter hook prerouting priority -300; policy accept; }}\n"
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
  delete_tolerating_missing({fmt::format("delete element bridge brisk_cni ports {{ \"{}\" }}", host_veth),
                             fmt::format("delete element bridge brisk_cni allowed {{ \"{}\" . {} }}", host_veth, mac)});
}

void spoof_check_gc() {
  Nft nft(true);
  std::vector<std::string> commands;
  for (const char* set : {"ports", "allowed"}) {
    nlohmann::json doc = nft.list(fmt::format("list set bridge brisk_cni {}", set));
    if (!doc.is_object()) return;
    for (const auto& item : doc.value("nftables", nlohmann::json::array())) {
      if (!item.contains("set")) continue;
      for (const auto& e : item["set"].value("elem", nlohmann::json::array())) {
        nlohmann::json val = e.is_object() && e.contains("elem") ? e["elem"].value("val", nlohmann::json()) : e;
        std::string dev, mac;
        if (val.is_string()) dev = val.get<std::string>();
        if (val.is_object() && val.contains("concat") && val["concat"].size() == 2) {
          dev = val["concat"][0].is_string() ? val["concat"][0].get<std::string>() : "";
          mac = val["concat"][1].is_string() ? val["concat"][1].get<std::string>() : "";
        }
        if (dev.empty() || ::if_nametoindex(dev.c_str()) != 0) continue;  // still there
        commands.push_back(mac.empty() ? fmt::format("delete element bridge brisk_cni ports {{ \"{}\" }}", dev)
                                       : fmt::format("delete element bridge brisk_cni allowed {{ \"{}\" . {} }}", dev, mac));
      }
    }
  }
  delete_tolerating_missing(commands);
}

}  // namespace brisk::cni::detail
