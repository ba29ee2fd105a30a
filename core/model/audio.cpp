// Audio encoders: parameters (docs/formulas.md, "Audio encoders"). Sources: transformers' models/gemma4/
// modeling_gemma4.py (Gemma4AudioModel, Gemma4AudioSubSampleConvProjection, Gemma4AudioLayer, Gemma4ClippableLinear,
// Gemma4MultimodalEmbedder) and configuration_gemma4.py (Gemma4AudioConfig); models/gemma3n/modeling_gemma3n.py
// (Gemma3nAudioEncoder, Gemma3nAudioSubSampleConvProjection, Gemma3nAudioConformerBlock, Gemma3nMultimodalEmbedder)
// and configuration_gemma3n.py (Gemma3nAudioConfig); models/qwen3_omni_moe/modeling_qwen3_omni_moe.py
// (Qwen3OmniMoeAudioEncoder, Qwen3OmniMoeAudioEncoderLayer) and configuration_qwen3_omni_moe.py.
#include "model/audio.hpp"

#include "model/count.hpp"

namespace infercast {

const NameTable<AudioKind>& audio_kind_names() {
  static const NameTable<AudioKind> t({{AudioKind::None, "none", "no audio encoder"},
                                       {AudioKind::Gemma3n, "gemma3n", "Gemma 3n: a USM Conformer (counted, not forecast)"},
                                       {AudioKind::Gemma4, "gemma4", "Gemma 4: a Conformer over 40 ms frames (counted, not forecast)"},
                                       {AudioKind::QwenOmni, "qwen3_omni", "Qwen3-Omni: AuT, a Transformer over 80 ms frames (counted, not forecast)"},
                                       {AudioKind::Gemma4Unified, "gemma4_unified", "Gemma 4 12B: 40 ms waveform frames projected, no encoder (counted, not forecast)"}});
  return t;
}

i64 audio_params(const AudioSpec& a) {
  if (a.kind == AudioKind::None) return 0;
  // Gemma4UnifiedMultimodalEmbedder: an RMSNorm without weight and a projection without bias of each frame's samples.
  if (a.kind == AudioKind::Gemma4Unified) return (Count(a.hidden) * a.text_hidden).v;
  if (a.kind == AudioKind::QwenOmni) {
    // Three 3 x 3 convolutions of stride 2 with biases (1 -> c -> c -> c) over the mel bins, conv_out from the
    // flattened F3 x c features to the width without bias; each layer q, k, v and out_proj with biases, two
    // LayerNorms, fc1 (H -> F) and fc2 (F -> H) with biases; ln_post; proj1 (H -> H) and proj2 (H -> output, the
    // text model's width) with biases. Positions are sinusoids (no parameters).
    const Count H = a.hidden, c = a.sub_channels0, F = a.ffn, out = a.output;
    i64 f = a.features;
    for (int i = 0; i < 3; ++i) f = (f + 2 - 3) / 2 + 1;  // padded by one on each side
    const Count convs = Count(9) * c + c + Count(2) * (Count(9) * c * c + c) + Count(f) * c * H;
    const Count layer = Count(4) * (H * H + H) + Count(4) * H + H * F + F + F * H + H;
    return (convs + Count(a.layers) * layer + Count(2) * H + H * H + H + H * out + out).v;
  }
  const Count H = a.hidden, c0 = a.sub_channels0, c1 = a.sub_channels1;
  // Subsampler: two 3 x 3 convolutions of stride 2 without bias (1 -> c0 -> c1), a norm with a weight after each,
  // and a projection of the flattened features (the mel bins halved twice, x c1) to the width.
  i64 f = a.features;
  for (int i = 0; i < 2; ++i) f = (f + 2 - 3) / 2 + 1;  // padded by one on each side
  const Count sub = Count(9) * c0 + c0 + Count(9) * c0 * c1 + c1 + Count(f) * c1 * H;
  // A layer: two feed-forward blocks (H -> 4H -> H, a norm before and after), attention (q, k, v, the output
  // `post` and the relative-position key projection, a per-dimension scale over a head), the light conv block
  // (H -> 2H for the GLU, a depthwise kernel, H -> H, two norms) and three norms: 24 H^2 + 9 H + K H + H / heads.
  // Clipped linears (ten per layer) keep four scalar bounds each.
  Count layer = Count(24) * H * H + Count(9) * H + Count(a.conv_kernel) * H + Count(a.hidden / a.heads);
  if (a.clipped) layer += Count(40);
  Count tower = sub + Count(a.layers) * layer;
  if (a.output > 0) tower += H * a.output + a.output;  // Gemma 4's output_proj, with a bias
  // embed_audio: Gemma 4's an RMSNorm without weight and a projection to the text model's width; Gemma 3n's also its
  // own table of soft tokens and two norms with weights (hard and soft embedding norms) over the tower's width.
  const Count width = a.output > 0 ? Count(a.output) : H;
  const Count embed = Count(a.embed_vocab) * width + (a.embed_vocab > 0 ? Count(2) * width : Count(0)) + width * a.text_hidden;
  return (tower + embed).v;
}

}  // namespace infercast
