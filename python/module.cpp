// The Python binding: the core's two entry points, JSON text in, an envelope as JSON text out (core/api/api.hpp).
// The interpreter lock is released while the core runs, so other Python threads go on during a long call (a
// design-space sweep); the core has no mutable static state, so calls from several threads may run at once.
// infercast/__init__.py turns envelopes into values and InfercastError.
#include <pybind11/pybind11.h>

#include <string>

#include "api/api.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "Infercast's C++ core: call(fn, request_json) and call_bytes(fn, data) return an envelope as JSON text";
  m.attr("version") = infercast::kVersion;
  m.attr("schema_version") = infercast::kSchemaVersion;
  m.def("call", &infercast::call, py::arg("fn"), py::arg("request_json"), py::call_guard<py::gil_scoped_release>(),
        "a function of the registry with a JSON request; returns the envelope as JSON text");
  // py::bytes converts to std::string before the lock is released; the function gets its own copy.
  m.def("call_bytes", &infercast::call_bytes, py::arg("fn"), py::arg("data"), py::call_guard<py::gil_scoped_release>(),
        "a function taking a file's bytes (a GGUF or safetensors header); returns the envelope as JSON text");
}
