#include "brisk/netlink/error.h"

#include <cerrno>
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

const char* argument_name(Argument argument) {
  switch (argument) {
    case Argument::none:
      return "";
    case Argument::device:
      return "dev";
    case Argument::master:
      return "master";
    case Argument::link:
      return "link";
    case Argument::vxlan_device:
      return "vxlan dev";
    case Argument::backup_port:
      return "backup_port";
    case Argument::nexthop_device:
      return "nexthop dev";
    case Argument::vrf:
      return "vrf";
    case Argument::netns:
      return "netns";
    case Argument::link_netns:
      return "link-netns";
  }
  return "";
}

NetlinkError missing_argument(const char* op, std::string object, Argument argument, std::string name) {
  NetlinkError e{.code = ENODEV,
                 .op = op,
                 .object = std::move(object),
                 .detail = std::string(argument_name(argument)) + " '" + name + "' does not exist"};
  e.missing = argument;
  e.missing_name = std::move(name);
  return e;
}

}  // namespace brisk::netlink
