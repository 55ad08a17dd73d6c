// brisk/netlink/addr.h: IPv4 and IPv6 addresses on devices.
//
//   add_address(conn, {.dev = "veth0", .prefix = "10.0.0.1/24", .broadcast = "10.0.0.255"}).value();
//   auto addrs = list_addresses(conn, {.dev = "veth0", .family = AF_INET}).value();
//   flush_addresses(conn, "veth0").value();
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "brisk/export.h"
#include "brisk/netlink/address.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

struct AddressSpec {
  std::string dev{};     // device name
  std::string prefix{};  // "10.0.0.1/24" or "fd00::1/64"
  // The far end of a point-to-point address ("10.8.0.2" or "10.8.0.0/24"):
  // its length, not the prefix's, is the address's. Empty: none.
  std::string peer{};
  std::string broadcast{};           // IPv4 broadcast address; empty: none
  std::string anycast{};             // an anycast address to announce with it; empty: none
  std::string label{};               // IPv4 label (at most 15 bytes); empty: the device name
  std::optional<uint8_t> scope{};    // RT_SCOPE_*; default universe (host for 127/8 and ::1 is not guessed)
  std::optional<uint32_t> metric{};  // the metric of its prefix route (IFA_RT_PRIORITY); none: the kernel's
  bool noprefixroute = false;        // do not add the prefix route
  bool nodad = false;                // IPv6: skip duplicate address detection
  bool home = false;                 // IPv6: a Mobile IPv6 home address (IFA_F_HOMEADDRESS)
  bool mngtmpaddr = false;           // IPv6: derive privacy (temporary) addresses from it
  bool optimistic = false;           // IPv6: usable during duplicate address detection
  bool autojoin = false;             // a multicast address: join its group on the device
  // A delete that matches the local address whatever its prefix length or
  // peer (the kernel's match without IFA_ADDRESS; ip's "wildcard deletion").
  bool any_length = false;
  // Lifetimes in seconds, or AddressInfo::kForever; either set sends both
  // (the other forever). The valid one must be non-zero and not shorter.
  std::optional<uint32_t> valid_lifetime{};
  std::optional<uint32_t> preferred_lifetime{};
};

struct AddressInfo {
  int ifindex = 0;                       // the device it is on
  IpPrefix prefix{};                     // IFA_LOCAL (or IFA_ADDRESS) with the prefix length
  std::optional<IpAddress> peer{};       // IFA_ADDRESS where it differs from IFA_LOCAL (point-to-point)
  std::optional<uint32_t> metric{};      // IFA_RT_PRIORITY, when set
  std::optional<IpAddress> anycast{};    // IFA_ANYCAST, when set
  std::optional<IpAddress> broadcast{};  // IPv4 broadcast, when set
  std::string label{};                   // IPv4 label; empty for IPv6
  uint8_t scope = 0;                     // RT_SCOPE_*
  uint32_t flags = 0;                    // IFA_F_*
  // Lifetimes in seconds from IFA_CACHEINFO; kForever (0xffffffff) for a permanent address.
  uint32_t valid_lifetime = kForever;
  uint32_t preferred_lifetime = kForever;
  static constexpr uint32_t kForever = 0xffffffffu;
};

struct AddressFilter {
  std::string dev{};       // only this device (filtered by the kernel); empty: all
  int family = AF_UNSPEC;  // AF_INET, AF_INET6 or AF_UNSPEC for both
};

BRISK_EXPORT NlResult<void> add_address(Connection& conn, const AddressSpec& spec);
BRISK_EXPORT NlResult<void> replace_address(Connection& conn, const AddressSpec& spec);
// Changes an address that exists (ENOENT otherwise): NLM_F_REPLACE alone.
BRISK_EXPORT NlResult<void> change_address(Connection& conn, const AddressSpec& spec);
BRISK_EXPORT NlResult<void> delete_address(Connection& conn, const AddressSpec& spec);
BRISK_EXPORT NlResult<std::vector<AddressInfo>> list_addresses(Connection& conn,
                                                               const AddressFilter& filter = {});
// Deletes every address of `family` on `dev` (every device when empty),
// pipelined; with `which`, only the addresses it accepts (`ip addr flush dev
// X scope global`). Returns how many it asked the kernel to delete.
BRISK_EXPORT NlResult<std::size_t> flush_addresses(Connection& conn, const std::string& dev,
                                                   int family = AF_UNSPEC,
                                                   const std::function<bool(const AddressInfo&)>& which = {});

}  // namespace brisk::netlink
