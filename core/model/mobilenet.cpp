// MobileNetV5 parameters and shapes. Source: huggingface/pytorch-image-models timm/models/mobilenetv5.py
// (_gen_mobilenet_v5 for mobilenetv5_300m_enc, MobileNetV5Encoder, MobileNetV5MultiScaleFusionAdapter) and the
// blocks of timm/models/_efficientnet_blocks.py (EdgeResidual, UniversalInvertedResidual, MobileAttention with
// MultiQueryAttention2d); the stage sizes 3/5/37/39 are transformers' convert_gemma3n_weights.py's summed block
// sizes [3, 8, 45, 84]. Every convolution is without bias but the stem's; every norm is an RmsNorm2d (a weight
// only); UIR and attention blocks keep a layer-scale gamma (layer_scale_init_value 1e-5), edge residuals do not.
// Strides: an edge residual's in its expansion convolution; a UIR's in its middle depthwise convolution when it has
// one (so its start depthwise and expansion run at the input's side), else in the start one; 'same' padding:
// side_out = ceil(side_in / stride).
#include "model/mobilenet.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/count.hpp"

namespace infercast {

namespace {

struct MobileNetBlocks {
  const char* name;
  i64 stem;                    // a 3 x 3 convolution of stride 2 from 3 channels, with bias, and its norm
  std::vector<ConvRun> runs;   // in order; a run's input is the previous run's output
  std::vector<i64> fused;      // the adapter's inputs: indices of the runs whose outputs it concatenates
  i64 fusion_expand, fusion_out, fusion_side;  // the adapter: in -> in x expand -> out, pooled to a side, a norm
};

// timm's make_divisible(v, 8): rounded to the nearest multiple of 8, never below 90% of v.
i64 divisible(i64 v) {
  i64 r = std::max<i64>(8, (v + 4) / 8 * 8);
  if (10 * r < 9 * v) r += 8;
  return r;
}

Count block_params(const ConvRun& b, i64 in) {
  const Count ci = in, c = b.out;
  switch (b.kind) {
    case ConvBlock::Edge: {  // conv_exp (k x k, full) + norm, conv_pwl + norm
      const Count mid = divisible(in * b.e);
      return Count(b.k * b.k) * ci * mid + mid + mid * c + c;
    }
    case ConvBlock::Uir: {  // dw_start + norm, pw_exp + norm, dw_mid + norm, pw_proj + norm, layer scale
      const Count mid = divisible(in * b.e);
      Count p = ci * mid + mid + mid * c + c + c;
      if (b.a > 0) p += Count(b.a * b.a) * ci + ci;
      if (b.k > 0) p += Count(b.k * b.k) * mid + mid;
      return p;
    }
    case ConvBlock::Mqa: {  // norm, query, key and value (each down-sampled by a depthwise conv + norm), output, layer scale
      const Count qd = Count(b.heads) * b.dim;
      Count kv = ci * b.dim;
      if (b.kv_stride > 1) kv += Count(b.k * b.k) * ci + ci;
      return ci + ci * qd + Count(2) * kv + qd * c + c;
    }
  }
  return 0;
}

const std::vector<MobileNetBlocks>& architectures() {
  using B = ConvBlock;
  // mobilenetv5_300m_enc: four stages (3, 5, 37 and 39 blocks), the last two fused to 2048 channels at the side of
  // the first of them (the other upsampled, nearest), average-pooled to 16 x 16.
  static const std::vector<MobileNetBlocks> t = {
      {"mobilenetv5_300m_enc",
       64,
       {
           {B::Edge, 0, 3, 4, 128, 0, 0, 1, 2, 1},  // stage 0
           {B::Edge, 0, 3, 4, 128, 0, 0, 1, 1, 2},
           {B::Uir, 3, 5, 6, 256, 0, 0, 1, 2, 1},  // stage 1
           {B::Uir, 5, 0, 4, 256, 0, 0, 1, 1, 1},
           {B::Uir, 3, 0, 4, 256, 0, 0, 1, 1, 1},
           {B::Uir, 5, 0, 4, 256, 0, 0, 1, 1, 1},
           {B::Uir, 3, 0, 4, 256, 0, 0, 1, 1, 1},
           {B::Uir, 5, 5, 6, 640, 0, 0, 1, 2, 1},  // stage 2
           {B::Uir, 5, 0, 4, 640, 0, 0, 1, 1, 7},
           {B::Uir, 0, 0, 1, 640, 0, 0, 1, 1, 1},
           // 14 x (attention, inverted residual), alternating; equal widths, so the counts and shapes do not
           // depend on the order within the stage.
           {B::Mqa, 0, 3, 0, 640, 12, 64, 2, 1, 14},
           {B::Uir, 0, 0, 2, 640, 0, 0, 1, 1, 14},
           {B::Uir, 5, 5, 6, 1280, 0, 0, 1, 2, 1},  // stage 3
           {B::Mqa, 0, 3, 0, 1280, 16, 96, 1, 1, 19},
           {B::Uir, 0, 0, 2, 1280, 0, 0, 1, 1, 19},
       },
       {11, 14},
       2,
       2048,
       16},
  };
  return t;
}

const MobileNetBlocks* find_blocks(const std::string& name) {
  for (const auto& a : architectures())
    if (name == a.name) return &a;
  return nullptr;
}

}  // namespace

i64 mobilenetv5_params(const std::string& architecture) {
  const MobileNetBlocks* a = find_blocks(architecture);
  if (!a) return -1;
  Count p = Count(27) * a->stem + a->stem + a->stem;  // stem conv (3 x 3 x 3 -> stem, with bias) and its norm
  i64 in = a->stem, fused_in = 0;
  for (std::size_t r = 0; r < a->runs.size(); ++r) {
    const ConvRun& b = a->runs[r];
    for (i64 i = 0; i < b.count; ++i) {
      p += block_params(b, in);
      in = b.out;
    }
    if (std::find(a->fused.begin(), a->fused.end(), static_cast<i64>(r)) != a->fused.end()) fused_in += b.out;
  }
  const Count mid = divisible(fused_in * a->fusion_expand);
  p += Count(fused_in) * mid + mid + mid * a->fusion_out + a->fusion_out + a->fusion_out;  // pw_exp, pw_proj, norm
  return p.v;
}

MobileNetShape mobilenetv5_shape(const std::string& architecture, i64 side) {
  const MobileNetBlocks& a = *find_blocks(architecture);
  const auto down = [](i64 s, i64 stride) { return (s + stride - 1) / stride; };
  MobileNetShape m;
  m.stem = a.stem;
  m.stem_side = down(side, 2);
  i64 in = a.stem, s = m.stem_side;
  for (std::size_t r = 0; r < a.runs.size(); ++r) {
    const ConvRun& b = a.runs[r];
    ConvRunShape x{b, in, b.kind == ConvBlock::Mqa ? 0 : divisible(in * b.e), s, down(s, b.stride)};
    // Only the first block of a run strides or changes the width: a run of several is uniform after it.
    if (b.count > 1 && (b.stride > 1 || in != b.out))
      throw std::logic_error("mobilenetv5_shape: a run of several blocks must keep its width and side");
    m.runs.push_back(x);
    in = b.out;
    s = x.side_out;
    if (std::find(a.fused.begin(), a.fused.end(), static_cast<i64>(r)) != a.fused.end()) {
      m.fused_in += b.out;
      if (m.fused_side == 0) m.fused_side = x.side_out;  // the first input's side: the others are upsampled to it
    }
  }
  m.fused_mid = divisible(m.fused_in * a.fusion_expand);
  m.fused_out = a.fusion_out;
  m.out_side = a.fusion_side;
  return m;
}

std::string mobilenetv5_architectures() {
  std::string s;
  for (const auto& a : architectures()) s += (s.empty() ? "" : ", ") + std::string(a.name);
  return s;
}

}  // namespace infercast
