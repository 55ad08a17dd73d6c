// ipam.h: the IPAM step of a bridge ADD, DEL, CHECK, GC or STATUS.
//
// host-local runs in-process. Any other type is exec'd from CNI_PATH as
// the spec says: the same environment with CNI_COMMAND set, the whole
// network config on stdin, its stderr passed through, its result (or error
// object) read from stdout.
#pragma once

#include <string>
#include <vector>

#include "brisk/cni/bridge_config.h"
#include "brisk/cni/environment.h"
#include "brisk/cni/host_local.h"
#include "brisk/cni/result.h"

namespace brisk::cni::detail {

struct IpamContext {
  const BridgeConfig& config;
  const Environment& env;
  const std::string& stdin_data;  // handed to an exec'd plugin as it came
};

// Checks what ADD will need before anything is changed: host-local's
// config, or that an exec'd plugin exists in CNI_PATH.
void ipam_validate(const IpamContext& ctx);
Result ipam_add(const IpamContext& ctx);
// Returns the addresses host-local released (empty for an exec'd plugin).
std::vector<netlink::IpAddress> ipam_del(const IpamContext& ctx);
void ipam_check(const IpamContext& ctx);
void ipam_gc(const IpamContext& ctx, const std::vector<Attachment>& keep);
void ipam_status(const IpamContext& ctx);
// The subnet host-local would give `address` (for DELs that only know the address).
std::optional<netlink::IpPrefix> ipam_subnet_of(const IpamContext& ctx, const netlink::IpAddress& address);

}  // namespace brisk::cni::detail
