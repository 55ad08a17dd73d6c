// install.h: puts brisk's CNI plugins and a conflist on a node, as the
// install-cni init containers of flannel and Calico do.
//
//   Options o = parse_options({"--pod-cidr=10.244.1.0/24"}, getenv_fn);
//   o.source_dir = "/opt/brisk/bin";  // where the plugins are
//   Report r = install(o);            // plugins first, the conflist last
//
// Every file lands whole or not at all (a temporary file in the same
// directory, fsync'd, then renamed), so a kubelet never execs a half-copied
// plugin and never reads half a conflist. A file already holding the same
// bytes and mode is left alone. All input is checked before the first
// write: a bad CIDR, a missing or read-only directory, or a symlink, FIFO or
// directory where a file should be fails with nothing written. The library
// prints nothing; failures are InstallError with a kind to match on.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace brisk::cni::install {

enum class ErrorKind {
  bad_argument,       // a flag or variable that is unknown or malformed
  missing_directory,  // a target or source directory does not exist
  not_a_directory,    // it exists and is something else
  not_writable,       // read-only mount, or no permission
  hostile_file,       // a symlink, FIFO, device or directory where a file should be
  missing_plugin,     // no brisk-bridge beside the installer, or portmap=on without brisk-portmap
  io,                 // a read, write, fsync or rename failed
};

class InstallError : public std::runtime_error {
 public:
  InstallError(ErrorKind kind, std::string path, const std::string& message);
  ErrorKind kind() const noexcept { return kind_; }
  const std::string& path() const noexcept { return path_; }

 private:
  ErrorKind kind_;
  std::string path_;
};

enum class Portmap { automatic, on, off };

// Defaults are those of an installer running in its image with the node's
// directories mounted under /host, as Calico's install-cni does.
struct Options {
  std::string cni_bin_dir = "/host/opt/cni/bin";
  std::string cni_conf_dir = "/host/etc/cni/net.d";
  // Where the plugins (brisk-*) and their library closure (brisk-lib/) are.
  std::string source_dir{};
  // The installer's own file name in source_dir: never installed as a plugin.
  std::string self_name = "brisk-cni-install";
  // One network per address family, as a node's spec.podCIDRs.
  std::vector<std::string> pod_cidrs{};
  // When both are set and pod_cidr_dir/node_name exists, its content (the
  // same syntax as BRISK_POD_CIDR) replaces pod_cidrs: a ConfigMap with a
  // key per node, mounted as a volume, gives each node its own CIDR.
  std::string pod_cidr_dir{};
  std::string node_name{};
  std::string bridge = "brisk0";
  std::optional<unsigned> mtu{};  // the kernel's default (1500) when unset
  bool ip_masq = true;
  // automatic: the portmap entry is written when brisk-portmap is installed.
  Portmap portmap = Portmap::automatic;
  std::string network = "brisk";
  std::string conflist_name = "10-brisk.conflist";
};

using Getenv = std::function<std::optional<std::string>(const char* name)>;

// Flags (--name=value or --name value) override the environment
// (BRISK_POD_CIDR, BRISK_POD_CIDR_DIR, BRISK_NODE_NAME, BRISK_BRIDGE,
// BRISK_MTU, BRISK_IP_MASQ, BRISK_PORTMAP, BRISK_NETWORK,
// BRISK_CONFLIST_NAME, BRISK_CNI_BIN_DIR, BRISK_CNI_CONF_DIR).
// Throws InstallError(bad_argument).
Options parse_options(const std::vector<std::string>& args, const Getenv& getenv);

// `o` with pod_cidrs taken from pod_cidr_dir/node_name when that exists.
// Throws InstallError (bad_argument for a node name that is no file name,
// hostile_file for a FIFO or device there).
Options resolve_pod_cidrs(Options o);

// The conflist's text for `o`, with the portmap entry when `with_portmap`.
// Validates every field; throws InstallError(bad_argument).
std::string conflist(const Options& o, bool with_portmap);

struct Report {
  std::vector<std::string> written{};    // paths replaced or created
  std::vector<std::string> unchanged{};  // paths that already held the same bytes
};

// Copies every brisk-* plugin of source_dir (but the installer) into
// cni_bin_dir, source_dir/brisk-lib/ into cni_bin_dir/brisk-lib/, then
// writes the conflist into cni_conf_dir (after resolve_pod_cidrs).
Report install(const Options& o);

}  // namespace brisk::cni::install
