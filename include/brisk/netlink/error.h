// brisk/netlink/error.h: what a failed netlink request reports.
//
// Every rtnetlink call returns NlResult<T>: a value, or a NetlinkError that
// names the operation ("link add"), the object ("veth0"), errno, and what the
// kernel's extended ACK said (its message and the offending attribute).
//
//   auto added = brisk::netlink::add_link(conn, {.name = "veth0", ...});
//   if (!added) log(added.error().message());
//   // "link add veth0: File exists: kernel: ..."
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "brisk/export.h"
#include "brisk/result.h"

namespace brisk::netlink {

struct BRISK_EXPORT NetlinkError {
  int code = 0;                  // errno value, always positive
  const char* op = "";           // operation or syscall, e.g. "link add"; static storage
  std::string object{};          // what it acted on: a device, an address, a namespace
  std::string ext_ack{};         // the kernel's extended-ACK message; empty when it gave none
  uint32_t bad_attr_offset = 0;  // byte offset of the offending attribute in the request; 0: none
  uint16_t bad_attr_type = 0;    // that attribute's type, read from our copy of the request
  std::string detail{};          // brisk's own explanation (local validation, re-checks)
  bool kernel = false;           // the kernel refused the request (its NLMSG_ERROR), not a check of brisk's

  // "link add veth0: File exists: kernel: <ext-ack>: <detail>"
  std::string message() const;
  static NetlinkError from(const SysError& error);
};

template <class T>
using NlResult = Result<T, NetlinkError>;

// Thrown by NlResult::value() on an error.
class BRISK_EXPORT NetlinkException : public std::runtime_error {
 public:
  explicit NetlinkException(NetlinkError error);
  const NetlinkError& error() const noexcept { return error_; }

 private:
  NetlinkError error_;
};

[[noreturn]] BRISK_EXPORT BRISK_EXPORT void throw_error(const NetlinkError& error);

// An error found before anything was sent (bad name, missing peer, ...).
BRISK_EXPORT NetlinkError invalid_argument(const char* op, std::string object, std::string detail,
                                           int code = EINVAL);

}  // namespace brisk::netlink
