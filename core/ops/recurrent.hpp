// Pieces the recurrent mixers share (internal to ops/): the short causal convolution and the scan operator that
// reads and writes each sequence's state. Each kind's own operators are in deltanet.cpp, kda.cpp, ssm.cpp, lightning.cpp,
// short_conv.cpp and rglru.cpp
// (docs/formulas.md, "Linear attention and state-space layers").
#pragma once

#include <string>

#include "ops/builder.hpp"

namespace infercast {

// The depthwise causal convolution over `channels` with its activation (SiLU, unless `silu` is false): 2 x kernel
// FLOPs per channel and token (+1 with a bias) and the activation; its window of kernel - 1 inputs per sequence is
// read (when the sequence has a state) and written back as part of the state.
void add_conv(Builder& b, const GroupStep& gs, double channels, bool silu = true);

// The scan: `flops` over the step, `act_read` and `act_write` activation elements (inputs, outputs and the
// kernels' intermediates through memory), and the recurrent state of every sequence read (when it has one) and
// written at the state's precision.
Op& add_scan(Builder& b, const GroupStep& gs, const std::string& name, double flops, double act_read, double act_write);

// Bytes per element of the stored recurrent state.
double state_bytes_per_element(const Builder& b, const RecurrentSpec& r);

void add_deltanet(Builder& b, const GroupStep& gs);
void add_kda(Builder& b, const GroupStep& gs);
void add_mamba2(Builder& b, const GroupStep& gs);
void add_mamba(Builder& b, const GroupStep& gs);
void add_lightning(Builder& b, const GroupStep& gs);
void add_short_conv(Builder& b, const GroupStep& gs);
void add_rglru(Builder& b, const GroupStep& gs);

}  // namespace infercast
