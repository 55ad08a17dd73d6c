#include "cni/install/install.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace brisk::cni::install {

InstallError::InstallError(ErrorKind kind, std::string path, const std::string& message)
    : std::runtime_error(path.empty() ? message : path + ": " + message),
      kind_(kind),
      path_(std::move(path)) {}

namespace {

[[noreturn]] void bad(const std::string& message) {
  throw InstallError(ErrorKind::bad_argument, {}, message);
}

[[noreturn]] void fail_errno(ErrorKind kind, const std::string& path, const char* call, int error) {
  throw InstallError(kind, path, std::string(call) + ": " + std::strerror(error));
}

// ---- options ---------------------------------------------------------------

bool parse_bool(const std::string& name, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  bad(name + " takes true or false, not '" + v + "'");
}

unsigned parse_mtu(const std::string& v) {
  if (v.empty() || v.size() > 5 ||
      !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
    bad("mtu takes a number, not '" + v + "'");
  return static_cast<unsigned>(std::stoul(v));
}

std::vector<std::string> split_cidrs(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= v.size()) {
    std::size_t comma = v.find(',', start);
    if (comma == std::string::npos) comma = v.size();
    std::string part = v.substr(start, comma - start);
    part.erase(0, part.find_first_not_of(" \t\n"));
    part.erase(part.find_last_not_of(" \t\n") + 1);
    if (!part.empty()) out.push_back(part);
    start = comma + 1;
  }
  return out;
}

// One setting, as a flag name and its environment variable.
struct Setting {
  const char* flag;
  const char* env;
  void (*apply)(Options&, const std::string& name, const std::string& value);
};

const std::array<Setting, 11> kSettings{{
    {"cni-bin-dir", "BRISK_CNI_BIN_DIR",
     [](Options& o, const std::string&, const std::string& v) { o.cni_bin_dir = v; }},
    {"cni-conf-dir", "BRISK_CNI_CONF_DIR",
     [](Options& o, const std::string&, const std::string& v) { o.cni_conf_dir = v; }},
    {"pod-cidr", "BRISK_POD_CIDR",
     [](Options& o, const std::string&, const std::string& v) { o.pod_cidrs = split_cidrs(v); }},
    {"pod-cidr-dir", "BRISK_POD_CIDR_DIR",
     [](Options& o, const std::string&, const std::string& v) { o.pod_cidr_dir = v; }},
    {"node-name", "BRISK_NODE_NAME",
     [](Options& o, const std::string&, const std::string& v) { o.node_name = v; }},
    {"bridge", "BRISK_BRIDGE", [](Options& o, const std::string&, const std::string& v) { o.bridge = v; }},
    {"mtu", "BRISK_MTU", [](Options& o, const std::string&, const std::string& v) { o.mtu = parse_mtu(v); }},
    {"ip-masq", "BRISK_IP_MASQ",
     [](Options& o, const std::string& n, const std::string& v) { o.ip_masq = parse_bool(n, v); }},
    {"portmap", "BRISK_PORTMAP",
     [](Options& o, const std::string& n, const std::string& v) {
       if (v == "auto")
         o.portmap = Portmap::automatic;
       else
         o.portmap = parse_bool(n, v) ? Portmap::on : Portmap::off;
     }},
    {"network", "BRISK_NETWORK", [](Options& o, const std::string&, const std::string& v) { o.network = v; }},
    {"conflist-name", "BRISK_CONFLIST_NAME",
     [](Options& o, const std::string&, const std::string& v) { o.conflist_name = v; }},
}};

// ---- validation --------------------------------------------------------------

struct Cidr {
  int family;
  std::string text;
};

Cidr check_cidr(const std::string& text) {
  std::size_t slash = text.find('/');
  if (slash == std::string::npos) bad("pod CIDR '" + text + "' has no /length");
  std::string addr = text.substr(0, slash), len = text.substr(slash + 1);
  std::array<unsigned char, 16> bytes{};
  int family = AF_INET;
  if (::inet_pton(AF_INET, addr.c_str(), bytes.data()) != 1) {
    family = AF_INET6;
    if (::inet_pton(AF_INET6, addr.c_str(), bytes.data()) != 1)
      bad("pod CIDR '" + text + "': not an address");
  }
  unsigned bits = family == AF_INET ? 32 : 128;
  if (len.empty() || len.size() > 3 ||
      !std::all_of(len.begin(), len.end(), [](char c) { return c >= '0' && c <= '9'; }))
    bad("pod CIDR '" + text + "': bad prefix length");
  unsigned length = static_cast<unsigned>(std::stoul(len));
  // Room for the network, the gateway, a pod and (IPv4) the broadcast address.
  if (length < 8 || length > bits - 2)
    bad("pod CIDR '" + text + "': prefix length must be 8 to " + std::to_string(bits - 2));
  for (unsigned i = length; i < bits; ++i)
    if (bytes[i / 8] & (0x80u >> (i % 8))) bad("pod CIDR '" + text + "' has host bits set: not a network");
  return {family, text};
}

// The kernel's dev_valid_name(): 1 to 15 bytes, not . or .., no '/', ':' or space.
void check_ifname(const std::string& name) {
  bool ok = !name.empty() && name.size() < 16 && name != "." && name != "..";
  for (unsigned char c : name)
    if (c == '/' || c == ':' || c <= ' ' || c == 0x7f) ok = false;
  if (!ok) bad("bridge '" + name + "' is not a valid interface name");
}

// A file name in one directory: never a path, never hidden, never . or ..
bool plain_name(const std::string& name) {
  return !name.empty() && name[0] != '.' && name.find('/') == std::string::npos && name.size() < 256;
}

void check_options(const Options& o) {
  if (o.pod_cidrs.empty()) bad("no pod CIDR: set --pod-cidr or BRISK_POD_CIDR (the node's spec.podCIDR)");
  int families = 0;
  for (const auto& c : o.pod_cidrs) {
    int bit = check_cidr(c).family == AF_INET ? 1 : 2;
    if (families & bit) bad("two pod CIDRs of one address family: give at most one IPv4 and one IPv6");
    families |= bit;
  }
  check_ifname(o.bridge);
  if (o.mtu) {
    unsigned min = (families & 2) ? 1280 : 68;  // IPv6 needs 1280
    if (*o.mtu < min || *o.mtu > 65535)
      bad("mtu " + std::to_string(*o.mtu) + " is outside " + std::to_string(min) + "..65535");
  }
  if (o.network.empty() || o.network.size() > 128 ||
      !std::all_of(o.network.begin(), o.network.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
      }))
    bad("network name '" + o.network + "' must be letters, digits, '-', '_' or '.'");
  if (!plain_name(o.conflist_name) || o.conflist_name.size() <= 9 ||
      o.conflist_name.compare(o.conflist_name.size() - 9, 9, ".conflist") != 0)
    bad("conflist name '" + o.conflist_name + "' must be a plain file name ending in .conflist");
}

// ---- files ---------------------------------------------------------------------

constexpr const char* kLibDir = "brisk-lib";
constexpr const char* kTempPrefix = ".brisk-tmp-";

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// A directory, with the path it is reported by.
struct Dir {
  Fd fd;
  std::string path;
  std::string at(const std::string& name) const { return path + "/" + name; }
};

// Opens a directory the caller names (it may be reached through a
// symlink: a node's /opt/cni/bin sometimes is one).
Dir open_dir(const std::string& path, bool need_write) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT) throw InstallError(ErrorKind::missing_directory, path, "no such directory");
    if (e == ENOTDIR) throw InstallError(ErrorKind::not_a_directory, path, "not a directory");
    fail_errno(ErrorKind::io, path, "open", e);
  }
  Dir d{Fd(fd), path};
  if (need_write && ::faccessat(fd, ".", W_OK, AT_EACCESS) != 0) {
    int e = errno;
    throw InstallError(ErrorKind::not_writable, path, std::string("not writable: ") + std::strerror(e));
  }
  return d;
}

// What is at dir/name, never following a symlink: nullopt when nothing.
std::optional<struct stat> lstat_at(const Dir& dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return st;
  if (errno == ENOENT) return std::nullopt;
  fail_errno(ErrorKind::io, dir.at(name), "stat", errno);
}

const char* type_name(mode_t mode) {
  if (S_ISLNK(mode)) return "a symlink";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// A regular file or nothing at dir/name; anything else is refused.
std::optional<struct stat> expect_file(const Dir& dir, const std::string& name) {
  auto st = lstat_at(dir, name);
  if (st && !S_ISREG(st->st_mode))
    throw InstallError(
        ErrorKind::hostile_file, dir.at(name),
        std::string("is ") + type_name(st->st_mode) + " where a file should be; remove it by hand");
  return st;
}

// The bytes of a regular file, opened without following a symlink and
// without waiting on a FIFO; nullopt when it does not exist.
std::optional<std::string> read_at(const Dir& dir, const std::string& name) {
  int fd = ::openat(dir.fd.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT) return std::nullopt;
    if (e == ELOOP) expect_file(dir, name);  // a symlink: refused with its kind
    fail_errno(ErrorKind::io, dir.at(name), "open", e);
  }
  Fd f(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_errno(ErrorKind::io, dir.at(name), "fstat", errno);
  if (!S_ISREG(st.st_mode))
    throw InstallError(ErrorKind::hostile_file, dir.at(name),
                       std::string("is ") + type_name(st.st_mode) + ", not a file");
  std::string data;
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(ErrorKind::io, dir.at(name), "read", errno);
    if (n == 0) break;
    data.append(buffer, static_cast<std::size_t>(n));
  }
  return data;
}

std::string random_suffix() {
  std::array<unsigned char, 8> r{};
  if (::getrandom(r.data(), r.size(), 0) != static_cast<ssize_t>(r.size())) r.fill(0);
  std::string out;
  for (unsigned char c : r) {
    out += "0123456789abcdef"[c >> 4];
    out += "0123456789abcdef"[c & 15];
  }
  return out + std::to_string(::getpid());
}

void write_whole(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(ErrorKind::io, path, "write", errno);
    done += static_cast<std::size_t>(n);
  }
}

// One file to put in place: its name, bytes and mode.
struct Item {
  std::string name;
  std::string data;
  mode_t mode;
};

// dir/name := data, atomically; false when it already held data with mode.
bool place(const Dir& dir, const Item& item) {
  auto st = expect_file(dir, item.name);
  if (st && (st->st_mode & 07777) == item.mode && static_cast<std::size_t>(st->st_size) == item.data.size() &&
      read_at(dir, item.name) == item.data)
    return false;
  std::string temp = kTempPrefix + item.name + "-" + random_suffix();
  int fd = ::openat(dir.fd.get(), temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    int e = errno;
    fail_errno(e == EROFS || e == EACCES || e == EPERM ? ErrorKind::not_writable : ErrorKind::io,
               dir.at(temp), "create", e);
  }
  Fd f(fd);
  try {
    write_whole(fd, item.data, dir.at(temp));
    if (::fchmod(fd, item.mode) != 0) fail_errno(ErrorKind::io, dir.at(temp), "fchmod", errno);
    if (::fsync(fd) != 0) fail_errno(ErrorKind::io, dir.at(temp), "fsync", errno);
    if (::renameat(dir.fd.get(), temp.c_str(), dir.fd.get(), item.name.c_str()) != 0)
      fail_errno(ErrorKind::io, dir.at(item.name), "rename", errno);
  } catch (...) {
    ::unlinkat(dir.fd.get(), temp.c_str(), 0);
    throw;
  }
  if (::fsync(dir.fd.get()) != 0) fail_errno(ErrorKind::io, dir.path, "fsync", errno);
  return true;
}

// The names in a directory, sorted.
std::vector<std::string> names_in(const Dir& dir) {
  int fd = ::openat(dir.fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail_errno(ErrorKind::io, dir.path, "open", errno);
  DIR* d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    fail_errno(ErrorKind::io, dir.path, "fdopendir", errno);
  }
  std::vector<std::string> out;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// Temporary files a killed run left behind: ours by name, never followed.
void remove_leftovers(const Dir& dir) {
  for (const auto& name : names_in(dir))
    if (name.rfind(kTempPrefix, 0) == 0) {
      auto st = lstat_at(dir, name);
      if (st && S_ISREG(st->st_mode)) ::unlinkat(dir.fd.get(), name.c_str(), 0);
    }
}

// The regular files of `dir` that `keep` accepts, read whole.
std::vector<Item> collect(const Dir& dir,
                          bool (*keep)(const std::string&, const struct stat&, const Options&),
                          const Options& o) {
  std::vector<Item> out;
  for (const auto& name : names_in(dir)) {
    auto st = lstat_at(dir, name);
    if (!st || !S_ISREG(st->st_mode) || !plain_name(name) || !keep(name, *st, o)) continue;
    out.push_back({name, *read_at(dir, name), static_cast<mode_t>(st->st_mode & 0755)});
  }
  return out;
}

bool is_plugin(const std::string& name, const struct stat& st, const Options& o) {
  return name.rfind("brisk-", 0) == 0 && name != o.self_name && (st.st_mode & S_IXUSR);
}

bool is_library(const std::string&, const struct stat&, const Options&) { return true; }

bool has(const std::vector<Item>& items, const std::string& name) {
  return std::any_of(items.begin(), items.end(), [&](const Item& i) { return i.name == name; });
}

void record(Report& r, const Dir& dir, const Item& item, bool written) {
  (written ? r.written : r.unchanged).push_back(dir.at(item.name));
}

}  // namespace

Options parse_options(const std::vector<std::string>& args, const Getenv& getenv) {
  Options o;
  for (const auto& s : kSettings)
    if (auto v = getenv(s.env)) s.apply(o, s.env, *v);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) bad("unexpected argument '" + a + "'");
    std::string name = a.substr(2), value;
    std::size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else if (name == "ip-masq" || name == "portmap") {
      value = "true";
    } else if (name == "no-ip-masq" || name == "no-portmap") {
      name = name.substr(3);
      value = "false";
    } else {
      if (i + 1 >= args.size()) bad("--" + name + " needs a value");
      value = args[++i];
    }
    auto s =
        std::find_if(kSettings.begin(), kSettings.end(), [&](const Setting& x) { return name == x.flag; });
    if (s == kSettings.end()) bad("unknown flag --" + name);
    s->apply(o, "--" + name, value);
  }
  return o;
}

Options resolve_pod_cidrs(Options o) {
  if (o.pod_cidr_dir.empty() || o.node_name.empty()) return o;
  if (!plain_name(o.node_name)) bad("node name '" + o.node_name + "' is not a file name");
  // A ConfigMap volume's keys are symlinks into its ..data directory: the
  // directory is the container's own, so they are followed.
  std::string path = o.pod_cidr_dir + "/" + o.node_name;
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return o;  // no entry for this node: the default
    fail_errno(ErrorKind::io, path, "open", errno);
  }
  Fd f(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_errno(ErrorKind::io, path, "fstat", errno);
  if (!S_ISREG(st.st_mode) || st.st_size > 4096)
    throw InstallError(ErrorKind::hostile_file, path, "is not a file of at most 4 KiB");
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  ssize_t n = ::read(fd, text.data(), text.size());
  if (n < 0) fail_errno(ErrorKind::io, path, "read", errno);
  text.resize(static_cast<std::size_t>(n));
  o.pod_cidrs = split_cidrs(text);
  return o;
}

std::string conflist(const Options& o, bool with_portmap) {
  check_options(o);
  using json = nlohmann::ordered_json;
  json ranges = json::array(), routes = json::array();
  for (const auto& c : o.pod_cidrs) {
    ranges.push_back(json::array({json{{"subnet", c}}}));
    routes.push_back(json{{"dst", check_cidr(c).family == AF_INET ? "0.0.0.0/0" : "::/0"}});
  }
  json bridge{{"type", "brisk-bridge"},
              {"bridge", o.bridge},
              {"isGateway", true},
              {"ipMasq", o.ip_masq},
              {"hairpinMode", true}};
  if (o.mtu) bridge["mtu"] = *o.mtu;
  // host-local runs inside brisk-bridge: the node needs no IPAM binary.
  bridge["ipam"] = json{{"type", "host-local"}, {"ranges", ranges}, {"routes", routes}};
  json plugins = json::array({bridge});
  if (with_portmap)
    plugins.push_back(
        json{{"type", "brisk-portmap"}, {"capabilities", {{"portMappings", true}}}, {"snat", true}});
  json doc{{"cniVersion", "0.4.0"}, {"name", o.network}, {"plugins", plugins}};
  return doc.dump(2) + "\n";
}

Report install(const Options& options) {
  const Options o = resolve_pod_cidrs(options);
  check_options(o);
  // Everything is read and checked before the first write.
  Dir source = open_dir(o.source_dir, false);
  std::vector<Item> plugins = collect(source, is_plugin, o);
  if (!has(plugins, "brisk-bridge"))
    throw InstallError(ErrorKind::missing_plugin, source.at("brisk-bridge"),
                       "no such executable beside the installer");
  bool portmap =
      o.portmap == Portmap::on || (o.portmap == Portmap::automatic && has(plugins, "brisk-portmap"));
  if (portmap && !has(plugins, "brisk-portmap"))
    throw InstallError(ErrorKind::missing_plugin, source.at("brisk-portmap"),
                       "portmap is on but there is no brisk-portmap");
  std::vector<Item> libraries;
  auto lib_source = lstat_at(source, kLibDir);
  if (lib_source && S_ISDIR(lib_source->st_mode))
    libraries = collect(open_dir(source.at(kLibDir), false), is_library, o);
  Item conf{o.conflist_name, conflist(o, portmap), 0644};

  Dir bin = open_dir(o.cni_bin_dir, true);
  Dir net = open_dir(o.cni_conf_dir, true);
  for (const auto& p : plugins) expect_file(bin, p.name);
  expect_file(net, conf.name);
  std::optional<Dir> lib;
  if (!libraries.empty()) {
    auto st = lstat_at(bin, kLibDir);
    if (st && !S_ISDIR(st->st_mode))
      throw InstallError(
          ErrorKind::hostile_file, bin.at(kLibDir),
          std::string("is ") + type_name(st->st_mode) + " where a directory should be; remove it by hand");
    if (st) {
      lib = open_dir(bin.at(kLibDir), true);
      for (const auto& l : libraries) expect_file(*lib, l.name);
    }
  }

  Report report;
  remove_leftovers(bin);
  remove_leftovers(net);
  // The libraries before the plugins that load them, the conflist (which
  // tells the kubelet the network is ready) last.
  if (!libraries.empty()) {
    if (!lib) {
      if (::mkdirat(bin.fd.get(), kLibDir, 0755) != 0 && errno != EEXIST)
        fail_errno(ErrorKind::io, bin.at(kLibDir), "mkdir", errno);
      int fd = ::openat(bin.fd.get(), kLibDir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) fail_errno(ErrorKind::hostile_file, bin.at(kLibDir), "open", errno);
      lib = Dir{Fd(fd), bin.at(kLibDir)};
    }
    remove_leftovers(*lib);
    for (const auto& l : libraries) record(report, *lib, l, place(*lib, l));
  }
  for (const auto& p : plugins) record(report, bin, p, place(bin, p));
  record(report, net, conf, place(net, conf));
  return report;
}

}  // namespace brisk::cni::install
