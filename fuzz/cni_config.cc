// Fuzz target: what a runtime hands brisk-bridge. The first line is
// CNI_ARGS, the rest the network config on stdin. The bridge config,
// host-local's config and any result inside (prevResult) are parsed; every
// rejection must be a CniException (the spec's error object), never another
// exception, and a result that parses survives being printed in each
// version's shape and read back.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "brisk/cni/bridge_config.h"
#include "brisk/cni/error.h"
#include "brisk/cni/host_local.h"
#include "brisk/cni/result.h"
#include "fuzz_check.h"

using namespace brisk::cni;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t nl = text.find('\n');
  std::string args(nl == std::string_view::npos ? std::string_view{} : text.substr(0, nl));
  std::string_view conf = nl == std::string_view::npos ? text : text.substr(nl + 1);
  Environment env{.command = Command::add, .args = args};
  try {
    BridgeConfig c = parse_bridge_config(conf, env);
    FUZZ_CHECK(!c.name.empty());
    if (c.ipam_type == "host-local") (void)parse_host_local_config(c.raw, args);
    if (c.prev_result) {
      for (SpecVersion v :
           {SpecVersion{0, 2, 0}, SpecVersion{0, 4, 0}, SpecVersion{1, 0, 0}, SpecVersion{1, 1, 0}}) {
        Result back = result_from_json(nlohmann::json::parse(result_to_json(*c.prev_result, v).dump()));
        if (v >= SpecVersion{0, 3, 0}) FUZZ_CHECK(back.ips.size() == c.prev_result->ips.size());
      }
    }
  } catch (const CniException& e) {
    FUZZ_CHECK(!e.error().msg.empty());
  }
  return 0;
}
