// bridge_ops.h: the steps of brisk-bridge's commands, one file each
// (bridge_add.cc, bridge_del.cc, bridge_check.cc), sharing these helpers.
#pragma once

#include <string>
#include <vector>

#include "brisk/cni/bridge_config.h"
#include "brisk/cni/environment.h"
#include "brisk/cni/error.h"
#include "brisk/cni/host_local.h"
#include "brisk/netlink/connection.h"
#include "brisk/netlink/link.h"

namespace brisk::cni::detail {

// The command's output (a result's JSON, or nothing).
std::string bridge_add(const Environment& env, const BridgeConfig& config, const std::string& stdin_data);
void bridge_del(const Environment& env, const BridgeConfig& config, const std::string& stdin_data);
void bridge_check(const Environment& env, const BridgeConfig& config, const std::string& stdin_data);
void bridge_gc(const Environment& env, const BridgeConfig& config, const std::string& stdin_data,
               const std::vector<Attachment>& keep);

// A netlink result's value, or the plugin's error with `what` before the
// kernel's message.
template <class T>
T checked(netlink::NlResult<T> r, const std::string& what) {
  if (!r) fail(ErrorCode::internal, what + ": " + r.error().message());
  return std::move(*r);
}
inline void checked(netlink::NlResult<void> r, const std::string& what) {
  if (!r) fail(ErrorCode::internal, what + ": " + r.error().message());
}

netlink::Connection open_connection();

}  // namespace brisk::cni::detail
