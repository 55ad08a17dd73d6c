#include "sandbox/net_sandbox.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace brisk::sandbox {
namespace {

std::runtime_error sys_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

// On the sandbox thread: everything below is undone by the kernel when the
// namespaces die with this process.
void enter_sandbox() {
  if (::unshare(CLONE_NEWNS | CLONE_NEWNET) != 0)
    throw sys_error("cannot make private mount and network namespaces (needs CAP_SYS_ADMIN)");
  // Private first: nothing mounted from here on may propagate to the host.
  if (::mount("", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    throw sys_error("mount --make-rprivate /");
  if (::mount("brisk-bench", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0)
    throw sys_error("mount a tmpfs on /run");
  // Where /var/run is its own directory (not the usual symlink), hide it too.
  std::error_code ec;
  if (!std::filesystem::is_symlink("/var/run", ec) && std::filesystem::is_directory("/var/run", ec) &&
      ::mount("brisk-bench", "/var/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0)
    throw sys_error("mount a tmpfs on /var/run");
  if (::mkdir("/run/netns", 0755) != 0 || ::mkdir(kSandboxScratch, 0700) != 0)
    throw sys_error("mkdir in the private /run");
  if (!reset_inherited_net_settings_here()) throw sys_error("reset the sandbox's inherited sysctls");
  disable_ipv6_here();
}

// Writes value to /proc/sys/net/<knob>; a knob this kernel lacks is no failure.
bool write_knob(const std::string& knob, const char* value) {
  int fd = ::open(("/proc/sys/net/" + knob).c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  std::size_t size = std::strlen(value);
  bool ok = ::write(fd, value, size) == static_cast<ssize_t>(size);
  ::close(fd);
  return ok;
}

// IPv4 devconf knobs whose values differ between hosts, with the kernel's
// defaults for conf/all and conf/default (net/ipv4/devinet.c: ipv4_devconf
// and ipv4_devconf_dflt).
struct InheritedKnob {
  const char* name;
  const char* all;
  const char* dflt;
};
constexpr InheritedKnob kInheritedIpv4[] = {
    {"forwarding", "0", "0"},
    {"rp_filter", "0", "0"},
    {"promote_secondaries", "0", "0"},
    {"accept_source_route", "0", "1"},
    {"accept_redirects", "1", "1"},
    {"secure_redirects", "1", "1"},
    {"send_redirects", "1", "1"},
    {"proxy_arp", "0", "0"},
    {"arp_filter", "0", "0"},
    {"arp_ignore", "0", "0"},
    {"arp_announce", "0", "0"},
    {"arp_accept", "0", "0"},
    {"arp_notify", "0", "0"},
    {"log_martians", "0", "0"},
    {"route_localnet", "0", "0"},
    {"bc_forwarding", "0", "0"},
    {"ignore_routes_with_linkdown", "0", "0"},
};

}  // namespace

bool reset_inherited_net_settings_here() {
  // ip_forward first: writing it sets every device's forwarding as well.
  bool ok = write_knob("ipv4/ip_forward", "0");
  for (const auto& knob : kInheritedIpv4) {
    ok &= write_knob(std::string("ipv4/conf/all/") + knob.name, knob.all);
    ok &= write_knob(std::string("ipv4/conf/default/") + knob.name, knob.dflt);
  }
  for (const char* conf : {"all", "default"})
    ok &= write_knob(std::string("ipv6/conf/") + conf + "/forwarding", "0");
  return ok;
}

void disable_ipv6_here() {
  // A kernel without IPv6 has neither knob, and then nothing to turn off.
  for (const char* conf : {"all", "default"})
    (void)write_knob(std::string("ipv6/conf/") + conf + "/disable_ipv6", "1");
}

void run_in_net_sandbox(const std::function<void()>& fn) {
  std::exception_ptr failure;
  std::thread([&] {
    try {
      enter_sandbox();
      fn();
    } catch (...) {
      failure = std::current_exception();
    }
  }).join();
  if (failure) std::rethrow_exception(failure);
}

struct NetnsDirThread::State {
  std::mutex mutex;
  std::condition_variable wake;
  const std::function<void()>* job = nullptr;  // set by run(), cleared when done
  std::exception_ptr failure;
  bool ready = false;
  bool stop = false;
};

NetnsDirThread::NetnsDirThread(const std::string& name) : state_(std::make_unique<State>()) {
  thread_ = std::thread([s = state_.get(), name = name.substr(0, 15)] {
    ::pthread_setname_np(::pthread_self(), name.c_str());
    std::unique_lock lock(s->mutex);
    try {
      if (::unshare(CLONE_NEWNS) != 0) throw sys_error("cannot make a private mount namespace");
      if (::mount("brisk-bench", "/run/netns", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0)
        throw sys_error("mount a tmpfs on /run/netns");
    } catch (...) {
      s->failure = std::current_exception();
      s->stop = true;
    }
    s->ready = true;
    s->wake.notify_all();
    while (!s->stop) {
      s->wake.wait(lock, [s] { return s->job || s->stop; });
      if (!s->job) continue;
      try {
        (*s->job)();
      } catch (...) {
        s->failure = std::current_exception();
      }
      s->job = nullptr;
      s->wake.notify_all();
    }
  });
  std::unique_lock lock(state_->mutex);
  state_->wake.wait(lock, [this] { return state_->ready; });
  if (state_->failure) {
    lock.unlock();
    thread_.join();
    std::rethrow_exception(state_->failure);
  }
}

NetnsDirThread::~NetnsDirThread() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stop = true;
  }
  state_->wake.notify_all();
  thread_.join();
}

void NetnsDirThread::run(const std::function<void()>& fn) {
  std::unique_lock lock(state_->mutex);
  state_->job = &fn;
  state_->failure = nullptr;
  state_->wake.notify_all();
  state_->wake.wait(lock, [this] { return state_->job == nullptr; });
  if (auto failure = std::exchange(state_->failure, nullptr)) std::rethrow_exception(failure);
}

UniqueFd fresh_netns() {
  UniqueFd fd;
  std::thread([&fd] {
    if (::unshare(CLONE_NEWNET) != 0 || !reset_inherited_net_settings_here()) return;
    disable_ipv6_here();
    fd.reset(::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC));
  }).join();
  if (!fd) throw std::runtime_error("cannot create a network namespace (needs CAP_SYS_ADMIN)");
  return fd;
}

}  // namespace brisk::sandbox
