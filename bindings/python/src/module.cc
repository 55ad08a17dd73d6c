// module.cc: brisk._brisk, the native half of the Python package `brisk`.
#include <cerrno>
#include <cstring>
#include <string>

#include "bindings.h"

namespace brisk::python {

void raise_os_error(int code, const std::string& filename) {
  PyObject* args = Py_BuildValue(
      "(isN)", code, std::strerror(code),
      PyUnicode_DecodeFSDefaultAndSize(filename.data(), static_cast<Py_ssize_t>(filename.size())));
  PyErr_SetObject(PyExc_OSError, args);
  Py_XDECREF(args);
  throw pybind11::error_already_set();
}

}  // namespace brisk::python

PYBIND11_MODULE(_brisk, m) {
  m.doc() = "brisk's engines: spawning without fork and rtnetlink in any namespace";
  brisk::python::register_process(m);
  brisk::python::register_netlink(m);
}
