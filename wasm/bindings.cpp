// The wasm boundary: one function, JSON text in, an envelope as JSON text out. core/api guarantees no C++
// exception crosses it; the JS wrapper (wasm/infercast-api.js) parses the envelope.
#include <emscripten/bind.h>

#include <string>

#include "api/api.hpp"

namespace {
std::string call(const std::string& fn, const std::string& request) { return infercast::call(fn, request); }
// File bytes (a Uint8Array from JS arrives as std::string): the GGUF header reader.
std::string call_bytes(const std::string& fn, const std::string& bytes) { return infercast::call_bytes(fn, bytes); }
}  // namespace

EMSCRIPTEN_BINDINGS(infercast) {
  emscripten::function("call", &call);
  emscripten::function("callBytes", &call_bytes);
}
