// brisk/netlink/message.h: building one netlink request.
//
// A Message owns a fixed-capacity buffer (libmnl does the header and
// attribute plumbing underneath). Appends are bounds-checked: one that does
// not fit marks the message overflowed instead of writing past the end, and
// the pipeline refuses to send an overflowed message (EMSGSIZE).
//
//   Message m(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
//   m.put_header<ifinfomsg>();
//   m.put_string(IFLA_IFNAME, "br0");
//   auto info = m.begin_nest(IFLA_LINKINFO);
//   m.put_string(IFLA_INFO_KIND, "bridge");
//   m.end_nest(info);
//
// The connection stamps the sequence number when it sends the message.
#pragma once

#include <linux/netlink.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "brisk/export.h"

namespace brisk::netlink {

class BRISK_EXPORT Message {
 public:
  static constexpr std::size_t kDefaultCapacity = 2048;

  Message(uint16_t type, uint16_t flags, std::size_t capacity = kDefaultCapacity);
  // Parses nothing: wraps a received or copied message (for tests and replies).
  static Message from_bytes(std::span<const char> bytes);

  Message(Message&&) noexcept = default;
  Message& operator=(Message&&) noexcept = default;
  Message(const Message&) = default;
  Message& operator=(const Message&) = default;

  // The family header (ifinfomsg, ifaddrmsg, ...), zeroed; call once, first.
  template <class H>
  H& put_header() {
    return *static_cast<H*>(put_extra_header(sizeof(H)));
  }
  template <class H>
  H& family_header() {
    return *reinterpret_cast<H*>(buffer_.data() + NLMSG_HDRLEN);
  }
  void* put_extra_header(std::size_t size);

  void put_u8(uint16_t type, uint8_t value);
  void put_u16(uint16_t type, uint16_t value);
  void put_u32(uint16_t type, uint32_t value);
  void put_u64(uint16_t type, uint64_t value);
  void put_s32(uint16_t type, int32_t value) { put_u32(type, static_cast<uint32_t>(value)); }
  // NUL-terminated, as the kernel's NLA_STRING/NLA_NUL_STRING policies expect.
  void put_string(uint16_t type, std::string_view value);
  void put_bytes(uint16_t type, std::span<const uint8_t> value);
  void put_flag(uint16_t type) { put_bytes(type, {}); }
  // A raw struct at the tail, padded: the ifinfomsg inside VETH_INFO_PEER.
  void put_raw(const void* data, std::size_t size);

  // A nest is its offset in the buffer, so it stays valid however it is moved.
  struct Nest {
    std::size_t offset = 0;
    bool valid = false;
  };
  Nest begin_nest(uint16_t type);
  void end_nest(Nest nest);

  bool overflowed() const { return overflowed_; }
  nlmsghdr* header() { return reinterpret_cast<nlmsghdr*>(buffer_.data()); }
  const nlmsghdr* header() const { return reinterpret_cast<const nlmsghdr*>(buffer_.data()); }
  uint16_t type() const { return header()->nlmsg_type; }
  uint32_t seq() const { return header()->nlmsg_seq; }
  void set_seq(uint32_t seq) { header()->nlmsg_seq = seq; }
  void add_flags(uint16_t flags) { header()->nlmsg_flags |= flags; }
  // The message as sent: nlmsg_len bytes.
  std::span<const char> bytes() const { return {buffer_.data(), header()->nlmsg_len}; }
  // Releases the unused capacity once building is over.
  void shrink();

 private:
  Message() = default;
  std::vector<char> buffer_;
  bool overflowed_ = false;
};

}  // namespace brisk::netlink
