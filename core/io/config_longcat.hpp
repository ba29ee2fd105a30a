// Config reader of Meituan's LongCat-Flash (longcat_flash): each of num_layers blocks holds two MLA attentions and
// two dense SwiGLU MLPs, and a shortcut MoE beside the first MLP whose router also scores zero-computation
// (identity) experts (io/config_longcat.cpp). Defaults are transformers' (configuration_longcat_flash.py).
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_longcat_flash(Reader& r, ModelSpec& m);

}  // namespace infercast
