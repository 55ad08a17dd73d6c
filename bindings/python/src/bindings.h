// bindings.h: the parts of brisk._brisk, each registering itself on the module.
//
// The extension is deliberately thin. Python validates and normalises every
// argument (brisk/_run.py, brisk/pyroute2/), hands over plain values, and
// gets plain values back, errors included: C++ exceptions never reach
// Python, and Python decides which exception a failure becomes.
#pragma once

#include <pybind11/pybind11.h>

namespace brisk::python {

// brisk.run, pipeline and run_all's engine (process.cc).
void register_process(pybind11::module_& m);
// A NETLINK_ROUTE socket per namespace, and named namespaces (netlink.cc).
void register_netlink(pybind11::module_& m);

// OSError(code, strerror, filename), raised from C++ while holding the GIL.
[[noreturn]] void raise_os_error(int code, const std::string& filename);

}  // namespace brisk::python
