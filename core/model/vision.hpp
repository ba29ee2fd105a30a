// Vision encoders of multimodal models (Llama 4, Gemma 3, Gemma 4, Qwen2.5-VL, Qwen3-VL and Qwen3.5, Mistral 3): a ViT of
// `layers` identical blocks over image patches, then a merge of neighbouring patches and a projector to the text
// model's width. The image tokens join the prompt; the encoder runs in the prefill (docs/formulas.md, "Vision
// encoders"). Parameters and the tokens of an image, here once.
#pragma once

#include <string>
#include <vector>

#include <cstdint>

#include "util/names.hpp"

namespace infercast {

using i64 = std::int64_t;

enum class VisionKind { None, Siglip, Gemma4, Llama4, Qwen25, Qwen3, Pixtral, MobileNetV5, Mllama, Gemma4Unified, MoonVit };
const NameTable<VisionKind>& vision_kind_names();

struct ProjectorGemm {
  i64 in = 0, out = 0;
  bool bias = false;
};

struct VisionSpec {
  VisionKind kind = VisionKind::None;
  i64 hidden = 0, layers = 0, heads = 0, intermediate = 0;
  bool gated_mlp = false, attn_bias = true, mlp_bias = true;
  bool layer_norm = true;    // LayerNorm (with a bias when norm_bias), else RMSNorm
  bool norm_bias = true;
  i64 norms = 2;             // norms per block (Gemma 4: four, before and after attention and the MLP)
  i64 block_extra = 0;       // parameters per block besides those (Gemma 4: the q and k norms over a head; clip bounds)
  i64 channels = 3, patch = 14, temporal_patch = 1;
  bool patch_bias = true;
  i64 positions = 0;         // learned absolute position embeddings (Llama 4: the patches and the class token)
  bool class_token = false;  // Llama 4's class embedding, one more token per tile
  i64 merge = 1;             // patches merged per side into one token (spatial merge, pixel shuffle, Gemma's pool)
  std::vector<ProjectorGemm> projector;  // on the merged tokens, in order
  i64 deepstack = 0;         // Qwen3-VL: mergers whose outputs join early text layers, each like the merger
  i64 extra_params = 0;      // norms outside the blocks (pre/post, the projector's)
  i64 tower_params = 0;      // a convolutional tower counted from its block table (MobileNetV5), not from the fields above
  std::string tower;         // its architecture in that table (timm's name)
  // How an image becomes patches.
  i64 image_size = 0;        // a fixed square (Gemma 3) or tile side (Llama 4)
  i64 max_tiles = 0;         // Llama 4: tiles per image at most (a global tile is added when there is more than one)
  i64 fixed_tokens = 0;      // Gemma 3: tokens per image whatever its size (mm_tokens_per_image)
  i64 soft_tokens = 0;       // Gemma 4: tokens per image at most (default_output_length); the encoder runs on
                             // soft_tokens x merge^2 positions, the image's patches and padding
  i64 min_pixels = 0, max_pixels = 0;  // Qwen: smart_resize bounds
  i64 longest_edge = 0;      // Pixtral: images larger than this are scaled down
  i64 patch_limit = 0, side_patches = 0;  // Kimi's NaViT resize: patches per image and per side at most
  i64 window = 0;            // Qwen2.5-VL: window attention over window x window patches, except full_layers
  std::vector<i64> full_layers;
};

struct ImageSize {
  i64 width = 0, height = 0;
};

// What the encoder does with one image: its sequences (patches per image or tile), the windows of windowed layers,
// and the tokens the image adds to the prompt.
struct ImagePlan {
  std::vector<i64> sequences;  // tokens of each independent encoder sequence
  i64 window_tokens = 0;       // Qwen2.5-VL: patches per window (0: no windows)
  i64 tokens = 0;              // tokens in the prompt
  i64 merged = 0;              // tokens out of the merger (before Pixtral's row breaks)
};

i64 vision_params(const VisionSpec& v);
ImagePlan plan_image(const VisionSpec& v, const ImageSize& image);
// The image tokens a sequence's cross-attention layers attend (Llama 3.2 Vision: the encoder's output of every
// image); 0 for encoders whose tokens join the prompt.
i64 cross_attention_tokens(const VisionSpec& v, const std::vector<ImageSize>& images);

}  // namespace infercast
