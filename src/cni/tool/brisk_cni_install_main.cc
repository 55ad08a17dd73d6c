// brisk-cni-install: the install-cni step of a node. Copies the brisk-*
// plugins beside it (and their brisk-lib/) into the CNI bin directory and
// writes the conflist, then exits; `brisk-cni-install sleep` waits for
// SIGTERM instead, as the DaemonSet's long-running container. Built fully
// static: its image has nothing else in it.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cni/install/install.h"

namespace {

constexpr const char* kUsage =
    "usage: brisk-cni-install [--pod-cidr CIDR[,CIDR6]] [--pod-cidr-dir DIR --node-name NAME]\n"
    "                         [--bridge NAME] [--mtu N] [--ip-masq=true|false]\n"
    "                         [--portmap=auto|true|false] [--network NAME] [--conflist-name NAME]\n"
    "                         [--cni-bin-dir DIR] [--cni-conf-dir DIR]\n"
    "       brisk-cni-install sleep\n"
    "Each flag can also come from BRISK_<FLAG> (BRISK_POD_CIDR, BRISK_CNI_BIN_DIR, ...).\n"
    "Defaults: --cni-bin-dir /host/opt/cni/bin --cni-conf-dir /host/etc/cni/net.d --bridge brisk0\n";

// As PID 1 of a container a signal with the default action is dropped:
// wait for it explicitly.
int sleep_until_signalled() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  int sig = 0;
  sigwait(&set, &sig);
  return 0;
}

// The directory and name this program runs from.
std::pair<std::string, std::string> self() {
  std::string path(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0) return {".", "brisk-cni-install"};
  path.resize(static_cast<std::size_t>(n));
  std::size_t slash = path.rfind('/');
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

}  // namespace

int main(int argc, char** argv) {
  namespace in = brisk::cni::install;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "sleep" && args.size() == 1) return sleep_until_signalled();
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  try {
    in::Options o = in::parse_options(args, [](const char* name) -> std::optional<std::string> {
      const char* v = std::getenv(name);
      return v ? std::optional<std::string>(v) : std::nullopt;
    });
    std::tie(o.source_dir, o.self_name) = self();
    in::Report r = in::install(o);
    for (const auto& p : r.written) std::printf("installed %s\n", p.c_str());
    for (const auto& p : r.unchanged) std::printf("unchanged %s\n", p.c_str());
    return 0;
  } catch (const in::InstallError& e) {
    std::fprintf(stderr, "brisk-cni-install: %s\n", e.what());
    if (e.kind() == in::ErrorKind::bad_argument) std::fputs(kUsage, stderr);
    return e.kind() == in::ErrorKind::bad_argument ? 2 : 1;
  }
}
