// The envelopes of api.hpp's calls as JSON values, for callers that want a tree (the Python binding turns it into
// Python objects): the text `call` and `call_bytes` write, read back.
#pragma once

#include <string>

#include "io/json_reader.hpp"

namespace infercast {

json call_json(const std::string& fn, const std::string& request_json);
json call_bytes_json(const std::string& fn, const std::string& bytes);

}  // namespace infercast
