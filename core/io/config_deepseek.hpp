// Config reader of DeepSeek-V4 (deepseek_v4; deepseek_ref, as SGLang's FP8 copies name it): compressed attention
// beside a sliding window (compress_ratios or layer_types), the CSA indexer, the grouped output projection,
// hyper-connections, hash-routed first layers and MoE everywhere (io/config_deepseek.cpp). transformers' defaults
// (configuration_deepseek_v4.py) fill what a config omits; a value transformers would refuse is refused naming it.
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_deepseek_v4(Reader& r, ModelSpec& m);

}  // namespace infercast
