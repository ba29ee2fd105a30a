#include "cli/output.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace infercast::cli {

void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> w;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (w.size() <= i) w.push_back(0);
      w[i] = std::max(w[i], r[i].size());
    }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line = "|";
    for (std::size_t i = 0; i < rows[k].size(); ++i) line += " " + clean(rows[k][i]) + std::string(w[i] - rows[k][i].size(), ' ') + " |";
    std::cout << line << "\n";
    if (k == 0) {
      std::string sep = "|";
      for (auto x : w) sep += std::string(x + 2, '-') + "|";
      std::cout << sep << "\n";
    }
  }
}

std::string si(double v, const char* unit) {
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 1000 && p < 6) {
    x /= 1000;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s%s", x, prefixes[p], unit);
  return buf;
}

std::string bytes_str(double v) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 1024 && p < 5) {
    x /= 1024;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s", x, units[p]);
  return buf;
}

std::string time_str(double s) {
  char buf[64];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}

std::string num3(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", v * 100);
  return b;
}

std::string clean(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      out += '?';
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += '?';  // a C1 control (U+0080..U+009F) in UTF-8
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace infercast::cli

namespace infercast::cli {

namespace {

// Forwards to `to`, replacing C0 controls (but newline and tab), DEL and UTF-8-encoded C1 controls with '?'.
class FilterBuf : public std::streambuf {
 public:
  explicit FilterBuf(std::streambuf* to) : to_(to) {}
  ~FilterBuf() override { flush_pending(); }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    return put(static_cast<unsigned char>(traits_type::to_char_type(ch))) ? ch : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i)
      if (!put(static_cast<unsigned char>(s[i]))) return i;
    return n;
  }
  int sync() override {
    flush_pending();
    return to_->pubsync();
  }

 private:
  bool emit(char c) { return !traits_type::eq_int_type(to_->sputc(c), traits_type::eof()); }
  void flush_pending() {
    if (pending_) emit(static_cast<char>(0xc2));
    pending_ = false;
  }
  bool put(unsigned char c) {
    if (pending_) {  // after 0xC2: 0x80..0x9F make a C1 control
      pending_ = false;
      if (c >= 0x80 && c <= 0x9f) return emit('?');
      if (!emit(static_cast<char>(0xc2))) return false;
    }
    if (c == 0xc2) {
      pending_ = true;
      return true;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return emit('?');
    return emit(static_cast<char>(c));
  }
  std::streambuf* to_;
  bool pending_ = false;
};

}  // namespace

TerminalFilter::TerminalFilter(std::ostream& stream)
    : stream_(stream), original_(stream.rdbuf()), filter_(std::make_unique<FilterBuf>(stream.rdbuf())) {
  stream_.rdbuf(filter_.get());
}

TerminalFilter::~TerminalFilter() {
  stream_.flush();
  stream_.rdbuf(original_);
}

void print_cost_line(const json& c) {
  if (c["usd_per_million_tokens"].is_null())
    std::cout << "Cost: unknown (" << c.value("usd_unknown_reason", std::string("no price")) << ")";
  else
    std::cout << "Cost: $" << num3(c["usd_per_million_tokens"].get<double>()) << " per million output tokens"
              << (c.value("usd_basis", std::string()) == "hardware and electricity" || !c.contains("usd_basis")
                      ? ""
                      : " (" + c["usd_basis"].get<std::string>() + ")");
  if (c["gCO2e_per_million_tokens"].is_null())
    std::cout << "; CO2 unknown (" << c.value("co2_unknown_reason", std::string("no power or embodied carbon")) << ")\n";
  else
    std::cout << "; CO2 " << num3(c["gCO2e_per_million_tokens"].get<double>()) << " g per million tokens (grid "
              << c["assumptions"]["region"].get<std::string>() << ", " << num3(c["assumptions"]["grid_gCO2e_per_kWh"].get<double>())
              << " g/kWh" << (c.value("has_embodied", false) ? ", embodied included" : ", operation only") << ")\n";
}

}  // namespace infercast::cli
