// A failed read of a command's output pipe: the run must not pass what it
// read before as the whole output. It fails, says which stream and why, and
// leaves nothing behind.
#include "brisk/command.h"
#include "brisk/command_errors.h"
#include "fault/fault_support.h"

namespace brisk::fault_test {
namespace {

using sys::testing::faults_fired;
using sys::testing::inject;

TEST(ReadError, TheRunFailsAndNamesTheStream) {
  FaultGuard guard;
  LeakCheck leaks;
  inject("read", EIO, 1);
  Output out = Command({"/bin/sh", "-c", "echo out; echo err >&2"}).check(false).output();
  ASSERT_EQ(faults_fired(), 1u) << "no read reached the seam";
  EXPECT_FALSE(out.status.success());
  ASSERT_TRUE(out.status.read_error);
  EXPECT_EQ(out.status.read_error->code, EIO);
  EXPECT_TRUE(out.status.read_error->object == "stdout" || out.status.read_error->object == "stderr")
      << out.status.read_error->object;
  EXPECT_TRUE(out.status.exit.success()) << "the command itself succeeded";
  EXPECT_NE(out.status.to_string().find("output lost: read"), std::string::npos) << out.status.to_string();
  leaks.expect_clean("read error");
}

TEST(ReadError, ACheckedRunThrows) {
  FaultGuard guard;
  LeakCheck leaks;
  inject("read", EIO, 1);
  try {
    (void)Command({"echo", "hello"}).output();
    ADD_FAILURE() << "no exception";
  } catch (const ExecutionFailed& e) {
    EXPECT_NE(std::string(e.what()).find("output lost"), std::string::npos) << e.what();
  }
  leaks.expect_clean("checked read error");
}

}  // namespace
}  // namespace brisk::fault_test
