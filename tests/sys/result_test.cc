#include "brisk/result.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include "sys/syscalls.h"

namespace brisk {
namespace {

TEST(Result, OpenFailureCarriesSyscallErrnoAndPath) {
  auto fd = sys::open("/nonexistent/brisk", O_RDONLY);
  ASSERT_FALSE(fd);
  EXPECT_EQ(fd.error().code, ENOENT);
  EXPECT_STREQ(fd.error().call, "open");
  EXPECT_EQ(fd.error().object, "/nonexistent/brisk");
  EXPECT_EQ(fd.error().message(), "open /nonexistent/brisk: No such file or directory");
}

TEST(Result, ValueOnErrorThrowsSystemErrorWithTheCode) {
  auto fd = sys::open("/nonexistent/brisk", O_RDONLY);
  try {
    (void)fd.value();
    FAIL() << "value() did not throw";
  } catch (const SystemError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_EQ(e.error().object, "/nonexistent/brisk");
  }
}

TEST(Result, OpenedDescriptorsAreCloseOnExec) {
  auto fd = sys::open("/dev/null", O_RDONLY);
  ASSERT_TRUE(fd);
  auto flags = sys::get_fd_flags(fd->get());
  ASSERT_TRUE(flags);
  EXPECT_TRUE(*flags & FD_CLOEXEC);
}

Result<int> twice(Result<int> in) {
  int v = BRISK_TRY(std::move(in));
  return v * 2;
}

TEST(Result, TryPropagatesErrorsAndUnwrapsValues) {
  EXPECT_EQ(*twice(21), 42);
  auto failed = twice(SysError{.code = EPERM, .call = "x"});
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, EPERM);
}

TEST(UniqueFd, ClosesOnDestructionAndNotAfterRelease) {
  int raw = -1;
  {
    auto fd = sys::open("/dev/null", O_RDONLY);
    raw = fd->get();
  }
  EXPECT_FALSE(sys::get_fd_flags(raw));
  auto fd = sys::open("/dev/null", O_RDONLY);
  int kept = fd->release();
  EXPECT_TRUE(sys::get_fd_flags(kept));
  UniqueFd again(kept);
}

}  // namespace
}  // namespace brisk
