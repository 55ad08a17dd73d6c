// spawn/spawn.cc: the parent side of brisk::spawn().
//
// Validates the options, resolves the program, opens what the child will need
// and lays it all out in a ChildPlan; then starts the child and turns its
// report into a SpawnError. Nothing here runs in the child.
#include "brisk/spawn.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <string_view>

#include "spawn/child_plan.h"
#include "spawn/program_path.h"
#include "spawn/stack_pool.h"
#include "spawn/start_child.h"
#include "sys/syscalls.h"

extern char** environ;

namespace brisk {
namespace {

std::atomic<bool> g_force_proc_walk{false};
std::atomic<int> g_pause_fd{-1};  // testing::pause_before_exec
// Held shared by every spawn whose child changes credentials, from clone to
// its exec; exclusively to restore the dumpable flag (see Preparer::run).
std::shared_mutex g_credential_children;

// close_range(CLOSE_RANGE_CLOEXEC) is Linux 5.11; probe once on an fd number
// that cannot be open, which is harmless either way.
bool close_range_cloexec_works() {
  static const bool works = ::syscall(SYS_close_range, ~0U, ~0U, CLOSE_RANGE_CLOEXEC) == 0;
  return works;
}

bool has_nul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

// Everything the plan points into; it outlives the child's exec.
struct PlanStorage {
  std::vector<std::string> candidates;
  std::vector<const char*> candidate_ptrs;
  std::vector<char*> argv;
  std::vector<std::string> env_strings;
  std::vector<char*> envp;
  std::vector<int> map_source, map_target, map_parked, keep;
  std::vector<UniqueFd> owned_fds;  // namespaces, /dev/null, cgroup dir
  std::vector<int> ns_fds, ns_types;
  std::vector<detail::ChildRlimit> rlimits;
  std::vector<gid_t> groups;
  UniqueFd cgroup_dir;
  detail::NetnsViewStorage netns_view;
};

class Preparer {
 public:
  explicit Preparer(const SpawnOptions& options) : o_(options) {
    error_.program = o_.program.empty() ? (o_.argv.empty() ? std::string() : o_.argv[0]) : o_.program;
  }

  Result<Child, SpawnError> run();

 private:
  SpawnError fail(SpawnStep step, int code, std::string object = {}, std::string detail = {}) const {
    SpawnError error = error_;
    error.step = step;
    error.code = code;
    error.object = std::move(object);
    error.detail = std::move(detail);
    return error;
  }
  SpawnError invalid(std::string detail, int code = EINVAL) const {
    return fail(SpawnStep::validate, code, {}, std::move(detail));
  }

  std::optional<SpawnError> validate();
  std::optional<SpawnError> check_paths();
  std::optional<SpawnError> resolve_program();
  void build_argv_envp();
  std::optional<SpawnError> prepare_fds();
  std::optional<SpawnError> prepare_namespaces_and_cgroup();
  void prepare_credentials_and_limits();
  Result<UniqueFd> open_internal(const std::string& path, int flags);
  SpawnError from_report(const detail::ChildReport& report) const;

  const SpawnOptions& o_;
  SpawnError error_;
  PlanStorage s_;
  detail::ChildPlan plan_;
  bool mount_ns_changes_ = false;
  int first_internal_fd_ = 3;  // internal fds are placed above every mapped target
};

std::optional<SpawnError> Preparer::validate() {
  if (o_.argv.empty()) return invalid("argv is empty");
  for (const auto& arg : o_.argv)
    if (has_nul(arg)) return invalid("argument contains a NUL byte: " + std::string(arg.c_str()));
  if (has_nul(o_.program)) return invalid("program path contains a NUL byte");
  if (o_.program.empty() && o_.argv[0].empty()) return invalid("program name is empty");
  for (const auto& [key, value] : o_.env) {
    if (key.empty() || key.find('=') != std::string::npos || has_nul(key))
      return invalid("invalid environment variable name '" + std::string(key.c_str()) + "'");
    if (value && has_nul(*value)) return invalid("environment variable " + key + " contains a NUL byte");
  }
  if (has_nul(o_.cwd) || has_nul(o_.chroot) || has_nul(o_.cgroup)) return invalid("path contains a NUL byte");
  if (o_.setsid && o_.process_group)
    return invalid("setsid and process_group conflict: a session leader leads its own group");
  if (o_.process_group && *o_.process_group < 0)
    return invalid("process_group must be 0 or a positive group id");
  if (o_.parent_death_signal < 0 || o_.parent_death_signal >= NSIG)
    return invalid("parent_death_signal out of range");
  for (const auto& limit : o_.rlimits) {
    if (limit.resource < 0 || limit.resource >= RLIM_NLIMITS)
      return invalid("unknown rlimit resource " + std::to_string(limit.resource));
    if (limit.soft > limit.hard) return invalid("rlimit soft value exceeds hard value");
  }
  for (const auto& ns : o_.namespaces) {
    if (ns.fd < 0 && ns.path.empty()) return invalid("namespace entry has neither fd nor path");
    if (has_nul(ns.path)) return invalid("namespace path contains a NUL byte");
  }
  if (o_.netns_view && (has_nul(o_.netns_view->sysfs_source) || has_nul(o_.netns_view->etc_dir)))
    return invalid("netns view path contains a NUL byte");
  std::vector<int> targets;
  for (const auto& map : o_.fds) {
    if (map.child_fd < 0 || map.parent_fd < 0) return invalid("fd mapping with a negative descriptor");
    if (std::find(targets.begin(), targets.end(), map.child_fd) != targets.end())
      return invalid("child fd " + std::to_string(map.child_fd) + " is mapped twice");
    targets.push_back(map.child_fd);
    if (!sys::get_fd_flags(map.parent_fd))
      return fail(SpawnStep::validate, EBADF, "fd " + std::to_string(map.parent_fd),
                  "fd map: parent fd " + std::to_string(map.parent_fd) + " is not open");
  }
  for (const auto& ns : o_.namespaces)
    if (ns.type == 0 || ns.type == CLONE_NEWNS || ns.type == CLONE_NEWUSER) mount_ns_changes_ = true;
  // A netns view changes only /sys and the bound /etc entries, so the
  // parent's view of the program, cwd and root still holds.
  return std::nullopt;
}

// Checks chroot and cwd in the parent, so that a typo fails before anything
// runs. Skipped when the child changes mount namespace: paths mean something
// else there, and the child reports them itself.
std::optional<SpawnError> Preparer::check_paths() {
  if (mount_ns_changes_) return std::nullopt;
  auto is_dir = [](const std::string& path) -> int {
    auto st = sys::stat(path);
    if (!st) return st.error().code;
    return S_ISDIR(st->st_mode) ? 0 : ENOTDIR;
  };
  if (!o_.chroot.empty())
    if (int err = is_dir(o_.chroot)) return fail(SpawnStep::chroot, err, o_.chroot);
  if (!o_.cwd.empty()) {
    std::string where = o_.cwd;
    if (!o_.chroot.empty()) where = o_.chroot + (o_.cwd.front() == '/' ? "" : "/") + o_.cwd;
    if (int err = is_dir(where)) return fail(SpawnStep::chdir, err, o_.cwd);
  }
  return std::nullopt;
}

std::optional<SpawnError> Preparer::resolve_program() {
  const std::string& name = o_.program.empty() ? o_.argv[0] : o_.program;
  if (name.find('/') != std::string::npos || !o_.search_path) {
    s_.candidates.push_back(name);
  } else {
    std::optional<std::string> path_var;
    if (o_.inherit_env) {
      if (const char* p = ::getenv("PATH")) path_var = p;
    }
    for (const auto& [key, value] : o_.env)
      if (key == "PATH") path_var = value;
    std::vector<std::string> dirs = detail::split_search_path(path_var);
    if (!o_.chroot.empty() || mount_ns_changes_) {
      // The parent cannot see the child's filesystem as the child will (its
      // absolute symlinks point elsewhere): let the child try each in turn.
      for (const auto& dir : dirs) s_.candidates.push_back(detail::join_path(dir, name));
    } else {
      auto found = detail::find_executable(name, dirs);
      if (!found) return fail(SpawnStep::resolve_program, found.error().code, name);
      s_.candidates.push_back(std::move(*found));
    }
  }
  for (const auto& candidate : s_.candidates) s_.candidate_ptrs.push_back(candidate.c_str());
  plan_.candidates = s_.candidate_ptrs.data();
  plan_.candidate_count = s_.candidate_ptrs.size();
  return std::nullopt;
}

void Preparer::build_argv_envp() {
  for (const auto& arg : o_.argv) s_.argv.push_back(const_cast<char*>(arg.c_str()));
  s_.argv.push_back(nullptr);
  plan_.argv = s_.argv.data();

  if (o_.inherit_env && o_.env.empty()) {
    plan_.envp = environ;
    return;
  }
  if (o_.inherit_env)
    for (char** e = environ; e && *e; ++e) s_.env_strings.emplace_back(*e);
  for (const auto& change : o_.env) {
    const std::string& key = change.first;
    std::erase_if(s_.env_strings, [&key](const std::string& entry) {
      return entry.size() > key.size() && entry[key.size()] == '=' && entry.compare(0, key.size(), key) == 0;
    });
    if (change.second) s_.env_strings.push_back(key + "=" + *change.second);
  }
  for (auto& entry : s_.env_strings) s_.envp.push_back(entry.data());
  s_.envp.push_back(nullptr);
  plan_.envp = s_.envp.data();
}

// Opens a descriptor the child uses internally, numbered above every target
// of the fd map so that no mapping can overwrite it before it is used.
Result<UniqueFd> Preparer::open_internal(const std::string& path, int flags) {
  auto fd = sys::open(path, flags);
  if (!fd || fd->get() >= first_internal_fd_) return fd;
  int moved = ::fcntl(fd->get(), F_DUPFD_CLOEXEC, first_internal_fd_);
  if (moved < 0) return last_error("fcntl(F_DUPFD_CLOEXEC)", path);
  return UniqueFd(moved);
}

std::optional<SpawnError> Preparer::prepare_fds() {
  int highest = 2;
  for (const auto& map : o_.fds) highest = std::max({highest, map.child_fd, map.parent_fd});
  first_internal_fd_ = highest + 1;

  for (const auto& map : o_.fds) {
    s_.map_source.push_back(map.parent_fd);
    s_.map_target.push_back(map.child_fd);
  }
  if (!o_.inherit_stdio) {
    int null_fd = -1;
    for (int fd = 0; fd <= 2; ++fd) {
      if (std::find(s_.map_target.begin(), s_.map_target.end(), fd) != s_.map_target.end()) continue;
      if (null_fd < 0) {
        auto dev_null = open_internal("/dev/null", O_RDWR);
        if (!dev_null) return fail(SpawnStep::prepare, dev_null.error().code, "/dev/null");
        null_fd = dev_null->get();
        highest = std::max(highest, null_fd);
        s_.owned_fds.push_back(std::move(*dev_null));
      }
      s_.map_source.push_back(null_fd);
      s_.map_target.push_back(fd);
    }
  }
  s_.keep = {0, 1, 2};
  for (int target : s_.map_target)
    if (target > 2) s_.keep.push_back(target);
  std::sort(s_.keep.begin(), s_.keep.end());
  s_.map_parked.resize(s_.map_source.size());

  plan_.map_source = s_.map_source.data();
  plan_.map_target = s_.map_target.data();
  plan_.map_parked = s_.map_parked.data();
  plan_.map_count = s_.map_source.size();
  plan_.keep = s_.keep.data();
  plan_.keep_count = s_.keep.size();
  plan_.use_close_range = !g_force_proc_walk.load(std::memory_order_relaxed) && close_range_cloexec_works();
  return std::nullopt;
}

std::optional<SpawnError> Preparer::prepare_namespaces_and_cgroup() {
  for (const auto& ns : o_.namespaces) {
    int fd = ns.fd;
    if (fd < 0 || fd < first_internal_fd_) {
      // Paths are opened here; caller fds that a mapping could overwrite are
      // duplicated above the targets.
      auto opened = fd < 0 ? open_internal(ns.path, O_RDONLY)
                           : open_internal("/proc/self/fd/" + std::to_string(fd), O_RDONLY);
      if (!opened)
        return fail(SpawnStep::prepare, opened.error().code, fd < 0 ? ns.path : "fd " + std::to_string(fd));
      fd = opened->get();
      s_.owned_fds.push_back(std::move(*opened));
    }
    s_.ns_fds.push_back(fd);
    s_.ns_types.push_back(ns.type);
  }
  plan_.ns_fds = s_.ns_fds.data();
  plan_.ns_types = s_.ns_types.data();
  plan_.ns_count = s_.ns_fds.size();
  if (o_.netns_view)
    if (auto prepared = detail::prepare_netns_view(*o_.netns_view, s_.netns_view, plan_.netns_view);
        !prepared)
      return fail(SpawnStep::prepare, prepared.error().code, o_.netns_view->etc_dir);

  if (!o_.cgroup.empty()) {
    auto dir = open_internal(o_.cgroup, O_RDONLY | O_DIRECTORY);
    if (!dir) return fail(SpawnStep::prepare, dir.error().code, o_.cgroup);
    s_.cgroup_dir = std::move(*dir);
  }
  if (int pause = g_pause_fd.load(std::memory_order_relaxed); pause >= 0) [[unlikely]] {
    auto copy = open_internal("/proc/self/fd/" + std::to_string(pause), O_RDONLY);
    if (!copy) return fail(SpawnStep::prepare, copy.error().code, "pause fd");
    plan_.pause_fd = copy->get();
    s_.owned_fds.push_back(std::move(*copy));
  }
  int high = first_internal_fd_;
  for (const auto& fd : s_.owned_fds) high = std::max(high, fd.get() + 1);
  if (s_.cgroup_dir) high = std::max(high, s_.cgroup_dir.get() + 1);
  plan_.high_fd = high;
  return std::nullopt;
}

void Preparer::prepare_credentials_and_limits() {
  if (!o_.chroot.empty()) plan_.chroot = o_.chroot.c_str();
  if (!o_.cwd.empty()) plan_.cwd = o_.cwd.c_str();
  if (o_.umask) {
    plan_.set_umask = true;
    plan_.umask = *o_.umask;
  }
  plan_.setsid = o_.setsid;
  if (o_.process_group) {
    plan_.setpgid = true;
    plan_.pgid = *o_.process_group;
  }
  for (const auto& limit : o_.rlimits) s_.rlimits.push_back({limit.resource, {limit.soft, limit.hard}});
  plan_.rlimits = s_.rlimits.data();
  plan_.rlimit_count = s_.rlimits.size();

  if (o_.credentials) {
    plan_.set_ids = true;
    plan_.uid = o_.credentials->uid;
    plan_.gid = o_.credentials->gid;
    s_.groups = o_.credentials->groups;
    // setgroups needs CAP_SETGID even to set what is already there; skip it
    // then, so that an unprivileged caller may name its own identity.
    std::vector<gid_t> current(static_cast<size_t>(std::max(::getgroups(0, nullptr), 0)));
    current.resize(
        static_cast<size_t>(std::max(::getgroups(static_cast<int>(current.size()), current.data()), 0)));
    auto sorted = s_.groups;
    std::sort(sorted.begin(), sorted.end());
    std::sort(current.begin(), current.end());
    plan_.set_groups = sorted != current;
    plan_.groups = s_.groups.data();
    plan_.group_count = s_.groups.size();
  }
  plan_.parent_death_signal = o_.parent_death_signal;
  plan_.default_sigpipe = o_.default_sigpipe;
  if (o_.signal_mask) {
    // The kernel's sigset is the first 64 bits of glibc's.
    std::memcpy(&plan_.signal_mask, &*o_.signal_mask, sizeof plan_.signal_mask);
  }
}

SpawnError Preparer::from_report(const detail::ChildReport& report) const {
  auto step = static_cast<SpawnStep>(report.step);
  std::string object;
  auto index = static_cast<size_t>(report.index);
  switch (step) {
    case SpawnStep::exec:
      if (index < s_.candidates.size()) object = s_.candidates[index];
      break;
    case SpawnStep::setns:
      if (index < o_.namespaces.size())
        object = o_.namespaces[index].path.empty() ? "fd " + std::to_string(o_.namespaces[index].fd)
                                                   : o_.namespaces[index].path;
      break;
    case SpawnStep::mount_namespace:
    case SpawnStep::sysfs:
    case SpawnStep::bind_etc:
      object = detail::netns_view_object(s_.netns_view, step, index);
      break;
    case SpawnStep::chroot:
      object = o_.chroot;
      break;
    case SpawnStep::chdir:
      object = o_.cwd;
      break;
    case SpawnStep::cgroup:
      object = o_.cgroup;
      break;
    case SpawnStep::rlimit:
      if (index < o_.rlimits.size()) object = "resource " + std::to_string(o_.rlimits[index].resource);
      break;
    default:
      break;
  }
  return fail(step, report.code, std::move(object));
}

Result<Child, SpawnError> Preparer::run() {
  if (auto e = validate()) return *e;
  if (auto e = check_paths()) return *e;
  if (auto e = resolve_program()) return *e;
  build_argv_envp();
  if (auto e = prepare_fds()) return *e;
  if (auto e = prepare_namespaces_and_cgroup()) return *e;
  prepare_credentials_and_limits();

  auto arena = detail::acquire_stack();
  if (!arena) return fail(SpawnStep::prepare, arena.error().code, "child stack");
  detail::StackLease lease(*arena);

  // A child that changes its euid makes the kernel set the dumpable flag of
  // its mm to fs.suid_dumpable; with CLONE_VM that mm is ours, so a root
  // parent would stay non-dumpable (no core dumps, /proc/self owned by root)
  // after the child execs. The flag is what keeps an unprivileged process
  // from ptracing the child while it still shares our memory, so it is put
  // back only under an exclusive lock, when no such child is before its exec.
  std::optional<std::shared_lock<std::shared_mutex>> credential_window;
  const bool was_dumpable = o_.credentials && ::prctl(PR_GET_DUMPABLE) == 1;
  if (o_.credentials) credential_window.emplace(g_credential_children);
  auto started = detail::start_child(plan_, *lease, s_.cgroup_dir.get());
  if (credential_window) {
    credential_window.reset();
    if (was_dumpable) {
      std::unique_lock none_in_window(g_credential_children);
      if (::prctl(PR_GET_DUMPABLE) != 1) ::prctl(PR_SET_DUMPABLE, 1);
    }
  }
  if (!started) return fail(SpawnStep::clone, started.error().code, {}, started.error().message());
  Child child(started->pid, std::move(started->pidfd), o_.drop_policy);
  if (lease->report->step != 0) {
    SpawnError error = from_report(*lease->report);
    (void)child.wait();  // the child has exited 127: reap it now
    return error;
  }
  return child;
}

}  // namespace

Result<Child, SpawnError> spawn(const SpawnOptions& options) { return Preparer(options).run(); }

SpawnEngineInfo spawn_engine_info() {
  SpawnEngineInfo info;
  info.method = detail::probed_method();
  info.clear_sighand = detail::probed_clear_sighand();
  info.close_range = close_range_cloexec_works() && !g_force_proc_walk.load(std::memory_order_relaxed);
  return info;
}

namespace testing {
void force_proc_fd_walk(bool on) { g_force_proc_walk.store(on, std::memory_order_relaxed); }
void pause_before_exec(int fd) { g_pause_fd.store(fd, std::memory_order_relaxed); }
}  // namespace testing

}  // namespace brisk
