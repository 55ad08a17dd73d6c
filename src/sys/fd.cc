#include "brisk/fd.h"

#include <unistd.h>

namespace brisk {

void UniqueFd::reset(int fd) noexcept {
  if (fd_ >= 0 && fd_ != fd) ::close(fd_);
  fd_ = fd;
}

}  // namespace brisk
