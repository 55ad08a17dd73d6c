// spoof_check.h: macspoofchk, in-process through libnftables.
//
// Table `bridge brisk_cni`:
//   set ports   { type ifname; }                       host veth ends that are checked
//   set allowed { type ifname . ether_addr; }          (host veth . the pod's MAC)
//   chain prerouting { type filter hook prerouting priority -300;
//     iifname @ports iifname . ether saddr != @allowed drop }
// The reference makes two chains and three rules per pod in `bridge nat`;
// here a pod is two set elements.
#pragma once

#include <string>

namespace brisk::cni::detail {

void spoof_check_add(const std::string& host_veth, const std::string& mac);
void spoof_check_del(const std::string& host_veth, const std::string& mac);
// Drops the elements of host veth ends that no longer exist.
void spoof_check_gc();

}  // namespace brisk::cni::detail
