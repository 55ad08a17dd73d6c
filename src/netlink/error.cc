#include "brisk/netlink/error.h"

#include <cstring>

namespace brisk::netlink {

std::string NetlinkError::message() const {
  std::string text = op;
  if (!object.empty()) {
    text += ' ';
    text += object;
  }
  text += ": ";
  text += code ? std::strerror(code) : "failed";
  if (!ext_ack.empty()) {
    text += ": kernel: ";
    text += ext_ack;
  }
  if (bad_attr_offset) {
    text += " (attribute type " + std::to_string(bad_attr_type) + " at offset " +
            std::to_string(bad_attr_offset) + ")";
  }
  if (!detail.empty()) {
    text += ": ";
    text += detail;
  }
  return text;
}

NetlinkError NetlinkError::from(const SysError& error) {
  return {.code = error.code, .op = error.call, .object = error.object, .detail = error.detail};
}

NetlinkException::NetlinkException(NetlinkError error)
    : std::runtime_error(error.message()), error_(std::move(error)) {}

void throw_error(const NetlinkError& error) { throw NetlinkException(error); }

NetlinkError invalid_argument(const char* op, std::string object, std::string detail, int code) {
  return {.code = code, .op = op, .object = std::move(object), .detail = std::move(detail)};
}

}  // namespace brisk::netlink
