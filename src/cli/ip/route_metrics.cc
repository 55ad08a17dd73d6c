#include "cli/ip/route_metrics.h"

#include <linux/rtnetlink.h>

#include <cstdio>

namespace brisk::ipcli {
namespace {

// ip's mx_names, by RTAX_*.
constexpr const char* kNames[RTAX_MAX + 1] = {
    nullptr,    nullptr,    "mtu",       "window",   "rtt",      "rttvar",   "ssthresh",
    "cwnd",     "advmss",   "reordering", "hoplimit", "initcwnd", "features", "rto_min",
    "initrwnd", "quickack", "congctl",   "fastopen_no_cookie"};

// ip's get_time_rtt(): a bare number goes to the kernel as is; with a unit
// (s, sec, secs, ms, msec, msecs) it is milliseconds, sent as 1/8 ms.
std::optional<uint32_t> rtt_value(const std::string& text) {
  std::size_t digits = text.find_first_not_of("0123456789");
  if (digits == 0) return std::nullopt;
  auto value = number<uint32_t>("rtt", text.substr(0, digits));
  if (!value) return std::nullopt;
  if (digits == std::string::npos) return *value;
  std::string unit = text.substr(digits);
  uint64_t ms = *value;
  if (unit == "s" || unit == "sec" || unit == "secs") ms *= 1000;
  else if (unit != "ms" && unit != "msec" && unit != "msecs") return std::nullopt;
  if (ms * 8 > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(ms * 8);
}

}  // namespace

uint16_t route_metric_of(std::string_view key) {
  for (uint16_t type = RTAX_MTU; type <= RTAX_MAX; ++type)
    if (type != RTAX_CC_ALGO && type != RTAX_FEATURES && kNames[type] && key == kNames[type]) return type;
  return 0;
}

Parsed<bool> read_route_metric(uint16_t type, const std::string& key, Cursor& c, netlink::RouteMetrics& metrics) {
  if (!c.done() && c.peek() == "lock") {
    c.next();
    metrics.locked |= 1u << type;
  }
  std::string text;
  TRY_SET(text, c.value(key));
  std::optional<uint32_t> value;
  if (type == RTAX_RTT || type == RTAX_RTTVAR || type == RTAX_RTO_MIN) {
    value = rtt_value(text);
  } else if (auto n = number<uint32_t>(key, text)) {
    value = *n;
  }
  if (!value) return invarg("\"" + key + "\" value is invalid\n", text);
  if (type == RTAX_QUICKACK && *value > 1) return invarg("\"quickack\" value should be 0 or 1\n", text);
  metrics.values[type] = *value;
  return true;
}

void print_route_metrics(const netlink::RouteMetrics& metrics, Json& j, std::string& text) {
  Json values = Json::object();
  for (uint16_t type = RTAX_MTU; type <= RTAX_MAX; ++type) {
    if (type == RTAX_CC_ALGO && !metrics.congctl.empty()) {
      text += " congctl";
      if (metrics.locked & (1u << type)) text += " lock";
      text += " " + metrics.congctl;
      values["congestion"] = metrics.congctl;
      continue;
    }
    if (!metrics.values[type] || !kNames[type]) continue;
    uint32_t value = *metrics.values[type];
    text += std::string(" ") + kNames[type];
    if (metrics.locked & (1u << type)) text += " lock";
    if (type == RTAX_FEATURES) {  // ip's print_rtax_features: ecn by name, any other bit in hex
      if (value & RTAX_FEATURE_ECN) {
        text += " ecn";
        values["ecn"] = nullptr;
      }
      if (value & ~RTAX_FEATURE_ECN) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%x", value);
        text += std::string(" ") + hex;
        values["features"] = hex;
      }
      continue;
    }
    if (type == RTAX_RTT || type == RTAX_RTTVAR || type == RTAX_RTO_MIN) {
      // The kernel keeps rtt in 1/8 ms and rttvar in 1/4 ms; ip prints milliseconds.
      if (type == RTAX_RTT) value /= 8;
      else if (type == RTAX_RTTVAR) value /= 4;
      char buffer[32];
      if (value >= 1000) std::snprintf(buffer, sizeof buffer, " %gs", value / 1e3);
      else std::snprintf(buffer, sizeof buffer, " %ums", value);
      text += buffer;
    } else {
      text += " " + std::to_string(value);
    }
    values[kNames[type]] = value;
  }
  if (!values.empty()) j["metrics"] = Json::array({std::move(values)});
}

}  // namespace brisk::ipcli
