// plugin_edge.h: what every brisk CNI plugin shares at its edge: CNI_*
// read and checked, VERSION answered, a thrown CniException turned into
// the spec's error object (exit code 1), and the executable's main().
// brisk-bridge and brisk-portmap differ only in the Dispatch they pass.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "brisk/cni/environment.h"
#include "brisk/cni/host_local.h"
#include "brisk/cni/plugin.h"
#include "brisk/cni/version.h"

namespace brisk::cni::detail {

// Runs one command (never VERSION) and returns what goes to stdout. It
// sets `version` as soon as the config's cniVersion is known, so that an
// error object carries it.
using Dispatch =
    std::function<std::string(const Environment& env, const std::string& stdin_data, std::string& version)>;

// The attachments a GC keeps: the config's "cni.dev/attachments".
std::vector<Attachment> gc_attachments(const nlohmann::json& raw);

// Never throws and never prints.
PluginOutput run_dispatch(const PluginInput& input, const Dispatch& dispatch);

// The config's cniVersion (absent: 0.1.0); incompatible_version when it
// is not one brisk speaks.
SpecVersion config_version(const nlohmann::json& config);

// Fails with incompatible_version when `have` is older than `least` (CHECK
// needs 0.4.0, GC and STATUS 1.1.0).
void require_version(const SpecVersion& have, SpecVersion least, const char* command);

// The whole of a plugin executable: environment and stdin in, run(),
// stdout and stderr out; returns the exit code.
int plugin_main(PluginOutput (*run)(const PluginInput&), const char* about);

}  // namespace brisk::cni::detail
