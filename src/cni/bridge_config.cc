#include "brisk/cni/bridge_config.h"

#include <fmt/format.h>

#include "brisk/cni/error.h"
#include "cni/json_fields.h"
#include "cni/plugin_edge.h"

namespace brisk::cni {

using detail::bool_field;
using detail::int_field;
using detail::object_field;
using detail::string_field;
using nlohmann::json;

namespace detail {

SpecVersion config_version(const json& j) {
  std::string text = string_field(j, "cniVersion", "0.1.0");  // libcni: an absent version is 0.1.0
  auto v = SpecVersion::parse(text);
  if (!v || !is_supported(v->to_string()))
    fail(ErrorCode::incompatible_version, "incompatible CNI versions",
         fmt::format("config is \"{}\", plugin supports [\"{}\"]", text,
                     fmt::join(kSupportedVersions, "\" \"")));
  return *v;
}

}  // namespace detail

BridgeConfig parse_bridge_config(std::string_view stdin_data, const Environment& env) {
  json j = json::parse(stdin_data, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    fail(ErrorCode::decoding_failure, "error unmarshall network config: invalid JSON");
  BridgeConfig c;
  c.name = string_field(j, "name");
  validate_network_name(c.name);
  c.version = detail::config_version(j);
  c.type = string_field(j, "type");
  c.bridge = string_field(j, "bridge", "cni0");
  if (c.bridge.empty()) c.bridge = "cni0";
  validate_interface_name(c.bridge);
  c.is_gateway = bool_field(j, "isGateway");
  c.is_default_gateway = bool_field(j, "isDefaultGateway");
  if (c.is_default_gateway) c.is_gateway = true;
  c.force_address = bool_field(j, "forceAddress");
  c.ip_masq = bool_field(j, "ipMasq");
  long long mtu = int_field(j, "mtu");
  if (mtu < 0 || mtu > 65535) fail(ErrorCode::invalid_config, fmt::format("invalid MTU {}", mtu));
  c.mtu = static_cast<int>(mtu);
  c.hairpin_mode = bool_field(j, "hairpinMode");
  c.promisc_mode = bool_field(j, "promiscMode");
  long long vlan = int_field(j, "vlan");
  if (vlan < 0 || vlan > 4094)
    fail(ErrorCode::invalid_config, fmt::format("invalid VLAN ID {} (must be between 0 and 4094)", vlan));
  c.vlan = static_cast<int>(vlan);
  c.mac_spoof_check = bool_field(j, "macspoofchk");
  c.enable_dad = bool_field(j, "enabledad");
  if (c.hairpin_mode && c.promisc_mode)
    fail(ErrorCode::invalid_config, "cannot set hairpin mode and promiscuous mode at the same time.");
  if (const json* dns = object_field(j, "dns")) {
    try {
      c.dns = dns_from_json(*dns);
    } catch (const CniException& e) {
      fail(ErrorCode::invalid_config, e.error().msg);
    }
  }

  // The pod's MAC: CNI_ARGS, then args.cni.mac, then runtimeConfig.mac; the last one set wins.
  auto args = parse_cni_args(env.args, {"MAC", "IP"});
  if (auto it = args.find("MAC"); it != args.end()) c.mac = it->second;
  if (const json* a = object_field(j, "args"))
    if (const json* cni = object_field(*a, "cni")) c.mac = string_field(*cni, "mac", c.mac);
  if (const json* rc = object_field(j, "runtimeConfig")) c.mac = string_field(*rc, "mac", c.mac);
  if (!c.mac.empty() && !netlink::MacAddress::parse(c.mac))
    fail(ErrorCode::invalid_config, fmt::format("invalid MAC address \"{}\"", c.mac));

  if (const json* ipam = object_field(j, "ipam")) c.ipam_type = string_field(*ipam, "type");
  if (const json* prev = object_field(j, "prevResult")) c.prev_result = result_from_json(*prev);
  c.raw = std::move(j);
  return c;
}

}  // namespace brisk::cni
