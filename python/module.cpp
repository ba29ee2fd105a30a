// The Python binding: the core's two entry points (core/api/api.hpp). The interpreter lock is released while the
// core runs, so other Python threads go on during a long call (a design-space sweep); the core has no mutable
// static state, so calls from several threads may run at once. The envelope comes back as Python objects built
// from the core's JSON value directly (api/envelope.hpp): nothing is written as text and parsed again, so a call
// costs about what the native JSON call costs. infercast/__init__.py turns envelopes into values and
// InfercastError; `call` and `call_bytes` (text in, text out) are the same calls as the CLI's and the wasm module's.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "api/api.hpp"
#include "api/envelope.hpp"

namespace py = pybind11;
using infercast::json;

namespace {

// Text the core read from a file (a GGUF's general.name) may not be UTF-8: replaced, as the JSON writer does.
py::str utf8(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::object to_python(const json& j) {
  switch (j.type()) {
    case json::value_t::boolean: return py::bool_(j.get<bool>());
    case json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float: return py::float_(j.get<double>());
    case json::value_t::string: return utf8(j.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list l(j.size());
      std::size_t i = 0;
      for (const auto& v : j) l[i++] = to_python(v);
      return std::move(l);
    }
    case json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[utf8(k)] = to_python(v);
      return std::move(d);
    }
    default: return py::none();  // null (binary and discarded values never come out of the core)
  }
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Infercast's C++ core: call_value(fn, request_json) returns the envelope as Python objects";
  m.attr("version") = infercast::kVersion;
  m.attr("schema_version") = infercast::kSchemaVersion;
  m.def(
      "call_value",
      [](const std::string& fn, const std::string& request_json) {
        json envelope;
        {
          py::gil_scoped_release release;
          envelope = infercast::call_json(fn, request_json);
        }
        return to_python(envelope);
      },
      py::arg("fn"), py::arg("request_json"), "a function of the registry with a JSON request; returns the envelope (a dict)");
  // py::bytes converts to std::string before the lock is released; the core gets its own copy.
  m.def(
      "call_bytes_value",
      [](const std::string& fn, const std::string& data) {
        json envelope;
        {
          py::gil_scoped_release release;
          envelope = infercast::call_bytes_json(fn, data);
        }
        return to_python(envelope);
      },
      py::arg("fn"), py::arg("data"), "a function taking a file's bytes; returns the envelope (a dict)");
  m.def("call", &infercast::call, py::arg("fn"), py::arg("request_json"), py::call_guard<py::gil_scoped_release>(),
        "the envelope as JSON text, exactly as the CLI and the wasm module write it");
  m.def("call_bytes", &infercast::call_bytes, py::arg("fn"), py::arg("data"), py::call_guard<py::gil_scoped_release>(),
        "the envelope of a bytes function as JSON text");
}
