// The host-local config, read and checked as the reference's allocator
// package reads it (LoadIPAMConfig, Range.Canonicalize, RangeSet.Canonicalize),
// with the same messages.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "brisk/cni/environment.h"
#include "brisk/cni/error.h"
#include "brisk/cni/host_local.h"
#include "cni/ip_math.h"
#include "cni/json_fields.h"

namespace brisk::cni {

using detail::compare;
using detail::in_prefix;
using detail::string_field;
using netlink::IpAddress;
using netlink::IpPrefix;
using nlohmann::json;

bool AddressRange::contains(const IpAddress& a) const {
  return in_prefix(subnet, a) && compare(a, range_start) >= 0 && compare(a, range_end) <= 0;
}

namespace {

IpAddress parse_address(const std::string& text, const char* what) {
  auto a = IpAddress::parse(text);
  if (!a) fail(ErrorCode::invalid_config, fmt::format("invalid {} \"{}\"", what, text));
  return *a;
}

// An address given with or without a "/len" (the reference's ip.IP).
IpAddress parse_requested(const std::string& text) {
  auto slash = text.find('/');
  if (slash == std::string::npos) return parse_address(text, "ip");
  auto p = IpPrefix::parse(text);
  if (!p) fail(ErrorCode::invalid_config, fmt::format("cannot understand ip: \"{}\"", text));
  return p->address;
}

AddressRange parse_range(const json& j) {
  if (!j.is_object()) fail(ErrorCode::invalid_config, "a range must be an object");
  std::string subnet_text = string_field(j, "subnet");
  auto subnet = IpPrefix::parse(subnet_text);
  if (subnet_text.find('/') == std::string::npos || !subnet)
    fail(ErrorCode::invalid_config, fmt::format("invalid CIDR address: {}", subnet_text));
  unsigned bits = detail::host_length(subnet->address.family);
  // An IPv4-mapped IPv6 subnet (::ffff:a.b.c.d/len): the reference reads its
  // address as IPv4 and its mask as IPv6, and refuses the pair.
  const auto& b = subnet->address.bytes;
  bool v4_mapped = std::all_of(b.begin(), b.begin() + 10, [](uint8_t x) { return x == 0; }) &&
                   b[10] == 0xff && b[11] == 0xff;
  if (subnet->address.family == AF_INET6 && v4_mapped)
    fail(ErrorCode::invalid_config, "IPNet IP and Mask version mismatch");
  if (subnet->length > bits - 2)
    fail(ErrorCode::invalid_config, fmt::format("Network {} too small to allocate from", subnet_text));
  IpAddress network = detail::network_of(*subnet);
  if (!(network == subnet->address))
    fail(ErrorCode::invalid_config,
         fmt::format("Network has host bits set. For a subnet mask of length {} the network address is {}",
                     subnet->length, network.to_string()));
  AddressRange r{.subnet = *subnet};
  std::string gw = string_field(j, "gateway");
  r.gateway = gw.empty() ? detail::next(network) : parse_address(gw, "gateway");
  std::string start = string_field(j, "rangeStart");
  std::string end = string_field(j, "rangeEnd");
  if (start.empty()) {
    r.range_start = detail::next(network);
  } else {
    r.range_start = parse_address(start, "rangeStart");
    // As the reference's Range.Contains: inside the subnet and, when a
    // rangeEnd is given, not after it (else the broadcast address and
    // addresses outside the subnet were handed out).
    bool after_end = !end.empty() && compare(r.range_start, parse_address(end, "rangeEnd")) > 0;
    if (!in_prefix(*subnet, r.range_start) || after_end)
      fail(ErrorCode::invalid_config, fmt::format("RangeStart {} not in network {}", start, subnet_text));
  }
  if (end.empty()) {
    r.range_end = detail::last_of(*subnet);
    if (subnet->address.family == AF_INET) --r.range_end.bytes[3];  // not the broadcast address
  } else {
    r.range_end = parse_address(end, "rangeEnd");
    if (!in_prefix(*subnet, r.range_end))
      fail(ErrorCode::invalid_config, fmt::format("RangeEnd {} not in network {}", end, subnet_text));
  }
  return r;
}

bool overlaps(const AddressRange& a, const AddressRange& b) {
  if (a.subnet.address.family != b.subnet.address.family) return false;
  return a.contains(b.range_start) || a.contains(b.range_end) || b.contains(a.range_start) ||
         b.contains(a.range_end);
}

bool overlaps(const RangeSet& a, const RangeSet& b) {
  for (const auto& x : a)
    for (const auto& y : b)
      if (overlaps(x, y)) return true;
  return false;
}

std::string range_text(const AddressRange& r) {
  return fmt::format("{}-{}", r.range_start.to_string(), r.range_end.to_string());
}

std::vector<RangeSet> parse_range_sets(const json* sets) {
  std::vector<RangeSet> out;
  if (!sets) return out;
  for (const json& set : *sets) {
    if (!set.is_array()) fail(ErrorCode::invalid_config, "each of \"ranges\" must be a list of ranges");
    RangeSet rs;
    for (const json& r : set) rs.push_back(parse_range(r));
    out.push_back(std::move(rs));
  }
  return out;
}

void check_set(const RangeSet& set, std::size_t index) {
  auto prefix = [&] { return fmt::format("invalid range set {}: ", index); };
  if (set.empty()) fail(ErrorCode::invalid_config, prefix() + "empty range set");
  for (const auto& r : set)
    if (r.subnet.address.family != set[0].subnet.address.family)
      fail(ErrorCode::invalid_config, prefix() + "mixed address families");
  for (std::size_t i = 0; i < set.size(); ++i)
    for (std::size_t k = i + 1; k < set.size(); ++k)
      if (overlaps(set[i], set[k]))
        fail(ErrorCode::invalid_config,
             prefix() + fmt::format("subnets {} and {} overlap", range_text(set[i]), range_text(set[k])));
}

}  // namespace

HostLocalConfig parse_host_local_config(const json& config, const std::string& cni_args) {
  HostLocalConfig c;
  c.network = string_field(config, "name");
  c.version = SpecVersion::parse(string_field(config, "cniVersion", "0.1.0")).value_or(SpecVersion{});
  const json* ipam = detail::object_field(config, "ipam");
  if (!ipam) fail(ErrorCode::invalid_config, "IPAM config missing 'ipam' key");

  auto args = parse_cni_args(cni_args, {"MAC", "IP"});
  if (auto it = args.find("IP"); it != args.end()) c.requested.push_back(parse_requested(it->second));
  if (const json* a = detail::object_field(config, "args"))
    if (const json* cni = detail::object_field(*a, "cni"))
      if (const json* ips = detail::array_field(*cni, "ips"))
        for (const json& ip : *ips)
          c.requested.push_back(parse_requested(ip.is_string() ? ip.get<std::string>() : ""));
  const json* runtime = detail::object_field(config, "runtimeConfig");
  if (runtime)
    if (const json* ips = detail::array_field(*runtime, "ips"))
      for (const json& ip : *ips)
        c.requested.push_back(parse_requested(ip.is_string() ? ip.get<std::string>() : ""));

  // Order: runtimeConfig.ipRanges, then the legacy top-level range, then "ranges".
  if (runtime) c.ranges = parse_range_sets(detail::array_field(*runtime, "ipRanges"));
  if (!string_field(*ipam, "subnet").empty()) c.ranges.push_back({parse_range(*ipam)});
  for (auto& set : parse_range_sets(detail::array_field(*ipam, "ranges"))) c.ranges.push_back(std::move(set));
  if (c.ranges.empty()) fail(ErrorCode::invalid_config, "no IP ranges specified");

  int v4 = 0, v6 = 0;
  for (std::size_t i = 0; i < c.ranges.size(); ++i) {
    check_set(c.ranges[i], i);
    (c.ranges[i][0].subnet.address.family == AF_INET ? v4 : v6)++;
  }
  if ((v4 > 1 || v6 > 1) && c.version < SpecVersion{0, 3, 0})
    fail(
        ErrorCode::invalid_config,
        fmt::format("CNI version {} does not support more than 1 address per family", c.version.to_string()));
  for (std::size_t i = 0; i < c.ranges.size(); ++i)
    for (std::size_t k = i + 1; k < c.ranges.size(); ++k)
      if (overlaps(c.ranges[i], c.ranges[k]))
        fail(ErrorCode::invalid_config, fmt::format("range set {} overlaps with {}", i, k));

  if (const json* routes = detail::array_field(*ipam, "routes")) {
    for (const json& r : *routes) {
      std::string dst = string_field(r, "dst");
      auto p = IpPrefix::parse(dst);
      if (dst.find('/') == std::string::npos || !p)
        fail(ErrorCode::invalid_config, fmt::format("invalid route dst \"{}\"", dst));
      Route route{.dst = *p};
      if (std::string gw = string_field(r, "gw"); !gw.empty()) route.gw = parse_address(gw, "route gw");
      c.routes.push_back(route);
    }
  }
  c.data_dir = string_field(*ipam, "dataDir", "/var/lib/cni/networks");
  if (c.data_dir.empty()) c.data_dir = "/var/lib/cni/networks";
  c.resolv_conf = string_field(*ipam, "resolvConf");
  return c;
}

}  // namespace brisk::cni
