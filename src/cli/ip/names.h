// cli/ip/names.h: ip's words for rtnetlink's numbers (route scopes,
// protocols and types), one table each, read by the parser and the printer
// alike; a number without a name is printed, and accepted, as a number.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace brisk::ipcli {

std::string scope_name(uint8_t scope);                  // "global", "link", ..., or the number
std::optional<uint8_t> scope_number(std::string_view);  // also "universe", as ip
std::string protocol_name(uint8_t protocol);            // RTPROT_*: "kernel", "boot", ...
std::optional<uint8_t> protocol_number(std::string_view);
std::string rtn_type_name(uint8_t type);                // RTN_*: "unicast", "blackhole", ...
std::optional<uint8_t> rtn_type_number(std::string_view);

}  // namespace brisk::ipcli
