// Vision configs to VisionSpec (model/vision.hpp). Sources: transformers' configuration_siglip.py and
// configuration_gemma3.py, configuration_llama4.py, configuration_qwen2_5_vl.py, configuration_qwen3_vl.py,
// configuration_pixtral.py and configuration_mistral3.py, and the modeling files named in model/vision.cpp.
#include "io/config_vision.hpp"

namespace infercast {

namespace {

VisionKind kind_of(const std::string& type) {
  if (type == "gemma3") return VisionKind::Siglip;
  if (type == "llama4") return VisionKind::Llama4;
  if (type == "qwen2_5_vl") return VisionKind::Qwen25;
  if (type == "qwen3_vl" || type == "qwen3_vl_moe" || type == "qwen3_5" || type == "qwen3_5_moe") return VisionKind::Qwen3;
  if (type == "mistral3") return VisionKind::Pixtral;
  return VisionKind::None;
}

// The encoder's blocks: sizes under either the ViT names (hidden_size, num_hidden_layers, num_attention_heads) or
// Qwen's (depth, num_heads).
void blocks(Reader& v, VisionSpec& s, i64 hidden, i64 layers, i64 heads, i64 inter) {
  s.hidden = v.positive_int_or("hidden_size", hidden);
  s.layers = v.has("depth") ? v.positive_int("depth") : v.positive_int_or("num_hidden_layers", layers);
  s.heads = v.has("num_heads") ? v.positive_int("num_heads") : v.positive_int_or("num_attention_heads", heads);
  s.intermediate = v.positive_int_or("intermediate_size", inter);
  if (s.hidden % s.heads != 0)
    throw InputError("model.invalid", v.child_path("hidden_size"),
                     v.child_path("hidden_size") + " holds " + std::to_string(s.hidden) + ", which is not a multiple of the " +
                         std::to_string(s.heads) + " vision heads");
}

}  // namespace

void read_vision_config(Reader& top, const std::string& type, ModelSpec& m) {
  const VisionKind kind = kind_of(type);
  if (kind == VisionKind::None) {
    top.raw("vision_config");
    m.warnings.push_back(Warning{"model.vision_not_modelled", top.child_path("vision_config"),
                                 "the vision encoder (vision_config) of model_type \"" + type +
                                     "\" is not modelled: results cover the language model only"});
    return;
  }
  Reader v = top.object("vision_config");
  VisionSpec s;
  s.kind = kind;
  const i64 text = m.hidden;
  switch (kind) {
    case VisionKind::Siglip: {
      // SiglipVisionModel without its head; Gemma3MultiModalProjector: an RMSNorm and one projection, after an
      // average pool of the patch grid to mm_tokens_per_image tokens.
      blocks(v, s, 768, 12, 12, 3072);
      s.patch = v.positive_int_or("patch_size", 16);
      s.channels = v.positive_int_or("num_channels", 3);
      s.image_size = v.positive_int_or("image_size", 224);
      s.positions = (s.image_size / s.patch) * (s.image_size / s.patch);
      s.fixed_tokens = top.positive_int_or("mm_tokens_per_image", 256);
      const i64 side = s.image_size / s.patch;
      i64 pooled = 1;
      while (pooled * pooled < s.fixed_tokens) ++pooled;
      if (pooled * pooled != s.fixed_tokens || side % pooled != 0)
        top.fail("mm_tokens_per_image", "invalid", top.child_path("mm_tokens_per_image") + " holds " +
                                                       std::to_string(s.fixed_tokens) + "; expected the square of a divisor of " +
                                                       std::to_string(side) + " (the patch grid's side)");
      s.merge = side / pooled;
      s.projector = {{s.hidden, text, false}};  // mm_input_projection_weight
      s.extra_params = 2 * s.hidden + s.hidden;  // post_layernorm (weight, bias), mm_soft_emb_norm
      if (v.boolean_or("vision_use_head", false))
        v.fail("vision_use_head", "unsupported", v.child_path("vision_use_head") + " is true: Gemma 3 uses SigLIP without its pooling head");
      break;
    }
    case VisionKind::Llama4: {
      // Llama4VisionModel: an unfold-and-linear patch embedding, a class token, 34 blocks with biases, pre and post
      // LayerNorms; pixel shuffle (ratio 0.5: 2 x 2 patches per token) into Llama4VisionMLP2, then the projector.
      blocks(v, s, 768, 34, 16, 5632);
      s.patch = v.positive_int_or("patch_size", 14);
      s.channels = v.positive_int_or("num_channels", 3);
      s.image_size = v.positive_int_or("image_size", 448);
      s.patch_bias = false;
      s.class_token = true;
      s.positions = (s.image_size / s.patch) * (s.image_size / s.patch) + 1;
      const double ratio = v.number_in_or("pixel_shuffle_ratio", 0.01, 1, 0.5);
      s.merge = static_cast<i64>(1 / ratio + 0.5);
      const i64 pin = v.positive_int_or("projector_input_dim", 4096), pout = v.positive_int_or("projector_output_dim", 4096);
      const i64 vout = v.positive_int_or("vision_output_dim", 7680);
      // Llama4VisionMLP2.fc1 reads intermediate_size features (4 x 1408 = 5632 after the shuffle in the releases).
      s.projector = {{s.intermediate, pin, false}, {pout, pout, false},
                     {vout, text, v.boolean_or("multi_modal_projector_bias", false)}};
      s.extra_params = 4 * s.hidden;  // layernorm_pre, layernorm_post
      s.max_tiles = 16;               // Llama4ImageProcessor's max_patches
      break;
    }
    case VisionKind::Qwen25: {
      // Qwen2_5_VisionTransformer: a Conv3d patch embedding (2 frames), 32 RMSNorm blocks with biases and a SwiGLU
      // MLP, window attention except fullatt_block_indexes; the merger (RMSNorm, 4h -> 4h -> out_hidden_size).
      blocks(v, s, 3584, 32, 16, 3420);
      s.layer_norm = false;
      s.norm_bias = false;
      s.gated_mlp = true;
      s.patch = v.has("patch_size") ? v.positive_int("patch_size") : v.positive_int_or("spatial_patch_size", 14);
      v.raw("spatial_patch_size");
      s.temporal_patch = v.positive_int_or("temporal_patch_size", 2);
      s.channels = v.has("in_channels") ? v.positive_int("in_channels") : v.positive_int_or("in_chans", 3);
      v.raw("in_chans");
      s.patch_bias = false;
      s.merge = v.positive_int_or("spatial_merge_size", 2);
      const i64 out = v.positive_int_or("out_hidden_size", 3584);
      const i64 merged = s.hidden * s.merge * s.merge;
      s.projector = {{merged, merged, true}, {merged, out, true}};
      s.extra_params = s.hidden;  // the merger's ln_q
      s.window = v.positive_int_or("window_size", 112) / s.patch;
      s.full_layers = v.int_array_or("fullatt_block_indexes");
      if (!v.has("fullatt_block_indexes")) s.full_layers = {7, 15, 23, 31};
      s.min_pixels = 56 * 56;       // preprocessor_config.json of the Qwen2.5-VL releases
      s.max_pixels = 12845056;
      break;
    }
    case VisionKind::Qwen3: {
      // Qwen3VLVisionModel: a Conv3d patch embedding with bias, learned positions, LayerNorm blocks with a GELU MLP,
      // the merger (LayerNorm, 4h -> 4h -> out_hidden_size) and one more merger per deepstack layer.
      blocks(v, s, 1152, 27, 16, 4304);
      s.patch = v.positive_int_or("patch_size", 16);
      s.temporal_patch = v.positive_int_or("temporal_patch_size", 2);
      s.channels = v.positive_int_or("in_channels", 3);
      s.merge = v.positive_int_or("spatial_merge_size", 2);
      s.positions = v.positive_int_or("num_position_embeddings", 2304);
      const i64 out = v.positive_int_or("out_hidden_size", 3584);
      const i64 merged = s.hidden * s.merge * s.merge;
      s.projector = {{merged, merged, true}, {merged, out, true}};
      s.extra_params = 2 * s.hidden;  // the merger's LayerNorm
      s.deepstack = v.has("deepstack_visual_indexes") ? static_cast<i64>(v.int_array_or("deepstack_visual_indexes").size())
                                                      : (type.rfind("qwen3_5", 0) == 0 ? 0 : 3);
      s.min_pixels = 65536;  // preprocessor_config.json of the Qwen3-VL and Qwen3.5 releases
      s.max_pixels = 16777216;
      break;
    }
    case VisionKind::Pixtral: {
      // PixtralVisionModel: a Conv2d patch embedding without bias, ln_pre, RMSNorm blocks with a SwiGLU MLP and no
      // biases; Mistral3MultiModalProjector: an RMSNorm, the patch merger (4h -> h), linear_1, GELU, linear_2.
      blocks(v, s, 1024, 24, 16, 4096);
      s.layer_norm = false;
      s.norm_bias = false;
      s.gated_mlp = true;
      s.attn_bias = s.mlp_bias = false;
      s.patch = v.positive_int_or("patch_size", 16);
      s.channels = v.positive_int_or("num_channels", 3);
      s.patch_bias = false;
      s.longest_edge = v.positive_int_or("image_size", 1024);
      s.merge = top.positive_int_or("spatial_merge_size", 2);
      const bool bias = top.boolean_or("multimodal_projector_bias", false);
      s.projector = {{s.hidden * s.merge * s.merge, s.hidden, false}, {s.hidden, text, bias}, {text, text, bias}};
      s.extra_params = 2 * s.hidden;  // ln_pre and the projector's norm
      break;
    }
    case VisionKind::None: break;
  }
  for (const char* key : {"projector_hidden_act", "vision_feature_layer", "vision_feature_select_strategy"}) top.raw(key);
  m.vision = s;
}

}  // namespace infercast
