#include "io/json_writer.hpp"

#include <cmath>
#include <cstring>
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

// True when no byte needs escaping: none below 0x20 or from 0x80, no quote, no backslash.
bool plain_ascii(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}

}  // namespace

namespace {

// The number's text at `p` (room for 32 characters); returns its end.
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
  char buf[40];
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

JsonWriter& JsonWriter::value(double v) {
  char buf[40];
  char* p = buf;
  if (after_key_) {
    after_key_ = false;
  } else if (depth_ > 0) {
    const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
    if (written_ & bit) *p++ = ',';
    written_ |= bit;
  }
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
  out_ += v.dump(-1, ' ', false, json::error_handler_t::replace);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view text) {
  separate();
  out_ += text;
  return *this;
}

JsonWriter& JsonWriter::f64_column(const std::string& pointer, const std::vector<double>& v) {
  if (side_) {
    columns_.push_back({pointer, side_->size(), v.size()});
    side_->insert(side_->end(), v.begin(), v.end());
    return null();
  }
  begin_array();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out_ += ',';
    append_number(out_, v[i]);
  }
  if (!v.empty()) written_ |= std::uint64_t{1} << (depth_ - 1);
  return end_array();
}

}  // namespace infercast
