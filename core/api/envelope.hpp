// The envelopes of api.hpp's calls as JSON values, before they are written as text: the Python binding turns them
// into Python objects directly (no text written and read again). `call` and `call_bytes` are these, dumped.
#pragma once

#include <string>

#include "io/json_reader.hpp"

namespace infercast {

json call_json(const std::string& fn, const std::string& request_json);
json call_bytes_json(const std::string& fn, const std::string& bytes);

}  // namespace infercast
