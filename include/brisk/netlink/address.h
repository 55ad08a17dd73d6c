// brisk/netlink/address.h: MAC addresses, IP addresses and prefixes.
//
// Parsing is strict (a malformed MAC or prefix is an error, never a guess),
// and to_string() prints what iproute2 prints, so tests can compare with
// `ip -j` output directly.
#pragma once

#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "brisk/export.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

struct BRISK_EXPORT MacAddress {
  std::array<uint8_t, 6> bytes{};

  // "02:00:00:00:00:01"; any other form is EINVAL.
  static NlResult<MacAddress> parse(std::string_view text);
  std::string to_string() const;  // lower-case, colon separated
  bool operator==(const MacAddress&) const = default;
};

struct BRISK_EXPORT IpAddress {
  int family = AF_INET;             // AF_INET or AF_INET6
  std::array<uint8_t, 16> bytes{};  // network order; IPv4 uses the first 4

  static NlResult<IpAddress> parse(std::string_view text);
  // From an attribute payload of 4 or 16 bytes.
  static NlResult<IpAddress> from_bytes(std::span<const uint8_t> data);
  std::size_t size() const { return family == AF_INET ? 4 : 16; }
  std::span<const uint8_t> data() const { return {bytes.data(), size()}; }
  std::string to_string() const;
  bool operator==(const IpAddress&) const = default;
};

struct BRISK_EXPORT IpPrefix {
  IpAddress address{};
  uint8_t length = 32;  // prefix length in bits (the address is kept as given, host bits too)

  // "10.0.0.1/24" or "fd00::1/64"; without "/len" the full host length.
  static NlResult<IpPrefix> parse(std::string_view text);
  std::string to_string() const;
  bool operator==(const IpPrefix&) const = default;
};

}  // namespace brisk::netlink
