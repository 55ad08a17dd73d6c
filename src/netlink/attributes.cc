#include "brisk/netlink/attributes.h"

#include <libmnl/libmnl.h>

#include <cstring>
#include <string>

namespace brisk::netlink {
namespace {

NetlinkError malformed(uint16_t type, const std::string& why) {
  return {.code = EBADMSG, .op = "netlink parse", .detail = "attribute " + std::to_string(type) + ": " + why};
}

// Checks one attribute's payload against its policy.
NlResult<void> check(const nlattr* attr, uint16_t type, const AttrPolicy& policy) {
  std::size_t len = mnl_attr_get_payload_len(attr);
  const char* data = static_cast<const char*>(mnl_attr_get_payload(attr));
  auto need = [&](std::size_t size) -> NlResult<void> {
    if (len < size)
      return malformed(type, "payload of " + std::to_string(len) + " bytes, need " + std::to_string(size));
    return {};
  };
  switch (policy.kind) {
    case AttrKind::unused:
    case AttrKind::nested:
      return {};
    case AttrKind::flag:
      return {};
    case AttrKind::u8:
      return need(1);
    case AttrKind::u16:
      return need(2);
    case AttrKind::u32:
      return need(4);
    case AttrKind::u64:
      return need(8);
    case AttrKind::string:
      if (len == 0 || !std::memchr(data, '\0', len))
        return malformed(type, "string without a terminating NUL");
      if (policy.max_len && std::strlen(data) + 1 > policy.max_len) return malformed(type, "string too long");
      return {};
    case AttrKind::binary:
      if (len < policy.min_len) return malformed(type, "payload too short");
      if (policy.max_len && len > policy.max_len) return malformed(type, "payload too long");
      return {};
  }
  return {};
}

}  // namespace

NlResult<Attributes> Attributes::parse(std::span<const char> payload, Schema schema) {
  Attributes attrs;
  attrs.schema_ = schema;
  attrs.by_type_.assign(schema.size(), nullptr);
  const char* cursor = payload.data();
  std::size_t left = payload.size();
  while (left >= sizeof(nlattr)) {
    const auto* attr = reinterpret_cast<const nlattr*>(cursor);
    if (!mnl_attr_ok(attr, static_cast<int>(left))) return malformed(attr->nla_type, "truncated");
    uint16_t type = mnl_attr_get_type(attr);
    if (type < schema.size() && schema[type].kind != AttrKind::unused) {
      auto ok = check(attr, type, schema[type]);
      if (!ok) return ok.error();
      attrs.by_type_[type] = attr;
    }
    std::size_t step = MNL_ALIGN(attr->nla_len);
    if (step >= left) break;
    cursor += step;
    left -= step;
  }
  return attrs;
}

NlResult<Attributes> Attributes::parse_message(const nlmsghdr& message, std::size_t header_size,
                                               Schema schema) {
  std::size_t start = NLMSG_HDRLEN + NLMSG_ALIGN(header_size);
  if (message.nlmsg_len < NLMSG_HDRLEN + header_size)
    return NetlinkError{.code = EBADMSG, .op = "netlink parse", .detail = "message shorter than its header"};
  if (start > message.nlmsg_len) start = message.nlmsg_len;
  const char* base = reinterpret_cast<const char*>(&message);
  return parse({base + start, message.nlmsg_len - start}, schema);
}

const nlattr* Attributes::find(uint16_t type) const {
  return type < by_type_.size() ? by_type_[type] : nullptr;
}

std::span<const char> Attributes::payload_of(uint16_t type, AttrKind expected) const {
  const nlattr* attr = find(type);
  if (!attr || schema_[type].kind != expected) return {};
  return {static_cast<const char*>(mnl_attr_get_payload(attr)), mnl_attr_get_payload_len(attr)};
}

template <class T>
static std::optional<T> read_scalar(std::span<const char> data) {
  if (data.size() < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, data.data(), sizeof value);
  return value;
}

std::optional<uint8_t> Attributes::u8(uint16_t type) const {
  return read_scalar<uint8_t>(payload_of(type, AttrKind::u8));
}
std::optional<uint16_t> Attributes::u16(uint16_t type) const {
  return read_scalar<uint16_t>(payload_of(type, AttrKind::u16));
}
std::optional<uint32_t> Attributes::u32(uint16_t type) const {
  return read_scalar<uint32_t>(payload_of(type, AttrKind::u32));
}
std::optional<uint64_t> Attributes::u64(uint16_t type) const {
  return read_scalar<uint64_t>(payload_of(type, AttrKind::u64));
}

std::optional<std::string_view> Attributes::string(uint16_t type) const {
  auto data = payload_of(type, AttrKind::string);
  if (data.empty()) return std::nullopt;
  return std::string_view(data.data());  // check() guaranteed the NUL
}

std::optional<std::span<const uint8_t>> Attributes::bytes(uint16_t type) const {
  const nlattr* attr = find(type);
  if (!attr || schema_[type].kind != AttrKind::binary) return std::nullopt;
  return std::span<const uint8_t>(static_cast<const uint8_t*>(mnl_attr_get_payload(attr)),
                                  mnl_attr_get_payload_len(attr));
}

NlResult<Attributes> Attributes::nested(uint16_t type, Schema schema) const {
  const nlattr* attr = find(type);
  if (!attr || schema_[type].kind != AttrKind::nested) {
    Attributes empty;
    empty.schema_ = schema;
    empty.by_type_.assign(schema.size(), nullptr);
    return empty;
  }
  return parse({static_cast<const char*>(mnl_attr_get_payload(attr)), mnl_attr_get_payload_len(attr)},
               schema);
}

}  // namespace brisk::netlink
