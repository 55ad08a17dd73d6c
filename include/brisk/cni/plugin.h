// brisk/cni/plugin.h: brisk-bridge, a drop-in for the reference CNI
// `bridge` plugin, as a function a runtime (or a test) can call.
//
// A runtime runs the plugin once per pod and command: the network config on
// stdin, its orders in CNI_* variables, the result (or an error object) on
// stdout. run_plugin() is that whole program; the brisk-bridge executable
// only reads its environment and stdin and writes what comes back.
//
//   auto out = brisk::cni::run_plugin({.getenv = ..., .stdin_data = conf});
//   fwrite(out.stdout_data...); return out.exit_code;
#pragma once

#include <string>

#include "brisk/cni/environment.h"

namespace brisk::cni {

struct PluginInput {
  GetEnv getenv{};           // the CNI_* variables (and, for IPAM plugins, the rest of the environment)
  std::string stdin_data{};  // the network config
  std::string about = "CNI brisk-bridge plugin";  // printed to stderr when CNI_COMMAND is unset
};

struct PluginOutput {
  std::string stdout_data{};  // the result, version info or error object
  std::string stderr_data{};  // the about text; messages of an IPAM plugin pass through on their own
  int exit_code = 0;          // 0, or 1 on error as the reference plugins exit
};

// Runs one CNI command. Never throws and never prints.
PluginOutput run_plugin(const PluginInput& input);

// brisk-portmap, a drop-in for the reference `portmap` plugin (chained
// after a bridge): the same edge, its own commands. See docs/cni.md.
PluginOutput run_portmap_plugin(const PluginInput& input);

}  // namespace brisk::cni
