// lease_store.h: the host-local store on disk (see brisk/cni/host_local.h
// for its layout) and brisk's index beside it. One LeaseStore holds the
// store's flock for its lifetime, so every method runs under the lock the
// reference plugin takes too.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "brisk/fd.h"
#include "brisk/netlink/address.h"
#include "cni/store_dir.h"

namespace brisk::cni::detail {

struct LeaseKey {
  std::string container_id{};
  std::string ifname{};  // empty for a lease of the old format ("<id>" alone)
  auto operator<=>(const LeaseKey&) const = default;
};

class LeaseStore {
 public:
  // Creates <data_dir>/<network> and the index as needed, and locks.
  LeaseStore(const std::string& data_dir, const std::string& network);
  ~LeaseStore();  // writes the stamp if anything changed; unlocks
  LeaseStore(const LeaseStore&) = delete;
  LeaseStore& operator=(const LeaseStore&) = delete;

  // The addresses (container_id, ifname) holds; with no lease of that
  // form, those of the old "<id>"-only form, as the reference matches.
  std::vector<netlink::IpAddress> held_by(const LeaseKey& key);
  // Takes `address` for key; false when it is taken already.
  bool reserve(const netlink::IpAddress& address, const LeaseKey& key, std::size_t range_set);
  std::optional<netlink::IpAddress> last_reserved(std::size_t range_set);
  // Removes key's leases; returns what was released.
  std::vector<netlink::IpAddress> release(const LeaseKey& key);
  // Removes just these leases of key (an ADD undoing its own work).
  void release_addresses(const LeaseKey& key, const std::vector<netlink::IpAddress>& addresses);
  // Every lease, read from the lease files themselves.
  std::map<LeaseKey, std::vector<netlink::IpAddress>> scan();

  const std::string& directory() const { return dir_.path(); }
  // Index rebuilds so far (for tests: a foreign change must cause one).
  std::size_t rebuilds() const { return rebuilds_; }

 private:
  struct Held {
    LeaseKey key{};  // the form that matched
    std::vector<netlink::IpAddress> addresses{};
  };
  Held held(const LeaseKey& key);
  void ensure_index();
  void rebuild_index();
  std::string hint_name(const LeaseKey& key) const;
  void write_hint(const LeaseKey& key, const std::vector<netlink::IpAddress>& addresses);
  std::optional<std::vector<netlink::IpAddress>> read_hint(const LeaseKey& key);
  std::string stamp_text() const;

  StoreDir top_;        // the config's dataDir
  StoreDir dir_;        // <dataDir>/<network>: the leases, as the reference keeps them
  StoreDir index_dir_;  // <dataDir>/.brisk-index/<network>
  UniqueFd lock_;
  bool index_checked_ = false;
  bool changed_ = false;
  std::size_t rebuilds_ = 0;
};

// "<id>\r\n<ifname>", as the reference writes it.
std::string lease_content(const LeaseKey& key);

}  // namespace brisk::cni::detail
