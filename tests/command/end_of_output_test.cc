// When a run's output ends: the parent holds its own copy of each output
// pipe's write end while the run's processes live (so that their exit makes
// one wakeup, not two), and must let end of file through once they are gone,
// while still waiting for any descendant that holds the pipe.
#include <gtest/gtest.h>

#include <set>

#include "brisk/command.h"
#include "brisk/pipeline.h"
#include "support/test_support.h"

namespace brisk {
namespace {

using brisk::test::sh;

TEST(EndOfOutput, WaitsForADescendantThatStillWrites) {
  // The shell exits at once; its background child writes later.
  Output out = sh("(sleep 0.3; echo late; echo late-err >&2) & echo early").output();
  EXPECT_EQ(out.out, "early\nlate\n");
  EXPECT_EQ(out.err, "late-err\n");
}

TEST(EndOfOutput, StderrOfAPipelineMemberThatExitsFirst) {
  Pipeline pipeline({sh("echo first >&2"), sh("sleep 0.2; echo last; echo last-err >&2")});
  Output out = pipeline.output();
  EXPECT_EQ(out.out, "last\n");
  EXPECT_EQ(out.err, "first\nlast-err\n");
}

TEST(EndOfOutput, QuietAndCapturedRunsLeaveNoDescriptor) {
  Command("/bin/true").status();  // anything opened once and kept
  std::set<int> before = test::open_fds();
  for (int i = 0; i < 20; ++i) {
    Command("/bin/true").status();
    sh("echo out; echo err >&2").output();
    Process process = sh("exec sleep 10").spawn();
    (void)process.kill(SIGKILL);
  }
  EXPECT_EQ(test::open_fds(), before);
}

}  // namespace
}  // namespace brisk
