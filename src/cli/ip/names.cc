#include "cli/ip/names.h"

#include <linux/rtnetlink.h>

#include <span>
#include <utility>

namespace brisk::ipcli {
namespace {

using Table = std::span<const std::pair<uint8_t, const char*>>;

constexpr std::pair<uint8_t, const char*> kScopes[] = {{RT_SCOPE_UNIVERSE, "global"}, {RT_SCOPE_SITE, "site"},
                                                       {RT_SCOPE_LINK, "link"},       {RT_SCOPE_HOST, "host"},
                                                       {RT_SCOPE_NOWHERE, "nowhere"}};
constexpr std::pair<uint8_t, const char*> kProtocols[] = {
    {RTPROT_UNSPEC, "unspec"}, {RTPROT_REDIRECT, "redirect"}, {RTPROT_KERNEL, "kernel"}, {RTPROT_BOOT, "boot"},
    {RTPROT_STATIC, "static"}, {RTPROT_RA, "ra"},             {RTPROT_DHCP, "dhcp"}};
constexpr std::pair<uint8_t, const char*> kTypes[] = {
    {RTN_UNICAST, "unicast"},     {RTN_LOCAL, "local"},     {RTN_BROADCAST, "broadcast"},
    {RTN_ANYCAST, "anycast"},     {RTN_MULTICAST, "multicast"}, {RTN_BLACKHOLE, "blackhole"},
    {RTN_UNREACHABLE, "unreachable"}, {RTN_PROHIBIT, "prohibit"}, {RTN_THROW, "throw"}};

std::string name_in(Table table, uint8_t number) {
  for (auto [value, name] : table)
    if (value == number) return name;
  return std::to_string(number);
}

std::optional<uint8_t> number_in(Table table, std::string_view word) {
  for (auto [value, name] : table)
    if (word == name) return value;
  return std::nullopt;
}

}  // namespace

std::string scope_name(uint8_t scope) { return name_in(kScopes, scope); }
std::optional<uint8_t> scope_number(std::string_view word) {
  return word == "universe" ? std::optional<uint8_t>(RT_SCOPE_UNIVERSE) : number_in(kScopes, word);
}
std::string protocol_name(uint8_t protocol) { return name_in(kProtocols, protocol); }
std::optional<uint8_t> protocol_number(std::string_view word) { return number_in(kProtocols, word); }
std::string rtn_type_name(uint8_t type) { return name_in(kTypes, type); }
std::optional<uint8_t> rtn_type_number(std::string_view word) { return number_in(kTypes, word); }

}  // namespace brisk::ipcli
