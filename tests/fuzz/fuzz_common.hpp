// What every fuzz target checks about an envelope, as a user would see it. A finding is an abort:
//   - the text must parse, with `ok` a boolean;
//   - a value must hold no NaN or infinity anywhere (the core refuses those before writing, so a null where a number
//     should be, or an error `result.not_finite`, means an input range lets a non-finite number through: a finding);
//   - an error must carry a message and a code, and never `internal` (an exception the core did not turn into a
//     message naming the field) nor `resources.out_of_memory` (an input within the limits that still ran out).
#pragma once

#include <cmath>
#include <cstdlib>
#include <string>

#include "api/api.hpp"
#include "io/json_reader.hpp"

namespace fuzz {

using infercast::json;

inline void check_finite(const json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) std::abort();
  if (j.is_structured())
    for (const auto& v : j) check_finite(v);
}

inline json check_envelope(const std::string& out) {
  const json env = json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (env.is_discarded() || !env.is_object() || !env.contains("ok") || !env["ok"].is_boolean()) std::abort();
  if (env["ok"].get<bool>()) {
    check_finite(env["value"]);
  } else {
    const auto& e = env["error"];
    if (!e.is_object() || !e["message"].is_string() || e["message"].get<std::string>().empty()) std::abort();
    if (!e["code"].is_string() || !e["path"].is_string()) std::abort();
    const std::string code = e["code"].get<std::string>();
    if (code == "internal" || code == "result.not_finite" || code == "resources.out_of_memory") std::abort();
  }
  return env;
}

// A request as JSON text; strings the fuzzer made that are not UTF-8 become U+FFFD, as the CLI sends them.
inline std::string text(const json& request) { return request.dump(-1, ' ', false, json::error_handler_t::replace); }

inline json call(const std::string& fn, const std::string& request) { return check_envelope(infercast::call(fn, request)); }
inline json call_bytes(const std::string& fn, const std::string& bytes) {
  return check_envelope(infercast::call_bytes(fn, bytes));
}

}  // namespace fuzz
