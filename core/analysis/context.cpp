#include "analysis/context.hpp"

#include <algorithm>
#include <string>

namespace infercast {

namespace {
std::string grouped(double v) {
  std::string s = std::to_string(static_cast<long long>(v));
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}
}  // namespace

std::vector<Warning> context_warnings(const ModelSpec& m, const Workload& w) {
  if (m.max_position <= 0) return {};
  double longest = 0;
  for (const auto& r : w.requests)
    longest = std::max(longest, static_cast<double>(r.cached + r.input) + static_cast<double>(std::max<i64>(w.gen_tokens - 1, 0)));
  if (longest <= static_cast<double>(m.max_position)) return {};
  const std::string name = m.name.empty() ? "the model" : m.name;
  return {{"workload.beyond_context", w.requests.size() > 1 ? "/workload/requests" : "/workload/prompt",
           "a request reaches " + grouped(longest) + " tokens of context (cached + prompt + generated), beyond " + name +
               "'s trained window of " + grouped(static_cast<double>(m.max_position)) +
               " tokens (max_position_embeddings); the forecast counts the work, but the model was not trained for it"}};
}

}  // namespace infercast
