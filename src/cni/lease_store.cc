#include "cni/lease_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "brisk/cni/error.h"
#include "cni/files.h"
#include "cni/short_hash.h"

namespace brisk::cni::detail {
namespace {

constexpr const char* kLastReserved = "last_reserved_ip.";
constexpr const char* kStamp = "stamp";

// strings.TrimSpace, as the reference compares lease contents.
std::string trim(std::string s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  while (!s.empty() && space(s.back())) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && space(s[i])) ++i;
  return s.substr(i);
}

LeaseKey key_of_content(const std::string& content) {
  std::string t = trim(content);
  auto crlf = t.find("\r\n");
  if (crlf == std::string::npos) return {t, ""};
  return {t.substr(0, crlf), t.substr(crlf + 2)};
}

// A lease's container id or ifname as it may appear in a file name or on a
// line of the index: bytes outside [A-Za-z0-9._-] become %XX. Lease
// contents are anyone's writing: "../../x", "a/b" or NUL bytes must name
// nothing but a file in the index, and nothing there but their own.
std::string escape(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                 c == '_' || c == '-';
    if (plain)
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

}  // namespace

std::string lease_content(const LeaseKey& key) {
  return key.ifname.empty() ? trim(key.container_id) : trim(key.container_id) + "\r\n" + key.ifname;
}

LeaseStore::LeaseStore(const std::string& data_dir, const std::string& network)
    : top_(StoreDir::open_top(data_dir, 0755)),
      dir_(top_.subdirectory(network, 0755)),
      index_dir_(top_.subdirectory(".brisk-index", 0755).subdirectory(network, 0755)) {
  // As go-filemutex creates it; never through a symlink, which would make
  // the file wherever the link points.
  lock_ = dir_.open("lock", O_RDONLY | O_CREAT, 0750);
  while (::flock(lock_.get(), LOCK_EX) != 0)
    if (errno != EINTR) fail_io("flock", dir_.path() + "/lock", errno);
}

LeaseStore::~LeaseStore() {
  // The stamp says: the index matches the store as it is now. Written last,
  // so a crash before it leaves an old stamp and the next user rebuilds.
  if (changed_) {
    try {
      index_dir_.replace(kStamp, stamp_text(), 0644);
    } catch (const CniException&) {
      // No stamp: the next user rebuilds the index. Nothing is lost.
    }
  }
}

std::string LeaseStore::stamp_text() const {
  struct stat st = dir_.status();
  // "2": the index's format (escaped names); an index of another format is rebuilt.
  return fmt::format("2 {} {}.{:09} {}.{:09} {}\n", st.st_ino, st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                     st.st_ctim.tv_sec, st.st_ctim.tv_nsec, st.st_size);
}

void LeaseStore::ensure_index() {
  if (index_checked_) return;
  index_checked_ = true;
  auto stamp = index_dir_.read(kStamp);
  if (!stamp || *stamp != stamp_text()) rebuild_index();
}

std::string LeaseStore::hint_name(const LeaseKey& key) const {
  // Never "stamp", ".", "..", a temporary file's name or a path: escaped
  // text has no '/' and no ':' but the one between the two.
  std::string name = escape(key.container_id) + ":" + escape(key.ifname);
  if (name.size() > 200) name = fmt::format("#{:016x}", fnv1a(key.container_id + '\0' + key.ifname));
  return name;
}

void LeaseStore::write_hint(const LeaseKey& key, const std::vector<netlink::IpAddress>& addresses) {
  if (addresses.empty()) {
    index_dir_.remove(hint_name(key));
    return;
  }
  std::string text = escape(key.container_id) + "\n" + escape(key.ifname) + "\n";
  for (const auto& a : addresses) text += a.to_string() + "\n";
  index_dir_.replace(hint_name(key), text, 0644);
}

std::optional<std::vector<netlink::IpAddress>> LeaseStore::read_hint(const LeaseKey& key) {
  auto text = index_dir_.read(hint_name(key), 1 << 20);
  if (!text) return std::nullopt;
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text->find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text->substr(start, nl - start));
  if (lines.size() < 2 || lines[0] != escape(key.container_id) || lines[1] != escape(key.ifname))
    return std::nullopt;
  std::vector<netlink::IpAddress> out;
  for (std::size_t i = 2; i < lines.size(); ++i)
    if (auto a = netlink::IpAddress::parse(lines[i])) out.push_back(*a);
  return out;
}

std::map<LeaseKey, std::vector<netlink::IpAddress>> LeaseStore::scan() {
  std::map<LeaseKey, std::vector<netlink::IpAddress>> leases;
  for (const std::string& name : dir_.list()) {
    auto address = netlink::IpAddress::parse(name);
    if (!address) continue;  // lock, last_reserved_ip.N, temporary files
    // Released meanwhile, or not a lease brisk can read (a symlink, a FIFO,
    // a damaged file): its address stays taken, as the file is there.
    auto content = dir_.read(name);
    if (!content) continue;
    leases[key_of_content(*content)].push_back(*address);
  }
  return leases;
}

void LeaseStore::rebuild_index() {
  ++rebuilds_;
  for (const std::string& name : index_dir_.list()) index_dir_.remove(name);
  for (const auto& [key, addresses] : scan()) write_hint(key, addresses);
  // Temporary files of a writer killed half-way hold no lease: drop them.
  for (const std::string& name : dir_.list())
    if (name.rfind(kTempPrefix, 0) == 0) dir_.remove(name);
  changed_ = true;
}

std::vector<netlink::IpAddress> LeaseStore::held_by(const LeaseKey& key) { return held(key).addresses; }

LeaseStore::Held LeaseStore::held(const LeaseKey& key) {
  ensure_index();
  for (const LeaseKey& k : {key, LeaseKey{key.container_id, ""}}) {
    Held found{.key = k};
    // The hint says where to look; the lease file itself is the truth.
    for (const auto& a : read_hint(k).value_or(std::vector<netlink::IpAddress>{})) {
      auto content = dir_.read(a.to_string());
      if (content && key_of_content(*content) == k) found.addresses.push_back(a);
    }
    if (!found.addresses.empty() || k.ifname.empty()) return found;
  }
  return {};
}

bool LeaseStore::reserve(const netlink::IpAddress& address, const LeaseKey& key, std::size_t range_set) {
  ensure_index();
  if (!dir_.create_exclusive(address.to_string(), lease_content(key), 0644)) return false;
  changed_ = true;
  dir_.replace(kLastReserved + std::to_string(range_set), address.to_string(), 0644);
  std::vector<netlink::IpAddress> all = read_hint(key).value_or(std::vector<netlink::IpAddress>{});
  all.push_back(address);
  write_hint(key, all);
  return true;
}

std::optional<netlink::IpAddress> LeaseStore::last_reserved(std::size_t range_set) {
  auto text = dir_.read(kLastReserved + std::to_string(range_set));
  if (!text) return std::nullopt;
  auto a = netlink::IpAddress::parse(trim(*text));
  if (!a) return std::nullopt;
  return *a;
}

std::vector<netlink::IpAddress> LeaseStore::release(const LeaseKey& key) {
  Held found = held(key);
  for (const auto& a : found.addresses) dir_.remove(a.to_string());
  if (!found.addresses.empty()) {
    changed_ = true;
    write_hint(found.key, {});
  }
  return found.addresses;
}

void LeaseStore::release_addresses(const LeaseKey& key, const std::vector<netlink::IpAddress>& addresses) {
  if (addresses.empty()) return;
  std::vector<netlink::IpAddress> keep = read_hint(key).value_or(std::vector<netlink::IpAddress>{});
  for (const auto& a : addresses) {
    auto content = dir_.read(a.to_string());
    if (content && key_of_content(*content) == key) dir_.remove(a.to_string());
    keep.erase(std::remove(keep.begin(), keep.end(), a), keep.end());
  }
  changed_ = true;
  write_hint(key, keep);
}

}  // namespace brisk::cni::detail
