#include "bench/ip_route_rule.h"

#include <arpa/inet.h>

#include "brisk/netlink/route.h"
#include "brisk/netlink/rule.h"

namespace brisk::bench {
namespace {

constexpr uint32_t kRouteBase = 10u << 24 | 128u << 16;  // 10.128.0.0
constexpr uint32_t kGateway = 10u << 24 | 1;             // 10.0.0.1: no bench address is in 10.0/16
constexpr uint32_t kRuleBase = 172u << 24 | 16u << 16;   // 172.16.0.0
constexpr int kPrefixLen = 24;
constexpr int kDefaultRules = 3;  // local, main, default

uint32_t nth_slash24(uint32_t base, int i) { return base + (static_cast<uint32_t>(i) << 8); }
uint32_t priority(int i) { return 1000 + static_cast<uint32_t>(i); }
uint32_t table(int i) { return 100 + static_cast<uint32_t>(i % 64); }

std::string dotted(uint32_t host_order) {
  in_addr a{htonl(host_order)};
  char text[INET_ADDRSTRLEN];
  return ::inet_ntop(AF_INET, &a, text, sizeof text);
}

}  // namespace

std::string route_line(int i, const std::string& dev) {
  return "route add " + dotted(nth_slash24(kRouteBase, i)) + "/24 via " + dotted(kGateway) + " dev " + dev +
         " onlink";
}

int route_floor(RawNetlink& floor, int i, int ifindex) {
  return floor.route_add(nth_slash24(kRouteBase, i), kPrefixLen, kGateway, ifindex);
}

std::string rule_line(int i) {
  return "rule add pref " + std::to_string(priority(i)) + " from " + dotted(nth_slash24(kRuleBase, i)) +
         "/24 lookup " + std::to_string(table(i));
}

int rule_floor(RawNetlink& floor, int i) {
  return floor.rule_add(priority(i), nth_slash24(kRuleBase, i), kPrefixLen, table(i));
}

int count_bench_routes(int netns_fd) {
  auto conn = netlink::Connection::open_in(netns_fd);
  if (!conn) return -1;
  auto routes = netlink::list_routes(*conn);
  if (!routes) return -1;
  int count = 0;
  for (const auto& route : *routes) count += route.dst.length == kPrefixLen && route.gateway.has_value();
  return count;
}

int count_bench_rules(int netns_fd) {
  auto conn = netlink::Connection::open_in(netns_fd);
  if (!conn) return -1;
  auto rules = netlink::list_rules(*conn);
  if (!rules) return -1;
  return static_cast<int>(rules->size()) - kDefaultRules;
}

}  // namespace brisk::bench
