// brisk-portmap's commands, as the reference's cmdAdd, cmdDel and
// cmdCheck: ADD forwards the ports to the pod's first address of each
// family and passes prevResult on; DEL needs neither prevResult nor the
// pod's namespace; CHECK looks for every rule and element ADD made.
#include "cni/portmap.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "brisk/cni/error.h"
#include "brisk/cni/plugin.h"
#include "cni/plugin_edge.h"

namespace brisk::cni {
namespace {

using detail::PortmapConfig;

std::string portmap_add(const Environment& env, const PortmapConfig& c) {
  if (!c.prev_result) fail(ErrorCode::internal, "must be called as chained plugin");
  if (!c.mappings.empty()) {
    if (c.pod_v4) detail::portmap_add(c, env.container_id, *c.pod_v4);
    if (c.pod_v6) detail::portmap_add(c, env.container_id, *c.pod_v6);
  }
  return result_to_json(*c.prev_result, c.version)
      .dump(4, ' ', false, nlohmann::json::error_handler_t::replace);
}

void portmap_check(const Environment& env, const PortmapConfig& c) {
  if (!c.prev_result) fail(ErrorCode::internal, "Required prevResult missing");
  if (c.mappings.empty()) return;
  if (c.pod_v4) detail::portmap_check(c, env.container_id, *c.pod_v4);
  if (c.pod_v6) detail::portmap_check(c, env.container_id, *c.pod_v6);
}

}  // namespace

PluginOutput run_portmap_plugin(const PluginInput& input) {
  return detail::run_dispatch(
      input, [](const Environment& env, const std::string& stdin_data, std::string& version) -> std::string {
        // The reference's cmdAdd and cmdDel put "failed to parse config: " before its errors; cmdCheck does
        // not.
        PortmapConfig c = detail::parse_portmap_config(stdin_data, env, env.command != Command::check);
        version = c.version.to_string();
        switch (env.command) {
          case Command::add:
            return portmap_add(env, c);
          case Command::del:
            if (!c.mappings.empty()) detail::portmap_del(c.name, env.container_id);
            break;
          case Command::check:
            detail::require_version(c.version, {0, 4, 0}, "CHECK");
            portmap_check(env, c);
            break;
          case Command::gc:
            detail::require_version(c.version, {1, 1, 0}, "GC");
            detail::portmap_gc(c.name, detail::gc_attachments(nlohmann::json::parse(stdin_data)));
            break;
          case Command::status:
            detail::require_version(c.version, {1, 1, 0}, "STATUS");
            break;
          case Command::version:
            break;
        }
        return {};
      });
}

}  // namespace brisk::cni
