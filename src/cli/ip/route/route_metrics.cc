#include "cli/ip/route/route_metrics.h"

#include <linux/rtnetlink.h>
#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>

namespace brisk::ipcli {
namespace {

// ip's mx_names, by RTAX_*.
constexpr const char* kNames[RTAX_MAX + 1] = {
    nullptr,    nullptr,   "mtu",      "window",     "rtt",      "rttvar",
    "ssthresh", "cwnd",    "advmss",   "reordering", "hoplimit", "initcwnd",
    "features", "rto_min", "initrwnd", "quickack",   "congctl",  "fastopen_no_cookie"};

// ip's get_time_rtt(): milliseconds, a decimal rounded up, with an
// optional unit (s, sec, secs, ms, msec, msecs, any case); `raw` says there
// was none, and the caller then sends the number as it is.
struct RttTime {
  uint32_t ms = 0;
  bool raw = true;
};
std::optional<RttTime> rtt_time(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  double t = 0;
  errno = 0;
  if (text.find('.') != std::string::npos) {
    t = std::strtod(begin, &end);
    if (t < 0.0) return std::nullopt;
  } else {
    unsigned long n = std::strtoul(begin, &end, 0);
    if (n == ULONG_MAX && errno == ERANGE) return std::nullopt;
    t = static_cast<double>(n);
  }
  if (end == begin || errno == ERANGE) return std::nullopt;
  RttTime out;
  if (*end) {
    out.raw = false;
    if (!strcasecmp(end, "s") || !strcasecmp(end, "sec") || !strcasecmp(end, "secs"))
      t *= 1000;
    else if (strcasecmp(end, "ms") && strcasecmp(end, "msec") && strcasecmp(end, "msecs"))
      return std::nullopt;
  }
  if (t > UINT32_MAX) return std::nullopt;
  out.ms = static_cast<uint32_t>(t);
  if (out.ms < t) ++out.ms;  // ip's ceil()
  return out;
}

}  // namespace

namespace {

// The metric keywords in the order iproute_modify tries them, each whole
// (strcmp) or by any prefix (matches): the first to match wins, so "w" is
// window and "c" cwnd. fastopen_no_cookie comes last, after route keywords.
struct MetricWord {
  std::string_view word;
  bool whole;
  uint16_t type;
};
constexpr MetricWord kMetricWords[] = {{"mtu", true, RTAX_MTU},
                                       {"hoplimit", true, RTAX_HOPLIMIT},
                                       {"advmss", true, RTAX_ADVMSS},
                                       {"reordering", false, RTAX_REORDERING},
                                       {"rtt", true, RTAX_RTT},
                                       {"rto_min", true, RTAX_RTO_MIN},
                                       {"window", false, RTAX_WINDOW},
                                       {"cwnd", false, RTAX_CWND},
                                       {"initcwnd", false, RTAX_INITCWND},
                                       {"initrwnd", false, RTAX_INITRWND},
                                       {"features", false, RTAX_FEATURES},
                                       {"quickack", false, RTAX_QUICKACK},
                                       {"congctl", false, RTAX_CC_ALGO},
                                       {"rttvar", false, RTAX_RTTVAR},
                                       {"ssthresh", false, RTAX_SSTHRESH}};

// Their first letters: most words of a route line (dev, onlink, ...) stop there.
constexpr std::string_view kFirstLetters = "achfimqrsw";
static_assert(std::ranges::all_of(kMetricWords, [](const MetricWord& m) {
  return kFirstLetters.find(m.word[0]) != std::string_view::npos;
}));

}  // namespace

uint16_t route_metric_of(std::string_view key) {
  if (key.empty() || kFirstLetters.find(key[0]) == std::string_view::npos) return 0;
  for (const auto& m : kMetricWords)
    if (m.whole ? key == m.word : matches(key, m.word)) return m.type;
  return 0;
}

Parsed<bool> read_route_metric(uint16_t type, Cursor& c, netlink::RouteMetrics& metrics) {
  const std::string name = kNames[type];
  // ip takes "lock" before the value of each but these (rto_min is always locked).
  bool lockable = type != RTAX_FEATURES && type != RTAX_QUICKACK && type != RTAX_RTO_MIN &&
                  type != RTAX_FASTOPEN_NO_COOKIE;
  std::string text;
  TRY_SET(text, c.value(name));
  if (lockable && text == "lock") {
    metrics.locked |= 1u << type;
    TRY_SET(text, c.value(name));
  }
  if (type == RTAX_CC_ALGO) {
    metrics.congctl = text;
    return true;
  }
  if (type == RTAX_FEATURES) {
    if (text != "ecn") return invarg("\"features\" value not valid\n", text);
    metrics.values[RTAX_FEATURES] = RTAX_FEATURE_ECN;
    return true;
  }
  std::optional<uint32_t> value;
  if (type == RTAX_RTT || type == RTAX_RTTVAR || type == RTAX_RTO_MIN) {
    // The kernel keeps rtt in 1/8 ms and rttvar in 1/4 ms (a bare number
    // goes as it is); rto_min in ms, and ip always locks it.
    if (auto time = rtt_time(text)) {
      uint64_t scale = time->raw || type == RTAX_RTO_MIN ? 1 : type == RTAX_RTT ? 8 : 4;
      if (uint64_t scaled = uint64_t{time->ms} * scale; scaled <= UINT32_MAX)
        value = static_cast<uint32_t>(scaled);
    }
    if (type == RTAX_RTO_MIN) metrics.locked |= 1u << type;
  } else if (auto n = number<uint32_t>(name, text)) {
    value = *n;
  }
  // ip names advmss "mss" in its error.
  if (!value || (type == RTAX_HOPLIMIT && *value > 255))
    return invarg("\"" + (type == RTAX_ADVMSS ? std::string("mss") : name) + "\" value is invalid\n", text);
  if ((type == RTAX_QUICKACK || type == RTAX_FASTOPEN_NO_COOKIE) && *value > 1)
    return invarg("\"" + name + "\" value should be 0 or 1\n", text);
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
      if (type == RTAX_RTT)
        value /= 8;
      else if (type == RTAX_RTTVAR)
        value /= 4;
      char buffer[32];
      if (value >= 1000)
        std::snprintf(buffer, sizeof buffer, " %gs", value / 1e3);
      else
        std::snprintf(buffer, sizeof buffer, " %ums", value);
      text += buffer;
    } else {
      text += " " + std::to_string(value);
    }
    values[kNames[type]] = value;
  }
  if (!values.empty()) j["metrics"] = Json::array({std::move(values)});
}

}  // namespace brisk::ipcli
