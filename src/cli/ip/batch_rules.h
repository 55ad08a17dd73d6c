// cli/ip/batch_rules.h: which lines ip -batch treats apart, by what its
// parser and its error paths do with them. The facts come from each
// command's Verb (verb.h); these combine them.
#pragma once

#include <string>
#include <vector>

#include "cli/ip/ip.h"

namespace brisk::ipcli {

// Whether the command names something ip looks up while parsing the line:
// a master (link add|set ... master DEV), a vxlan's dev, a bridge port's
// backup_port, a multipath route's nexthop dev, a `vrf NAME`, a
// `link-netns NAME` or a namespace to put a device in.
bool names_device_ip_parses(const IpCommand& cmd);

// The existing devices a change names, which ip resolves by name as it
// parses the line (ll_name_to_index: an RTM_GETLINK on first use, which
// also syncs the device's link state): the device a link set, address,
// route, neighbour or fdb line acts on, a master, a lower link, a vxlan's
// dev and a nexthop's dev. A link delete's name is not among them: the
// device goes, so its link state does not matter.
std::vector<std::string> named_devices(const IpCommand& cmd);

// The devices a change creates in the namespace it runs in: a link add's
// name and its veth peer's (unless the peer is put in another namespace).
std::vector<std::string> created_devices(const IpCommand& cmd);

// Lines that may end even a -force batch: each goes out alone, after what
// comes before it.
bool may_end_batch(const IpCommand& cmd);

// A change the runner needs nothing of but its verb until it is queued:
// neither a device delete (whose names a run of deletes is planned from)
// nor a line that may end the batch. A batch keeps only the text of these
// (BatchCommand).
bool is_plain_change(const IpCommand& cmd);

}  // namespace brisk::ipcli
