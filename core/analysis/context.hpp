// A workload against the model's trained context: requests that reach past max_position_embeddings are forecast
// all the same (the arithmetic does not change), and said so.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"

namespace infercast {

// One warning (workload.beyond_context) when some request's context at its last generated token exceeds the
// model's max_position_embeddings; none when the model states no window.
std::vector<Warning> context_warnings(const ModelSpec& m, const Workload& w);

}  // namespace infercast
