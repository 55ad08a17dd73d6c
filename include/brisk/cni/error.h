// brisk/cni/error.h: the errors a CNI plugin reports, with the spec's codes.
//
// A plugin prints {"cniVersion","code","msg","details"} on stdout and exits
// non-zero; runtimes (libcni) read the code to decide what to do next.
#pragma once

#include <stdexcept>
#include <string>

namespace brisk::cni {

// The CNI spec's well-known error codes (SPEC.md, "Error codes").
enum class ErrorCode : unsigned {
  incompatible_version = 1,   // the config's cniVersion is not one we speak
  unsupported_field = 2,      // a field the plugin does not support
  unknown_container = 3,      // the container does not exist (or no CNI_CONTAINERID)
  invalid_environment = 4,    // a CNI_* variable is missing or malformed
  io_failure = 5,             // reading stdin or the lease store failed
  decoding_failure = 6,       // stdin is not valid JSON
  invalid_config = 7,         // the network config is invalid
  try_again_later = 11,       // transient: the runtime may retry
  plugin_not_available = 50,  // STATUS: the plugin cannot serve ADDs now
  limited_connectivity = 51,  // STATUS: limited connectivity, ADDs would fail
  internal = 999,             // anything else (libcni's catch-all)
};

struct CniError {
  ErrorCode code = ErrorCode::internal;  // what kind of failure
  std::string msg{};                     // one line for the runtime's log
  std::string details{};                 // more context; may be empty
};

// Thrown inside the plugin and turned into the error JSON at its edge:
// run_plugin() never lets one escape.
class CniException : public std::runtime_error {
 public:
  explicit CniException(CniError error);
  const CniError& error() const noexcept { return error_; }

 private:
  CniError error_;
};

[[noreturn]] void fail(ErrorCode code, std::string msg, std::string details = {});

}  // namespace brisk::cni
