// The blocks Gemma 3n and Gemma 4 add around attention and the MLP (docs/formulas.md, "Gemma 3n and Gemma 4"):
// AltUp's prediction and correction of the extra residual streams, LAuReL's low-rank residual, the per-layer input
// block, and before the first layer and after the last the per-layer embeddings and AltUp's stream projections.
// Source: transformers models/gemma3n/modeling_gemma3n.py, models/gemma4/modular_gemma4.py.
#include <algorithm>

#include "ops/builder.hpp"

namespace infercast {

// AltUp (Gemma3nTextAltUp) with n streams. predict: the router (an RMS norm, h x n, tanh), the coefficients
// (n x n^2) and the mix of the n streams (2n per element of each stream, plus the input added back).
// correct: the router again on the layer's output, the coefficients (n x n), and innovation x coefficient +
// prediction on every stream; then the active stream scaled by correct_output_scale.
void add_altup(Builder& b, const GroupStep& gs, const std::string& name) {
  const LayerSpec& l = gs.g.spec;
  const i64 count = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden), n = static_cast<double>(l.altup);
  const bool predict = name == "altup_predict";
  b.wclass = WeightClass::Router;
  b.elementwise(name + "_router_norm", G, count, T * h, b.norm_cost() + 1, 1, predict ? h : 0);
  b.gemm(name + "_router", G, count, T, h, n, false);
  b.gemm(name + "_coefs", G, count, T, n, predict ? n * n : n, false);
  if (predict) {
    b.elementwise("altup_predict_mix", G, count, T * h * n, 2 * n + 1, 1);
  } else {
    b.elementwise("altup_correct_mix", G, count, T * h * n, 3, 2);
    b.elementwise("altup_correct_scale", G, count, T * h, 1, 1, h);
  }
}

// LAuReL (Gemma3nTextLaurelBlock): x + norm(x A B) with A h x r and B r x h, then (attention + laurel) / sqrt(2).
void add_laurel(Builder& b, const GroupStep& gs) {
  const LayerSpec& l = gs.g.spec;
  const i64 count = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden), r = static_cast<double>(l.laurel_rank);
  b.wclass = WeightClass::Ffn;
  b.gemm("laurel_left", G, count, T, h, r, false);
  b.gemm("laurel_right", G, count, T, r, h, false);
  b.elementwise("laurel_norm_add", G, count, T * h, b.norm_cost() + 3, 2, h);
}

// The per-layer input block: gate h x P, the activation times the layer's slice of the per-layer inputs, projection
// P x h, a norm and its add (to the residual in Gemma 4, to the n - 1 extra streams in Gemma 3n); Gemma 4's
// layer_scalar multiplies the layer's output.
void add_per_layer_input(Builder& b, const GroupStep& gs) {
  const LayerSpec& l = gs.g.spec;
  const i64 count = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden), P = static_cast<double>(l.per_layer_input);
  const double streams = l.altup > 1 ? static_cast<double>(l.altup - 1) : 1;
  b.wclass = WeightClass::Ffn;
  b.gemm("per_layer_input_gate", G, count, T, h, P, false);
  b.elementwise("per_layer_act_mul", G, count, T * P, b.act_cost() + 1, 2);
  b.gemm("per_layer_projection", G, count, T, P, h, false);
  b.elementwise("per_layer_norm_add", G, count, T * h, b.norm_cost() + streams, 1 + streams, h);
  if (l.layer_scalar) b.elementwise("layer_scalar", G, count, T * h, 1, 1, 1);
}

// Before the first layer: the per-layer embeddings' gather (T rows of layers x P), their projection from the
// embedding (h x layers*P), its norm and the sum scaled by 1/sqrt(2); AltUp's n - 1 projections of the embedding
// into the extra streams with their magnitude matching.
void add_gemma_inputs(Builder& b, double T) {
  const ModelSpec& m = b.m;
  const double h = static_cast<double>(m.hidden);
  if (m.ple_vocab > 0) {
    const double width = static_cast<double>(m.ple_layers) * static_cast<double>(m.ple_dim);
    Op& op = b.add("per_layer_embedding", "", OpClass::Memory, 1);
    const double eb = b.s.precision.of(WeightClass::Embedding).bits_per_element / 8;
    op.weight_bytes = std::min(T, static_cast<double>(m.ple_vocab)) * width * eb;
    op.act_write_bytes = T * width * b.ab;
    b.wclass = WeightClass::Ffn;
    b.gemm("per_layer_model_projection", "", 1, T, h, width, false);
    b.elementwise("per_layer_projection_norm", "", 1, T * width, b.norm_cost() + 2, 2,
                  static_cast<double>(m.ple_dim));
  }
  if (m.altup_inputs > 1) {
    const i64 extra = m.altup_inputs - 1;
    b.wclass = WeightClass::Ffn;
    b.gemm("altup_projections", "", extra, T, h, h, false);
    b.elementwise("altup_magnitude", "", extra, T * h, 4, 2);
  }
}

// After the last layer: AltUp's n - 1 projections back out of the extra streams, their magnitude matching and the
// mean of the n streams.
void add_gemma_outputs(Builder& b, double T) {
  const ModelSpec& m = b.m;
  if (m.altup_inputs <= 1) return;
  const double h = static_cast<double>(m.hidden);
  const i64 extra = m.altup_inputs - 1;
  b.wclass = WeightClass::Ffn;
  b.gemm("altup_unembed_projections", "", extra, T, h, h, false);
  b.elementwise("altup_magnitude_out", "", extra, T * h, 4, 2);
  b.elementwise("altup_mean", "", 1, T * h, static_cast<double>(m.altup_inputs), static_cast<double>(m.altup_inputs));
}

}  // namespace infercast
