#include "brisk/cni/error.h"

#include <utility>

namespace brisk::cni {

CniException::CniException(CniError error) : std::runtime_error(error.msg), error_(std::move(error)) {}

void fail(ErrorCode code, std::string msg, std::string details) {
  throw CniException({.code = code, .msg = std::move(msg), .details = std::move(details)});
}

}  // namespace brisk::cni
