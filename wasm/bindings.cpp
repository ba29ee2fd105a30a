// The wasm boundary: JSON text in, an envelope as JSON text out (and, for tables asked as columns, their numbers and
// their string columns' indices as one Float64Array). core/api guarantees no C++ exception crosses it; the JS
// wrapper (npm/client.js) parses the envelope. Text leaves the module through the engine's TextDecoder (embind's
// own std::string conversion walks the bytes in JavaScript, which cost more than the analysis); a request may come
// in as a string or, faster, as UTF-8 bytes (a Uint8Array).
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "api/api.hpp"

namespace {

emscripten::val text_of(const std::string& s) {
  static const emscripten::val decoder = emscripten::val::global("TextDecoder").new_();
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
  return decoder.call<emscripten::val>("decode", emscripten::val(emscripten::typed_memory_view(s.size(), bytes)));
}

emscripten::val call(const std::string& fn, const std::string& request) { return text_of(infercast::call(fn, request)); }
// File bytes (a Uint8Array from JS arrives as std::string): the GGUF header reader.
emscripten::val call_bytes(const std::string& fn, const std::string& bytes) { return text_of(infercast::call_bytes(fn, bytes)); }
// The envelope's text and its columns (a request's "layout": "columns": numbers, and string columns' indices into
// their distinct strings) as one Float64Array copied out of the module's memory: {text, columns}; the envelope's
// "columns" says which JSON pointer each range belongs at.
emscripten::val call_columns(const std::string& fn, const std::string& request) {
  std::vector<double> columns;
  emscripten::val out = emscripten::val::object();
  out.set("text", text_of(infercast::call_columns(fn, request, columns)));
  out.set("columns", emscripten::val(emscripten::typed_memory_view(columns.size(), columns.data())).call<emscripten::val>("slice"));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(infercast) {
  emscripten::function("call", &call);
  emscripten::function("callBytes", &call_bytes);
  emscripten::function("callColumns", &call_columns);
  emscripten::function("analyzeRepeat", &infercast::analyze_repeat);
}
