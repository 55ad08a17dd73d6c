// brisk/cni/result.h: what ADD returns, in every spec version's shape.
//
// One model (the 1.1 one) is printed in the shape of the config's
// cniVersion: 0.1.0/0.2.0 have "ip4"/"ip6" objects, 0.3.x/0.4.0 carry
// "version" inside each IP, 1.0.0 drops it, 1.1.0 adds route and
// interface fields. prevResult is read back from any of them.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "brisk/cni/version.h"
#include "brisk/netlink/address.h"

namespace brisk::cni {

struct Interface {
  std::string name{};         // device name
  std::string mac{};          // "xx:xx:…"; empty: none
  std::optional<int> mtu{};   // 1.1 only
  std::string sandbox{};      // netns path for a container interface; empty on the host
  std::string socket_path{};  // 1.1 only (vhost-user and the like)
  std::string pci_id{};       // 1.1 only
};

struct IpConfig {
  netlink::IpPrefix address{};  // "10.1.0.5/16": the address with its subnet's length
  std::optional<netlink::IpAddress> gateway{};
  std::optional<int> interface {};  // index into Result::interfaces
};

struct Route {
  netlink::IpPrefix dst{};                 // "0.0.0.0/0" for a default route
  std::optional<netlink::IpAddress> gw{};  // empty: the family's gateway of the result's IPs
  // 1.1 only:
  std::optional<int> mtu{};
  std::optional<int> advmss{};
  std::optional<int> priority{};
  std::optional<int> table{};
  std::optional<int> scope{};
};

struct Dns {
  std::vector<std::string> nameservers{};
  std::string domain{};
  std::vector<std::string> search{};
  std::vector<std::string> options{};
  bool empty() const { return nameservers.empty() && domain.empty() && search.empty() && options.empty(); }
};

struct Result {
  std::vector<Interface> interfaces{};
  std::vector<IpConfig> ips{};
  std::vector<Route> routes{};
  Dns dns{};
};

// The result in `version`'s shape, "cniVersion" included.
nlohmann::ordered_json result_to_json(const Result& result, const SpecVersion& version);
// Reads a result (a prevResult, an IPAM plugin's answer) of any version;
// throws CniException (decoding_failure) when it is malformed.
Result result_from_json(const nlohmann::json& json);

Dns dns_from_json(const nlohmann::json& json);
nlohmann::ordered_json dns_to_json(const Dns& dns);

}  // namespace brisk::cni
