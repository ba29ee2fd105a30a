// Vision configs to VisionSpec (model/vision.hpp). Sources: transformers' configuration_siglip.py and
// configuration_gemma3.py, configuration_llama4.py, configuration_qwen2_5_vl.py, configuration_qwen3_vl.py,
// configuration_pixtral.py and configuration_mistral3.py, and the modeling files named in model/vision.cpp.
#include "io/config_vision.hpp"

#include "model/count.hpp"
#include "model/mobilenet.hpp"

namespace infercast {

namespace {

// Vision sizes are bounded so that a typo cannot overflow the patch arithmetic or run unbounded loops.
i64 size_or(Reader& r, const std::string& key, i64 hi, i64 fallback) { return r.int_in_or(key, 1, hi, fallback); }
constexpr i64 kSide = 1 << 20;

VisionKind kind_of(const std::string& type) {
  if (type == "gemma3") return VisionKind::Siglip;
  if (type == "gemma4") return VisionKind::Gemma4;
  if (type == "gemma4_unified") return VisionKind::Gemma4Unified;
  if (type == "kimi_k25") return VisionKind::MoonVit;
  if (type == "gemma3n") return VisionKind::MobileNetV5;
  if (type == "llama4") return VisionKind::Llama4;
  if (type == "mllama") return VisionKind::Mllama;
  if (type == "qwen2_5_vl") return VisionKind::Qwen25;
  // Qwen3-Omni's thinker holds Qwen3-VL's encoder (Qwen3OmniMoeVisionEncoderConfig is Qwen3VLMoeVisionConfig).
  if (type == "qwen3_vl" || type == "qwen3_vl_moe" || type == "qwen3_5" || type == "qwen3_5_moe" || type == "qwen3_omni_moe_thinker")
    return VisionKind::Qwen3;
  if (type == "mistral3") return VisionKind::Pixtral;
  return VisionKind::None;
}

// The encoder's blocks: sizes under either the ViT names (hidden_size, num_hidden_layers, num_attention_heads) or
// Qwen's (depth, num_heads).
// The encoder blocks a list at `key` names (fullatt_block_indexes, deepstack_visual_indexes): each from 0 to
// layers - 1 and named once, in order; refused otherwise, naming the entry.
std::vector<i64> block_indexes(Reader& v, const char* key, i64 layers) {
  const std::vector<i64> list = v.int_array_or(key);
  std::vector<bool> seen(static_cast<std::size_t>(layers), false);
  const std::string at = v.child_path(key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const i64 k = list[i];
    const std::string entry = at + "/" + std::to_string(i);
    if (k < 0 || k >= layers)
      throw InputError("model.invalid", entry,
                       entry + " holds " + std::to_string(k) + "; expected a block of the encoder, from 0 to " + std::to_string(layers - 1));
    if (seen[static_cast<std::size_t>(k)])
      throw InputError("model.invalid", entry, entry + " holds " + std::to_string(k) + ", which the list names twice");
    seen[static_cast<std::size_t>(k)] = true;
  }
  return list;
}

void blocks(Reader& v, VisionSpec& s, i64 hidden, i64 layers, i64 heads, i64 inter) {
  s.hidden = size_or(v, "hidden_size", kEncoderWidth, hidden);
  s.layers = v.has("depth") ? size_or(v, "depth", kEncoderCount, layers) : size_or(v, "num_hidden_layers", kEncoderCount, layers);
  s.heads = v.has("num_heads") ? size_or(v, "num_heads", kEncoderCount, heads) : size_or(v, "num_attention_heads", kEncoderCount, heads);
  s.intermediate = size_or(v, "intermediate_size", kEncoderWidth, inter);
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
  // A fixed image (or tile) must hold at least one patch.
  const auto at_least_a_patch = [&](const VisionSpec& x) {
    if (x.image_size > 0 && x.image_size < x.patch)
      v.fail("image_size", "invalid", v.child_path("image_size") + " holds " + std::to_string(x.image_size) +
                                          ", smaller than patch_size (" + std::to_string(x.patch) + ")");
  };
  // Square tiles of image_size cut into patches without a bias, and a class token a tile (Llama 4, Llama 3.2
  // Vision; both configs default to 448-pixel tiles of 14-pixel patches).
  const auto tiles = [&](VisionSpec& x) {
    x.patch = size_or(v, "patch_size", 4096, 14);
    x.channels = size_or(v, "num_channels", 64, 3);
    x.image_size = size_or(v, "image_size", kSide, 448);
    at_least_a_patch(x);
    x.patch_bias = false;
    x.class_token = true;
  };
  switch (kind) {
    case VisionKind::Siglip: {
      // SiglipVisionModel without its head; Gemma3MultiModalProjector: an RMSNorm and one projection, after an
      // average pool of the patch grid to mm_tokens_per_image tokens.
      blocks(v, s, 768, 12, 12, 3072);
      s.patch = size_or(v, "patch_size", 4096, 16);
      s.channels = size_or(v, "num_channels", 64, 3);
      s.image_size = size_or(v, "image_size", kSide, 224);
      at_least_a_patch(s);
      s.positions = (s.image_size / s.patch) * (s.image_size / s.patch);
      s.fixed_tokens = size_or(top, "mm_tokens_per_image", 1 << 20, 256);
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
    case VisionKind::Gemma4: {
      // Gemma4VisionModel: a linear patch embedding (no bias) with a factorized table of x and y positions, blocks
      // with four RMSNorms, q and k norms over a head (v's has no weight), a gated GELU MLP and no biases; the
      // pooler averages k x k patches (no parameters); std_bias and std_scale when standardize; embed_vision: an
      // RMSNorm without weight and one projection to the text width. Clipped linears keep four bounds each.
      blocks(v, s, 1152, 27, 16, 4304);
      s.layer_norm = false;
      s.norm_bias = false;
      s.norms = 4;
      s.gated_mlp = true;
      s.attn_bias = s.mlp_bias = v.boolean_or("attention_bias", false);
      if (s.attn_bias)
        v.fail("attention_bias", "unsupported", v.child_path("attention_bias") + " is true: Gemma 4's vision encoder has no biases");
      const i64 d = s.hidden / s.heads;
      const i64 head_dim = size_or(v, "head_dim", kEncoderWidth, d);
      const i64 kv = size_or(v, "num_key_value_heads", kEncoderCount, s.heads);
      if (head_dim != d || kv != s.heads)
        v.fail("head_dim", "unsupported", v.child_path("head_dim") + " holds " + std::to_string(head_dim) + " with " +
                                              std::to_string(kv) + " key-value heads; expected hidden_size / num_attention_heads (" +
                                              std::to_string(d) + ") and as many key-value heads as heads (" +
                                              std::to_string(s.heads) + "), as every Gemma 4 release has");
      const bool clipped = v.boolean_or("use_clipped_linears", false);
      s.block_extra = 2 * head_dim + (clipped ? 7 * 4 : 0);  // q_norm, k_norm; 7 linears x 4 bounds
      s.patch = size_or(v, "patch_size", 4096, 16);
      s.channels = 3;
      s.patch_bias = false;
      s.positions = 2 * size_or(v, "position_embedding_size", kSide, 10240);
      s.merge = size_or(v, "pooling_kernel_size", 64, 3);
      s.soft_tokens = size_or(v, "default_output_length", 1 << 20, 280);
      s.projector = {{s.hidden, text, false}};                        // embed_vision.embedding_projection
      s.extra_params = v.boolean_or("standardize", false) ? 2 * s.hidden : 0;  // std_bias, std_scale
      for (const char* key : {"global_head_dim", "rope_parameters", "max_position_embeddings", "rms_norm_eps", "hidden_activation"})
        v.raw(key);
      top.raw("vision_soft_tokens_per_image");
      break;
    }
    case VisionKind::Gemma4Unified: {
      // Gemma4UnifiedVisionEmbedder (no encoder): each model patch (patch_size x pooling_kernel_size pixels, 3
      // channels) through a LayerNorm, a projection with a bias to mm_embed_dim and a LayerNorm; a factorized table of
      // x and y positions (mm_posemb_size x 2 rows); a LayerNorm, an RMSNorm without weight and a projection without
      // bias to the text width (output_proj_dims).
      s.patch = size_or(v, "patch_size", 4096, 16) * size_or(v, "pooling_kernel_size", 64, 3);
      if (v.has("model_patch_size") && size_or(v, "model_patch_size", 1 << 16, s.patch) != s.patch)
        v.fail("model_patch_size", "invalid", v.child_path("model_patch_size") + " holds " +
                                                  std::to_string(size_or(v, "model_patch_size", 1 << 16, s.patch)) +
                                                  "; expected patch_size x pooling_kernel_size (" + std::to_string(s.patch) + ")");
      s.channels = 3;
      s.hidden = size_or(v, "mm_embed_dim", kEncoderWidth, 3840);
      s.layers = 0;
      s.heads = 1;
      s.patch_bias = true;
      s.positions = 2 * size_or(v, "mm_posemb_size", kSide, 1120);
      s.merge = 1;
      s.soft_tokens = size_or(v, "num_soft_tokens", 1 << 20, 280);
      s.projector = {{s.hidden, size_or(v, "output_proj_dims", kEncoderWidth, text), false}};
      if (s.projector[0].out != text)
        v.fail("output_proj_dims", "invalid", v.child_path("output_proj_dims") + " holds " + std::to_string(s.projector[0].out) +
                                                  "; expected the text model's hidden_size (" + std::to_string(text) + ")");
      s.extra_params = (Count(2) * (Count(s.channels) * s.patch * s.patch) + Count(4) * s.hidden).v;  // three LayerNorms
      for (const char* key : {"rms_norm_eps", "initializer_range"}) v.raw(key);
      break;
    }
    case VisionKind::MoonVit: {
      // Kimi K2.5's MoonViT3d (remote code modeling_kimi_k25.py; vLLM's kimi_k25_vit.py), its sizes under vt_*
      // names: a Conv2d patch embedding with a bias, a learned table of init_pos_emb_height x width positions (the
      // time table is a buffer), blocks of two LayerNorms, wqkv and wo with biases and a GELU MLP (fc0, fc1) with
      // biases, a final LayerNorm; the patch merger (mm_projector, "patchmerger"): a LayerNorm, 4h -> 4h and
      // 4h -> text_hidden_size, both with biases, on 2 x 2 merged patches.
      s.hidden = size_or(v, "vt_hidden_size", kEncoderWidth, 1152);
      s.layers = size_or(v, "vt_num_hidden_layers", kEncoderCount, 27);
      s.heads = size_or(v, "vt_num_attention_heads", kEncoderCount, 16);
      s.intermediate = size_or(v, "vt_intermediate_size", kEncoderWidth, 4304);
      if (s.hidden % s.heads != 0)
        v.fail("vt_hidden_size", "invalid", v.child_path("vt_hidden_size") + " holds " + std::to_string(s.hidden) +
                                                ", which is not a multiple of the " + std::to_string(s.heads) + " vision heads");
      s.patch = size_or(v, "patch_size", 4096, 14);
      s.positions = (Count(size_or(v, "init_pos_emb_height", kSide, 64)) * size_or(v, "init_pos_emb_width", kSide, 64)).v;
      const std::vector<i64> merge = v.int_array_or("merge_kernel_size");
      s.merge = merge.empty() ? 2 : merge[0];
      if (merge.size() > 2 || (merge.size() == 2 && merge[0] != merge[1]) || s.merge < 1 || s.merge > 64)
        v.fail("merge_kernel_size", "invalid", v.child_path("merge_kernel_size") + " holds " + describe(*v.raw("merge_kernel_size")) +
                                                   "; expected a square kernel [k, k] with k from 1 to 64");
      const std::string projector = v.string_or("mm_projector_type", "patchmerger");
      if (projector != "patchmerger")
        v.fail("mm_projector_type", "unsupported", v.child_path("mm_projector_type") + " holds \"" + projector +
                                                       "\"; expected \"patchmerger\" (Kimi K2.5's)");
      const i64 merged = s.hidden * s.merge * s.merge;
      const i64 out = size_or(v, "text_hidden_size", kEncoderWidth, text);
      if (out != text)
        v.fail("text_hidden_size", "invalid", v.child_path("text_hidden_size") + " holds " + std::to_string(out) +
                                                  "; expected the text model's hidden_size (" + std::to_string(text) + ")");
      s.projector = {{merged, merged, true}, {merged, text, true}};
      s.extra_params = 2 * s.hidden + 2 * s.hidden;  // the encoder's final LayerNorm, the merger's pre_norm
      s.patch_limit = 16384;  // Kimi K2.5's preprocessor_config.json (media_proc_cfg: in_patch_limit, patch_limit_on_one_side)
      s.side_patches = 512;
      // mm_hidden_size restates the encoder's width; the rest changes no count.
      for (const char* key : {"mm_hidden_size", "init_pos_emb_time", "merge_type", "video_attn_type", "projector_ln_eps",
                              "projector_hidden_act", "pos_emb_type", "model_type"})
        v.raw(key);
      break;
    }
    case VisionKind::Mllama: {
      // MllamaVisionModel (transformers' MllamaVisionConfig; attention_heads is how it stores num_attention_heads):
      // a Conv2d patch embedding without bias, a class token, num_hidden_layers local blocks and num_global_layers
      // gated ones (gate_attn, gate_ffn), all without attention biases, with a biased GELU MLP and two LayerNorms;
      // gated position embeddings with a table per tile arrangement (tile_embedding: A x T x N x D, A the supported
      // aspect ratios and a padding row, T tiles, N patches and the class token), pre and post tile embeddings
      // (A x T x D, a gate each), layernorm_pre and layernorm_post. The projector maps the last state and the
      // intermediate layers' (vision_output_dim) to the text width, with a bias.
      blocks(v, s, 1280, 32, 16, 5120);
      if (v.has("attention_heads")) {
        s.heads = size_or(v, "attention_heads", kEncoderCount, 16);
        if (s.hidden % s.heads != 0)
          throw InputError("model.invalid", v.child_path("attention_heads"),
                           v.child_path("attention_heads") + " holds " + std::to_string(s.heads) + ", which does not divide " +
                               v.child_path("hidden_size") + " (" + std::to_string(s.hidden) + ")");
      }
      const i64 global = v.int_in_or("num_global_layers", 0, kEncoderCount, 8);
      s.layers += global;
      s.attn_bias = false;
      tiles(s);
      const i64 tile = (s.image_size / s.patch) * (s.image_size / s.patch) + 1;
      s.positions = tile;
      s.max_tiles = size_or(v, "max_num_tiles", 64, 4);
      i64 ratios = 8;  // MllamaVisionConfig's default: 1x1, 1x2, 1x3, 1x4, 2x1, 2x2, 3x1, 4x1
      if (const json* list = v.raw("supported_aspect_ratios")) {
        if (!list->is_array() || list->empty())
          v.fail("supported_aspect_ratios", "wrong_type", v.child_path("supported_aspect_ratios") +
                                                              " holds " + describe(*list) + "; expected a list of [rows, columns] tile arrangements");
        ratios = static_cast<i64>(list->size());
      }
      const Count rows = Count(ratios + 1);
      const Count extra = Count(1) + rows * s.max_tiles * tile * s.hidden + Count(2) * (rows * s.max_tiles * s.hidden + 1) +
                          Count(4) * s.hidden + Count(2) * global;
      s.extra_params = extra.v;
      const i64 out = size_or(v, "vision_output_dim", kEncoderWidth, 7680);
      s.projector = {{out, text, true}};  // multi_modal_projector
      for (const char* key : {"intermediate_layers_indices", "norm_eps", "hidden_act", "initializer_range"}) v.raw(key);
      break;
    }
    case VisionKind::Llama4: {
      // Llama4VisionModel: an unfold-and-linear patch embedding, a class token, 34 blocks with biases, pre and post
      // LayerNorms; pixel shuffle (ratio 0.5: 2 x 2 patches per token) into Llama4VisionMLP2, then the projector.
      blocks(v, s, 768, 34, 16, 5632);
      tiles(s);
      s.positions = (s.image_size / s.patch) * (s.image_size / s.patch) + 1;
      const double ratio = v.number_in_or("pixel_shuffle_ratio", 0.01, 1, 0.5);
      s.merge = static_cast<i64>(1 / ratio + 0.5);
      const i64 pin = size_or(v, "projector_input_dim", kEncoderWidth, 4096), pout = size_or(v, "projector_output_dim", kEncoderWidth, 4096);
      const i64 vout = size_or(v, "vision_output_dim", kEncoderWidth, 7680);
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
      s.patch = v.has("patch_size") ? size_or(v, "patch_size", 4096, 1) : size_or(v, "spatial_patch_size", 4096, 14);
      v.raw("spatial_patch_size");
      s.temporal_patch = size_or(v, "temporal_patch_size", 64, 2);
      s.channels = v.has("in_channels") ? size_or(v, "in_channels", 64, 1) : size_or(v, "in_chans", 64, 3);
      v.raw("in_chans");
      s.patch_bias = false;
      s.merge = size_or(v, "spatial_merge_size", 64, 2);
      const i64 out = size_or(v, "out_hidden_size", kEncoderWidth, 3584);
      const i64 merged = s.hidden * s.merge * s.merge;
      s.projector = {{merged, merged, true}, {merged, out, true}};
      s.extra_params = s.hidden;  // the merger's ln_q
      s.window = size_or(v, "window_size", kSide, 112) / s.patch;
      s.full_layers = block_indexes(v, "fullatt_block_indexes", s.layers);
      if (!v.has("fullatt_block_indexes"))  // Qwen2_5_VLVisionConfig's default, within the blocks there are
        for (const i64 k : {7, 15, 23, 31})
          if (k < s.layers) s.full_layers.push_back(k);
      s.min_pixels = 56 * 56;       // preprocessor_config.json of the Qwen2.5-VL releases
      s.max_pixels = 12845056;
      break;
    }
    case VisionKind::Qwen3: {
      // Qwen3VLVisionModel: a Conv3d patch embedding with bias, learned positions, LayerNorm blocks with a GELU MLP,
      // the merger (LayerNorm, 4h -> 4h -> out_hidden_size) and one more merger per deepstack layer.
      blocks(v, s, 1152, 27, 16, 4304);
      s.patch = size_or(v, "patch_size", 4096, 16);
      s.temporal_patch = size_or(v, "temporal_patch_size", 64, 2);
      s.channels = size_or(v, "in_channels", 64, 3);
      s.merge = size_or(v, "spatial_merge_size", 64, 2);
      s.positions = size_or(v, "num_position_embeddings", kSide, 2304);
      const i64 out = size_or(v, "out_hidden_size", kEncoderWidth, 3584);
      const i64 merged = s.hidden * s.merge * s.merge;
      s.projector = {{merged, merged, true}, {merged, out, true}};
      s.extra_params = 2 * s.hidden;  // the merger's LayerNorm
      s.deepstack = v.has("deepstack_visual_indexes") ? static_cast<i64>(block_indexes(v, "deepstack_visual_indexes", s.layers).size())
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
      s.patch = size_or(v, "patch_size", 4096, 16);
      s.channels = size_or(v, "num_channels", 64, 3);
      s.patch_bias = false;
      s.longest_edge = size_or(v, "image_size", kSide, 1024);
      s.merge = size_or(top, "spatial_merge_size", 64, 2);
      const bool bias = top.boolean_or("multimodal_projector_bias", false);
      s.projector = {{s.hidden * s.merge * s.merge, s.hidden, false}, {s.hidden, text, bias}, {text, text, bias}};
      s.extra_params = 2 * s.hidden;  // ln_pre and the projector's norm
      break;
    }
    case VisionKind::MobileNetV5: {
      // Gemma3nVisionConfig: timm's MobileNetV5 (TimmWrapperModel, `architecture`) of hidden_size channels out, and
      // Gemma3nMultimodalEmbedder: its own table of vocab_size soft tokens, two RMSNorms with weights (hard and
      // soft), the projection to the text width and a norm without weight. Images are 768 x 768 (the processor's
      // size, not in the config) and give the adapter's 16 x 16 cells.
      const std::string arch = v.string_or("architecture", "mobilenetv5_300m_enc");
      s.tower_params = mobilenetv5_params(arch);
      if (s.tower_params < 0)
        v.fail("architecture", "unsupported", v.child_path("architecture") + " holds \"" + arch +
                                                  "\"; expected a MobileNetV5 Infercast counts (" + mobilenetv5_architectures() + ")");
      if (v.has("model_args"))
        v.fail("model_args", "unsupported", v.child_path("model_args") + " is given: arguments to timm's model builder change "
                                            "the tower Infercast counts from its table; expected null");
      s.tower = arch;
      s.image_size = 768;
      const MobileNetShape shape = mobilenetv5_shape(arch, s.image_size);
      s.hidden = size_or(v, "hidden_size", kEncoderWidth, shape.fused_out);
      if (s.hidden != shape.fused_out)
        v.fail("hidden_size", "unsupported", v.child_path("hidden_size") + " holds " + std::to_string(s.hidden) + "; expected " +
                                                 std::to_string(shape.fused_out) + ", the channels " + arch + " puts out");
      const i64 vocab = size_or(v, "vocab_size", kEncoderCount * 100, 128);
      s.projector = {{s.hidden, text, false}};
      s.extra_params = vocab * s.hidden + 2 * s.hidden;  // the embedder's table, hard and soft norms
      for (const char* key : {"vocab_offset", "do_pooling", "rms_norm_eps", "initializer_range", "num_labels", "label_names",
                              "num_classes", "global_pool", "model_args", "pretrained_cfg", "id2label", "label2id"})
        v.raw(key);
      s.fixed_tokens = shape.out_side * shape.out_side;
      const i64 soft = top.int_in_or("vision_soft_tokens_per_image", 1, kEncoderCount, s.fixed_tokens);
      if (soft != s.fixed_tokens)
        top.fail("vision_soft_tokens_per_image", "unsupported",
                 top.child_path("vision_soft_tokens_per_image") + " holds " + std::to_string(soft) + "; expected " +
                     std::to_string(s.fixed_tokens) + ", the " + std::to_string(shape.out_side) + " x " +
                     std::to_string(shape.out_side) + " cells " + arch + " puts out for a 768 x 768 image");
      break;
    }
    case VisionKind::None: break;
  }
  for (const char* key : {"projector_hidden_act", "vision_feature_layer", "vision_feature_select_strategy"}) top.raw(key);
  m.vision = s;
}

}  // namespace infercast
