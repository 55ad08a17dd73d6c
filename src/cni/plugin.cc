// The plugin's edge: environment and stdin in, one JSON object out. Every
// CniException (and anything else thrown) becomes the spec's error object
// on stdout with exit code 1, as the reference plugins report errors.
#include "brisk/cni/plugin.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "brisk/cni/bridge_config.h"
#include "brisk/cni/error.h"
#include "cni/bridge_ops.h"
#include "cni/ipam.h"
#include "cni/json_fields.h"
#include "cni/plugin_edge.h"

namespace brisk::cni {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string version_info(const std::string& stdin_data) {
  // Answer in the version asked about, when it is one we speak.
  std::string version(kSupportedVersions.back());
  auto j = json::parse(stdin_data, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("cniVersion") && j["cniVersion"].is_string() &&
      is_supported(j["cniVersion"].get<std::string>()))
    version = j["cniVersion"].get<std::string>();
  ojson out = {{"cniVersion", version}, {"supportedVersions", kSupportedVersions}};
  return out.dump();
}

std::string error_json(const CniError& e, const std::string& version) {
  ojson out = ojson::object();
  if (!version.empty()) out["cniVersion"] = version;
  out["code"] = static_cast<unsigned>(e.code);
  out["msg"] = e.msg;
  if (!e.details.empty()) out["details"] = e.details;
  return out.dump(4, ' ', false, ojson::error_handler_t::replace);  // env text may not be UTF-8
}

}  // namespace

namespace detail {

std::vector<Attachment> gc_attachments(const json& raw) {
  std::vector<Attachment> keep;
  const json* list = detail::array_field(raw, "cni.dev/attachments");
  if (!list) return keep;
  for (const json& a : *list) {
    Attachment at{.container_id = detail::string_field(a, "containerID"),
                  .ifname = detail::string_field(a, "ifname")};
    if (at.container_id.empty() || at.ifname.empty())
      fail(ErrorCode::invalid_config, "cni.dev/attachments: each needs containerID and ifname");
    keep.push_back(std::move(at));
  }
  return keep;
}

void require_version(const SpecVersion& have, SpecVersion least, const char* command) {
  if (have < least)
    fail(ErrorCode::incompatible_version, fmt::format("config version does not allow {}", command));
}

PluginOutput run_dispatch(const PluginInput& input, const Dispatch& dispatch) {
  PluginOutput out;
  std::string version;
  try {
    std::optional<Environment> env = read_environment(input.getenv);
    if (!env) {
      out.stderr_data = fmt::format("{}\nCNI protocol versions supported: {}\n", input.about,
                                    fmt::join(kSupportedVersions, ", "));
      return out;
    }
    if (env->command == Command::version) {
      out.stdout_data = version_info(input.stdin_data);
      return out;
    }
    out.stdout_data = dispatch(*env, input.stdin_data, version);
  } catch (const CniException& e) {
    out.stdout_data = error_json(e.error(), version);
    out.exit_code = 1;
  } catch (const std::exception& e) {
    out.stdout_data = error_json({ErrorCode::internal, e.what(), {}}, version);
    out.exit_code = 1;
  }
  return out;
}

}  // namespace detail

PluginOutput run_plugin(const PluginInput& input) {
  return detail::run_dispatch(
      input, [](const Environment& env, const std::string& stdin_data, std::string& version) -> std::string {
        BridgeConfig config = parse_bridge_config(stdin_data, env);
        version = config.version.to_string();
        switch (env.command) {
          case Command::add:
            return detail::bridge_add(env, config, stdin_data);
          case Command::del:
            detail::bridge_del(env, config, stdin_data);
            break;
          case Command::check:
            detail::require_version(config.version, {0, 4, 0}, "CHECK");
            detail::bridge_check(env, config, stdin_data);
            break;
          case Command::gc:
            detail::require_version(config.version, {1, 1, 0}, "GC");
            detail::bridge_gc(env, config, stdin_data, detail::gc_attachments(config.raw));
            break;
          case Command::status:
            detail::require_version(config.version, {1, 1, 0}, "STATUS");
            if (!config.ipam_type.empty()) detail::ipam_status({config, env, stdin_data});
            break;
          case Command::version:
            break;
        }
        return {};
      });
}

}  // namespace brisk::cni
