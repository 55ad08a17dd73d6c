// The vfork-style child as seen by an unprivileged process. Between its
// credential change and exec, the child has an unprivileged uid but still
// shares the root parent's memory: if another process of that uid could
// ptrace it or read its /proc/<pid>/mem, it would own the parent. Ruby
// refuses vfork when privileged for this reason; these tests pause a child
// there (brisk::testing::pause_before_exec) and try.
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>

#include <fstream>
#include <thread>

#include "brisk/spawn.h"
#include "fault/fault_support.h"

namespace brisk::fault_test {
namespace {

// Spawns /bin/true as `credentials`, paused before exec; runs probe(pid)
// while it waits there, then lets it go and reaps it.
template <class Probe>
void with_paused_child(const Credentials& credentials, Probe probe) {
  PausedSpawn paused({.argv = {"/bin/true"}, .credentials = credentials});
  // The child reaches the pause only if every step before it worked; wait
  // until /proc shows its final identity.
  long uid = -1;
  for (int tries = 0; tries < 1000000 && uid != static_cast<long>(credentials.uid); ++tries) {
    uid = uid_of(paused.pid());
    std::this_thread::yield();
  }
  if (uid == static_cast<long>(credentials.uid)) probe(paused.pid());
  auto child = paused.release();
  EXPECT_EQ(uid, static_cast<long>(credentials.uid)) << "the child never took its new identity";
  ASSERT_TRUE(child) << child.error().message();
  auto status = child->wait();
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->success());
}

TEST(Privilege, AnUnprivilegedProcessCannotPtraceOrReadAPausedChild) {
  if (!test::is_root()) GTEST_SKIP() << "needs root to spawn as another uid";
  Credentials nobody{.uid = 65534, .gid = 65534, .groups = {}};
  with_paused_child(nobody, [](pid_t paused) {
    // The prober: a separate process with the very same uid and gid.
    int code = in_forked_process([paused] {
      if (!drop_to_nobody()) return 10;
      errno = 0;
      if (::ptrace(PTRACE_ATTACH, paused, nullptr, nullptr) == 0) return 11;
      if (errno != EPERM) return 12;
      if (::ptrace(PTRACE_SEIZE, paused, nullptr, nullptr) == 0) return 13;
      if (errno != EPERM) return 14;
      std::string mem = "/proc/" + std::to_string(paused) + "/mem";
      int fd = ::open(mem.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        char byte;
        // Any address of the shared mm would do; the open itself should fail.
        if (::pread(fd, &byte, 1, reinterpret_cast<off_t>(&byte)) >= 0) return 15;
        ::close(fd);
        return 16;
      }
      if (errno != EACCES && errno != EPERM) return 17;
      return 0;
    });
    EXPECT_EQ(code, 0) << "11/13: ptrace succeeded, 12/14: not EPERM, 15/16: /proc/pid/mem opened";
    EXPECT_EQ(uid_of(paused), 65534);
  });
}

// The same process, and root: proof that the probe can succeed at all, so
// that the EPERM above means something.
TEST(Privilege, RootCanPtraceAPausedChildSoTheProbeIsReal) {
  if (!test::is_root()) GTEST_SKIP() << "needs root";
  Credentials nobody{.uid = 65534, .gid = 65534, .groups = {}};
  with_paused_child(nobody, [](pid_t paused) {
    int code = in_forked_process([paused] {
      if (::ptrace(PTRACE_SEIZE, paused, nullptr, nullptr) != 0) return 20;
      return 0;  // exiting detaches
    });
    EXPECT_EQ(code, 0);
  });
}

// commit_creds in the child sets the dumpable flag of the mm it shares with
// us to fs.suid_dumpable (0 by default): spawn() must put ours back after.
TEST(Privilege, TheParentStaysDumpableAfterSpawningAsAnotherUser) {
  if (!test::is_root()) GTEST_SKIP() << "needs root to spawn as another uid";
  ASSERT_EQ(::prctl(PR_GET_DUMPABLE), 1) << "the test process starts non-dumpable";
  Credentials nobody{.uid = 65534, .gid = 65534, .groups = {}};
  auto child = spawn({.argv = {"/bin/true"}, .credentials = nobody});
  ASSERT_TRUE(child) << child.error().message();
  EXPECT_EQ(::prctl(PR_GET_DUMPABLE), 1);
  ASSERT_TRUE(child->wait());
  // A failed child (exec of nothing) too.
  auto failed = spawn({.argv = {"/nonexistent"}, .credentials = nobody});
  ASSERT_FALSE(failed);
  EXPECT_EQ(::prctl(PR_GET_DUMPABLE), 1);
  // And a parent that was not dumpable stays so.
  ASSERT_EQ(::prctl(PR_SET_DUMPABLE, 0), 0);
  auto again = spawn({.argv = {"/bin/true"}, .credentials = nobody});
  ASSERT_TRUE(again);
  EXPECT_EQ(::prctl(PR_GET_DUMPABLE), 0);
  ::prctl(PR_SET_DUMPABLE, 1);
  ASSERT_TRUE(again->wait());
}

}  // namespace
}  // namespace brisk::fault_test
