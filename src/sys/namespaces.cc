#include "sys/namespaces.h"

#include <linux/nsfs.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sockets.h"

namespace brisk::sys {

Result<void> setns(int fd, int nstype) {
  if (::setns(fd, nstype) < 0) return last_error("setns");
  return {};
}

Result<void> name_thread(const char* name) {
  if (::prctl(PR_SET_NAME, name, 0, 0, 0) < 0) return last_error("prctl(PR_SET_NAME)");
  return {};
}

Result<void> unshare(int flags) {
  if (::unshare(flags) < 0) return last_error("unshare");
  return {};
}

Result<void> mount(const std::string& source, const std::string& target, const char* fstype,
                   unsigned long flags) {
  if (::mount(source.c_str(), target.c_str(), fstype, flags, nullptr) < 0) return last_error("mount", target);
  return {};
}

Result<void> umount2(const std::string& target, int flags) {
  if (::umount2(target.c_str(), flags) < 0) return last_error("umount2", target);
  return {};
}

Result<UniqueFd> open_sysfs() {
  UniqueFd context(::fsopen("sysfs", FSOPEN_CLOEXEC));
  if (!context) return last_error("fsopen", "sysfs");
  // The superblock takes the namespace of the thread that creates it.
  if (::fsconfig(context.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) < 0)
    return last_error("fsconfig", "sysfs");
  int root =
      ::fsmount(context.get(), FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
  if (root < 0) return last_error("fsmount", "sysfs");
  return UniqueFd(root);
}

Result<void> mkdir(const std::string& path, mode_t mode) {
  if (::mkdir(path.c_str(), mode) < 0) return last_error("mkdir", path);
  return {};
}

Result<void> unlink(const std::string& path) {
  if (::unlink(path.c_str()) < 0) return last_error("unlink", path);
  return {};
}

Result<int> namespace_type(int fd) {
  int type = ::ioctl(fd, NS_GET_NSTYPE);
  if (type < 0) return last_error("ioctl(NS_GET_NSTYPE)");
  return type;
}

// pthread_create, not std::thread: std::thread frees its state object on
// the new thread, and glibc answers a thread's first free() by creating a
// malloc arena (a 64 MiB mapping, then page faults). Here nothing is
// allocated or freed on the thread unless fn itself does.
Result<void> run_on_thread(const std::function<Result<void>()>& fn) {
  struct Job {
    const std::function<Result<void>()>* fn;
    Result<void> result;
  } job{&fn, {}};
  pthread_t thread;
  int error = ::pthread_create(
      &thread, nullptr,
      [](void* arg) -> void* {
        auto* j = static_cast<Job*>(arg);
        j->result = (*j->fn)();
        return nullptr;
      },
      &job);
  if (error != 0) return SysError{.code = error, .call = "pthread_create"};
  ::pthread_join(thread, nullptr);
  return std::move(job.result);
}

Result<void> run_in_netns(int netns_fd, const std::function<Result<void>()>& fn) {
  if (netns_fd < 0) return fn();
  // A thread's namespaces die with it; the caller's thread is never moved.
  return run_on_thread([&]() -> Result<void> {
    BRISK_TRY(setns(netns_fd, CLONE_NEWNET));
    return fn();
  });
}

Result<UniqueFd> socket_in_netns(int netns_fd, int domain, int type, int protocol) {
  UniqueFd made;
  BRISK_TRY(run_in_netns(netns_fd, [&]() -> Result<void> {
    made = BRISK_TRY(sys::socket(domain, type, protocol));
    return {};
  }));
  return made;
}

}  // namespace brisk::sys
