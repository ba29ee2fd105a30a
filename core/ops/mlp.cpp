// The feed-forward blocks: a dense (gated or plain) MLP, fused or not, and mixture-of-experts layers with a
// router, routed experts read as the batch touches them, and shared experts (docs/formulas.md, "MLP and MoE").
#include "ops/builder.hpp"

#include "ops/geometry.hpp"

namespace infercast {

// With fused_mlp the gate/up GEMM applies the activation (and the gate product) in its epilogue: one kernel, and
// only the activated T x width result is written.
void add_dense_mlp(Builder& b, const GroupStep& gs, const std::string& prefix, double width, bool bias, bool fused) {
  const Convention& conv = b.s.convention;
  const FfnSpec& f = gs.g.spec.ffn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  b.wclass = WeightClass::Ffn;
  // Gemma 3n's activation sparsity: the gate's mean and standard deviation over the width, a cut at a quantile of
  // the normal, and a ReLU of the difference (a statistical top-k; Spark Transformer): 5 operations per element.
  if (f.gaussian_topk && f.gated) b.elementwise(prefix + "gate_topk", G, n, T * width, 5, 1);
  if (b.s.fused_mlp) {
    Op& op = b.gemm(prefix + (f.gated ? "gate_up_act (fused)" : "up_act (fused)"), G, n, T, h, (f.gated ? 2 : 1) * width, bias);
    const double act = T * width * (b.act_cost() + (f.gated ? conv.gate_mul_flops_per_element : 0));
    op.flops += c * act;
    op.act_write_bytes = c * T * width * b.ab;
  } else if (f.gated) {
    if (fused) {
      b.gemm(prefix + "gate_up_proj", G, n, T, h, 2 * width, bias);
    } else {
      b.gemm(prefix + "gate_proj", G, n, T, h, width, bias);
      b.gemm(prefix + "up_proj", G, n, T, h, width, bias);
    }
    b.elementwise(prefix + "act_mul", G, n, T * width, b.act_cost() + conv.gate_mul_flops_per_element, 2);
  } else {
    b.gemm(prefix + "up_proj", G, n, T, h, width, bias);
    b.elementwise(prefix + "act", G, n, T * width, b.act_cost(), 1);
  }
  if (b.s.online_hadamard)
    b.elementwise(prefix + "hadamard_down_in", G, n, T * width, hadamard_flops_per_element(static_cast<i64>(width)), 1);
  if (gs.g.spec.sub_norms && prefix.empty())  // BitNet's ffn_sub_norm of the activated intermediate
    b.elementwise("ffn_sub_norm", G, n, T * width, b.norm_cost(), 1, width * norm_vectors(b.m));
  b.gemm(prefix + "down_proj", G, n, T, width, h, bias);
}

void add_moe(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const FfnSpec& f = gs.g.spec.ffn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double E = static_cast<double>(f.n_experts), slots = static_cast<double>(f.n_experts + f.zero_experts);
  // Picks of identity experts (LongCat-Flash's zero-computation experts) compute nothing: under balanced routing a
  // token computes top_k x E / slots experts; the combine still weighs all top_k picks.
  const double k_picked = static_cast<double>(f.top_k), k = k_picked * E / slots;
  const double Ie = static_cast<double>(f.expert_intermediate);
  b.wclass = WeightClass::Router;
  if (f.router_scales) b.elementwise("router_norm", G, n, T * h, b.norm_cost() + 1, 1, h + E);  // Gemma 4
  b.gemm("router", G, n, T, h, slots, f.router_bias);
  const double touched = experts_touched(conv.moe, E, k, T);
  const double routed = T * k;  // token-expert pairs
  const double up_width = (f.gated ? 2 : 1) * Ie;
  // A latent MoE: every token is projected into the latent once, the experts and their weighted sum work there,
  // and the sum is projected back (vLLM's routed_input_transform / routed_output_transform).
  const double x = f.latent > 0 ? static_cast<double>(f.latent) : h;
  if (f.latent > 0) {
    b.wclass = WeightClass::Ffn;
    b.gemm("fc1_latent_proj", G, n, T, h, x, f.bias);
  }
  b.wclass = WeightClass::Experts;
  // Each expert's rows are Binomial(T, k / E): its GEMM pads them to tiles on its own (analysis/gemm_shape.hpp).
  const auto routed_rows = [&](Op& op) {
    op.route_tokens = T;
    op.route_experts = E;
    op.route_p = k / E;
  };
  routed_rows(b.gemm("experts_gate_up", G, n, routed, x, up_width, f.expert_bias, touched));
  b.elementwise("experts_act_mul", G, n, routed * Ie, b.act_cost() + (f.gated ? conv.gate_mul_flops_per_element : 0),
                f.gated ? 2 : 1);
  if (b.s.online_hadamard)
    b.elementwise("experts_hadamard_down_in", G, n, routed * Ie, hadamard_flops_per_element(f.expert_intermediate), 1);
  routed_rows(b.gemm("experts_down", G, n, routed, Ie, x, f.expert_bias, touched));
  b.elementwise("experts_combine", G, n, T * x, 2 * k_picked, k_picked);
  if (f.latent > 0) {
    b.wclass = WeightClass::Ffn;
    b.gemm("fc2_latent_proj", G, n, T, x, h, f.bias);
  }
  if (f.n_shared > 0) {
    add_dense_mlp(b, gs, "shared_", static_cast<double>(f.n_shared * f.shared_intermediate), f.shared_bias, false);
    b.wclass = WeightClass::Router;
    if (f.shared_gate) b.gemm("shared_gate", G, n, T, h, 1, false);
  }
}

}  // namespace infercast
