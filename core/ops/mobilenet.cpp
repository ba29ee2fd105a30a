// Gemma 3n's MobileNetV5 in the prefill: every image of every new prompt through the stem, the four stages and the
// fusion adapter, as timm runs them (docs/formulas.md, "Vision encoders"; shapes from model/mobilenet.cpp). A full
// or pointwise convolution is a GEMM over the output's positions (K: input channels x kernel area, read once from
// the input, not as an unfolded copy); a depthwise convolution works per element (2 k^2 FLOPs); the attention blocks
// attend over every position of the image (keys and values down-sampled where the block says so). Weights in the
// vision class; norms, activations, layer scales and residual adds are elementwise.
#include "ops/builder.hpp"

#include "model/mobilenet.hpp"

namespace infercast {

namespace {

double sq(i64 s) { return static_cast<double>(s) * static_cast<double>(s); }

// A convolution as a GEMM of `count` instances: M positions, K = cin x k^2, N = cout; the input read once.
void conv(Builder& b, const std::string& name, i64 count, double positions_out, double positions_in, i64 cin, i64 k,
          i64 cout, bool bias = false) {
  Op& op = b.gemm(name, "vision", count, positions_out, static_cast<double>(cin * k * k), static_cast<double>(cout), bias);
  op.act_read_bytes = static_cast<double>(count) * positions_in * static_cast<double>(cin) * b.ab;
}

// A depthwise convolution: k^2 multiply-adds per output element, its weights (channels x k^2) in the vision class.
void depthwise(Builder& b, const std::string& name, i64 count, double positions_out, double positions_in, i64 channels, i64 k) {
  Op& op = b.elementwise(name, "vision", count, positions_out * static_cast<double>(channels), 2.0 * static_cast<double>(k * k), 1);
  op.act_read_bytes = static_cast<double>(count) * positions_in * static_cast<double>(channels) * b.ab;
  const double w = static_cast<double>(count * channels * k * k);
  op.weight_elements = w;
  op.weight_bytes = w * b.s.precision.of(WeightClass::Vision).bits_per_element / 8;
}

}  // namespace

void add_mobilenet(Builder& b, double images) {
  const VisionSpec& v = b.m.vision;
  const Convention& cv = b.s.convention;
  const double rms = cv.rmsnorm_flops_per_element, gelu = cv.gelu_flops_per_element;
  const MobileNetShape m = mobilenetv5_shape(v.tower, v.image_size);
  const double px = images * sq(v.image_size);
  // Stem: 3 x 3 of stride 2, with bias; a norm and GELU.
  const double P0 = images * sq(m.stem_side);
  conv(b, "vision_stem", 1, P0, px, 3, 3, m.stem, true);
  b.elementwise("vision_stem_norm_act", "vision", 1, P0 * static_cast<double>(m.stem), rms + gelu, 1, static_cast<double>(m.stem));
  for (const ConvRunShape& r : m.runs) {
    const ConvRun& x = r.run;
    const i64 n = x.count;
    const double Pi = images * sq(r.side_in), Po = images * sq(r.side_out);
    const double in = static_cast<double>(r.in), mid = static_cast<double>(r.mid), out = static_cast<double>(x.out);
    const bool residual = r.in == x.out && x.stride == 1;
    switch (x.kind) {
      case ConvBlock::Edge: {  // conv_exp (k x k, strided) + norm + GELU, conv_pwl + norm, the skip when it keeps its shape
        conv(b, "vision_er_conv_exp", n, Po, Pi, r.in, x.k, r.mid);
        conv(b, "vision_er_conv_pwl", n, Po, Po, r.mid, 1, x.out);
        b.elementwise("vision_er_norms", "vision", n, Po * (mid + out), rms, 1, mid + out).dispatches = 2.0 * static_cast<double>(n);
        b.elementwise("vision_er_act", "vision", n, Po * mid, gelu, 1);
        if (residual) b.elementwise("vision_er_residual", "vision", n, Po * out, 1, 2);
        break;
      }
      case ConvBlock::Uir: {  // [dw_start + norm], pw_exp + norm + GELU, [dw_mid + norm + GELU], pw_proj + norm, gamma
        // The stride: in dw_mid when there is one (dw_start and pw_exp run at the input's side), else in dw_start.
        const double Pexp = x.a > 0 && x.k == 0 ? Po : Pi;
        double norm_elems = Pexp * mid + Po * out, norm_weights = mid + out, norm_calls = 2, acts = Pexp * mid;
        if (x.a > 0) {
          depthwise(b, "vision_uir_dw_start", n, Pexp, Pi, r.in, x.a);
          norm_elems += Pexp * in;
          norm_weights += in;
          norm_calls += 1;
        }
        conv(b, "vision_uir_pw_exp", n, Pexp, Pexp, r.in, 1, r.mid);
        if (x.k > 0) {
          depthwise(b, "vision_uir_dw_mid", n, Po, Pexp, r.mid, x.k);
          norm_elems += Po * mid;
          norm_weights += mid;
          norm_calls += 1;
          acts += Po * mid;
        }
        conv(b, "vision_uir_pw_proj", n, Po, Po, r.mid, 1, x.out);
        b.elementwise("vision_uir_norms", "vision", n, norm_elems, rms, 1, norm_weights).dispatches = norm_calls * static_cast<double>(n);
        b.elementwise("vision_uir_act", "vision", n, acts, gelu, 1);
        b.elementwise(residual ? "vision_uir_scale_residual" : "vision_uir_scale", "vision", n, Po * out, residual ? 2 : 1,
                      residual ? 2 : 1, out);
        break;
      }
      case ConvBlock::Mqa: {  // norm, q, [k/v down-sampling + norms], k, v, attention over the image, output, gamma
        const i64 side_kv = (r.side_in + x.kv_stride - 1) / x.kv_stride;
        const double Pkv = images * sq(side_kv), hd = static_cast<double>(x.heads * x.dim);
        b.elementwise("vision_mqa_norm", "vision", n, Pi * in, rms, 1, in);
        conv(b, "vision_mqa_q", n, Pi, Pi, r.in, 1, x.heads * x.dim);
        if (x.kv_stride > 1) {
          depthwise(b, "vision_mqa_kv_down", n, 2 * Pkv, 2 * Pi, r.in, x.k);
          b.elementwise("vision_mqa_kv_norms", "vision", n, 2 * Pkv * in, rms, 1, 2 * in).dispatches = 2.0 * static_cast<double>(n);
        }
        conv(b, "vision_mqa_kv", n, Pkv, Pkv, r.in, 1, 2 * x.dim);
        // Per image: every query position against every key position, all heads sharing one key and value head.
        Op& att = b.add("vision_attention", "vision", OpClass::Attention, n);
        const double pairs = images * sq(r.side_in) * sq(side_kv), d = static_cast<double>(x.dim);
        att.flops = static_cast<double>(n) * pairs * static_cast<double>(x.heads) * (4 * d + cv.softmax_flops_per_score + cv.score_scale_flops);
        att.act_read_bytes = static_cast<double>(n) * (Pi * hd + 2 * Pkv * d) * b.ab;
        att.act_write_bytes = static_cast<double>(n) * Pi * hd * b.ab;
        conv(b, "vision_mqa_o", n, Po, Po, x.heads * x.dim, 1, x.out);
        b.elementwise("vision_mqa_scale_residual", "vision", n, Po * out, 2, 2, out);
        break;
      }
    }
  }
  // The fusion adapter: the last stage upsampled (nearest) to the side of the stage before and concatenated, two
  // 1 x 1 convolutions (a norm and GELU between, a norm after), a 3 x 3 average pool to out_side, a norm.
  const double Pf = images * sq(m.fused_side), Pt = images * sq(m.out_side);
  const double fin = static_cast<double>(m.fused_in), fmid = static_cast<double>(m.fused_mid), fout = static_cast<double>(m.fused_out);
  b.elementwise("vision_fusion_concat", "vision", 1, Pf * fin, 0, 1);
  conv(b, "vision_fusion_exp", 1, Pf, Pf, m.fused_in, 1, m.fused_mid);
  b.elementwise("vision_fusion_norms_act", "vision", 1, Pf * (fmid + fout), rms, 1, fmid + fout).dispatches = 2;
  b.elementwise("vision_fusion_act", "vision", 1, Pf * fmid, gelu, 1);
  conv(b, "vision_fusion_proj", 1, Pf, Pf, m.fused_mid, 1, m.fused_out);
  const double pool = sq(m.fused_side) / sq(m.out_side);
  b.elementwise("vision_avg_pool", "vision", 1, Pt * fout, pool, pool);
  b.elementwise("vision_fusion_norm", "vision", 1, Pt * fout, rms, 1, fout);
}

}  // namespace infercast
