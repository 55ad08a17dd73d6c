// netlink/internal/addrlabel.h: the kernel's IPv6 address label table (RFC
// 6724's policy table, `ip addrlabel`), by which source and destination
// addresses are paired: a prefix, optionally on one device, and its label.
//
//   add_addrlabel(conn, {.prefix = "2001:db8::/32", .label = 99}).value();
//   for (const auto& l : list_addrlabels(conn).value()) ...
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "brisk/netlink/address.h"
#include "brisk/netlink/batch.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// A label to add or delete (RTM_NEWADDRLABEL, RTM_DELADDRLABEL). Sent as
// given: the kernel keeps IPv6 prefixes only, and refuses anything else.
struct AddrLabelSpec {
  int family = AF_INET6;  // ifal_family
  std::string prefix{};   // IFAL_ADDRESS and ifal_prefixlen
  std::string dev{};      // ifal_index: the label holds on this device only; empty: on any
  uint32_t label = 0;     // IFAL_LABEL; 0xffffffff is reserved
};

// A label as the kernel reports it (RTM_NEWADDRLABEL).
struct AddrLabelInfo {
  int family = AF_INET6;
  IpPrefix prefix{};
  int ifindex = 0;  // 0: any device
  uint32_t label = 0;
};

// Adds a label; EEXIST when the prefix (on that device) has one.
NlResult<void> add_addrlabel(Connection& conn, const AddrLabelSpec& spec);
// Deletes the label of the prefix on the device (the label given is not
// compared); ESRCH when there is none.
NlResult<void> delete_addrlabel(Connection& conn, const AddrLabelSpec& spec);
// Queue the same on a batch; each returns its result's index in flush()'s answer.
std::size_t add_addrlabel(Batch& batch, AddrLabelSpec spec);
std::size_t delete_addrlabel(Batch& batch, AddrLabelSpec spec);
// The table of `family` (the kernel has IPv6's alone), most specific first.
NlResult<std::vector<AddrLabelInfo>> list_addrlabels(Connection& conn, int family = AF_INET6);

}  // namespace brisk::netlink
