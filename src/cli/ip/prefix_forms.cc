// ip 6.1's get_prefix_1(), get_addr_ipv4() and get_netmask() (lib/utils.c),
// read for what they accept, written as a translation to canonical text.
#include "cli/ip/prefix_forms.h"

#include <arpa/inet.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>

namespace brisk::ipcli {
namespace {

// get_addr_ipv4(): up to four components split by '.', each strtoul(base 0)
// and at most 255, filled from the left ("10.5" is 10.5.0.0).
std::optional<std::array<uint8_t, 4>> ipv4_components(const std::string& text) {
  std::array<uint8_t, 4> bytes{};
  const char* cp = text.c_str();
  for (int i = 0; i < 4; ++i) {
    char* end = nullptr;
    unsigned long n = std::strtoul(cp, &end, 0);
    if (n > 255 || end == cp) return std::nullopt;
    bytes[i] = static_cast<uint8_t>(n);
    if (*end == '\0') return bytes;
    if (i == 3 || *end != '.') return std::nullopt;
    cp = end + 1;
  }
  return std::nullopt;
}

std::string dotted(const std::array<uint8_t, 4>& b) {
  return std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) + "." +
         std::to_string(b[3]);
}

// get_unsigned(base 0): strtoul's whole word, no more than UINT_MAX.
std::optional<unsigned> unsigned_any_base(const std::string& text) {
  const char* start = text.c_str();
  char* end = nullptr;
  errno = 0;
  unsigned long n = std::strtoul(start, &end, 0);
  if (end == start || *end != '\0' || (n == ULONG_MAX && errno == ERANGE) || n > UINT_MAX)
    return std::nullopt;
  return static_cast<unsigned>(n);
}

// mask2bits(): a netmask's length when its host part is 2^n - 1.
std::optional<unsigned> mask_length(const std::array<uint8_t, 4>& b) {
  uint32_t mask = uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
  uint32_t host = ~mask;
  if ((host & (host + 1)) != 0) return std::nullopt;
  unsigned bits = 0;
  for (; mask; mask <<= 1) ++bits;
  return bits;
}

// get_netmask(): a number in any base, else a dotted-quad netmask.
std::optional<unsigned> netmask(const std::string& text) {
  if (auto n = unsigned_any_base(text)) return n;
  if (auto b = ipv4_components(text)) return mask_length(*b);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> canonical_prefix(const std::string& text) {
  auto slash = text.find('/');
  std::string address = text.substr(0, slash);
  std::string canonical;
  unsigned bits = 32;
  if (address.find(':') != std::string::npos) {
    in6_addr a6{};
    if (inet_pton(AF_INET6, address.c_str(), &a6) != 1) return std::nullopt;
    canonical = address;
    bits = 128;
  } else {
    auto b = ipv4_components(address);
    if (!b) return std::nullopt;
    canonical = dotted(*b);
  }
  if (slash == std::string::npos) return canonical;
  auto length = netmask(text.substr(slash + 1));
  if (!length || *length > bits) return std::nullopt;
  return canonical + "/" + std::to_string(*length);
}

}  // namespace brisk::ipcli
