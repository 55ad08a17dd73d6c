// runtime_harness.h: real container runtimes running brisk-bridge, each
// inside a Sandbox's node namespace, with every bit of their state in the
// sandbox's temporary directory:
//   Podman      podman 4 (network_backend = "cni") with runc
//   Containerd  a containerd 1.6 of its own, driven by `ctr run --cni`
// Both run a busybox image built here from busybox-static, with no
// registry. The network is a Network: brisk-bridge first, then any plugins
// a test appends (a portmap, say), and a Runtime::start takes extra
// arguments for the runtime's run command (`-p 8080:80`). podman hands `-p`
// to a plugin that declares the portMappings capability; ctr 1.6 has no
// such flag, so for it the plugin's entry carries a fixed
// "runtimeConfig": {"portMappings": [...]}, which libcni passes on as it is
// (both checked with the reference portmap).
//
// Both are entered with setns only (nsenter --net), never with ip netns
// exec's view: its fresh /sys hides the cgroup mounts runc needs. The fixed
// paths both runtimes read or write (/etc/cni/net.d, /opt/cni/bin,
// /var/lib/cni, /var/lib/containers, /run/libpod) get directories of the
// sandbox bound over them in a mount namespace of the test's own
// (PrivateMounts), which is dropped when the test ends.
//
// Every external command has a timeout: a hung runtime fails the test. The
// destructors remove every container (so the runtime runs DEL), stop the
// daemon and reap it, and remove the cgroups the containers were put in
// (under the sandbox's name, not the runtimes' shared parents), also when
// the test failed; a cgroup that cannot go, since a process is left in it,
// fails the test.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "brisk/command.h"
#include "cni/cni_driver.h"

namespace brisk::cni::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// What any one runtime command may take; a hung runtime fails at this.
inline constexpr std::chrono::seconds kRuntimeTimeout{60};

// A command, captured and unchecked, killed at `limit`.
inline brisk::Output run_bounded(brisk::Command command, std::chrono::seconds limit = kRuntimeTimeout) {
  return command.stdout_to(brisk::Sink::capture())
      .stderr_to(brisk::Sink::capture())
      .timeout(limit)
      .check(false)
      .output();
}

// argv, in the sandbox's node namespace the way `nsenter --net` enters it.
inline brisk::Command in_node(const Sandbox& sandbox, std::vector<std::string> argv) {
  brisk::Command command(std::move(argv));
  command.netns(sandbox.host(), {.view = false});
  return command;
}

// "argv: exit, stderr" for a failure message.
inline std::string describe(const brisk::Command& command, const brisk::Output& o) {
  return command.to_string() + ": exit " + std::to_string(o.status.exit.code().value_or(-1)) +
         (o.status.timed_out ? " (timed out)" : "") + "\n" + o.out + o.err;
}

// The network the containers join: brisk-bridge with host-local leases in
// the sandbox, then `extra_plugins` in order.
struct Network {
  std::string name = "brisknet";
  std::string bridge = "cni-brisk0";
  std::string subnet = "10.89.0.0/24";
  std::string gateway = "10.89.0.1";
  bool ip_masq = true;
  std::vector<nlohmann::json> extra_plugins{};

  std::string conflist(const std::string& lease_dir) const {
    nlohmann::json bridge_plugin = {{"type", "brisk-bridge"},
                                    {"bridge", bridge},
                                    {"isGateway", true},
                                    {"ipMasq", ip_masq},
                                    {"ipam",
                                     {{"type", "host-local"},
                                      {"routes", {{{"dst", "0.0.0.0/0"}}}},
                                      {"ranges", {{{{"subnet", subnet}, {"gateway", gateway}}}}},
                                      {"dataDir", lease_dir}}}};
    nlohmann::json plugins = {bridge_plugin};
    for (const auto& p : extra_plugins) plugins.push_back(p);
    return nlohmann::json{{"cniVersion", "0.4.0"}, {"name", name}, {"plugins", plugins}}.dump();
  }
};

// The test's own mount namespace for its lifetime, with `dir/<n>` bound
// over each fixed path that exists (a missing /opt/cni/bin gets a tmpfs on
// /opt first). Leaving it (setns back) drops every mount at once.
class PrivateMounts {
 public:
  explicit PrivateMounts(const std::string& dir) {
    original_ = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    cwd_ = ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (original_ < 0 || cwd_ < 0 || ::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      error_ = std::string("a private mount namespace: ") + ::strerror(errno);
      return;
    }
    entered_ = true;
    if (!fs::exists("/opt/cni/bin")) {
      if (!mount("tmpfs", "/opt", "tmpfs", 0)) return;
      fs::create_directories("/opt/cni/bin");
    }
    int n = 0;
    for (const char* path :
         {"/etc/cni/net.d", "/opt/cni/bin", "/var/lib/cni", "/var/lib/containers", "/run/libpod"}) {
      std::string own = dir + "/fixed" + std::to_string(n++);
      fs::create_directories(own);
      if (!fs::exists(path)) {
        // Only the two ctr reads must be here (podman's package makes /etc/cni/net.d);
        // the runtimes create the others if they need them.
        if (std::string(path) == "/etc/cni/net.d") {
          error_ = std::string(path) + " does not exist (the podman package makes it)";
          return;
        }
        continue;
      }
      if (!mount(own.c_str(), path, nullptr, MS_BIND)) return;
      bound_.emplace_back(path, own);
    }
  }
  ~PrivateMounts() {
    if (entered_ && (::setns(original_, CLONE_NEWNS) != 0 || ::fchdir(cwd_) != 0))
      ADD_FAILURE() << "leaving the private mount namespace: " << ::strerror(errno);
    if (original_ >= 0) ::close(original_);
    if (cwd_ >= 0) ::close(cwd_);
  }
  PrivateMounts(const PrivateMounts&) = delete;
  PrivateMounts& operator=(const PrivateMounts&) = delete;

  // Empty when every mount is in place.
  const std::string& error() const { return error_; }
  // The directory now at `path` (/etc/cni/net.d, /opt/cni/bin, ...).
  std::string at(const std::string& path) const {
    for (const auto& [fixed, own] : bound_)
      if (fixed == path) return own;
    return path;
  }

 private:
  bool mount(const char* source, const char* target, const char* type, unsigned long flags) {
    if (::mount(source, target, type, flags, nullptr) == 0) return true;
    error_ = std::string("mount ") + source + " on " + target + ": " + ::strerror(errno);
    return false;
  }
  int original_ = -1;
  int cwd_ = -1;
  bool entered_ = false;
  std::string error_;
  std::vector<std::pair<std::string, std::string>> bound_;
};

// Removes the cgroup `name` (a path under each hierarchy's root) with its
// children from every hierarchy under /sys/fs/cgroup: what a runtime leaves
// once its containers are gone (a parent, conmon's). Returns what still held
// a process, or "": for the caller to fail on, as a runtime that leaked it.
// Those processes are then killed (a failed test must leave nothing running,
// such as a container left created when its ADD failed), and each pass is
// retried for up to 5 s while the last of them exit.
inline std::string remove_cgroups(const std::string& name) {
  std::error_code ec;
  auto dirs_of = [&] {
    std::vector<fs::path> dirs;
    for (const auto& hierarchy : fs::directory_iterator("/sys/fs/cgroup", ec)) {
      fs::path top = hierarchy.path() / name.substr(name.find_first_not_of('/'));
      if (!fs::is_directory(top)) continue;
      dirs.push_back(top);
      for (const auto& e : fs::recursive_directory_iterator(top, ec))
        if (e.is_directory()) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end(),
              [](const auto& a, const auto& b) { return a.string().size() > b.string().size(); });
    return dirs;
  };
  std::string in_use;
  for (const auto& d : dirs_of()) {
    std::ifstream procs(d / "cgroup.procs");
    for (pid_t pid; procs >> pid;) {
      in_use += d.string() + ": process " + std::to_string(pid) + "\n";
      ::kill(pid, SIGKILL);
    }
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    bool all_gone = true;
    for (const auto& d : dirs_of())
      if (::rmdir(d.c_str()) != 0) all_gone = false;
    if (all_gone) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (const auto& d : dirs_of()) in_use += d.string() + ": could not be removed\n";
  return in_use;
}

// A root filesystem of static busybox (busybox-static) and the applets the
// tests use, as a tar; returns its path, or "" when busybox is missing.
inline std::string busybox_rootfs_tar(const std::string& dir) {
  const std::string busybox = "/bin/busybox";
  if (!fs::exists(busybox)) return "";
  std::string root = dir + "/busybox-root";
  fs::create_directories(root + "/bin");
  fs::copy_file(busybox, root + "/bin/busybox");
  for (const char* applet : {"sh", "ip", "sleep", "ping", "wget", "nc", "cat", "ls", "grep"})
    fs::create_symlink("busybox", root + "/bin/" + applet);
  for (const char* empty : {"/proc", "/sys", "/dev", "/etc", "/tmp"}) fs::create_directories(root + empty);
  std::string tar = dir + "/busybox-root.tar";
  if (!run_bounded(brisk::Command({"tar", "-C", root, "-cf", tar, "."})).status.allowed) return "";
  return tar;
}

// A runtime that runs containers on one Network.
class Runtime {
 public:
  virtual ~Runtime() = default;
  // Starts a container running `sleep` on the network; `extra` goes into
  // the run command before the image. Returns "" or what went wrong.
  virtual std::string start(const std::string& id, const std::vector<std::string>& extra = {}) = 0;
  // Runs argv inside the running container.
  virtual brisk::Output exec(const std::string& id, const std::vector<std::string>& argv) = 0;
  // Stops and removes the container; the runtime runs DEL. "" or the error.
  virtual std::string remove(const std::string& id) = 0;
  // How the runtime's CNI names the attachment (its CNI_CONTAINERID).
  virtual std::string cni_id(const std::string& id) = 0;
};

inline const std::vector<std::string> kSleepForever = {"/bin/sleep", "1000000"};

// podman with its storage, run directory and containers.conf in `dir`
// (made by podman_conf), in the node namespace when there is one.
inline brisk::Command podman_command(const std::string& dir, const std::vector<std::string>& args,
                                     const Sandbox* node = nullptr) {
  std::vector<std::string> argv = {"podman",           "--root", dir + "/storage", "--runroot", dir + "/run",
                                   "--storage-driver", "vfs"};
  argv.insert(argv.end(), args.begin(), args.end());
  brisk::Command command = node ? in_node(*node, argv) : brisk::Command(argv);
  command.env("CONTAINERS_CONF", dir + "/containers.conf");
  return command;
}

// containers.conf for podman 4.3 with runc on a cgroup v1 host where root
// lacks CAP_SYS_RESOURCE (what docs/cni.md tells a user), with its CNI
// directories and temporary files in `dir`.
inline void podman_conf(const std::string& dir, const std::string& plugin_dir, const std::string& conf_dir) {
  fs::create_directories(dir);
  std::ofstream(dir + "/containers.conf")
      << "[containers]\ndefault_ulimits = [\"nofile=1024:1024\", \"nproc=1024:1024\"]\n"
      << "[network]\nnetwork_backend = \"cni\"\n"
      << "cni_plugin_dirs = [\"" << plugin_dir << "\"]\n"
      << "network_config_dir = \"" << conf_dir << "\"\n"
      << "[engine]\nruntime = \"runc\"\ncgroup_manager = \"cgroupfs\"\nevents_logger = \"file\"\n"
      << "tmp_dir = \"" << dir << "/tmp\"\n";
}

inline const std::string kBusyboxImage = "localhost/brisk-busybox:1";

// Imports busybox_rootfs_tar's tar as kBusyboxImage, running sleep.
inline brisk::Command podman_import(const std::string& dir, const std::string& rootfs_tar,
                                    const Sandbox* node = nullptr) {
  return podman_command(
      dir, {"import", "--change", "CMD " + nlohmann::json(kSleepForever).dump(), rootfs_tar, kBusyboxImage},
      node);
}

// The busybox image as an OCI archive for `ctr image import` (podman
// import, then podman save, in a store of their own); "" or the error.
inline std::string busybox_oci_archive(const std::string& dir, const std::string& rootfs_tar,
                                       const std::string& archive) {
  for (const char* empty : {"/no-plugins", "/no-networks"}) fs::create_directories(dir + empty);
  podman_conf(dir, dir + "/no-plugins", dir + "/no-networks");
  for (const brisk::Command& step :
       {podman_import(dir, rootfs_tar),
        podman_command(dir, {"save", "--format", "oci-archive", "--output", archive, kBusyboxImage})}) {
    brisk::Output o = run_bounded(step);
    if (!o.status.allowed) return describe(step, o);
  }
  return "";
}

// podman 4.3 with runc, in the node namespace.
class Podman : public Runtime {
 public:
  Podman(const Sandbox& sandbox, const PrivateMounts& mounts, const Network& network,
         const std::string& rootfs_tar)
      : sandbox_(sandbox), dir_(sandbox.data_dir() + "/podman"), network_(network.name) {
    podman_conf(dir_, mounts.at("/opt/cni/bin"), mounts.at("/etc/cni/net.d"));
    std::ofstream(mounts.at("/etc/cni/net.d") + "/" + network.name + ".conflist")
        << network.conflist(sandbox.data_dir() + "/leases");
    error_ = failure(podman_import(dir_, rootfs_tar, &sandbox_));
  }
  ~Podman() override {
    std::string removed = podman({"rm", "--all", "--force", "--time", "0"});
    if (!removed.empty()) ADD_FAILURE() << removed;
    std::string left = remove_cgroups(cgroup_parent());
    if (!left.empty()) ADD_FAILURE() << "cgroups still in use after podman rm:\n" << left;
  }

  const std::string& error() const { return error_; }

  std::string start(const std::string& id, const std::vector<std::string>& extra = {}) override {
    std::vector<std::string> argv = {"run",           "--detach",  "--name", id, "--cgroup-parent",
                                     cgroup_parent(), "--network", network_};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(kBusyboxImage);
    return podman(argv);
  }
  brisk::Output exec(const std::string& id, const std::vector<std::string>& argv) override {
    std::vector<std::string> all = {"exec", id};
    all.insert(all.end(), argv.begin(), argv.end());
    return run_bounded(podman_command(dir_, all, &sandbox_));
  }
  std::string remove(const std::string& id) override { return podman({"rm", "--force", "--time", "0", id}); }
  // The containers' and conmon's cgroups go under /<sandbox's node>, not
  // podman's shared /libpod_parent, so that the test can remove them.
  std::string cgroup_parent() const { return "/" + sandbox_.host(); }
  std::string cni_id(const std::string& id) override {
    std::string out =
        run_bounded(podman_command(dir_, {"inspect", "--format", "{{.Id}}", id}, &sandbox_)).out;
    return out.substr(0, out.find('\n'));
  }

 private:
  // Runs podman ARGS; "" or the error.
  std::string podman(const std::vector<std::string>& args) {
    return failure(podman_command(dir_, args, &sandbox_));
  }
  static std::string failure(const brisk::Command& command) {
    brisk::Output o = run_bounded(command);
    return o.status.allowed ? "" : describe(command, o);
  }
  const Sandbox& sandbox_;
  std::string dir_;
  std::string network_;
  std::string error_;
};

// A containerd 1.6 of its own in the node namespace (config, root, state and
// sockets in the sandbox, the CRI plugin off: `ctr run --cni` sets the
// network up in ctr itself, through go-cni), and ctr as its client.
class Containerd : public Runtime {
 public:
  // oci_archive: busybox_oci_archive's.
  Containerd(const Sandbox& sandbox, const PrivateMounts& mounts, const Network& network,
             const std::string& oci_archive)
      : sandbox_(sandbox), dir_(sandbox.data_dir() + "/containerd") {
    fs::create_directories(dir_);
    std::ofstream(mounts.at("/etc/cni/net.d") + "/10-" + network.name + ".conflist")
        << network.conflist(sandbox.data_dir() + "/leases");
    std::ofstream(dir_ + "/config.toml") << "version = 2\n"
                                         << "root = \"" << dir_ << "/root\"\n"
                                         << "state = \"" << dir_ << "/state\"\n"
                                         << "disabled_plugins = [\"io.containerd.grpc.v1.cri\"]\n"
                                         << "[grpc]\n  address = \"" << socket() << "\"\n"
                                         << "[ttrpc]\n  address = \"" << socket() << ".ttrpc\"\n"
                                         << "[debug]\n  address = \"" << dir_ << "/debug.sock\"\n"
                                         << "[plugins.\"io.containerd.internal.v1.opt\"]\n"
                                         << "  path = \"" << dir_ << "/opt\"\n";
    brisk::Command daemon = in_node(sandbox_, {"containerd", "--config", dir_ + "/config.toml"});
    daemon.stdout_to(brisk::Sink::file(dir_ + "/containerd.log"))
        .stderr_to(brisk::Sink::file(dir_ + "/containerd.log", true))
        .check(false);
    // Should the test process die before its destructors run, containerd goes too.
    daemon.spawn_options().parent_death_signal = SIGTERM;
    daemon_.emplace(daemon.spawn());
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!fs::exists(socket()) && std::chrono::steady_clock::now() < deadline && !daemon_->try_wait())
      std::this_thread::sleep_for(20ms);
    if (!fs::exists(socket())) {
      error_ = "containerd did not serve " + socket() +
               " within 20 s: " + brisk::test::slurp(dir_ + "/containerd.log");
      return;
    }
    auto imported = ctr(
        {"image", "import", "--base-name", kBusyboxImage.substr(0, kBusyboxImage.rfind(':')), oci_archive});
    if (!imported.second.status.allowed) error_ = describe(imported.first, imported.second);
  }
  ~Containerd() override {
    // Kill what still runs: each `ctr run` then runs DEL and removes its container.
    for (auto& [id, run] : runs_) {
      (void)ctr({"task", "kill", "--signal", "SIGKILL", id});
      if (!run.wait_for(30s))
        ADD_FAILURE() << "ctr run " << id << " did not finish within 30 s of its task's kill";
    }
    runs_.clear();
    // What no `ctr run` waits for any more: a task left created when its
    // ADD failed (its runc init blocked, its shim alive), and its container.
    std::istringstream tasks(ctr({"task", "list", "--quiet"}).second.out);
    for (std::string id; std::getline(tasks, id);)
      if (!id.empty()) (void)ctr({"task", "delete", "--force", id});
    std::istringstream containers(ctr({"container", "list", "--quiet"}).second.out);
    for (std::string id; std::getline(containers, id);)
      if (!id.empty()) (void)ctr({"container", "rm", id});
    if (daemon_) {
      (void)daemon_->kill(SIGTERM);
      if (!daemon_->wait_for(20s)) ADD_FAILURE() << "containerd did not stop within 20 s of SIGTERM";
    }
    std::string left = remove_cgroups(ns());
    if (!left.empty()) ADD_FAILURE() << "cgroups still in use after every task's end:\n" << left;
  }

  const std::string& error() const { return error_; }
  // The containerd namespace, unique to the test: ctr puts a task's cgroup
  // at /<namespace>/<id>, which the destructor removes.
  std::string ns() const { return sandbox_.host(); }
  std::string socket() const { return dir_ + "/containerd.sock"; }

  // `ctr run --cni --rm` in the foreground of a process of ours, as a user
  // would run it: ctr runs ADD once the task exists and DEL once it exits
  // (a detached `ctr run -d` never runs DEL). Returns when the task runs.
  std::string start(const std::string& id, const std::vector<std::string>& extra = {}) override {
    std::vector<std::string> argv = {"ctr", "--address", socket(), "--namespace",
                                     ns(),  "run",       "--rm",   "--cni"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(kBusyboxImage);
    argv.push_back(id);
    argv.insert(argv.end(), kSleepForever.begin(), kSleepForever.end());
    brisk::Command run = in_node(sandbox_, argv);
    run.stdout_to(brisk::Sink::capture()).stderr_to(brisk::Sink::capture()).check(false).timeout(600s);
    auto [it, inserted] = runs_.emplace(id, run.spawn());
    if (!inserted) return "container " + id + " already started";
    auto deadline = std::chrono::steady_clock::now() + kRuntimeTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (auto done = it->second.try_wait()) {
        runs_.erase(it);
        return describe(run, *done);
      }
      // RUNNING once ctr has set the network up and started the task.
      if (task_status(id) == "RUNNING") return "";
      std::this_thread::sleep_for(20ms);
    }
    return "ctr run " + id + " did not start its task within " + std::to_string(kRuntimeTimeout.count()) +
           " s";
  }
  brisk::Output exec(const std::string& id, const std::vector<std::string>& argv) override {
    std::vector<std::string> all = {"task", "exec", "--exec-id", "exec" + std::to_string(execs_++), id};
    all.insert(all.end(), argv.begin(), argv.end());
    return ctr(all).second;
  }
  std::string remove(const std::string& id) override {
    auto it = runs_.find(id);
    if (it == runs_.end()) return "container " + id + " was not started here";
    auto killed = ctr({"task", "kill", "--signal", "SIGKILL", id});
    if (!killed.second.status.allowed) return describe(killed.first, killed.second);
    auto done = it->second.wait_for(kRuntimeTimeout);
    runs_.erase(it);
    if (!done) return "ctr run " + id + " did not finish within 60 s of its task's kill";
    auto left = ctr({"container", "list", "--quiet"}).second.out;
    if (left.find(id + "\n") != std::string::npos) return "ctr run --rm left container " + id;
    return "";
  }
  std::string cni_id(const std::string& id) override { return ns() + "-" + id; }

  // The task's status in `ctr task list` (CREATED, RUNNING, STOPPED), or "".
  std::string task_status(const std::string& id) {
    std::istringstream lines(ctr({"task", "list"}).second.out);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream fields(line);
      std::string task, pid, status;
      if (fields >> task >> pid >> status && task == id) return status;
    }
    return "";
  }

  std::pair<brisk::Command, brisk::Output> ctr(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"ctr", "--address", socket(), "--namespace", ns()};
    argv.insert(argv.end(), args.begin(), args.end());
    brisk::Command command(argv);
    brisk::Output o = run_bounded(command);
    return {command, o};
  }

 private:
  const Sandbox& sandbox_;
  std::string dir_;
  std::string error_;
  std::optional<brisk::Process> daemon_;
  std::map<std::string, brisk::Process> runs_;
  int execs_ = 0;
};

}  // namespace brisk::cni::test
