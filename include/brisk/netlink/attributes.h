// brisk/netlink/attributes.h: bounds-checked reading of netlink attributes.
//
// Every attribute brisk reads is declared in a schema: its type and the
// payload sizes allowed. parse() walks the attribute stream once, rejects
// truncated attributes and any declared attribute whose payload does not
// fit its policy (EBADMSG), and indexes the rest by type. Attributes the
// schema does not declare are skipped, so newer kernels never break parsing.
//
//   static constexpr AttrPolicy kLink[] = {{}, {AttrKind::binary}, ..., {AttrKind::string, 16}};
//   auto attrs = Attributes::parse(payload, kLink);
//   std::string_view name = attrs->string(IFLA_IFNAME).value_or("");
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

enum class AttrKind : uint8_t {
  unused,  // not read by brisk: skipped
  u8,
  u16,
  u32,
  u64,
  string,  // NUL-terminated within the payload; max_len counts the NUL
  binary,  // any bytes; min_len/max_len bound the size
  nested,  // a stream of attributes, parsed on demand with its own schema
  flag,    // no payload
};

struct AttrPolicy {
  AttrKind kind = AttrKind::unused;  // what the payload must be
  uint16_t max_len = 0;              // string/binary: largest payload accepted; 0 = any
  uint16_t min_len = 0;              // binary: smallest payload accepted
};

using Schema = std::span<const AttrPolicy>;

class BRISK_EXPORT Attributes {
 public:
  // Parses the attributes in `payload` (already past the family header).
  static NlResult<Attributes> parse(std::span<const char> payload, Schema schema);
  // Parses the attributes of a whole message after a family header of `header_size` bytes.
  static NlResult<Attributes> parse_message(const nlmsghdr& message, std::size_t header_size, Schema schema);

  bool has(uint16_t type) const { return find(type) != nullptr; }
  std::optional<uint8_t> u8(uint16_t type) const;
  std::optional<uint16_t> u16(uint16_t type) const;
  std::optional<uint32_t> u32(uint16_t type) const;
  std::optional<uint64_t> u64(uint16_t type) const;
  std::optional<std::string_view> string(uint16_t type) const;  // without the NUL
  std::optional<std::span<const uint8_t>> bytes(uint16_t type) const;
  // The nested attributes of `type`, parsed with `schema`; empty when absent.
  NlResult<Attributes> nested(uint16_t type, Schema schema) const;

 private:
  const nlattr* find(uint16_t type) const;
  std::span<const char> payload_of(uint16_t type, AttrKind expected) const;
  Schema schema_{};
  std::vector<const nlattr*> by_type_{};  // indexed by type; nullptr when absent
};

}  // namespace brisk::netlink
