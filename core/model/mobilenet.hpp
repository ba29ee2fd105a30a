// MobileNetV5, the convolutional vision tower of Gemma 3n (timm's mobilenetv5_300m_enc, which transformers wraps as
// TimmWrapperModel): its blocks as data, their parameters counted to the integer, and the shapes one image takes
// through them, for the forecast (docs/formulas.md, "Vision encoders"; ops/mobilenet.cpp builds the operators).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infercast {

using i64 = std::int64_t;

enum class ConvBlock { Edge, Uir, Mqa };

// One run of identical blocks in timm's notation: `er_k3_s2_e4_c128`, `uir_a5_k5_s2_e6_c640`,
// `mqa_k3_h12_v2_d64_c640`. a: the first depthwise kernel (0: none); k: the middle depthwise kernel (the expansion
// convolution's kernel in an edge residual; for attention the kernel of the key/value down-sampling); e: the
// expansion; heads and dim: the attention's query heads and the one shared key/value head's width; kv_stride: the
// keys' and values' down-sampling (1: none); stride: the first block's (the others keep the resolution); count: how
// many in a row.
struct ConvRun {
  ConvBlock kind;
  i64 a, k, e, out, heads, dim, kv_stride, stride, count;
};

// A run as one image meets it: its input channels and side, the expanded width, and the side it puts out.
struct ConvRunShape {
  ConvRun run;
  i64 in = 0, mid = 0, side_in = 0, side_out = 0;
};

// The forward pass of one square image of `side` pixels.
struct MobileNetShape {
  i64 stem = 0, stem_side = 0;          // the stem's channels and output side (3 x 3, stride 2)
  std::vector<ConvRunShape> runs;
  i64 fused_in = 0, fused_mid = 0, fused_out = 0, fused_side = 0;  // the adapter's 1 x 1 convolutions and their side
  i64 out_side = 0;                     // the adapter's output side after its average pool: out_side^2 tokens
};

// The tower's parameters (stem, stages, multi-scale fusion adapter), or -1 for an architecture not in the table.
i64 mobilenetv5_params(const std::string& architecture);
// The shapes of one `side` x `side` image through the architecture (it must be in the table).
MobileNetShape mobilenetv5_shape(const std::string& architecture, i64 side);
// The architectures the table holds, for messages ("mobilenetv5_300m_enc").
std::string mobilenetv5_architectures();

}  // namespace infercast
