// Results in each version's shape. The differences, from libcni's types
// packages: 0.1.0/0.2.0 (types020) have one "ip4" and one "ip6" object with
// their routes inside; 0.3.x/0.4.0 (types040) list "ips" with a "version"
// of "4" or "6" each; 1.0.0 (types100) drops "version"; 1.1.0 adds
// route mtu/advmss/priority/table/scope and interface mtu/socketPath/pciID.
#include "brisk/cni/result.h"

#include <nlohmann/json.hpp>

#include "brisk/cni/error.h"

namespace brisk::cni {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // keys in the order libcni prints them

const SpecVersion k030{0, 3, 0};
const SpecVersion k100{1, 0, 0};
const SpecVersion k110{1, 1, 0};

ojson route_json(const Route& r, const SpecVersion& v) {
  ojson j = {{"dst", r.dst.to_string()}};
  if (r.gw) j["gw"] = r.gw->to_string();
  if (v >= k110) {
    if (r.mtu) j["mtu"] = *r.mtu;
    if (r.advmss) j["advmss"] = *r.advmss;
    if (r.priority) j["priority"] = *r.priority;
    if (r.table) j["table"] = *r.table;
    if (r.scope) j["scope"] = *r.scope;
  }
  return j;
}

ojson legacy_json(const Result& result, const SpecVersion& v) {
  ojson j = {{"cniVersion", v.to_string()}};
  for (int family : {AF_INET, AF_INET6}) {
    for (const IpConfig& ip : result.ips) {
      if (ip.address.address.family != family) continue;
      ojson ipj = {{"ip", ip.address.to_string()}};
      if (ip.gateway) ipj["gateway"] = ip.gateway->to_string();
      ojson routes = ojson::array();
      for (const Route& r : result.routes)
        if (r.dst.address.family == family) routes.push_back(route_json(r, v));
      if (!routes.empty()) ipj["routes"] = routes;
      j[family == AF_INET ? "ip4" : "ip6"] = ipj;
      break;  // one address per family in these versions
    }
  }
  j["dns"] = dns_to_json(result.dns);
  return j;
}

std::string string_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string())
    fail(ErrorCode::decoding_failure, std::string("result: \"") + key + "\" is not a string");
  return it->get<std::string>();
}

std::optional<int> int_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer())
    fail(ErrorCode::decoding_failure, std::string("result: \"") + key + "\" is not an integer");
  return it->get<int>();
}

netlink::IpPrefix prefix_field(const json& j, const char* key) {
  std::string text = string_field(j, key);
  auto p = netlink::IpPrefix::parse(text);
  if (text.empty() || text.find('/') == std::string::npos || !p)
    fail(ErrorCode::decoding_failure, std::string("result: invalid \"") + key + "\": \"" + text + "\"");
  return *p;
}

std::optional<netlink::IpAddress> address_field(const json& j, const char* key) {
  std::string text = string_field(j, key);
  if (text.empty()) return std::nullopt;
  auto a = netlink::IpAddress::parse(text);
  if (!a) fail(ErrorCode::decoding_failure, std::string("result: invalid \"") + key + "\": \"" + text + "\"");
  return *a;
}

std::vector<std::string> strings_field(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return out;
  if (!it->is_array()) fail(ErrorCode::decoding_failure, std::string("dns: \"") + key + "\" is not a list");
  for (const json& s : *it) {
    if (!s.is_string())
      fail(ErrorCode::decoding_failure, std::string("dns: \"") + key + "\" holds a non-string");
    out.push_back(s.get<std::string>());
  }
  return out;
}

Route route_from(const json& r) {
  if (!r.is_object()) fail(ErrorCode::decoding_failure, "result: a route is not an object");
  Route route{.dst = prefix_field(r, "dst"), .gw = address_field(r, "gw")};
  route.mtu = int_field(r, "mtu");
  route.advmss = int_field(r, "advmss");
  route.priority = int_field(r, "priority");
  route.table = int_field(r, "table");
  route.scope = int_field(r, "scope");
  return route;
}

const json& array_field(const json& j, const char* key) {
  static const json empty = json::array();
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return empty;
  if (!it->is_array())
    fail(ErrorCode::decoding_failure, std::string("result: \"") + key + "\" is not a list");
  return *it;
}

}  // namespace

ojson dns_to_json(const Dns& dns) {
  ojson j = ojson::object();
  if (!dns.nameservers.empty()) j["nameservers"] = dns.nameservers;
  if (!dns.domain.empty()) j["domain"] = dns.domain;
  if (!dns.search.empty()) j["search"] = dns.search;
  if (!dns.options.empty()) j["options"] = dns.options;
  return j;
}

Dns dns_from_json(const json& j) {
  if (j.is_null()) return {};
  if (!j.is_object()) fail(ErrorCode::decoding_failure, "dns is not an object");
  return Dns{.nameservers = strings_field(j, "nameservers"),
             .domain = string_field(j, "domain"),
             .search = strings_field(j, "search"),
             .options = strings_field(j, "options")};
}

ojson result_to_json(const Result& result, const SpecVersion& v) {
  if (v < k030) return legacy_json(result, v);
  ojson j = {{"cniVersion", v.to_string()}};
  if (!result.interfaces.empty()) {
    ojson list = ojson::array();
    for (const Interface& i : result.interfaces) {
      ojson ij = {{"name", i.name}};
      if (!i.mac.empty()) ij["mac"] = i.mac;
      if (v >= k110 && i.mtu) ij["mtu"] = *i.mtu;
      if (!i.sandbox.empty()) ij["sandbox"] = i.sandbox;
      if (v >= k110 && !i.socket_path.empty()) ij["socketPath"] = i.socket_path;
      if (v >= k110 && !i.pci_id.empty()) ij["pciID"] = i.pci_id;
      list.push_back(ij);
    }
    j["interfaces"] = list;
  }
  if (!result.ips.empty()) {
    ojson list = ojson::array();
    for (const IpConfig& ip : result.ips) {
      ojson ipj = ojson::object();
      if (v < k100) ipj["version"] = ip.address.address.family == AF_INET ? "4" : "6";
      if (ip.interface) ipj["interface"] = *ip.interface;
      ipj["address"] = ip.address.to_string();
      if (ip.gateway) ipj["gateway"] = ip.gateway->to_string();
      list.push_back(ipj);
    }
    j["ips"] = list;
  }
  if (!result.routes.empty()) {
    ojson list = ojson::array();
    for (const Route& r : result.routes) list.push_back(route_json(r, v));
    j["routes"] = list;
  }
  j["dns"] = dns_to_json(result.dns);
  return j;
}

Result result_from_json(const json& j) {
  if (!j.is_object()) fail(ErrorCode::decoding_failure, "result is not an object");
  Result result;
  for (const json& i : array_field(j, "interfaces")) {
    if (!i.is_object()) fail(ErrorCode::decoding_failure, "result: an interface is not an object");
    result.interfaces.push_back(Interface{.name = string_field(i, "name"),
                                          .mac = string_field(i, "mac"),
                                          .mtu = int_field(i, "mtu"),
                                          .sandbox = string_field(i, "sandbox"),
                                          .socket_path = string_field(i, "socketPath"),
                                          .pci_id = string_field(i, "pciID")});
  }
  for (const json& ip : array_field(j, "ips")) {
    if (!ip.is_object()) fail(ErrorCode::decoding_failure, "result: an ip is not an object");
    IpConfig c{.address = prefix_field(ip, "address"),
               .gateway = address_field(ip, "gateway"),
               .interface = int_field(ip, "interface")};
    result.ips.push_back(c);
  }
  for (const json& r : array_field(j, "routes")) result.routes.push_back(route_from(r));
  // 0.1.0/0.2.0: "ip4" and "ip6" objects, routes inside each.
  for (const char* key : {"ip4", "ip6"}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_object())
      fail(ErrorCode::decoding_failure, std::string("result: \"") + key + "\" is not an object");
    result.ips.push_back(
        IpConfig{.address = prefix_field(*it, "ip"), .gateway = address_field(*it, "gateway")});
    for (const json& r : array_field(*it, "routes")) result.routes.push_back(route_from(r));
  }
  if (auto it = j.find("dns"); it != j.end()) result.dns = dns_from_json(*it);
  return result;
}

}  // namespace brisk::cni
