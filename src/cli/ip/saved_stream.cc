#include "cli/ip/saved_stream.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace brisk::ipcli {
namespace {

using netlink::NetlinkError;
using netlink::NlResult;

constexpr std::size_t kLargestMessage = 16384;  // ip's rtnl_from_file() buffer

NlResult<std::string> read_all(int fd, const char* op) {
  std::string data;
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return bad_stream(op, std::string("rtnl_from_file: fread: ") + std::strerror(errno));
    if (n == 0) return data;
    data.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

NetlinkError bad_stream(const char* op, std::string text, bool at_start) {
  return NetlinkError{.code = at_start ? EINVAL : EBADMSG, .op = op, .detail = std::move(text)};
}

NlResult<std::string_view> restore_input(const IpCommand& cmd, const char* op, const char* terminal_text,
                                         std::string& storage) {
  if (cmd.restore_input().from_batch) return std::string_view(cmd.restore_input().text);
  if (::isatty(STDIN_FILENO)) return bad_stream(op, terminal_text, true);
  storage = BRISK_TRY(read_all(STDIN_FILENO, op));
  return std::string_view(storage);
}

NlResult<void> each_saved_message(std::string_view data, uint32_t magic, const char* op,
                                  const std::function<NlResult<void>(const nlmsghdr&)>& fn) {
  uint32_t found = 0;
  std::memcpy(&found, data.data(), std::min(data.size(), sizeof found));
  if (data.size() < sizeof found || found != magic) {
    char text[64];
    std::snprintf(text, sizeof text, "Magic mismatch (%d elems, %x magic)",
                  data.size() >= sizeof found ? 1 : 0, found);
    return bad_stream(op, text, true);
  }
  std::vector<char> message;  // copied out, so that it is aligned
  std::size_t at = sizeof found;
  while (at < data.size()) {
    if (data.size() - at < sizeof(nlmsghdr)) return bad_stream(op, "rtnl-from_file: truncated message");
    nlmsghdr header;
    std::memcpy(&header, data.data() + at, sizeof header);
    if (header.nlmsg_len < sizeof(nlmsghdr) || header.nlmsg_len > kLargestMessage)
      return bad_stream(op, "!!!malformed message: len=" + std::to_string(int(header.nlmsg_len)) + " @" +
                                std::to_string(at + sizeof header));
    std::size_t length = header.nlmsg_len, padded = NLMSG_ALIGN(length);
    if (data.size() - at < padded) return bad_stream(op, "rtnl-from_file: truncated message");
    message.assign(data.data() + at, data.data() + at + length);
    BRISK_TRY(fn(*reinterpret_cast<const nlmsghdr*>(message.data())));
    at += padded;
  }
  return {};
}

}  // namespace brisk::ipcli
