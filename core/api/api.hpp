// The one boundary every front end uses (the CLI, the wasm module, the page's worker): JSON requests in, JSON
// envelopes out. `call` never throws: every failure becomes {"ok": false, "error": {"code", "path", "message"}}.
// The functions are listed in api/registry.cpp (and by the `functions` call); schemas in docs/schema.md.
#pragma once

#include <string>
#include <vector>

#include "api/version.hpp"

namespace infercast {

// A function of the registry taking a JSON request (`functions` lists them). Returns an envelope as JSON text,
// written as the result is computed (no tree of values in between).
std::string call(const std::string& fn, const std::string& request_json);
// The same, with the result's number columns (a request's "layout": "columns") in `columns` instead of the text:
// each such column is null in the text and the envelope's "columns" lists [JSON pointer, offset, length] into
// `columns` for each (the wasm module hands them to JavaScript as one Float64Array; docs/schema.md, "Layout").
// A string column keeps only its distinct strings in the text; its entry, [pointer, offset, length, "strings"],
// gives each row's index into them.
std::string call_columns(const std::string& fn, const std::string& request_json, std::vector<double>& columns);
// For benchmarks: reads an analyze request once and runs its analysis `repeats` times, writing nothing; returns the
// mean TPOT (0 for a refused request). Timing it against `call` gives the share of a call the forecast itself takes
// (bench/bench_wasm.mjs does this for the wasm module).
double analyze_repeat(const std::string& request_json, int repeats);
// A function taking a file's bytes: "gguf" (a GGUF header: the first bytes of the file, not the weights),
// "safetensors_size" (the first 8 bytes: how many bytes the header takes) and "safetensors" (those bytes: the tensor
// table, to pass to "checkpoint").
std::string call_bytes(const std::string& fn, const std::string& bytes);

}  // namespace infercast
