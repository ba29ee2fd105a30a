// The one boundary every front end uses (the CLI, the wasm module, the page's worker): JSON requests in, JSON
// envelopes out. `call` never throws: every failure becomes {"ok": false, "error": {"code", "path", "message"}}.
// The functions are listed in api/registry.cpp (and by the `functions` call); schemas in docs/schema.md.
#pragma once

#include <string>

#include "api/version.hpp"

namespace infercast {

// A function of the registry taking a JSON request (`functions` lists them). Returns an envelope as JSON text.
std::string call(const std::string& fn, const std::string& request_json);
// A function taking a file's bytes: "gguf" (a GGUF header: the first bytes of the file, not the weights),
// "safetensors_size" (the first 8 bytes: how many bytes the header takes) and "safetensors" (those bytes: the tensor
// table, to pass to "checkpoint").
std::string call_bytes(const std::string& fn, const std::string& bytes);

}  // namespace infercast
