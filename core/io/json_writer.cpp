#include "io/json_writer.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>
#include <stdexcept>

namespace infercast {

namespace {

// Digits of a non-negative integer below 1e19, written backwards into a small buffer.
void append_digits(std::string& out, std::uint64_t u) {
  char buf[24];
  char* p = buf + sizeof buf;
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  out.append(p, static_cast<std::size_t>(buf + sizeof buf - p));
}

// True when no byte needs escaping: none below 0x20 or from 0x80, no quote, no backslash. Eight bytes at a time
// (most of a result's text is strings, and a byte-by-byte test was a fifth of a call's instructions): a word has a
// byte below n (n <= 0x80) when (w - n * 0x01..01) & ~w & 0x80..80 is not zero, and a byte equal to c when
// w ^ (c * 0x01..01) has a zero byte; a byte from 0x80 sets its top bit.
bool plain_ascii(std::string_view s) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  const auto has_zero = [](std::uint64_t w) { return (w - ones) & ~w & highs; };
  const char* p = s.data();
  std::size_t n = s.size();
  const auto needs_escape = [&](std::uint64_t w) {
    return (w & highs) | ((w - 0x20 * ones) & ~w & highs) | has_zero(w ^ ('"' * ones)) | has_zero(w ^ ('\\' * ones));
  };
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if (needs_escape(w)) return false;
  }
  std::uint64_t tail = 'a' * ones;  // the last bytes, padded with a plain one
  std::memcpy(&tail, p, n);
  return !needs_escape(tail);
}

}  // namespace

namespace {

// The number's text at `p` (room for 32 characters); returns its end. The caller's buffer starts zeroed:
// nlohmann's to_chars takes the end of the room as a `const char*`, so no byte it could read is left undefined
// (GCC warned that `buf` may be used uninitialized where this is inlined).
char* format_number(char* p, double v) {
  if (!std::isfinite(v)) {
    std::memcpy(p, "null", 4);
    return p + 4;
  }
  const double a = std::fabs(v);
  // nlohmann prints an integral double below 1e15 as its digits and ".0"; the digits are written directly here.
  if (a < 1e15 && std::floor(a) == a) {
    char buf[24];
    char* end = buf + sizeof buf;
    char* q = end;
    *--q = '0';
    *--q = '.';
    std::uint64_t u = static_cast<std::uint64_t>(a);
    do {
      *--q = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (std::signbit(v)) *--q = '-';
    std::memcpy(p, q, static_cast<std::size_t>(end - q));
    return p + (end - q);
  }
  return nlohmann::detail::to_chars(p, p + 32, v);
}

}  // namespace

void append_number(std::string& out, double v) {
  char buf[40] = {};
  out.append(buf, static_cast<std::size_t>(format_number(buf, v) - buf));
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ == 0) return;
  const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
  if (written_ & bit) out_ += ',';
  written_ |= bit;
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  if (depth_ >= 64) throw std::logic_error("JsonWriter: more than 64 nested containers");
  out_ += '{';
  ++depth_;
  written_ &= ~(std::uint64_t{1} << (depth_ - 1));
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  --depth_;
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  if (depth_ >= 64) throw std::logic_error("JsonWriter: more than 64 nested containers");
  out_ += '[';
  ++depth_;
  written_ &= ~(std::uint64_t{1} << (depth_ - 1));
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  --depth_;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  if (k.size() <= 60 && plain_ascii(k)) {
    char buf[64];
    std::size_t n = 0;
    if (depth_ > 0) {
      const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
      if (written_ & bit) buf[n++] = ',';
      written_ |= bit;
    }
    buf[n++] = '"';
    std::memcpy(buf + n, k.data(), k.size());
    n += k.size();
    buf[n++] = '"';
    buf[n++] = ':';
    out_.append(buf, n);
    after_key_ = true;
    return *this;
  }
  separate();
  after_key_ = false;
  if (plain_ascii(k)) {
    out_ += '"';
    out_ += k;
    out_ += "\":";
  } else {
    out_ += json(std::string(k)).dump(-1, ' ', false, json::error_handler_t::replace);
    out_ += ':';
  }
  after_key_ = true;
  return *this;
}

void JsonWriter::saw_non_finite(double v, std::size_t offset, std::string inner) {
  if (non_finite_.found) return;
  non_finite_.found = true;
  non_finite_.nan = std::isnan(v);
  non_finite_.offset = offset;
  non_finite_.inner = std::move(inner);
}

JsonWriter& JsonWriter::value(double v) {
  char buf[40] = {};
  char* p = buf;
  if (after_key_) {
    after_key_ = false;
  } else if (depth_ > 0) {
    const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
    if (written_ & bit) *p++ = ',';
    written_ |= bit;
  }
  if (!std::isfinite(v)) saw_non_finite(v, out_.size() + static_cast<std::size_t>(p - buf), "");
  out_.append(buf, static_cast<std::size_t>(format_number(p, v) - buf));
  return *this;
}

JsonWriter& JsonWriter::integer(std::int64_t v) {
  separate();
  if (v < 0) {
    out_ += '-';
    append_digits(out_, static_cast<std::uint64_t>(-(v + 1)) + 1);
  } else {
    append_digits(out_, static_cast<std::uint64_t>(v));
  }
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  separate();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
  if (v.size() <= 60 && plain_ascii(v)) {
    char buf[64];
    std::size_t n = 0;
    if (after_key_) {
      after_key_ = false;
    } else if (depth_ > 0) {
      const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
      if (written_ & bit) buf[n++] = ',';
      written_ |= bit;
    }
    buf[n++] = '"';
    std::memcpy(buf + n, v.data(), v.size());
    n += v.size();
    buf[n++] = '"';
    out_.append(buf, n);
    return *this;
  }
  separate();
  if (plain_ascii(v)) {
    out_ += '"';
    out_ += v;
    out_ += '"';
  } else {
    out_ += json(std::string(v)).dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::value(const json& v) {
  separate();
  if (!non_finite_.found) {
    std::string where;
    bool nan = false;
    if (find_non_finite(v, where, nan))
      saw_non_finite(nan ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity(), out_.size(),
                     std::move(where));
  }
  out_ += v.dump(-1, ' ', false, json::error_handler_t::replace);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view text) {
  separate();
  out_ += text;
  return *this;
}

JsonWriter& JsonWriter::f64_column(const std::string& pointer, const std::vector<double>& v) {
  std::size_t bad = v.size();
  if (!non_finite_.found)
    for (std::size_t i = 0; i < v.size() && bad == v.size(); ++i)
      if (!std::isfinite(v[i])) bad = i;
  if (side_) {
    columns_.push_back({pointer, side_->size(), v.size()});
    side_->insert(side_->end(), v.begin(), v.end());
    separate();
    if (bad < v.size()) saw_non_finite(v[bad], out_.size(), "/" + std::to_string(bad));
    out_ += "null";
    return *this;
  }
  begin_array();
  if (bad < v.size()) saw_non_finite(v[bad], out_.size() - 1, "/" + std::to_string(bad));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out_ += ',';
    append_number(out_, v[i]);
  }
  if (!v.empty()) written_ |= std::uint64_t{1} << (depth_ - 1);
  return end_array();
}

bool find_non_finite(const json& v, std::string& where, bool& nan) {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    nan = std::isnan(d);
    return !std::isfinite(d);
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (find_non_finite(it.value(), where, nan)) {
        where = "/" + pointer_escape(it.key()) + where;
        return true;
      }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (find_non_finite(v[i], where, nan)) {
        where = "/" + std::to_string(i) + where;
        return true;
      }
  }
  return false;
}

std::string pointer_at(std::string_view text, std::size_t at) {
  struct Level {
    bool object;
    bool want_key;
    std::string key;
    std::size_t index;
  };
  std::vector<Level> stack;
  std::size_t i = 0;
  while (i < at && i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      if (!stack.empty() && stack.back().object && stack.back().want_key)
        stack.back().key = json::parse(text.substr(i, j + 1 - i)).get<std::string>();
      i = j + 1;
      continue;
    }
    if (c == '{') stack.push_back({true, true, "", 0});
    else if (c == '[') stack.push_back({false, false, "", 0});
    else if ((c == '}' || c == ']') && !stack.empty()) stack.pop_back();
    else if (c == ',' && !stack.empty()) {
      if (stack.back().object) stack.back().want_key = true;
      else ++stack.back().index;
    } else if (c == ':' && !stack.empty()) {
      stack.back().want_key = false;
    }
    ++i;
  }
  std::string out;
  for (const auto& l : stack) out += "/" + (l.object ? pointer_escape(l.key) : std::to_string(l.index));
  return out;
}

json tree_from(const std::string& text, const JsonWriter& w) {
  json v = json::parse(text);
  const auto& bad = w.non_finite();
  if (bad.found)
    v.at(json::json_pointer(pointer_at(text, bad.offset) + bad.inner)) =
        bad.nan ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  return v;
}

}  // namespace infercast
