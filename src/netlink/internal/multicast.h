// netlink/internal/multicast.h: the link-layer multicast addresses a device
// listens to beyond those its protocols joined (`ip maddr add|del`). These
// are ioctls (SIOCADDMULTI, SIOCDELMULTI), not rtnetlink: they go through
// the connection's socket, so they act in the connection's namespace.
//
//   add_link_multicast(conn, "eth0", {0x01, 0x00, 0x5e, 0x00, 0x00, 0x05}).value();
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "brisk/netlink/connection.h"
#include "brisk/netlink/error.h"

namespace brisk::netlink {

// Adds `address` (6 bytes for Ethernet) to `dev`'s multicast list, marked
// static; a second add of the same address changes nothing.
NlResult<void> add_link_multicast(Connection& conn, const std::string& dev, std::span<const uint8_t> address);
// Removes an address added so; ENOENT when it is not on the list.
NlResult<void> delete_link_multicast(Connection& conn, const std::string& dev,
                                     std::span<const uint8_t> address);

}  // namespace brisk::netlink
