#include "support/test_support.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/neighbour.h"
#include "sandbox/minimal_root.h"
#include "sandbox/net_sandbox.h"
#include "sys/syscalls.h"

namespace brisk::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "brisk-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

ScopedTmpdir::ScopedTmpdir() {
  if (const char* old = ::getenv("TMPDIR")) saved_ = old, had_ = true;
  ::setenv("TMPDIR", dir_.path().c_str(), 1);
}

ScopedTmpdir::~ScopedTmpdir() {
  had_ ? (void)::setenv("TMPDIR", saved_.c_str(), 1) : (void)::unsetenv("TMPDIR");
}

std::set<int> open_fds() {
  std::set<int> fds;
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) return fds;
  int own = ::dirfd(dir);
  while (dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    int fd = std::stoi(entry->d_name);
    if (fd != own) fds.insert(fd);
  }
  ::closedir(dir);
  return fds;
}

Captured run_capture(SpawnOptions options) {
  auto pipe = sys::pipe();
  if (!pipe) {
    ADD_FAILURE() << pipe.error().message();
    return {ExitStatus::from_code(-1), ""};
  }
  options.fds.push_back({.child_fd = 1, .parent_fd = pipe->write.get()});
  auto child = spawn(options);
  pipe->write.reset();
  if (!child) {
    ADD_FAILURE() << child.error().message();
    return {ExitStatus::from_code(-1), ""};
  }
  std::string out;
  char buffer[4096];
  for (;;) {
    auto n = sys::read(pipe->read.get(), buffer);
    if (!n || *n == 0) break;
    out.append(buffer, *n);
  }
  auto status = child->wait();
  EXPECT_TRUE(status);
  return {status ? *status : ExitStatus::from_code(-1), out};
}

bool is_root() { return ::geteuid() == 0; }

bool can_unshare_net() {
  // Asked once: every probe makes a namespace the kernel tears down later.
  static const bool ok = [] {
    bool result = false;
    std::thread([&result] { result = ::unshare(CLONE_NEWNET) == 0; }).join();
    return result;
  }();
  return ok;
}

UniqueFd make_netns() {
  UniqueFd fd;
  std::thread([&fd] {
    if (::unshare(CLONE_NEWNET) != 0) return;
    // What a new namespace inherits from the host is set back to the
    // kernel's defaults: a test sees the same namespace on a bare host and
    // on one that runs containers (ip_forward=1).
    if (!sandbox::reset_inherited_net_settings_here()) return;
    if (auto ns = sys::open("/proc/thread-self/ns/net", O_RDONLY)) fd = std::move(*ns);
  }).join();
  return fd;
}

void drop_deviceless_proxies(int netns_fd) {
  if (netns_fd < 0) return;
  auto conn = netlink::Connection::open_in(netns_fd);
  if (!conn) return;
  auto proxies = netlink::list_neighbours(*conn, {.proxy = true});
  if (!proxies) return;
  for (const auto& p : *proxies) {
    if (p.ifindex) continue;
    auto deleted = netlink::delete_neighbour(*conn, {.address = p.address.to_string(), .flags = NTF_PROXY});
    EXPECT_TRUE(deleted) << "proxy " << p.address.to_string() << ": " << deleted.error().message();
  }
}

void build_minimal_root(const std::string& root, const std::vector<std::string>& programs) {
  auto built = sandbox::build_minimal_root(root, programs);
  ASSERT_TRUE(built) << built.error().message();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Command sh(const std::string& script) { return Command({"/bin/sh", "-c", script}); }

std::string status_field(const std::string& status, const std::string& key) {
  std::istringstream lines(status);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(key, 0) == 0) return line;
  return {};
}

}  // namespace brisk::test
