// Recurrent mixers: the dispatch by kind and what every kind shares, the short convolution and the scan's state
// traffic (docs/formulas.md, "Linear attention and state-space layers").
#include "ops/recurrent.hpp"

namespace infercast {

double state_bytes_per_element(const Builder& b, const RecurrentSpec& r) {
  return r.state_bits > 0 ? r.state_bits / 8.0 : b.ab;
}

void add_conv(Builder& b, const GroupStep& gs, double channels, bool silu) {
  const RecurrentSpec& r = gs.g.spec.recurrent;
  if (r.conv_kernel <= 0 || channels <= 0) return;
  const i64 n = gs.g.count;
  const double c = static_cast<double>(n), T = gs.T, K = static_cast<double>(r.conv_kernel);
  Op& op = b.elementwise("conv1d", gs.g.label, n, T * channels, 2 * K + (r.conv_bias ? 1 : 0) + (silu ? b.s.convention.silu_flops_per_element : 0),
                         1, channels * K + (r.conv_bias ? channels : 0));
  // The window of the last kernel - 1 inputs is part of the state: read for sequences that have one, written for all.
  const double window = channels * (K - 1) * b.ab;
  op.kv_read_bytes = c * gs.seqs_with_state * window;
  op.kv_write_bytes = c * gs.seqs * window;
  op.state = true;
}

Op& add_scan(Builder& b, const GroupStep& gs, const std::string& name, double flops, double act_read, double act_write) {
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const double c = static_cast<double>(n);
  Op& op = b.add(name, gs.g.label, OpClass::Attention, n);
  op.flops = c * flops;
  op.act_read_bytes = c * act_read * b.ab;
  op.act_write_bytes = c * act_write * b.ab;
  const double state = static_cast<double>(recurrent_state_elements(r)) * state_bytes_per_element(b, r);
  op.kv_read_bytes = c * gs.seqs_with_state * state;
  op.kv_write_bytes = c * gs.seqs * state;
  op.state = true;
  return op;
}

void add_recurrent(Builder& b, const GroupStep& gs) {
  b.wclass = WeightClass::Attention;  // the token mixer's weights are the attention class
  switch (gs.g.spec.recurrent.kind) {
    case RecurrentKind::GatedDeltaNet: add_deltanet(b, gs); break;
    case RecurrentKind::Mamba2: add_mamba2(b, gs); break;
    case RecurrentKind::Mamba: add_mamba(b, gs); break;
    case RecurrentKind::Lightning: add_lightning(b, gs); break;
    case RecurrentKind::ShortConv: add_short_conv(b, gs); break;
    case RecurrentKind::KimiDelta: add_kda(b, gs); break;
    case RecurrentKind::RgLru: add_rglru(b, gs); break;
    case RecurrentKind::None: break;
  }
}

}  // namespace infercast
