// Audio encoders of multimodal models: Gemma 4's (E2B, E4B) and Gemma 3n's, Conformers in the style of USM; Qwen3-Omni's
// AuT, a Whisper-style Transformer behind three convolutions. Counted to the
// integer, as a checkpoint holds it, so that a model's total and its weights in memory include it; audio inputs are
// not forecast (docs/formulas.md, "Audio encoders"). Parameters here once.
#pragma once

#include <cstdint>

#include "util/names.hpp"

namespace infercast {

using i64 = std::int64_t;

// Gemma4Unified: no tower; raw 40 ms waveform frames projected to the text width (Gemma4UnifiedMultimodalEmbedder).
enum class AudioKind { None, Gemma3n, Gemma4, QwenOmni, Gemma4Unified };
const NameTable<AudioKind>& audio_kind_names();

struct AudioSpec {
  AudioKind kind = AudioKind::None;
  i64 hidden = 0, layers = 0, heads = 0;
  i64 conv_kernel = 0;          // the depthwise convolution of each layer's light conv block
  i64 sub_channels0 = 0, sub_channels1 = 0;  // the two stride-2 convolutions of the subsampler
  i64 features = 0;             // input_feat_size: mel bins into the subsampler (128), halved by each convolution
  i64 output = 0;               // output_proj_dims: the tower's width into the embedder (0: no projection, Gemma 3n)
  bool clipped = false;         // clipped linears: four bounds each, kept in the checkpoint
  i64 embed_vocab = 0;          // the embedder's own table of soft tokens (Gemma 3n: 128), with two weighted norms
  i64 text_hidden = 0;          // embed_audio projects output -> the text model's width
  i64 ffn = 0;                  // Qwen3-Omni: encoder_ffn_dim, each layer's MLP width
};

// The tower and its embedder into the text model.
i64 audio_params(const AudioSpec& a);

}  // namespace infercast
