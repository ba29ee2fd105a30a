// Vision encoders: parameters and how an image becomes patches and tokens (docs/formulas.md, "Vision encoders").
// Sources: transformers' modeling_siglip.py and modeling_gemma3.py (Gemma3MultiModalProjector), modeling_llama4.py
// (Llama4VisionModel, Llama4VisionPixelShuffleMLP), modeling_qwen2_5_vl.py, modeling_qwen3_vl.py,
// modeling_pixtral.py and modeling_mistral3.py; the image processors' resize rules (Qwen2VLImageProcessor's
// smart_resize, PixtralImageProcessor, Llama4ImageProcessor's tiles, Gemma 3's fixed 896 x 896).
#include "model/vision.hpp"

#include <algorithm>
#include <cmath>

#include "model/count.hpp"

namespace infercast {

const NameTable<VisionKind>& vision_kind_names() {
  static const NameTable<VisionKind> t({{VisionKind::None, "none", "no vision encoder"},
                                        {VisionKind::Siglip, "siglip", "SigLIP (Gemma 3): 896 x 896 images, 256 tokens each"},
                                        {VisionKind::Gemma4, "gemma4", "Gemma 4: aspect ratio kept, at most 280 tokens of 3 x 3 pooled 16-pixel patches"},
                                        {VisionKind::Llama4, "llama4", "Llama 4: 336 x 336 tiles, pixel shuffle to 144 tokens each"},
                                        {VisionKind::Qwen25, "qwen2_5_vl", "Qwen2.5-VL: dynamic resolution, window attention"},
                                        {VisionKind::Qwen3, "qwen3_vl", "Qwen3-VL and Qwen3.5: dynamic resolution, deepstack"},
                                        {VisionKind::MobileNetV5, "mobilenetv5", "Gemma 3n: MobileNetV5-300M, 768 x 768 images, 256 tokens each"},
                                        {VisionKind::Pixtral, "pixtral", "Pixtral (Mistral 3): dynamic resolution, row breaks"},
                                        {VisionKind::Mllama, "mllama", "Llama 3.2 Vision: 4 tiles of 560 x 560, 6,404 tokens each image for cross-attention"},
                                        {VisionKind::Gemma4Unified, "gemma4_unified", "Gemma 4 12B: no encoder, at most 280 tokens of 48-pixel patches embedded"},
                                        {VisionKind::MoonVit, "moonvit", "Kimi K2.5 (MoonViT): native resolution, at most 16,384 patches of 14 px, 2x2 merge"}});
  return t;
}

namespace {
// The projector's GEMMs (weights and biases).
Count projector_params(const VisionSpec& v) {
  Count p = 0;
  for (const auto& g : v.projector) p += Count(g.in) * g.out + (g.bias ? Count(g.out) : Count(0));
  return p;
}
}  // namespace

i64 vision_params(const VisionSpec& v) {
  if (v.kind == VisionKind::None) return 0;
  // MobileNetV5: the tower's table, the embedder's projection, its table and norms.
  if (v.kind == VisionKind::MobileNetV5) return (Count(v.tower_params) + projector_params(v) + v.extra_params).v;
  const Count h = v.hidden, I = v.intermediate;
  const Count norm = (v.layer_norm && v.norm_bias) ? Count(2) * h : h;
  Count layer = Count(v.norms) * norm + Count(4) * h * h + (v.attn_bias ? Count(4) * h : Count(0)) + Count(v.block_extra);
  if (v.gated_mlp) layer += Count(3) * h * I + (v.mlp_bias ? Count(2) * I + h : Count(0));
  else layer += Count(2) * h * I + (v.mlp_bias ? I + h : Count(0));
  Count p = Count(v.layers) * layer;
  p += Count(v.channels) * v.temporal_patch * v.patch * v.patch * h + (v.patch_bias ? h : Count(0));
  p += Count(v.positions) * h + (v.class_token ? h : Count(0));
  const Count proj = projector_params(v);
  p += proj;
  if (v.deepstack > 0) {
    // Each deepstack merger: a LayerNorm over the merged width and the merger's two GEMMs.
    const Count merged = h * v.merge * v.merge;
    p += Count(v.deepstack) * (Count(2) * merged + proj);
  }
  return (p + v.extra_params).v;
}

namespace {

i64 round_to(double x, i64 f) { return std::max<i64>(f, static_cast<i64>(std::llround(x / static_cast<double>(f))) * f); }

// Qwen2VLImageProcessor.smart_resize: both sides multiples of `factor`, the area within [min_pixels, max_pixels],
// the aspect ratio kept.
std::pair<i64, i64> smart_resize(i64 h, i64 w, i64 factor, i64 min_px, i64 max_px) {
  const double H = static_cast<double>(h), W = static_cast<double>(w), f = static_cast<double>(factor);
  i64 hb = round_to(H, factor), wb = round_to(W, factor);
  if (hb * wb > max_px) {
    const double beta = std::sqrt(H * W / static_cast<double>(max_px));
    hb = std::max<i64>(factor, static_cast<i64>(std::floor(H / beta / f)) * factor);
    wb = std::max<i64>(factor, static_cast<i64>(std::floor(W / beta / f)) * factor);
  } else if (hb * wb < min_px) {
    const double beta = std::sqrt(static_cast<double>(min_px) / (H * W));
    hb = static_cast<i64>(std::ceil(H * beta / f)) * factor;
    wb = static_cast<i64>(std::ceil(W * beta / f)) * factor;
  }
  return {hb, wb};
}

}  // namespace

ImagePlan plan_image(const VisionSpec& v, const ImageSize& img) {
  ImagePlan p;
  const i64 m2 = v.merge * v.merge;
  switch (v.kind) {
    case VisionKind::None: break;
    case VisionKind::MobileNetV5: {
      // SiglipImageProcessor as Gemma 3n configures it: every image resized to image_size x image_size (no crop,
      // tiles or aspect ratio); the tower's 16 x 16 output cells are the image's tokens, in the prompt with "\n\n",
      // boi, eoi and "\n\n" around them (Gemma3nProcessor's full_image_sequence), as Gemma 3's.
      p.merged = v.fixed_tokens;
      p.tokens = v.fixed_tokens + 4;
      break;
    }
    case VisionKind::Siglip: {  // resized to image_size x image_size; pooled to fixed_tokens
      // Gemma3Processor puts "\n\n", boi, the image tokens, eoi and "\n\n" where the prompt had the image's boi:
      // four tokens besides the image's own ("\n\n" is one piece of Gemma's vocabulary).
      const i64 side = v.image_size / v.patch;
      p.sequences = {side * side};
      p.merged = v.fixed_tokens;
      p.tokens = v.fixed_tokens + 4;
      break;
    }
    case VisionKind::Gemma4:
    case VisionKind::Gemma4Unified: {
      // Gemma4ImageProcessor (get_aspect_ratio_preserving_size): scaled, up or down, to the budget of
      // soft_tokens x merge^2 patches, each side rounded down to a whole pooled cell (patch x merge pixels); a side
      // that rounds to nothing takes one cell and the other side the aspect ratio's cells, at most the budget.
      // The patches are padded to the budget and the encoder runs on all of them; the prompt holds the image's
      // pooled cells between its begin and end tokens (Gemma4Processor: boi, the image tokens, eoi).
      const i64 unit = v.patch * v.merge;
      const double W = static_cast<double>(img.width), H = static_cast<double>(img.height);
      const double target = static_cast<double>(v.soft_tokens * m2 * v.patch * v.patch);
      const double factor = std::sqrt(target / (W * H));
      i64 rows = static_cast<i64>(std::floor(factor * H / static_cast<double>(unit)));
      i64 cols = static_cast<i64>(std::floor(factor * W / static_cast<double>(unit)));
      const i64 ratio = std::min(v.soft_tokens, static_cast<i64>(std::floor(std::max(W, H) / std::min(W, H))));
      if (rows == 0) rows = 1, cols = ratio;
      else if (cols == 0) cols = 1, rows = ratio;
      p.merged = rows * cols;
      // Gemma 4 12B embeds the image's cells themselves (patch = 48 pixels, no encoder, nothing padded).
      p.sequences = {v.kind == VisionKind::Gemma4Unified ? p.merged : v.soft_tokens * m2};
      p.tokens = p.merged + 2;
      break;
    }
    case VisionKind::Mllama: {
      // MllamaImageProcessor pads every image to max_tiles tiles (pack_images), whatever its size; the encoder runs
      // on all of them as one sequence, each tile's patches and class token padded to a multiple of 8
      // (MllamaVisionModel). Its output, the tiles' patches and class tokens, is what the text's cross-attention
      // layers read (cross_attention_tokens); the prompt holds one <|image|> token.
      const i64 side = v.image_size / v.patch, tile = side * side + 1;
      p.sequences = {v.max_tiles * ((tile + 7) / 8 * 8)};
      p.merged = v.max_tiles * tile;
      p.tokens = 1;
      break;
    }
    case VisionKind::Llama4: {
      // Tiles of image_size: as many as cover the image (scaled down to fit max_tiles), and a global thumbnail tile
      // when there is more than one. Each tile: its patches and the class token.
      i64 tw = std::max<i64>(1, (img.width + v.image_size - 1) / v.image_size);
      i64 th = std::max<i64>(1, (img.height + v.image_size - 1) / v.image_size);
      while (tw * th > v.max_tiles) (tw >= th ? tw : th) -= 1;
      const i64 tiles = tw * th + (tw * th > 1 ? 1 : 0);
      const i64 side = v.image_size / v.patch;
      p.sequences.assign(static_cast<std::size_t>(tiles), side * side + (v.class_token ? 1 : 0));
      p.merged = p.tokens = tiles * side * side / m2;
      break;
    }
    case VisionKind::Qwen25:
    case VisionKind::Qwen3: {
      const auto [h, w] = smart_resize(img.height, img.width, v.patch * v.merge, v.min_pixels, v.max_pixels);
      const i64 patches = (h / v.patch) * (w / v.patch);
      p.sequences = {patches};
      p.merged = p.tokens = patches / m2;
      if (v.window > 0) p.window_tokens = v.window * v.window;
      break;
    }
    case VisionKind::MoonVit: {
      // Kimi's navit_resize: scaled down (never up) to at most patch_limit patches and side_patches a side, each side
      // then padded up to a whole merged patch; the encoder runs on all the padded image's patches. The prompt holds
      // the merged tokens between <|media_begin|>, "image", <|media_content|> and <|media_end|>.
      const double W = static_cast<double>(img.width), H = static_cast<double>(img.height), ps = static_cast<double>(v.patch);
      const double s1 = std::sqrt(static_cast<double>(v.patch_limit) /
                                  (std::max(1.0, std::floor(W / ps)) * std::max(1.0, std::floor(H / ps))));
      const double side = static_cast<double>(v.side_patches) * ps;
      const double scale = std::min({1.0, s1, side / W, side / H});
      const i64 w = std::min(std::max<i64>(1, static_cast<i64>(W * scale)), static_cast<i64>(side));
      const i64 h = std::min(std::max<i64>(1, static_cast<i64>(H * scale)), static_cast<i64>(side));
      const i64 unit = v.patch * v.merge;
      const i64 rows = (h + unit - 1) / unit, cols = (w + unit - 1) / unit;
      p.sequences = {rows * cols * m2};
      p.merged = rows * cols;
      p.tokens = p.merged + 4;
      break;
    }
    case VisionKind::Pixtral: {
      // Scaled to fit longest_edge, then each side rounded up to the merged patch (PixtralImageProcessor);
      // one [IMG_BREAK] after each row of tokens, the last one [IMG_END].
      double h = static_cast<double>(img.height), w = static_cast<double>(img.width);
      const double ratio = std::max(h, w) / static_cast<double>(v.longest_edge);
      if (ratio > 1) h = std::floor(h / ratio), w = std::floor(w / ratio);
      const i64 unit = v.patch * v.merge;
      const i64 rows = (static_cast<i64>(h) + unit - 1) / unit, cols = (static_cast<i64>(w) + unit - 1) / unit;
      p.sequences = {rows * cols * m2};
      p.merged = rows * cols;
      p.tokens = rows * cols + rows;
      break;
    }
  }
  return p;
}

i64 cross_attention_tokens(const VisionSpec& v, const std::vector<ImageSize>& images) {
  if (v.kind != VisionKind::Mllama) return 0;
  i64 t = 0;
  for (const auto& img : images) t += plan_image(v, img).merged;
  return t;
}

}  // namespace infercast
