// Command::netns gives the program ip netns exec's view of the namespace:
// its /etc/netns/NAME files over /etc and its own /sys, in a mount
// namespace of the child's own. Each test runs on a thread with a private
// mount namespace holding its own /run (so /run/netns), /etc/netns and a
// stand-in for the host's /etc/resolv.conf: nothing reaches the host.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "brisk/command.h"
#include "brisk/netlink/netns.h"
#include "brisk/netns_dir.h"
#include "support/test_support.h"

namespace brisk {
namespace {

using ::testing::HasSubstr;

const std::string kHostResolv = "nameserver 192.0.2.1  # the host's\n";
const std::string kNetnsResolv = "nameserver 192.0.2.53  # the namespace's\n";

using brisk::test::slurp;

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

class NetnsViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::can_unshare_net()) GTEST_SKIP() << "needs CAP_SYS_ADMIN to create namespaces";
    if (!std::filesystem::exists("/etc/resolv.conf")) GTEST_SKIP() << "no /etc/resolv.conf to bind over";
  }

  // Runs body(name) in the sandbox, with the named namespace `name` made
  // and /etc/netns/NAME/resolv.conf written.
  void in_sandbox(const std::function<void(const std::string&)>& body) {
    // /etc/netns is only mounted over, never written; made (and removed
    // after) on a host that has none.
    bool made_etc_netns = ::mkdir(kNetnsEtcDir, 0755) == 0;
    std::string failure;
    std::thread([&] {
      if (::unshare(CLONE_NEWNS) != 0 || ::mount("", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
          ::mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") != 0 ||
          ::mount("tmpfs", kNetnsEtcDir, "tmpfs", 0, "mode=0755") != 0 ||
          ::mount(host_resolv_.c_str(), "/etc/resolv.conf", nullptr, MS_BIND, nullptr) != 0) {
        failure = std::string("sandbox mounts: ") + std::strerror(errno);
        return;
      }
      if (auto made = netlink::create_netns(name_); !made) {
        failure = made.error().message();
        return;
      }
      std::filesystem::create_directory(etc_dir());
      write_file(etc_dir() + "/resolv.conf", kNetnsResolv);
      body(name_);
      (void)netlink::delete_netns(name_);
    }).join();
    if (made_etc_netns) ::rmdir(kNetnsEtcDir);
    ASSERT_TRUE(failure.empty()) << failure;
  }

  std::string etc_dir() const { return std::string(kNetnsEtcDir) + "/" + name_; }

  std::string name_ = "brisk-view-" + std::to_string(::getpid());
  test::TempDir dir_;
  std::string host_resolv_ = [this] {
    write_file(dir_.path() + "/resolv.conf", kHostResolv);
    return dir_.path() + "/resolv.conf";
  }();
};

TEST_F(NetnsViewTest, TheProgramReadsTheNamespacesResolvConf) {
  in_sandbox([](const std::string& name) {
    ASSERT_EQ(slurp("/etc/resolv.conf"), kHostResolv);  // the sandbox's stand-in
    EXPECT_EQ(Command({"cat", "/etc/resolv.conf"}).netns(name).read(), kNetnsResolv);
    // Only for the program: the caller still reads its own.
    EXPECT_EQ(slurp("/etc/resolv.conf"), kHostResolv);
  });
}

TEST_F(NetnsViewTest, SysShowsTheNamespacesDevicesNotTheCallers) {
  in_sandbox([](const std::string& name) {
    ASSERT_TRUE(Command({"ip", "-n", name, "link", "add", "brvt0", "type", "bridge"}).status().success());
    EXPECT_EQ(Command({"ls", "/sys/class/net"}).netns(name).read(), "brvt0\nlo\n");
    EXPECT_FALSE(std::filesystem::exists("/sys/class/net/brvt0"));
    // A path has no /etc/netns directory: its view is /sys alone.
    Command by_path =
        Command({"sh", "-c", "ls /sys/class/net; cat /etc/resolv.conf"}).netns(netns_path(name));
    EXPECT_EQ(by_path.read(), "brvt0\nlo\n" + kHostResolv);
  });
}

TEST_F(NetnsViewTest, ViewFalseIsSetnsOnly) {
  in_sandbox([](const std::string& name) {
    ASSERT_TRUE(Command({"ip", "-n", name, "link", "add", "brvt1", "type", "bridge"}).status().success());
    std::string callers_sys = Command({"ls", "/sys/class/net"}).read();
    Command plain = Command({"sh", "-c", "cat /etc/resolv.conf; ls /sys/class/net; ip -o link | cut -d: -f2"})
                        .netns(name, {.view = false});
    // The host's resolv.conf and /sys, but the namespace's links.
    EXPECT_EQ(plain.read(), kHostResolv + callers_sys + " lo\n brvt1\n");
    EXPECT_FALSE(plain.spawn_options().netns_view);
  });
}

TEST_F(NetnsViewTest, AnEntryWithoutAnEtcCounterpartFailsClearlyOrIsSkipped) {
  in_sandbox([this](const std::string& name) {
    write_file(etc_dir() + "/brisk-no-such-file", "x\n");
    std::string object = etc_dir() + "/brisk-no-such-file -> /etc/brisk-no-such-file";
    // Every creation method reports the failing bind, fork's through shared memory.
    for (SpawnMethod method : {SpawnMethod::unknown, SpawnMethod::vfork, SpawnMethod::fork}) {
      testing::force_spawn_method(method);
      try {
        (void)Command({"cat", "/etc/resolv.conf"}).netns(name).status();
        ADD_FAILURE() << "spawned despite the failed bind, method " << to_string(method);
      } catch (const SpawnFailed& e) {
        EXPECT_EQ(e.error().step, SpawnStep::bind_etc) << to_string(method);
        EXPECT_EQ(e.error().code, ENOENT);
        EXPECT_EQ(e.error().object, object);
        EXPECT_EQ(std::string(e.what()), "spawn cat: bind " + object + ": No such file or directory");
      }
    }
    testing::force_spawn_method(SpawnMethod::unknown);
    // As ip does: skipped, and the other entries still bound.
    EXPECT_EQ(Command({"cat", "/etc/resolv.conf"}).netns(name, {.skip_failed_binds = true}).read(),
              kNetnsResolv);
  });
}

TEST_F(NetnsViewTest, LeavesTheCallersMountsAndDescriptorsAsTheyWere) {
  std::string process_mounts = slurp("/proc/self/mountinfo");
  in_sandbox([this](const std::string& name) {
    std::string thread_mounts = slurp("/proc/thread-self/mountinfo");
    (void)Command("/bin/true").status();  // what the engine opens once per process and keeps (/dev/null)
    auto fds = test::open_fds();
    EXPECT_EQ(Command({"cat", "/etc/resolv.conf"}).netns(name).read(), kNetnsResolv);
    // The program's own mount table does differ: /sys and the bind.
    std::string child_mounts = Command({"cat", "/proc/self/mountinfo"}).netns(name).read();
    EXPECT_THAT(child_mounts, HasSubstr(" /etc/resolv.conf "));
    EXPECT_THAT(child_mounts, HasSubstr(" - sysfs " + name + " "));
    write_file(etc_dir() + "/brisk-no-such-file", "x\n");
    EXPECT_THROW((void)Command("true").netns(name).status(), SpawnFailed);
    EXPECT_EQ(slurp("/proc/thread-self/mountinfo"), thread_mounts);
    EXPECT_EQ(test::open_fds(), fds);
  });
  EXPECT_EQ(slurp("/proc/self/mountinfo"), process_mounts);
}

// What brisk netns exec runs before it execs in place: the same steps, on
// the calling thread, with the skipped binds handed back for ip's warnings.
TEST_F(NetnsViewTest, ApplyGivesTheCallingThreadTheSameView) {
  in_sandbox([this](const std::string& name) {
    write_file(etc_dir() + "/brisk-no-such-file", "x\n");
    std::string thread_mounts = slurp("/proc/thread-self/mountinfo");
    std::thread([&] {
      auto netns = netlink::open_netns(name);
      ASSERT_TRUE(netns) << netns.error().message();
      ASSERT_EQ(::setns(netns->get(), CLONE_NEWNET), 0);
      NetnsView view = NetnsView::of(name);
      view.skip_failed_binds = true;
      auto applied = apply_netns_view(view);
      ASSERT_TRUE(applied) << applied.error().message();
      ASSERT_EQ(applied->size(), 1u);
      EXPECT_EQ((*applied)[0].step, SpawnStep::bind_etc);
      EXPECT_EQ((*applied)[0].code, ENOENT);
      EXPECT_EQ((*applied)[0].object, etc_dir() + "/brisk-no-such-file -> /etc/brisk-no-such-file");
      EXPECT_EQ(slurp("/etc/resolv.conf"), kNetnsResolv);
      EXPECT_EQ(Command({"ls", "/sys/class/net"}).read(), "lo\n");
      // Without skipping, the first failed bind is the error.
      view.skip_failed_binds = false;
      auto strict = apply_netns_view(view);
      ASSERT_FALSE(strict);
      EXPECT_EQ(strict.error().step, SpawnStep::bind_etc);
    }).join();
    EXPECT_EQ(slurp("/proc/thread-self/mountinfo"), thread_mounts);
    EXPECT_EQ(slurp("/etc/resolv.conf"), kHostResolv);
  });
}

}  // namespace
}  // namespace brisk
