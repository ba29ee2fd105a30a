// The wasm boundary: one function, JSON text in, an envelope as JSON text out. core/api guarantees no C++
// exception crosses it; the JS wrapper (wasm/infercast-api.js) parses the envelope.
#include <emscripten/bind.h>

#include <string>

#include "api/api.hpp"

namespace {
std::string call(const std::string& fn, const std::string& request) { return infercast::call(fn, request); }
}  // namespace

EMSCRIPTEN_BINDINGS(infercast) { emscripten::function("call", &call); }
