// brisk/cni/bridge_config.h: the network config of a `bridge` plugin, every
// field of the reference plugin (containernetworking/plugins 1.1.1).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "brisk/cni/environment.h"
#include "brisk/cni/result.h"
#include "brisk/cni/version.h"

namespace brisk::cni {

struct BridgeConfig {
  SpecVersion version{};            // cniVersion
  std::string name{};               // network name: keys leases and masquerade rules
  std::string type{};               // "brisk-bridge" (or "bridge")
  std::string bridge = "cni0";      // the bridge device on the host
  bool is_gateway = false;          // put the gateway address on the bridge
  bool is_default_gateway = false;  // add a default route via the gateway (implies is_gateway)
  bool force_address = false;       // replace a different IPv4 address on the bridge
  bool ip_masq = false;             // masquerade the pod's traffic leaving its subnet
  int mtu = 0;                      // MTU of the bridge (when created) and both veth ends; 0: default
  bool hairpin_mode = false;        // let a port's own frames come back to it
  bool promisc_mode = false;        // put the bridge in promiscuous mode
  int vlan = 0;                     // 802.1Q id of the port (needs bridge VLAN filtering); 0: none
  bool mac_spoof_check = false;     // drop frames from the pod with another source MAC
  bool enable_dad = false;          // IPv6 duplicate address detection in the pod (off by default)
  Dns dns{};                        // returned as the result's dns
  std::string mac{};        // the pod's MAC: CNI_ARGS MAC, args.cni.mac or runtimeConfig.mac (last wins)
  std::string ipam_type{};  // ipam.type; empty: layer 2 only
  std::optional<Result> prev_result{};  // prevResult, when chained
  nlohmann::json raw{};                 // the whole config as read (handed to an IPAM plugin)
};

// Parses stdin. Throws CniException: decoding_failure for bad JSON,
// incompatible_version for a cniVersion brisk does not speak,
// invalid_config for a field of the wrong type or value.
BridgeConfig parse_bridge_config(std::string_view stdin_data, const Environment& env);

}  // namespace brisk::cni
