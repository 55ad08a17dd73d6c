// brisk/spawn.h: the spawn engine.
//
// brisk::spawn() starts a program with clone3(CLONE_VM|CLONE_VFORK|CLONE_PIDFD)
// on a private, reused stack. The parent's memory is never copied, so the cost
// is the same for a 10 MB and a 4 GB parent; descriptors are closed with
// close_range, so it is the same at RLIMIT_NOFILE 1024 and 1048576. Everything
// the child needs (argv, envp, the resolved program, open namespace fds) is
// prepared in the parent; the child only makes raw syscalls, then execs.
//
//   brisk::SpawnOptions options{.argv = {"systemctl", "is-active", "sshd"}};
//   options.chroot = "/mnt";
//   options.env = {{"LANG", "C"}};
//   brisk::Result<brisk::Child, brisk::SpawnError> child = brisk::spawn(options);
//   if (!child) return report(child.error().message());
//   brisk::ExitStatus status = child->wait().value();
//
// The child starts in the calling thread's namespaces and root, so a thread
// that entered a namespace spawns into it. parent_death_signal fires when the
// spawning thread exits, not the process.
//
// Requires Linux 5.4 (pidfds with waitid(P_PIDFD)). clone3 is used from 5.3,
// CLONE_CLEAR_SIGHAND from 5.5, CLONE_INTO_CGROUP from 5.7; without them the
// engine falls back to clone(), vfork() and fork(), probing once per process.
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "brisk/child.h"
#include "brisk/export.h"
#include "brisk/result.h"

namespace brisk {

// A descriptor the child receives: parent_fd appears as child_fd.
struct FdMapping {
  int child_fd = -1;   // number in the child (0 for stdin, 1 stdout, ...)
  int parent_fd = -1;  // open descriptor in the parent; brisk duplicates it, never closes it
};

// A namespace to enter with setns() before exec.
struct NamespaceEntry {
  int type = 0;        // CLONE_NEWNET, CLONE_NEWNS, ...; 0 accepts whatever the fd refers to
  int fd = -1;         // an open namespace descriptor (not owned), or -1 to open `path`
  std::string path{};  // e.g. /run/netns/blue or /proc/1234/ns/net, used when fd is -1
};

// What `ip netns exec` adds to entering a network namespace, so that the
// program's filesystem agrees with its network: set up in the child after
// every `namespaces` entry and before the cgroup, chroot and cwd steps (so a
// chroot sees none of it). The child unshares its mount namespace and makes
// / a recursive slave (nothing propagates back to the parent), replaces /sys
// with a sysfs of the network namespace it is then in (read-only when the old
// /sys cannot be detached and was read-only), and binds each entry of
// etc_dir over /etc/ENTRY. Needs CAP_SYS_ADMIN.
struct BRISK_EXPORT NetnsView {
  // Source name of the new sysfs mount, as mount tables show it (ip: the namespace's name).
  std::string sysfs_source = "sysfs";
  // Directory whose entries are bound over /etc, read by the parent at spawn
  // (kNetnsEtcDir/NAME); empty, or missing, binds nothing.
  std::string etc_dir{};
  // A bind that fails (an entry with no /etc counterpart) fails the spawn;
  // true skips it instead, as ip does (which also prints a warning).
  bool skip_failed_binds = false;

  // ip's view of name_or_path: for a name, sysfs_source NAME and etc_dir
  // kNetnsEtcDir/NAME (brisk/netns_dir.h); a path has no /etc directory
  // (ip netns exec takes names only), so its view is /sys alone.
  static NetnsView of(const std::string& name_or_path);
};

struct ResourceLimit {
  int resource = 0;  // RLIMIT_NOFILE, RLIMIT_CORE, ...
  rlim_t soft = RLIM_INFINITY;
  rlim_t hard = RLIM_INFINITY;
};

// The identity the child takes before exec, applied with raw setgroups,
// setresgid and setresuid in that order. The parent never changes its own.
struct BRISK_EXPORT Credentials {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups{};  // supplementary groups, set exactly (empty = none)

  // Resolves a user name or numeric uid from the user database: its uid, its
  // primary group (or `group`, a name or number, when given) and its groups.
  static Result<Credentials> for_user(std::string_view user, std::string_view group = {});
};

// What happens when a Child is destroyed while its process still runs.
enum class DropPolicy {
  kill_and_reap,  // SIGKILL through the pidfd, then reap (the default)
  wait,           // block until the process exits, then reap
};

struct SpawnOptions {
  // The program's arguments; argv[0] is also the program unless `program` is set.
  std::vector<std::string> argv{};
  // The executable to run; empty means argv[0].
  std::string program{};
  // Search PATH (the child's PATH if `env` sets one, else the parent's) in the
  // parent when the program has no slash, as execvp would.
  bool search_path = true;

  // Start from the parent's environment; false starts from an empty one.
  bool inherit_env = true;
  // Applied in order: a value sets the variable, nullopt unsets it.
  std::vector<std::pair<std::string, std::optional<std::string>>> env{};

  // Change root to this directory, then chdir to `cwd` inside it (or to "/").
  std::string chroot{};
  // Working directory of the child; empty keeps the parent's (or "/" after chroot).
  std::string cwd{};
  // File mode creation mask; nullopt keeps the parent's.
  std::optional<mode_t> umask{};

  // Make the child a session leader (setsid). Conflicts with process_group.
  bool setsid = false;
  // Put the child in a process group: 0 creates a new group led by the child,
  // a positive value joins that group.
  std::optional<pid_t> process_group{};

  // Limits set in the child before exec.
  std::vector<ResourceLimit> rlimits{};
  // Switch to this identity before exec (needs CAP_SETUID/CAP_SETGID).
  std::optional<Credentials> credentials{};
  // Namespaces entered in this order before chroot, cwd and exec.
  std::vector<NamespaceEntry> namespaces{};
  // ip netns exec's mounts after entering them (see NetnsView); nullopt: setns only.
  std::optional<NetnsView> netns_view{};
  // A cgroup v2 directory to start the child in (CLONE_INTO_CGROUP); empty keeps the parent's.
  std::string cgroup{};
  // Signal the child receives when the thread that spawned it exits (0: none).
  int parent_death_signal = 0;
  // The child's signal mask at exec; nullopt means an empty mask.
  std::optional<sigset_t> signal_mask{};
  // Reset SIGPIPE to its default action when the parent ignores it, so that
  // pipelines end the way they would from a shell. Handled signals are always
  // reset; other ignored signals stay ignored, as POSIX exec specifies.
  bool default_sigpipe = true;

  // Descriptors the child gets. Child fds 0, 1 and 2 inherit the parent's
  // unless mapped here (or unless inherit_stdio is false, when they read and
  // write /dev/null); every other descriptor is closed at exec.
  std::vector<FdMapping> fds{};
  bool inherit_stdio = true;

  // What the returned Child does if destroyed while the process still runs.
  DropPolicy drop_policy = DropPolicy::kill_and_reap;
};

// The step that failed, in the order the child runs them.
enum class SpawnStep : std::uint8_t {
  none = 0,
  validate,         // options rejected in the parent before anything ran
  resolve_program,  // PATH search in the parent
  prepare,          // opening namespaces, cgroup, /dev/null in the parent
  clone,            // creating the child
  signals,          // resetting handlers and the mask
  process_group,    // setsid or setpgid
  fd_map,           // duplicating mapped descriptors
  close_fds,        // marking the others close-on-exec
  setns,
  mount_namespace,  // netns view: unsharing the mount namespace (index 0) or making / rslave (1)
  sysfs,            // netns view: mounting a sysfs of the network namespace on /sys
  bind_etc,         // netns view: binding an etc_dir entry over /etc
  cgroup,           // joining the cgroup when CLONE_INTO_CGROUP is unavailable
  chroot,
  chdir,
  umask,
  rlimit,
  setgroups,
  setgid,
  setuid,
  parent_death_signal,
  exec,
};
BRISK_EXPORT const char* to_string(SpawnStep step);

// Why a spawn failed: which step, the errno, the program and the object.
struct BRISK_EXPORT SpawnError {
  enum class Kind {
    invalid_argument,   // bad options, detected before anything ran
    program_not_found,  // ENOENT for the program itself
    permission_denied,  // the program exists but cannot be executed
    bad_cwd,            // the working directory is missing or not a directory
    bad_chroot,         // the new root is missing or cannot be entered
    other,
  };

  SpawnStep step = SpawnStep::none;
  int code = 0;           // errno, positive
  std::string program{};  // the program as the caller named it
  std::string object{};   // the path, fd or namespace the step acted on
  std::string detail{};   // explanation for invalid_argument

  Kind kind() const;
  // "spawn ls: exec /bin/ls: Permission denied".
  std::string message() const;
};

// Typed exceptions, thrown by Result<Child, SpawnError>::value() and by the
// command API. Each carries the SpawnError.
class BRISK_EXPORT SpawnFailed : public std::runtime_error {
 public:
  explicit SpawnFailed(SpawnError error);
  const SpawnError& error() const noexcept { return error_; }

 private:
  SpawnError error_;
};
class BRISK_EXPORT InvalidSpawnOptions : public SpawnFailed {
  using SpawnFailed::SpawnFailed;
};
class BRISK_EXPORT ProgramNotFound : public SpawnFailed {
  using SpawnFailed::SpawnFailed;
};
class BRISK_EXPORT PermissionDenied : public SpawnFailed {
  using SpawnFailed::SpawnFailed;
};
class BRISK_EXPORT BadWorkingDirectory : public SpawnFailed {
  using SpawnFailed::SpawnFailed;
};
class BRISK_EXPORT BadRoot : public SpawnFailed {
  using SpawnFailed::SpawnFailed;
};

[[noreturn]] BRISK_EXPORT BRISK_EXPORT void throw_error(const SpawnError& error);

// How add_netns (and Command::netns) enter a network namespace.
struct NetnsOptions {
  // Also give the program ip netns exec's view of it (NetnsView): its own
  // /sys and, for a name, kNetnsEtcDir/NAME bound over /etc. false: setns only.
  bool view = true;
  // With the view: skip binds that fail rather than fail the spawn.
  bool skip_failed_binds = false;
};

// Adds entering the network namespace name_or_path to options: a name as
// iproute2 names them (kNetnsDir/NAME, brisk/netns_dir.h) or a path, with
// NetnsView::of(name_or_path) unless how.view is false. Each call adds a
// namespace entry; the view is that of the last call.
BRISK_EXPORT void add_netns(SpawnOptions& options, const std::string& name_or_path,
                            const NetnsOptions& how = {});

// Applies a NetnsView to the calling thread itself, the same steps a child
// runs, for a program about to exec in place (brisk netns exec, like ip
// netns exec): call it once the thread is in the network namespace; the
// thread keeps the private mount namespace. A failure is the step's
// SpawnError (no program); with view.skip_failed_binds, the binds that
// failed are returned instead (step bind_etc, object "FROM -> TO").
BRISK_EXPORT Result<std::vector<SpawnError>, SpawnError> apply_netns_view(const NetnsView& view);

// The program spawn() runs for `name` (with search_path, no chroot): a name
// with a slash is that path; any other is looked up in the directories of
// `path`, a PATH value (nullopt: this process's PATH, or with none execvp's
// default), as execvp would. The first regular file this process may
// execute; ENOENT when there is none, EACCES when some exist but none may
// be executed.
BRISK_EXPORT Result<std::string> find_program(const std::string& name,
                                              const std::optional<std::string>& path = std::nullopt);

// Starts the program. Safe to call from many threads at once. On error,
// nothing is left behind: no descriptor, no process.
BRISK_EXPORT Result<Child, SpawnError> spawn(const SpawnOptions& options);

// How the engine creates children on this system, as probed.
enum class SpawnMethod : std::uint8_t { unknown, clone3, clone, vfork, fork };
BRISK_EXPORT const char* to_string(SpawnMethod method);

struct SpawnEngineInfo {
  SpawnMethod method = SpawnMethod::unknown;  // unknown until the first spawn
  bool clear_sighand = false;                 // CLONE_CLEAR_SIGHAND accepted
  bool close_range = false;                   // close_range(CLOSE_RANGE_CLOEXEC) works
};
BRISK_EXPORT SpawnEngineInfo spawn_engine_info();

namespace testing {
// Forces a creation method (unknown restores probing). For tests and benches.
BRISK_EXPORT void force_spawn_method(SpawnMethod method);
// Forces the /proc/self/fd walk instead of close_range.
BRISK_EXPORT void force_proc_fd_walk(bool on);
// Makes every child read one byte from `fd` (a pipe's read end the caller
// owns) after its last setup step (credentials included) and before exec,
// so that a test can look at it there; -1 turns it off. The spawning thread
// stays blocked in spawn() until the child goes on. For security tests only.
BRISK_EXPORT void pause_before_exec(int fd);
}  // namespace testing

}  // namespace brisk
