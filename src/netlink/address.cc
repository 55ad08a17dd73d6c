#include "brisk/netlink/address.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace brisk::netlink {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

NlResult<MacAddress> MacAddress::parse(std::string_view text) {
  MacAddress mac;
  // Exactly six pairs of hex digits separated by ':'.
  if (text.size() != 17)
    return invalid_argument("parse mac", std::string(text), "expected xx:xx:xx:xx:xx:xx");
  for (std::size_t i = 0; i < 6; ++i) {
    int hi = hex_digit(text[i * 3]);
    int lo = hex_digit(text[i * 3 + 1]);
    if (hi < 0 || lo < 0 || (i < 5 && text[i * 3 + 2] != ':'))
      return invalid_argument("parse mac", std::string(text), "expected xx:xx:xx:xx:xx:xx");
    mac.bytes[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return mac;
}

std::string MacAddress::to_string() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i) text += ':';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 15];
  }
  return text;
}

NlResult<IpAddress> IpAddress::parse(std::string_view text) {
  IpAddress ip;
  std::string copy(text);  // inet_pton needs a terminated string
  if (::inet_pton(AF_INET, copy.c_str(), ip.bytes.data()) == 1) {
    ip.family = AF_INET;
    return ip;
  }
  if (::inet_pton(AF_INET6, copy.c_str(), ip.bytes.data()) == 1) {
    ip.family = AF_INET6;
    return ip;
  }
  return invalid_argument("parse address", copy, "not an IPv4 or IPv6 address");
}

NlResult<IpAddress> IpAddress::from_bytes(std::span<const uint8_t> data) {
  IpAddress ip;
  if (data.size() == 4) {
    ip.family = AF_INET;
  } else if (data.size() == 16) {
    ip.family = AF_INET6;
  } else {
    return invalid_argument("parse address", {}, "address of " + std::to_string(data.size()) + " bytes",
                            EBADMSG);
  }
  std::memcpy(ip.bytes.data(), data.data(), data.size());
  return ip;
}

std::string IpAddress::to_string() const {
  char text[INET6_ADDRSTRLEN] = {};
  ::inet_ntop(family, bytes.data(), text, sizeof text);
  return text;
}

NlResult<IpPrefix> IpPrefix::parse(std::string_view text) {
  auto slash = text.find('/');
  auto address = IpAddress::parse(text.substr(0, slash));
  if (!address) return invalid_argument("parse prefix", std::string(text), "not an IPv4 or IPv6 address");
  IpPrefix prefix{.address = *address, .length = static_cast<uint8_t>(address->size() * 8)};
  if (slash == std::string_view::npos) return prefix;
  auto length_text = text.substr(slash + 1);
  unsigned length = 0;
  auto [end, ec] = std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
  if (ec != std::errc() || end != length_text.data() + length_text.size() || length_text.empty() ||
      length > address->size() * 8)
    return invalid_argument("parse prefix", std::string(text), "bad prefix length");
  prefix.length = static_cast<uint8_t>(length);
  return prefix;
}

std::string IpPrefix::to_string() const { return address.to_string() + "/" + std::to_string(length); }

}  // namespace brisk::netlink
