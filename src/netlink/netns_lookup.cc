// Which names and which processes a network namespace has: `ip netns
// identify` and `ip netns pids`, found by the namespace's inode, as ip
// finds them (a stat of each /run/netns entry, of each /proc/PID/ns/net).
#include <sys/stat.h>

#include <cctype>
#include <string>
#include <vector>

#include "brisk/netlink/netns.h"
#include "brisk/netns_dir.h"
#include "sys/syscalls.h"

namespace brisk::netlink {
namespace {

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool all_digits(const std::string& word) {
  if (word.empty()) return false;
  for (char ch : word)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  return true;
}

NlResult<struct stat> namespace_stat(int netns_fd, const char* op) {
  auto st = sys::fstat(netns_fd);
  if (!st) {
    NetlinkError e = NetlinkError::from(st.error());
    e.op = op;
    e.object = "fd " + std::to_string(netns_fd);
    return e;
  }
  return *st;
}

}  // namespace

NlResult<std::vector<std::string>> netns_names_of(int netns_fd) {
  auto target = BRISK_TRY(namespace_stat(netns_fd, "netns identify"));
  std::vector<std::string> found;
  for (const auto& name : BRISK_TRY(list_netns(NetnsOrder::directory))) {
    auto st = sys::stat(netns_path(name));
    if (st && same_file(*st, target)) found.push_back(name);  // gone or unreadable: not it
  }
  return found;
}

NlResult<std::vector<pid_t>> netns_pids(int netns_fd) {
  auto target = BRISK_TRY(namespace_stat(netns_fd, "netns pids"));
  auto entries = sys::list_dir("/proc");
  if (!entries) {
    NetlinkError e = NetlinkError::from(entries.error());
    e.op = "netns pids";
    e.object = "/proc";
    return e;
  }
  std::vector<pid_t> pids;
  for (const auto& entry : *entries) {
    if (!all_digits(entry)) continue;
    auto st = sys::stat("/proc/" + entry + "/ns/net");
    if (st && same_file(*st, target))
      pids.push_back(static_cast<pid_t>(std::stol(entry)));  // exited: skipped
  }
  return pids;
}

}  // namespace brisk::netlink
