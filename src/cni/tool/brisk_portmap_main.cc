// brisk-portmap: the CNI plugin executable. Everything it does is
// brisk::cni::run_portmap_plugin(); this file only wires it to the process.
#include "brisk/cni/plugin.h"
#include "cni/plugin_edge.h"

int main() {
  return brisk::cni::detail::plugin_main(brisk::cni::run_portmap_plugin,
                                         "CNI brisk-portmap plugin version " BRISK_VERSION_STRING);
}
