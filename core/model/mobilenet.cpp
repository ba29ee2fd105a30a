// MobileNetV5 parameters. Source: huggingface/pytorch-image-models timm/models/mobilenetv5.py
// (_gen_mobilenet_v5 for mobilenetv5_300m_enc, MobileNetV5Encoder, MobileNetV5MultiScaleFusionAdapter) and the
// blocks of timm/models/_efficientnet_blocks.py (EdgeResidual, UniversalInvertedResidual, MobileAttention with
// MultiQueryAttention2d); the stage sizes 3/5/37/39 are transformers' convert_gemma3n_weights.py's summed block
// sizes [3, 8, 45, 84]. Every convolution is without bias but the stem's; every norm is an RmsNorm2d (a weight
// only); UIR and attention blocks keep a layer-scale gamma (layer_scale_init_value 1e-5), edge residuals do not.
#include "model/mobilenet.hpp"

#include <algorithm>
#include <vector>

#include "model/count.hpp"

namespace infercast {

namespace {

enum class Block { Edge, Uir, Mqa };

// One run of identical blocks in timm's notation: `er_k3_s2_e4_c128`, `uir_a5_k5_s2_e6_c640`,
// `mqa_k3_h12_v2_d64_c640`. a: the first depthwise kernel (0: none); k: the middle depthwise kernel (the expansion
// convolution's kernel in an edge residual; for attention the kernel of the key/value down-sampling); e: the
// expansion; heads and dim: the attention's query heads and the one shared key/value head's width; kv_stride: the
// keys' and values' down-sampling (1: none); count: how many in a row.
struct BlockRun {
  Block kind;
  i64 a, k, e, out, heads, dim, kv_stride, count;
};

struct Architecture {
  const char* name;
  i64 stem;                    // a 3 x 3 convolution from 3 channels, with bias, and its norm
  std::vector<BlockRun> runs;  // in order; a run's input is the previous run's output
  std::vector<i64> fused;      // the adapter's inputs: indices of the runs whose outputs it concatenates
  i64 fusion_expand, fusion_out;  // the adapter's inverted residual: in -> in x expand -> out, then a norm
};

// timm's make_divisible(v, 8): rounded to the nearest multiple of 8, never below 90% of v.
i64 divisible(i64 v) {
  i64 r = std::max<i64>(8, (v + 4) / 8 * 8);
  if (10 * r < 9 * v) r += 8;
  return r;
}

Count block_params(const BlockRun& b, i64 in) {
  const Count ci = in, c = b.out;
  switch (b.kind) {
    case Block::Edge: {  // conv_exp (k x k, full) + norm, conv_pwl + norm
      const Count mid = divisible(in * b.e);
      return Count(b.k * b.k) * ci * mid + mid + mid * c + c;
    }
    case Block::Uir: {  // dw_start + norm, pw_exp + norm, dw_mid + norm, pw_proj + norm, layer scale
      const Count mid = divisible(in * b.e);
      Count p = ci * mid + mid + mid * c + c + c;
      if (b.a > 0) p += Count(b.a * b.a) * ci + ci;
      if (b.k > 0) p += Count(b.k * b.k) * mid + mid;
      return p;
    }
    case Block::Mqa: {  // norm, query, key and value (each down-sampled by a depthwise conv + norm), output, layer scale
      const Count qd = Count(b.heads) * b.dim;
      Count kv = ci * b.dim;
      if (b.kv_stride > 1) kv += Count(b.k * b.k) * ci + ci;
      return ci + ci * qd + Count(2) * kv + qd * c + c;
    }
  }
  return 0;
}

const std::vector<Architecture>& architectures() {
  // mobilenetv5_300m_enc: four stages (3, 5, 37 and 39 blocks), the last two fused to 2048 channels.
  static const std::vector<Architecture> t = {
      {"mobilenetv5_300m_enc",
       64,
       {
           {Block::Edge, 0, 3, 4, 128, 0, 0, 1, 1},  // stage 0 (stride 2)
           {Block::Edge, 0, 3, 4, 128, 0, 0, 1, 2},
           {Block::Uir, 3, 5, 6, 256, 0, 0, 1, 1},  // stage 1 (stride 2)
           {Block::Uir, 5, 0, 4, 256, 0, 0, 1, 1},
           {Block::Uir, 3, 0, 4, 256, 0, 0, 1, 1},
           {Block::Uir, 5, 0, 4, 256, 0, 0, 1, 1},
           {Block::Uir, 3, 0, 4, 256, 0, 0, 1, 1},
           {Block::Uir, 5, 5, 6, 640, 0, 0, 1, 1},  // stage 2 (stride 2)
           {Block::Uir, 5, 0, 4, 640, 0, 0, 1, 7},
           {Block::Uir, 0, 0, 1, 640, 0, 0, 1, 1},
           // 14 x (attention, inverted residual), as runs of one: an attention block then a UIR, repeated.
           {Block::Mqa, 0, 3, 0, 640, 12, 64, 2, 14},
           {Block::Uir, 0, 0, 2, 640, 0, 0, 1, 14},
           {Block::Uir, 5, 5, 6, 1280, 0, 0, 1, 1},  // stage 3 (stride 2)
           {Block::Mqa, 0, 3, 0, 1280, 16, 96, 1, 19},
           {Block::Uir, 0, 0, 2, 1280, 0, 0, 1, 19},
       },
       {11, 14},
       2,
       2048},
  };
  return t;
}

}  // namespace

i64 mobilenetv5_params(const std::string& architecture) {
  for (const auto& a : architectures()) {
    if (architecture != a.name) continue;
    Count p = Count(27) * a.stem + a.stem + a.stem;  // stem conv (3 x 3 x 3 -> stem, with bias) and its norm
    i64 in = a.stem, fused_in = 0;
    for (std::size_t r = 0; r < a.runs.size(); ++r) {
      const BlockRun& b = a.runs[r];
      // Interleaved runs of equal width (attention and UIR) keep the width, so their order does not change a count.
      for (i64 i = 0; i < b.count; ++i) {
        p += block_params(b, in);
        in = b.out;
      }
      for (i64 f : a.fused)
        if (static_cast<std::size_t>(f) == r) fused_in += b.out;
    }
    const Count mid = divisible(fused_in * a.fusion_expand);
    p += Count(fused_in) * mid + mid + mid * a.fusion_out + a.fusion_out + a.fusion_out;  // pw_exp, pw_proj, norm
    return p.v;
  }
  return -1;
}

std::string mobilenetv5_architectures() {
  std::string s;
  for (const auto& a : architectures()) s += (s.empty() ? "" : ", ") + std::string(a.name);
  return s;
}

}  // namespace infercast
