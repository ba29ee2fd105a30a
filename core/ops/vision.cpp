// The vision encoder in the prefill: for every image of every new prompt, the patch embedding, the ViT blocks
// (bidirectional attention within each image or tile; Qwen2.5-VL's windows), the merge and the projector
// (docs/formulas.md, "Vision encoders"). Weights in the vision class. Source: the modeling files named in
// model/vision.cpp.
#include "ops/builder.hpp"

namespace infercast {

namespace {

struct Work {
  double patches = 0, merged = 0, pairs = 0, window_pairs = 0;
};

// One encoder layer kind over the step's patches with `pairs` (query, key) pairs.
void add_blocks(Builder& b, const VisionSpec& v, const std::string& G, i64 n, double P, double pairs) {
  const Convention& conv = b.s.convention;
  const double h = static_cast<double>(v.hidden), I = static_cast<double>(v.intermediate), c = static_cast<double>(n);
  const double nh = static_cast<double>(v.heads), d = h / nh;
  const double norm = v.layer_norm ? conv.layernorm_flops_per_element : conv.rmsnorm_flops_per_element;
  const double norms = static_cast<double>(v.norms);
  b.elementwise("vision_norms x" + std::to_string(v.norms), G, n, norms * P * h, norm, 1, norms * h * (v.layer_norm && v.norm_bias ? 2 : 1))
      .dispatches = norms * c;
  b.gemm("vision_qkv", G, n, P, h, 3 * h, v.attn_bias);
  Op& att = b.add("vision_attention", G, OpClass::Attention, n);
  att.flops = c * pairs * nh * (2 * d + 2 * d + conv.softmax_flops_per_score + conv.score_scale_flops);
  att.act_read_bytes = c * 3 * P * h * b.ab;
  att.act_write_bytes = c * P * h * b.ab;
  b.gemm("vision_o_proj", G, n, P, h, h, v.attn_bias);
  b.elementwise("vision_residual_add x2", G, n, 2 * P * h, 1, 2).dispatches = 2 * c;
  if (v.gated_mlp) {
    b.gemm("vision_gate_up", G, n, P, h, 2 * I, v.mlp_bias);
    b.elementwise("vision_act_mul", G, n, P * I, conv.silu_flops_per_element + conv.gate_mul_flops_per_element, 2);
  } else {
    b.gemm("vision_fc1", G, n, P, h, I, v.mlp_bias);
    b.elementwise("vision_act", G, n, P * I, conv.gelu_flops_per_element, 1);
  }
  b.gemm(v.gated_mlp ? "vision_down" : "vision_fc2", G, n, P, I, h, v.mlp_bias);
}

}  // namespace

void add_vision(Builder& b, double prompts, const std::vector<ImageSize>& images) {
  const VisionSpec& v = b.m.vision;
  Work w;
  if (prompts <= 0) return;  // images belong to new prompts
  if (v.kind == VisionKind::MobileNetV5) {
    // A convolutional tower (ops/mobilenet.cpp), then Gemma3nMultimodalEmbedder's soft-token path: the cells scaled
    // and normed, projected to the text width, normed again.
    const double n = prompts * static_cast<double>(images.size());
    const WeightClass saved = b.wclass;
    b.wclass = WeightClass::Vision;
    add_mobilenet(b, n);
    const double M = n * static_cast<double>(v.fixed_tokens), h = static_cast<double>(v.hidden);
    b.elementwise("vision_embed_norm", "vision", 1, M * h, 1 + b.s.convention.rmsnorm_flops_per_element, 1, h);
    for (std::size_t i = 0; i < v.projector.size(); ++i) {
      const auto& g = v.projector[i];
      b.gemm("vision_merger_" + std::to_string(i + 1), "vision", 1, M, static_cast<double>(g.in), static_cast<double>(g.out), g.bias);
    }
    b.elementwise("vision_embed_post_norm", "vision", 1, M * static_cast<double>(b.m.hidden), b.s.convention.rmsnorm_flops_per_element, 1);
    b.wclass = saved;
    return;
  }
  for (const auto& img : images) {
    const ImagePlan p = plan_image(v, img);
    for (i64 s : p.sequences) {
      const double S = static_cast<double>(s);
      w.patches += prompts * S;
      w.pairs += prompts * S * S;  // bidirectional: every patch attends every patch of its image (or tile)
    }
    if (p.window_tokens > 0) {
      double patches = 0;
      for (i64 s : p.sequences) patches += static_cast<double>(s);
      w.window_pairs += prompts * patches * static_cast<double>(std::min<i64>(p.window_tokens, static_cast<i64>(patches)));
    }
    w.merged += prompts * static_cast<double>(p.merged);
  }
  if (w.patches <= 0) return;
  const WeightClass saved = b.wclass;
  b.wclass = WeightClass::Vision;
  const double h = static_cast<double>(v.hidden), P = w.patches;
  b.gemm("vision_patch_embed", "vision", 1, P, static_cast<double>(v.channels * v.temporal_patch * v.patch * v.patch), h,
         v.patch_bias);
  if (v.positions > 0) b.elementwise("vision_pos_embed", "vision", 1, P * h, 1, 1, 0);
  // Gemma 4 12B's embedder: LayerNorms before and after the patch projection and after the positions, then an
  // RMSNorm without weight (no encoder blocks).
  if (v.kind == VisionKind::Gemma4Unified)
    b.elementwise("vision_embed_norms x4", "vision", 1, P * (static_cast<double>(v.channels * v.patch * v.patch) + 3 * h),
                  b.s.convention.layernorm_flops_per_element, 1, static_cast<double>(v.extra_params));
  // Qwen2.5-VL: most blocks attend within windows, fullatt_block_indexes over the whole image.
  const i64 full = v.window > 0 ? static_cast<i64>(v.full_layers.size()) : v.layers;
  if (v.layers - full > 0) add_blocks(b, v, "vision windowed", v.layers - full, P, w.window_pairs);
  if (full > 0) add_blocks(b, v, "vision", full, P, w.pairs);
  // Merge and project: the GEMMs run on the merged tokens (the first takes merge^2 patches per token).
  const double M = w.merged;
  if (v.kind == VisionKind::Siglip || v.kind == VisionKind::Gemma4)
    b.elementwise("vision_avg_pool", "vision", 1, M * h, static_cast<double>(v.merge * v.merge), static_cast<double>(v.merge * v.merge));
  for (i64 rep = 0; rep <= v.deepstack; ++rep) {
    const std::string tag = rep == 0 ? "vision_merger" : "vision_deepstack_merger";
    for (std::size_t i = 0; i < v.projector.size(); ++i) {
      const auto& g = v.projector[i];
      b.gemm(tag + "_" + std::to_string(i + 1), "vision", 1, M, static_cast<double>(g.in), static_cast<double>(g.out), g.bias);
      if (i + 1 < v.projector.size()) b.elementwise(tag + "_act", "vision", 1, M * static_cast<double>(g.out), b.s.convention.gelu_flops_per_element, 1);
    }
  }
  b.wclass = saved;
}

}  // namespace infercast
