// Running out: processes (RLIMIT_NPROC -> EAGAIN from clone), descriptors
// (RLIMIT_NOFILE -> EMFILE at every fd brisk opens) and memory (ENOMEM for
// the child stack). Each must be a typed error that leaves nothing behind.
#include <dirent.h>
#include <sys/resource.h>

#include <fstream>

#include "brisk/command.h"
#include "brisk/netlink/link.h"
#include "brisk/spawn.h"
#include "fault/fault_support.h"
#include "netlink/netns_fixture.h"
#include "spawn/stack_pool.h"

namespace brisk::fault_test {
namespace {

using sys::testing::faults_fired;
using sys::testing::inject;

// Processes of `uid` alive now, from /proc.
rlim_t processes_of(uid_t uid) {
  rlim_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    std::string text((std::istreambuf_iterator<char>(status)), {});
    std::string uids = test::status_field(text, "Uid:");
    if (!uids.empty() && std::stoul(uids.substr(uids.find_first_of("0123456789"))) == uid) ++count;
  }
  return count;
}

// RLIMIT_NPROC binds only without CAP_SYS_RESOURCE/CAP_SYS_ADMIN: a forked
// copy drops to a uid of its own (so that no concurrent test changes the
// count) with the limit at the count it has reached.
TEST(Exhaustion, CloneFailsWithEagainAtRlimitNproc) {
  if (!test::is_root()) GTEST_SKIP() << "needs root to drop to another uid";
  int code = in_forked_process([] {
    LeakCheck::warm_up();  // before the limit: the warm-up spawns too
    const unsigned uid = 3000000 + static_cast<unsigned>(::getpid());
    if (!drop_to_nobody(uid)) return 10;
    rlim_t now = processes_of(uid);
    rlimit limit{now, now};
    if (::setrlimit(RLIMIT_NPROC, &limit) < 0) return 11;
    LeakCheck leaks;
    auto child = spawn({.argv = {"/bin/true"}});
    if (child) return 12;
    if (child.error().step != SpawnStep::clone || child.error().code != EAGAIN) {
      fprintf(stderr, "got %s\n", child.error().message().c_str());
      return 13;
    }
    try {
      Command({"/bin/true"}).output();
      return 14;
    } catch (const SpawnFailed& e) {
      if (e.error().code != EAGAIN || e.error().step != SpawnStep::clone) return 15;
    }
    leaks.expect_clean("nproc");
    return ::testing::Test::HasFailure() ? 16 : 0;
  });
  EXPECT_EQ(code, 0);
}

// Sets the soft RLIMIT_NOFILE for the life of the object.
class FdLimit {
 public:
  explicit FdLimit(rlim_t soft) {
    ::getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit limit{soft, saved_.rlim_max};
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  ~FdLimit() { ::setrlimit(RLIMIT_NOFILE, &saved_); }

 private:
  rlimit saved_{};
};

// From "no descriptor left" up to "enough": each limit in between makes a
// different descriptor fail (pipes, the pidfd, the child's fd map).
TEST(Exhaustion, EveryDescriptorACapturedRunOpensCanFailWithEmfile) {
  CompactFds compact;
  LeakCheck leaks;
  int highest = compact.highest();
  int failures = 0;
  bool succeeded = false;
  std::set<SpawnStep> steps;
  for (rlim_t extra = 0; extra <= 12 && !succeeded; ++extra) {
    std::exception_ptr caught;
    {
      FdLimit limit(static_cast<rlim_t>(highest + 1) + extra);
      try {
        Output out = Command({"/bin/sh", "-c", "echo ok"}).stdin_from(Input::data("x")).output();
        EXPECT_EQ(out.out, "ok\n");
        succeeded = true;
      } catch (...) {
        // Looked at below: UBSan's vptr check needs a pipe, the leak check
        // needs descriptors, and there are none here.
        caught = std::current_exception();
      }
    }
    if (caught) {
      try {
        std::rethrow_exception(caught);
      } catch (const SpawnFailed& e) {
        ++failures;
        EXPECT_EQ(e.error().code, EMFILE) << e.what();
        steps.insert(e.error().step);
      }
    }
    leaks.expect_clean("limit +" + std::to_string(extra));
  }
  EXPECT_TRUE(succeeded) << "never enough descriptors";
  EXPECT_GE(failures, 3) << "the sweep missed the failing opens";
  // The pipes (prepare), the pidfd clone3 returns (clone) and the child's
  // parked copies above every fd (fd_map) each ran out in turn.
  EXPECT_EQ(steps, (std::set<SpawnStep>{SpawnStep::prepare, SpawnStep::clone, SpawnStep::fd_map}));
}

// The opens only spawn() makes: /dev/null for stdio and a namespace by path.
TEST(Exhaustion, SpawnInternalOpensFailWithEmfile) {
  CompactFds compact;
  LeakCheck leaks;
  std::optional<FdLimit> limit(std::in_place, static_cast<rlim_t>(compact.highest() + 1));
  for (bool by_path : {false, true}) {
    SpawnOptions options{.argv = {"/bin/true"}, .inherit_stdio = by_path};
    if (by_path) options.namespaces = {{.type = CLONE_NEWNET, .path = "/proc/self/ns/net"}};
    auto child = spawn(options);
    ASSERT_FALSE(child);
    EXPECT_EQ(child.error().step, SpawnStep::prepare);
    EXPECT_EQ(child.error().code, EMFILE);
    EXPECT_EQ(child.error().object, by_path ? "/proc/self/ns/net" : "/dev/null");
  }
  limit.reset();
  leaks.expect_clean("spawn opens");
}

// The same through the seam, for the descriptors a limit cannot reach in
// isolation (pidfd_open is only used by the vfork and fork fallbacks).
TEST(Exhaustion, InjectedEmfileAtEachOpenIsTyped) {
  for (const char* call : {"pipe2", "open", "pidfd_open"}) {
    FaultGuard guard;
    LeakCheck leaks;
    if (std::string(call) == "pidfd_open") testing::force_spawn_method(SpawnMethod::vfork);
    inject(call, EMFILE);
    try {
      Command({"/bin/echo", "x"}).stdin_from(Input::file("/dev/null")).output();
      ADD_FAILURE() << call << ": the run succeeded";
    } catch (const SpawnFailed& e) {
      EXPECT_EQ(e.error().code, EMFILE) << call << ": " << e.what();
    } catch (const SystemError& e) {
      EXPECT_EQ(e.error().code, EMFILE) << call << ": " << e.what();
    }
    testing::force_spawn_method(SpawnMethod::unknown);
    EXPECT_EQ(faults_fired(), 1u) << call;
    leaks.expect_clean(call);
  }
}

class NetlinkExhaustion : public netlink::test::NetnsTest {};

TEST_F(NetlinkExhaustion, OpeningAConnectionFailsWithEmfileAndLeaksNothing) {
  LeakCheck leaks;
  std::optional<CompactFds> compact(std::in_place);
  int highest = compact->highest();
  int failures = 0;
  bool opened = false;
  // No virtual call under the limit: UBSan's vptr check needs a pipe. So
  // the namespace fd is read before, and a connection that opened (its
  // Transport has a virtual destructor) is closed after the limit is lifted.
  const int ns_fd = ns();
  std::optional<netlink::NlResult<netlink::Connection>> conn;
  for (rlim_t extra = 0; extra <= 4 && !opened; ++extra) {
    FdLimit limit(static_cast<rlim_t>(highest + 1) + extra);
    conn.emplace(netlink::Connection::open_in(ns_fd));
    if (*conn) {
      opened = true;
      continue;
    }
    ++failures;
    EXPECT_EQ(conn->error().code, EMFILE) << conn->error().message();
  }
  conn.reset();
  EXPECT_TRUE(opened);
  EXPECT_GE(failures, 2) << "the namespace dup and the socket should each fail once";
  compact.reset();
  leaks.expect_clean("netlink open");
  FaultGuard guard;
  for (const char* call : {"dup", "socket"}) {
    inject(call, EMFILE);
    auto conn = netlink::Connection::open_in(ns());
    ASSERT_FALSE(conn) << call;
    EXPECT_EQ(conn.error().code, EMFILE) << call;
  }
  leaks.expect_clean("netlink open (seam)");
}

// ENOMEM for the child's stack. The pool keeps stacks for reuse, so first
// take every pooled one (and one fresh), then the next spawn must map.
TEST(Exhaustion, ChildStackMmapFailsWithEnomem) {
  FaultGuard guard;
  LeakCheck leaks;
  std::vector<detail::StackArena> held;
  inject("mmap", ENOMEM);
  for (;;) {
    auto arena = detail::acquire_stack();
    if (!arena) {
      EXPECT_EQ(arena.error().code, ENOMEM);
      break;
    }
    held.push_back(*arena);
    ASSERT_LT(held.size(), 10000u);
  }
  inject("mmap", ENOMEM, 1, 2);  // for spawn() and for Command
  auto child = spawn({.argv = {"/bin/true"}});
  ASSERT_FALSE(child);
  EXPECT_EQ(child.error().step, SpawnStep::prepare);
  EXPECT_EQ(child.error().code, ENOMEM);
  EXPECT_EQ(child.error().object, "child stack");
  try {
    Command({"/bin/true"}).output();
    ADD_FAILURE() << "ran without a stack";
  } catch (const SpawnFailed& e) {
    EXPECT_EQ(e.error().code, ENOMEM);
  }
  inject("mmap", ENOMEM);
  for (auto& arena : held) detail::release_stack(arena);
  leaks.expect_clean("stack");
  // And the pool still works afterwards.
  EXPECT_TRUE(Command({"/bin/true"}).status().success());
}

// The real thing: an address-space limit at the current size, in a forked
// copy whose pool is drained first.
TEST(Exhaustion, RlimitAsMakesTheStackMapFailWithEnomem) {
  int code = in_forked_process([] {
    std::vector<detail::StackArena> held;
    for (int i = 0; i < 64; ++i) {
      auto arena = detail::acquire_stack();
      if (!arena) return 20;
      held.push_back(*arena);
    }
    std::ifstream status("/proc/self/status");
    std::string text((std::istreambuf_iterator<char>(status)), {});
    std::string vm = test::status_field(text, "VmSize:");
    rlim_t kb = std::stoul(vm.substr(vm.find_first_of("0123456789")));
    SpawnOptions options{.argv = {"/bin/true"}};
    rlimit limit{kb * 1024 + 16 * 1024, RLIM_INFINITY};  // room for small mallocs, not a stack
    if (::setrlimit(RLIMIT_AS, &limit) < 0) return 21;
    int result = 0;
    try {
      auto child = spawn(options);
      if (child)
        result = 22;
      else if (child.error().code != ENOMEM)
        result = 23;
    } catch (const std::bad_alloc&) {
      result = 0;  // a typed error too: the heap could not grow either
    }
    return result;
  });
  EXPECT_EQ(code, 0);
}

}  // namespace
}  // namespace brisk::fault_test
