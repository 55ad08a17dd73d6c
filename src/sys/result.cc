#include "brisk/result.h"

#include <cstring>

namespace brisk {

std::string SysError::message() const {
  std::string text = call;
  if (!object.empty()) {
    text += ' ';
    text += object;
  }
  text += ": ";
  text += code ? std::strerror(code) : "failed";
  if (!detail.empty()) {
    text += ": ";
    text += detail;
  }
  return text;
}

SystemError::SystemError(SysError error) : std::runtime_error(error.message()), error_(std::move(error)) {}

void throw_error(const SysError& error) { throw SystemError(error); }

SysError last_error(const char* call, std::string object) {
  return SysError{.code = errno, .call = call, .object = std::move(object)};
}

}  // namespace brisk
