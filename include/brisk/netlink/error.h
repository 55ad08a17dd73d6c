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

// The argument of a request that named a device or namespace that does not
// exist, when that is why the request failed (code ENODEV). Code that must
// tell which one acts on NetlinkError::missing, never on `detail`'s words.
enum class Argument : uint8_t {
  none,            // the error is not about a missing argument
  device,          // dev DEV (also a route's iif, and a device a show selects)
  master,          // master DEV
  link,            // a macvlan's or vlan's parent: link DEV
  vxlan_device,    // a vxlan's underlying dev DEV
  backup_port,     // a bridge port's backup_port DEV
  nexthop_device,  // a multipath route's nexthop dev DEV
  vrf,             // a VRF: a device of kind vrf
  netns,           // a network namespace, by name or pid
  link_netns,      // link-netns NAME
};

// The file-system step of a namespace-file operation that failed (see
// brisk/netlink/netns.h), for callers that word each one their own way, as
// ip netns does; none for everything else.
enum class FileStep : uint8_t {
  none,
  create,  // making the namespace's file; `path` is the file
  bind,    // binding a namespace onto it; `path` is the namespace bound
  remove,  // removing the file; `path` is the file
};

// How a message writes the argument: "dev", "master", "nexthop dev", ...
BRISK_EXPORT const char* argument_name(Argument argument);

struct BRISK_EXPORT NetlinkError {
  int code = 0;                  // errno value, always positive
  const char* op = "";           // operation or syscall, e.g. "link add"; static storage
  std::string object{};          // what it acted on: a device, an address, a namespace
  std::string ext_ack{};         // the kernel's extended-ACK message; empty when it gave none
  uint32_t bad_attr_offset = 0;  // byte offset of the offending attribute in the request; 0: none
  uint16_t bad_attr_type = 0;    // that attribute's type, read from our copy of the request
  std::string detail{};          // brisk's own explanation (local validation, re-checks)
  bool kernel = false;           // the kernel refused the request (its NLMSG_ERROR), not a check of brisk's
  bool dump = false;             // the request was a dump, which the kernel ended with this error
  Argument missing = Argument::none;  // with ENODEV: the argument that named nothing, if that is the failure
  std::string missing_name{};         // what that argument named
  FileStep file_step = FileStep::none;  // a namespace file's step that failed, if that is the failure
  std::string path{};                   // the file of that step

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
// ENODEV for an argument that names nothing: `missing` and `missing_name`
// set, and the detail "ARGUMENT 'NAME' does not exist".
BRISK_EXPORT NetlinkError missing_argument(const char* op, std::string object, Argument argument,
                                           std::string name);

}  // namespace brisk::netlink
