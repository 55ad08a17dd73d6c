#include "cli/ip/batch_rules.h"

namespace brisk::ipcli {

bool names_device_ip_parses(const IpCommand& cmd) {
  // What any command may carry: ip checks a `vrf NAME` and opens a
  // `link-netns NAME` as it parses.
  if (!cmd.vrfs.empty() || !cmd.link_netns.empty() || !cmd.peer_link_netns.empty()) return true;
  return cmd.verb->resolves_while_parsing && cmd.verb->resolves_while_parsing(cmd);
}

std::vector<std::string> named_devices(const IpCommand& cmd) {
  if (!cmd.verb->named_devices) return {};
  return cmd.verb->named_devices(cmd);
}

std::vector<std::string> created_devices(const IpCommand& cmd) {
  if (!cmd.verb->created_devices) return {};
  return cmd.verb->created_devices(cmd);
}

bool may_end_batch(const IpCommand& cmd) {
  return names_device_ip_parses(cmd) || cmd.verb->exits_on_kernel_refusal;
}

bool is_plain_change(const IpCommand& cmd) {
  return cmd.mutates() && !cmd.verb->predicted_delete && !may_end_batch(cmd);
}

}  // namespace brisk::ipcli
