// Test helpers shared by every test binary.
#pragma once

#include <sys/types.h>

#include <set>
#include <string>
#include <vector>

#include "brisk/command.h"
#include "brisk/exit_status.h"
#include "brisk/fd.h"
#include "brisk/spawn.h"

namespace brisk::test {

// A directory removed (recursively) when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Points TMPDIR at a fresh directory for the test's lifetime.
class ScopedTmpdir {
 public:
  ScopedTmpdir();
  ~ScopedTmpdir();
  ScopedTmpdir(const ScopedTmpdir&) = delete;
  ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;
  const std::string& path() const { return dir_.path(); }

 private:
  TempDir dir_;
  std::string saved_;
  bool had_ = false;
};

// The descriptors open in this process, from /proc/self/fd.
std::set<int> open_fds();

struct Captured {
  ExitStatus status;
  std::string out;
};
// Spawns with stdout mapped to a pipe and waits; fails the test on a spawn error.
Captured run_capture(SpawnOptions options);

bool is_root();
// True when this process may create network namespaces (root, or CAP_SYS_ADMIN).
bool can_unshare_net();

// A fresh network namespace held by an fd; gone when the last fd closes.
// Made on a helper thread so that this process never leaves its own, with
// the kernel's defaults for what it would inherit from the host
// (sandbox::reset_inherited_net_settings_here). Invalid on failure.
UniqueFd make_netns();

// Deletes the proxy neighbour entries of `netns_fd` that name no device
// (`ip neigh add proxy ADDR`). The kernel (6.18 here) does not free those
// with their namespace: one lives on and shows in a later namespace that
// reuses the freed namespace's memory, and breaks that test's comparison of
// two namespaces. A fixture that may make one calls this in TearDown.
void drop_deviceless_proxies(int netns_fd);

// A minimal root filesystem with the given programs and the libraries they
// load, at the same paths as on the host (sandbox::build_minimal_root); fails
// the test when it cannot be built.
void build_minimal_root(const std::string& root, const std::vector<std::string>& programs);

// The whole of a file's contents; empty when it cannot be read.
std::string slurp(const std::string& path);

// `/bin/sh -c script`, for tests whose child is easiest said in shell.
Command sh(const std::string& script);

// The first line of /proc/self/status output starting with key, e.g. "Uid:".
std::string status_field(const std::string& status, const std::string& key);

}  // namespace brisk::test
