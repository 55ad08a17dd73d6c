// Nexthop objects as ip 6.1's ipnexthop.c prints them: each `monitor`
// event, and the nh_info a route through one shows under -d.
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include <cmath>
#include <cstdio>

#include "cli/ip/names.h"
#include "cli/ip/object_print.h"
#include "cli/ip/print_util.h"

namespace brisk::ipcli {
namespace {

// ip's print_tv of a time in clock ticks, which it takes as 100 per second:
// "%g" seconds in text, a whole number in JSON when it is one.
void ticks(Json& j, std::string& t, const char* key, uint64_t value) {
  double seconds = static_cast<double>(value) / 100;
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  t += std::string(key) + " " + text + " ";
  if (value % 100 == 0)
    j[key] = value / 100;
  else
    j[key] = seconds;
}

}  // namespace

std::string nexthop_record(const netlink::NexthopEntry& nh, const NexthopView& view, Json& j) {
  std::string t;
  if (view.deleted) {
    j["deleted"] = true;
    t += "Deleted ";
  }
  j["id"] = nh.id;
  t += "id " + std::to_string(nh.id) + " ";
  if (!nh.group.empty()) {
    Json members = Json::array();
    t += "group ";
    for (std::size_t k = 0; k < nh.group.size(); ++k) {
      Json member;
      if (k) t += "/";
      member["id"] = nh.group[k].id;
      t += std::to_string(nh.group[k].id);
      if (nh.group[k].weight > 1) {
        member["weight"] = nh.group[k].weight;
        t += "," + std::to_string(nh.group[k].weight);
      }
      members.push_back(std::move(member));
    }
    t += " ";
    j["group"] = std::move(members);
  }
  // ip leaves the default (hash-threshold) type out, to keep its old output.
  if (nh.group_type != NEXTHOP_GRP_TYPE_MPATH) {
    const char* type = nh.group_type == NEXTHOP_GRP_TYPE_RES ? "resilient" : "<unknown type>";
    j["type"] = type;
    t += std::string("type ") + type + " ";
  }
  if (nh.resilient) {
    Json args;
    args["buckets"] = nh.resilient->buckets;
    t += "buckets " + std::to_string(nh.resilient->buckets) + " ";
    ticks(args, t, "idle_timer", nh.resilient->idle_timer);
    ticks(args, t, "unbalanced_timer", nh.resilient->unbalanced_timer);
    ticks(args, t, "unbalanced_time", nh.resilient->unbalanced_time);
    j["resilient_args"] = std::move(args);
  }
  if (nh.gateway) {
    j["gateway"] = nh.gateway->to_string();
    t += "via " + nh.gateway->to_string() + " ";
  }
  if (nh.oif) {
    j["dev"] = name_of(nh.oif, view.all);
    t += "dev " + name_of(nh.oif, view.all) + " ";
  }
  if (nh.scope != RT_SCOPE_UNIVERSE || view.details) {
    j["scope"] = scope_name(nh.scope);
    t += "scope " + scope_name(nh.scope) + " ";
  }
  if (nh.blackhole) {
    j["blackhole"] = nullptr;
    t += "blackhole ";
  }
  if (nh.protocol != RTPROT_UNSPEC || view.details) {
    j["protocol"] = protocol_name(nh.protocol);
    t += "proto " + protocol_name(nh.protocol) + " ";
  }
  std::vector<std::string> flags = route_flags(nh.flags);
  for (const auto& flag : flags) t += flag + " ";
  j["flags"] = flags;
  if (nh.fdb) {
    j["fdb"] = nullptr;
    t += "fdb";  // as ip: no space after it
  }
  return t + "\n";
}

}  // namespace brisk::ipcli
