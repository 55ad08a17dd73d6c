// conntrack.h: dropping the conntrack entries of UDP flows to a host
// port, as the reference portmap does after its ADD (a UDP flow that
// began before the mapping would otherwise keep bypassing the DNAT until
// its entry times out). Through ctnetlink, in the calling thread's
// network namespace.
#pragma once

#include <cstdint>

namespace brisk::cni::detail {

// Best effort, as the reference's (it only logs a failure): returns how
// many entries went, or -1 when ctnetlink could not be asked.
int delete_udp_conntrack(int family, uint16_t port);

}  // namespace brisk::cni::detail
