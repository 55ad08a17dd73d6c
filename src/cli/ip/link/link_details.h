// cli/ip/link_details.h: what `ip -d link show` adds to a link, in ip's text
// layout and under ip -j's names, from netlink::LinkDetails.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "brisk/netlink/link.h"

namespace brisk::ipcli {

// Appends ip -d's fields for `link` to `text`, which ends with the link/ether
// line (without its newline), and to `json`, which ends with the link-layer
// keys: limits, the kind line(s), then the queue and offload tail. Either
// may be null, and is then left alone.
// `with_addrgenmode`: ip prints the IPv6 mode under `ip link` only.
// `name_of` names an ifindex (a vxlan's dev, a port's backup port).
void append_link_details(const netlink::LinkInfo& link, bool with_addrgenmode,
                         const std::function<std::string(int)>& name_of, std::string* text,
                         nlohmann::ordered_json* json);

}  // namespace brisk::ipcli
