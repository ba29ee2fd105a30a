#include "cli/output.hpp"

#include <cerrno>
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

namespace {

// Streams bytes through, holding a UTF-8 sequence until it is whole: ASCII but C0 controls (newline and tab kept)
// and DEL, and every whole valid sequence but a C1 control (U+0080..U+009F), go on as they are; anything else (a
// stray continuation byte, a lead byte not followed by its continuations, an overlong form, a surrogate, a byte
// past U+10FFFF) becomes one '?' per byte.
class Utf8Guard {
 public:
  template <class Emit>
  bool put(unsigned char c, Emit&& emit) {
    if (n_ > 0) {
      if (c >= lo_ && c <= hi_) {
        buf_[len_++] = static_cast<char>(c);
        lo_ = 0x80, hi_ = 0xbf;
        if (len_ < n_) return true;
        const bool c1 = n_ == 2 && static_cast<unsigned char>(buf_[0]) == 0xc2 && static_cast<unsigned char>(buf_[1]) <= 0x9f;
        const std::size_t len = len_;
        n_ = len_ = 0;
        if (c1) return emit('?');
        for (std::size_t i = 0; i < len; ++i)
          if (!emit(buf_[i])) return false;
        return true;
      }
      if (!finish(emit)) return false;  // the sequence broke off: its bytes are '?', and `c` starts afresh
    }
    if (c < 0x80) return emit((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : static_cast<char>(c));
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and code points past U+10FFFF (F4).
    lo_ = 0x80, hi_ = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      n_ = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      n_ = 3;
      if (c == 0xe0) lo_ = 0xa0;
      if (c == 0xed) hi_ = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n_ = 4;
      if (c == 0xf0) lo_ = 0x90;
      if (c == 0xf4) hi_ = 0x8f;
    } else {
      return emit('?');  // a continuation byte alone, an overlong lead (C0, C1) or F5..FF
    }
    buf_[0] = static_cast<char>(c);
    len_ = 1;
    return true;
  }
  // An unfinished sequence at the end: a '?' for each of its bytes.
  template <class Emit>
  bool finish(Emit&& emit) {
    const std::size_t len = len_;
    n_ = len_ = 0;
    for (std::size_t i = 0; i < len; ++i)
      if (!emit('?')) return false;
    return true;
  }

 private:
  char buf_[4] = {};
  std::size_t n_ = 0, len_ = 0;
  unsigned char lo_ = 0x80, hi_ = 0xbf;
};

}  // namespace

std::string clean(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto emit = [&out](char c) {
    out += c;
    return true;
  };
  Utf8Guard guard;
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    guard.put(b == '\n' || b == '\t' ? 0x01 : b, emit);  // clean() is for one line: newline and tab are '?' too
  }
  guard.finish(emit);
  return out;
}

std::string csv_text(const std::string& text, bool quote) {
  std::string cell = text;
  if (!cell.empty() && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@' || cell[0] == '\t' || cell[0] == '\r'))
    cell.insert(0, 1, '\'');
  if (!quote && cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string out = "\"";
  for (const char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace infercast::cli

namespace infercast::cli {

namespace {

// Forwards to `to` through a Utf8Guard (clean()'s rule, newlines and tabs kept), and remembers the first write to
// `to` that failed, with its errno, so run() can say the output was not written rather than exit 0.
class FilterBuf : public std::streambuf {
 public:
  explicit FilterBuf(std::streambuf* to) : to_(to) {}

  // The end of the output: an unfinished UTF-8 sequence becomes '?'s, and `to` is flushed.
  int finish() {
    guard_.finish([this](char c) { return emit(c); });
    return sync();
  }
  int error() const { return error_; }

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
  // A sequence split across two writes stays held: it is completed (or refused) by the bytes that follow.
  int sync() override {
    errno = 0;
    if (to_->pubsync() == 0) return 0;
    fail();
    return -1;
  }

 private:
  void fail() {
    if (!error_) error_ = errno ? errno : EIO;
  }
  bool emit(char c) {
    errno = 0;
    if (!traits_type::eq_int_type(to_->sputc(c), traits_type::eof())) return true;
    fail();
    return false;
  }
  bool put(unsigned char c) {
    return guard_.put(c, [this](char x) { return emit(x); });
  }
  std::streambuf* to_;
  Utf8Guard guard_;
  int error_ = 0;
};

}  // namespace

TerminalFilter::TerminalFilter(std::ostream& stream)
    : stream_(stream), original_(stream.rdbuf()), filter_(std::make_unique<FilterBuf>(stream.rdbuf())) {
  stream_.rdbuf(filter_.get());
}

int TerminalFilter::flush() {
  auto* f = static_cast<FilterBuf*>(filter_.get());
  f->finish();
  stream_.flush();
  return f->error() ? f->error() : stream_ ? 0 : EIO;
}

TerminalFilter::~TerminalFilter() {
  static_cast<FilterBuf*>(filter_.get())->finish();
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
