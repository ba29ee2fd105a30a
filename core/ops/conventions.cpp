#include "ops/conventions.hpp"

#include "util/error.hpp"

namespace infercast {

const std::vector<Convention>& all_conventions() {
  static const std::vector<Convention> list = [] {
    std::vector<Convention> v;
    Convention def;
    def.name = "infercast";
    def.description =
        "what a good implementation executes: 2mkn per GEMM, causal attention counts only unmasked pairs, "
        "LM head on the last token of each prompt, embedding gathers rows, MoE reads the experts a batch is "
        "expected to touch under uniform routing";
    v.push_back(def);

    Convention life = def;
    life.name = "life";
    life.description =
        "LIFE (arXiv 2508.00904) Table 1: GEMM and BMM 2mkn - mn, full (unmasked) attention squares, LM head "
        "on every prompt token, whole embedding table read, softmax 6 ops per score plus a 1-op scale";
    life.causal_pairs = false;
    life.gemm_minus_mn = true;
    life.lm_head_all_tokens = true;
    life.embedding_whole_table = true;
    life.split_rope_and_cache_write = true;
    life.activations_stored_in_compute_type = true;
    life.softmax_flops_per_score = 6;
    life.score_scale_flops = 1;
    life.silu_flops_per_element = 2;  // piecewise-linear non-linearity: 2 ops per element
    life.gelu_flops_per_element = 2;
    v.push_back(life);

    Convention full = def;
    full.name = "no-causal";
    full.description = "as infercast, but prefill attention counts the full square (LLM-Viewer, LLM-Para, GenZ, llm-analysis)";
    full.causal_pairs = false;
    v.push_back(full);
    return v;
  }();
  return list;
}

const Convention& convention_by_name(const std::string& name, const std::string& path) {
  std::string names;
  for (const auto& c : all_conventions()) {
    if (c.name == name) return c;
    names += (names.empty() ? "" : ", ") + c.name;
  }
  throw InputError("workload.unknown_convention", path,
                   path + " holds \"" + name + "\"; expected one of " + names);
}

const NameTable<MoeTraffic>& moe_traffic_names() {
  static const NameTable<MoeTraffic> t(
      {{MoeTraffic::Expected, "expected", "the distinct experts a batch is expected to touch under uniform routing"},
       {MoeTraffic::TopK, "top-k", "top_k experts per layer, whatever the batch (a lower bound)"},
       {MoeTraffic::All, "all", "every expert of every MoE layer on every step"},
       {MoeTraffic::UpperBound, "upper-bound", "tokens x top_k experts, at most all of them"}},
      ListStyle::OneOf);
  return t;
}

}  // namespace infercast
