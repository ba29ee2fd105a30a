#include "hardware/derive.hpp"

#include <cmath>
#include <cstdio>

namespace infercast {

namespace {

double round_sig4(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::fabs(v))));
  return std::round(v * scale) / scale;
}

// A number with at most 4 significant digits, no exponent, no trailing zeros: 1024, 2.52, 123.9, 15840.
std::string short_number(double v) {
  const double r = round_sig4(v);
  char buf[64];
  if (std::fabs(r) >= 1000 || r == 0) {
    std::snprintf(buf, sizeof buf, "%.0f", r);
    return buf;
  }
  const int decimals = 3 - static_cast<int>(std::floor(std::log10(std::fabs(r))));
  std::snprintf(buf, sizeof buf, "%.*f", decimals, r);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// Integer types are quoted in operations (TOPS), the rest in FLOPs (TFLOPS).
bool integer(ComputeType t) { return t == ComputeType::INT8 || t == ComputeType::INT4; }
const char* unit_of(ComputeType t) { return integer(t) ? "TOPS" : "TFLOPS"; }

// The order a published peak is taken from when scaling by ratios: matrix types first.
constexpr ComputeType kRatioBase[] = {ComputeType::BF16, ComputeType::FP16, ComputeType::FP8, ComputeType::INT8,
                                      ComputeType::FP4,  ComputeType::INT4, ComputeType::TF32, ComputeType::FP32};

}  // namespace

double round_estimate_tflops(double flops) { return round_sig4(flops / 1e12); }

std::optional<DerivedPeaks> derive_from_architecture(const Architecture& a, const Generation& g) {
  if (a.compute_units <= 0 || a.clock_ghz <= 0) return std::nullopt;
  DerivedPeaks d;
  d.method = "architecture";
  const std::string units = std::to_string(a.compute_units) + " " + g.unit + (a.compute_units == 1 ? "" : "s");
  for (std::size_t i = 0; i < 8; ++i) {
    // Vector fp32 runs at the boost clock; matrix-engine types at the matrix clock when the vendor quotes one.
    const double ghz = (i != static_cast<std::size_t>(ComputeType::FP32) && a.matrix_clock_ghz > 0) ? a.matrix_clock_ghz : a.clock_ghz;
    const auto t = static_cast<ComputeType>(i);
    const auto line = [&](double rate) {
      return units + " x " + short_number(rate) + (integer(t) ? " op/clock x " : " FLOP/clock x ") + short_number(ghz) + " GHz = " +
             short_number(a.compute_units * rate * ghz * 1e9 / 1e12) + " " + unit_of(t);
    };
    if (g.flop_per_clock[i] > 0) {
      d.flops[i] = a.compute_units * g.flop_per_clock[i] * ghz * 1e9;
      d.arithmetic[i] = line(g.flop_per_clock[i]);
    }
    if (g.flop_per_clock_fp16_accumulate[i] > 0) {
      d.flops_fp16_accumulate[i] = a.compute_units * g.flop_per_clock_fp16_accumulate[i] * ghz * 1e9;
      d.arithmetic_fp16_accumulate[i] = line(g.flop_per_clock_fp16_accumulate[i]);
    }
  }
  return d;
}

std::optional<DerivedPeaks> derive_from_ratio(const HardwareSpec& hw, const Generation& g) {
  for (ComputeType base : kRatioBase) {
    const auto b = static_cast<std::size_t>(base);
    if (hw.peak_flops[b] <= 0 || hw.peak_is_estimated(base) || g.flop_per_clock[b] <= 0) continue;
    DerivedPeaks d;
    d.method = "ratio";
    const std::string from = short_number(hw.peak_flops[b] / 1e12) + " " + unit_of(base) + " " + compute_type_name(base) +
                             " (published)";
    for (std::size_t i = 0; i < 8; ++i) {
      const auto t = static_cast<ComputeType>(i);
      const auto line = [&](double rate) {
        return from + " x " + short_number(rate) + "/" + short_number(g.flop_per_clock[b]) + " (" + g.key + " FLOP per clock, " +
               compute_type_name(t) + ":" + compute_type_name(base) + ") = " +
               short_number(hw.peak_flops[b] * rate / g.flop_per_clock[b] / 1e12) + " " + unit_of(t);
      };
      if (g.flop_per_clock[i] > 0) {
        d.flops[i] = hw.peak_flops[b] * g.flop_per_clock[i] / g.flop_per_clock[b];
        d.arithmetic[i] = line(g.flop_per_clock[i]);
      }
      if (g.flop_per_clock_fp16_accumulate[i] > 0) {
        d.flops_fp16_accumulate[i] = hw.peak_flops[b] * g.flop_per_clock_fp16_accumulate[i] / g.flop_per_clock[b];
        d.arithmetic_fp16_accumulate[i] = line(g.flop_per_clock_fp16_accumulate[i]);
      }
    }
    return d;
  }
  return std::nullopt;
}

std::optional<DerivedPeaks> derive_peaks(const HardwareSpec& hw, const Generation& g) {
  if (auto d = derive_from_architecture(hw.architecture, g)) return d;
  return derive_from_ratio(hw, g);
}

std::string derivation_text(const DerivedPeaks& d, const std::vector<ComputeType>& types) {
  std::string s;
  for (ComputeType t : types) {
    const auto i = static_cast<std::size_t>(t);
    if (d.arithmetic[i].empty()) continue;
    s += (s.empty() ? "" : "; ") + std::string(compute_type_name(t)) + ": " + d.arithmetic[i];
    if (!d.arithmetic_fp16_accumulate[i].empty()) s += " (FP16 accumulate: " + d.arithmetic_fp16_accumulate[i] + ")";
  }
  return s;
}

}  // namespace infercast
