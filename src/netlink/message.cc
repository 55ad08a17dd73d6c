#include "brisk/netlink/message.h"

#include <libmnl/libmnl.h>

#include <string>
#include <vector>

namespace brisk::netlink {
namespace {

// Building buffers this thread has finished with, for the next message to
// build in. A batch builds each request at the default capacity and then
// shrinks it; 2 KiB is past glibc's per-thread cache, so without reuse each
// request cost two trips through malloc's bins (and their consolidation).
thread_local std::vector<std::vector<char>> t_spare_buffers;
constexpr std::size_t kMaxSpareBuffers = 16;

}  // namespace

// std::vector<char> is suitably aligned for nlmsghdr (operator new gives
// max_align_t alignment), and the capacity never changes while building, so
// libmnl may write into it directly.
Message::Message(uint16_t type, uint16_t flags, std::size_t capacity) {
  if (capacity == kDefaultCapacity && !t_spare_buffers.empty()) {
    buffer_ = std::move(t_spare_buffers.back());
    t_spare_buffers.pop_back();
  }
  buffer_.assign(capacity, 0);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buffer_.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
}

Message Message::from_bytes(std::span<const char> bytes) {
  Message m;
  m.buffer_.assign(bytes.begin(), bytes.end());
  if (m.buffer_.size() < NLMSG_HDRLEN) m.buffer_.resize(NLMSG_HDRLEN, 0);
  return m;
}

void* Message::put_extra_header(std::size_t size) {
  if (header()->nlmsg_len + MNL_ALIGN(size) > buffer_.size()) {
    overflowed_ = true;
    static thread_local char scratch[256];  // absorbs writes to an overflowed header
    std::memset(scratch, 0, sizeof scratch);
    return scratch;
  }
  return mnl_nlmsg_put_extra_header(header(), size);
}

void Message::put_u8(uint16_t type, uint8_t value) {
  if (!mnl_attr_put_u8_check(header(), buffer_.size(), type, value)) overflowed_ = true;
}
void Message::put_u16(uint16_t type, uint16_t value) {
  if (!mnl_attr_put_u16_check(header(), buffer_.size(), type, value)) overflowed_ = true;
}
void Message::put_u32(uint16_t type, uint32_t value) {
  if (!mnl_attr_put_u32_check(header(), buffer_.size(), type, value)) overflowed_ = true;
}
void Message::put_u64(uint16_t type, uint64_t value) {
  if (!mnl_attr_put_u64_check(header(), buffer_.size(), type, value)) overflowed_ = true;
}
void Message::put_string(uint16_t type, std::string_view value) {
  std::string copy(value);  // mnl wants a terminated string; names are short
  if (!mnl_attr_put_strz_check(header(), buffer_.size(), type, copy.c_str())) overflowed_ = true;
}
void Message::put_bytes(uint16_t type, std::span<const uint8_t> value) {
  if (!mnl_attr_put_check(header(), buffer_.size(), type, value.size(), value.data())) overflowed_ = true;
}

void Message::put_raw(const void* data, std::size_t size) {
  if (header()->nlmsg_len + MNL_ALIGN(size) > buffer_.size()) {
    overflowed_ = true;
    return;
  }
  char* tail = static_cast<char*>(mnl_nlmsg_get_payload_tail(header()));
  std::memset(tail, 0, MNL_ALIGN(size));
  std::memcpy(tail, data, size);
  header()->nlmsg_len += MNL_ALIGN(size);
}

Message::Nest Message::begin_nest(uint16_t type) {
  nlattr* start = mnl_attr_nest_start_check(header(), buffer_.size(), type);
  if (!start) {
    overflowed_ = true;
    return {};
  }
  return {static_cast<std::size_t>(reinterpret_cast<char*>(start) - buffer_.data()), true};
}

void Message::end_nest(Nest nest) {
  if (!nest.valid) return;
  mnl_attr_nest_end(header(), reinterpret_cast<nlattr*>(buffer_.data() + nest.offset));
}

void Message::shrink() {
  std::size_t length = header()->nlmsg_len;
  if (buffer_.capacity() == kDefaultCapacity && t_spare_buffers.size() < kMaxSpareBuffers) {
    std::vector<char> exact(buffer_.data(), buffer_.data() + length);
    t_spare_buffers.push_back(std::move(buffer_));
    buffer_ = std::move(exact);
    return;
  }
  buffer_.resize(length);
  buffer_.shrink_to_fit();
}

}  // namespace brisk::netlink
