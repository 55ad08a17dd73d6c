// GC (spec 1.1): releases what belongs to attachments no longer in use:
// their leases (or the IPAM plugin's GC), masquerade elements, and
// spoof-check elements of host veths that are gone.
#include "cni/bridge_ops.h"
#include "cni/ipam.h"
#include "cni/masquerade.h"
#include "cni/spoof_check.h"

namespace brisk::cni::detail {

void bridge_gc(const Environment& env, const BridgeConfig& c, const std::string& stdin_data,
               const std::vector<Attachment>& keep) {
  IpamContext ipam{c, env, stdin_data};
  if (!c.ipam_type.empty()) ipam_gc(ipam, keep);
  if (c.ip_masq) masquerade_gc(c.name, keep);
  if (c.mac_spoof_check) spoof_check_gc();
}

}  // namespace brisk::cni::detail
