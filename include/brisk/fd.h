// brisk/fd.h: an owned file descriptor.
//
// UniqueFd closes its descriptor exactly once, when destroyed or reset. brisk
// hands out every descriptor it opens this way, and opens each one O_CLOEXEC.
#pragma once

#include <utility>

#include "brisk/export.h"

namespace brisk {

class BRISK_EXPORT UniqueFd {
 public:
  UniqueFd() noexcept = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  explicit operator bool() const noexcept { return valid(); }

  // Gives up ownership without closing.
  int release() noexcept { return std::exchange(fd_, -1); }
  // Closes the current descriptor (EINTR is not retried: Linux always frees
  // the descriptor) and takes ownership of fd.
  void reset(int fd = -1) noexcept;

 private:
  int fd_ = -1;
};

}  // namespace brisk
