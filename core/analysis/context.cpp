#include "analysis/context.hpp"

#include <algorithm>
#include <string>

#include "ops/ops.hpp"

namespace infercast {

namespace {
std::string grouped(double v) {
  std::string s = std::to_string(static_cast<long long>(v));
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}
}  // namespace

std::vector<Warning> context_warnings(const ModelSpec& m, const Workload& w) {
  std::vector<Warning> out;
  const std::string name = m.name.empty() ? "the model" : m.name;
  // An MLA form asked of a model without MLA layers is accepted (a scenario may set it for every model) and changes
  // nothing: say so rather than let it pass as if it applied (FIELD.md: LLM-Viewer's inputs accepted and unused).
  if (w.settings.mla != MlaForm::Auto &&
      std::none_of(m.layers.begin(), m.layers.end(), [](const LayerSpec& l) { return l.has_attention && l.attn.kind == AttnKind::MLA; }))
    out.push_back({"workload.mla_unused", "/mla",
                   std::string("/mla holds \"") + mla_form_names().name(w.settings.mla) + "\", but " + name +
                       " has no MLA layers (DeepSeek-V2/V3's latent attention), so it changes nothing; /convert_mla turns a "
                       "model's attention into MLA"});
  if (m.max_position <= 0) return out;
  double longest = 0;
  for (const auto& r : w.requests)
    longest = std::max(longest, static_cast<double>(r.cached + r.input) + static_cast<double>(std::max<i64>(w.gen_tokens - 1, 0)));
  if (longest <= static_cast<double>(m.max_position)) return out;
  out.push_back({"workload.beyond_context", w.requests.size() > 1 ? "/workload/requests" : "/workload/prompt",
                 "a request reaches " + grouped(longest) + " tokens of context (cached + prompt + generated), beyond " + name +
                     "'s trained window of " + grouped(static_cast<double>(m.max_position)) +
                     " tokens (max_position_embeddings); the forecast counts the work, but the model was not trained for it"});
  return out;
}

}  // namespace infercast
