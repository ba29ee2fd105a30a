// Audio encoders: parameters (docs/formulas.md, "Audio encoders"). Source: transformers' models/gemma4/
// modeling_gemma4.py (Gemma4AudioModel, Gemma4AudioSubSampleConvProjection, Gemma4AudioLayer, Gemma4ClippableLinear,
// Gemma4MultimodalEmbedder) and configuration_gemma4.py (Gemma4AudioConfig).
#include "model/audio.hpp"

#include "model/count.hpp"

namespace infercast {

const NameTable<AudioKind>& audio_kind_names() {
  static const NameTable<AudioKind> t({{AudioKind::None, "none", "no audio encoder"},
                                       {AudioKind::Gemma4, "gemma4", "Gemma 4: a Conformer over 40 ms frames (counted, not forecast)"}});
  return t;
}

i64 audio_params(const AudioSpec& a) {
  if (a.kind == AudioKind::None) return 0;
  const Count H = a.hidden, c0 = a.sub_channels0, c1 = a.sub_channels1;
  // Subsampler: two 3 x 3 convolutions without bias (1 -> c0 -> c1), a LayerNorm without bias after each, and a
  // projection of the flattened (c0 / 4) x c1 features to the width.
  const Count sub = Count(9) * c0 + c0 + Count(9) * c0 * c1 + c1 + Count(a.sub_channels0 / 4) * c1 * H;
  // A layer: two feed-forward blocks (H -> 4H -> H, a norm before and after), attention (q, k, v, the output
  // `post` and the relative-position key projection, a per-dimension scale over a head), the light conv block
  // (H -> 2H for the GLU, a depthwise kernel, H -> H, two norms) and three norms: 24 H^2 + 9 H + K H + H / heads.
  // Clipped linears (ten per layer) keep four scalar bounds each.
  Count layer = Count(24) * H * H + Count(9) * H + Count(a.conv_kernel) * H + Count(a.hidden / a.heads);
  if (a.clipped) layer += Count(40);
  const Count tower = sub + Count(a.layers) * layer + H * a.output + a.output;  // output_proj has a bias
  // embed_audio: an RMSNorm without weight and a projection to the text model's width.
  return (tower + Count(a.output) * a.text_hidden).v;
}

}  // namespace infercast
