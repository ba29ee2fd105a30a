// MobileNetV5, the convolutional vision tower of Gemma 3n (timm's mobilenetv5_300m_enc, which transformers wraps as
// TimmWrapperModel): its blocks as data and their parameters, counted to the integer (docs/formulas.md, "Vision
// encoders"). Counted, not forecast: images for such a model are refused with a message.
#pragma once

#include <cstdint>
#include <string>

namespace infercast {

using i64 = std::int64_t;

// The tower's parameters (stem, stages, multi-scale fusion adapter), or -1 for an architecture not in the table.
i64 mobilenetv5_params(const std::string& architecture);
// The architectures the table holds, for messages ("mobilenetv5_300m_enc").
std::string mobilenetv5_architectures();

}  // namespace infercast
