#include "io/json_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>
#include <stdexcept>

namespace infercast {

namespace {

// The digits of an integer (and its sign), written backwards so that they end at `end` (room for 20 bytes before
// it); returns where they start.
char* integer_text(char* end, std::int64_t v) {
  std::uint64_t u = v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
  char* p = end;
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) *--p = '-';
  return p;
}

// Bytes that a JSON string cannot hold as they are: below 0x20, from 0x80 (UTF-8, checked and escaped by
// nlohmann's dump), the quote and the backslash.
struct EscapeTable {
  bool needs[256] = {};
  constexpr EscapeTable() {
    for (int c = 0; c < 256; ++c) needs[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  }
};
constexpr EscapeTable kEscape;

// Copies `s` to `dst` (room for s.size() bytes) and says whether no byte of it needs escaping. One pass with no
// branch per byte and no library call: keys and short strings are most of a result's text, and a check followed by
// a copy (two calls into the C library each) was a quarter of a call's time.
bool copy_plain(char* dst, std::string_view s) {
  bool bad = false;
  for (const char c : s) {
    *dst++ = c;
    bad |= kEscape.needs[static_cast<unsigned char>(c)];
  }
  return !bad;
}

bool plain_ascii(std::string_view s) {
  for (const char c : s)
    if (kEscape.needs[static_cast<unsigned char>(c)]) return false;
  return true;
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

void JsonWriter::flush() {
  out_.append(pending_, used_);
  used_ = 0;
}

void JsonWriter::put_long(const char* p, std::size_t n) {
  flush();
  if (n >= kPending) out_.append(p, n);
  else {
    std::memcpy(pending_, p, n);
    used_ = n;
  }
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (comma_needed()) put(',');
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  if (depth_ >= 64) throw std::logic_error("JsonWriter: more than 64 nested containers");
  put('{');
  ++depth_;
  written_ &= ~(std::uint64_t{1} << (depth_ - 1));
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  put('}');
  --depth_;
  return end_value();
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  if (depth_ >= 64) throw std::logic_error("JsonWriter: more than 64 nested containers");
  put('[');
  ++depth_;
  written_ &= ~(std::uint64_t{1} << (depth_ - 1));
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  put(']');
  --depth_;
  return end_value();
}

int JsonWriter::put_key(char* buf, std::string_view k, std::size_t& n) {
  // The comma's place is kept at buf[0] whether or not it is written, so the key can be copied (and checked)
  // before the container is marked as written.
  if (k.size() > kShortText || !copy_plain(buf + 2, k)) return -1;
  const int first = comma_needed() ? 0 : 1;
  buf[0] = ',';
  buf[1] = '"';
  n = 2 + k.size();
  buf[n++] = '"';
  buf[n++] = ':';
  return first;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  // ,"key": built in a small buffer and appended once.
  char buf[4 + kShortText];
  std::size_t n = 0;
  if (const int first = put_key(buf, k, n); first >= 0) {
    put(buf + first, n - static_cast<std::size_t>(first));
    after_key_ = true;
    return *this;
  }
  separate();
  after_key_ = false;
  if (plain_ascii(k)) {
    put('"');
    put(k);
    put("\":");
  } else {
    put(json(std::string(k)).dump(-1, ' ', false, json::error_handler_t::replace));
    put(':');
  }
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::field_number(std::string_view k, double v) {
  char buf[4 + kShortText + 40] = {};
  std::size_t n = 0;
  const int first = put_key(buf, k, n);
  if (first < 0) {
    key(k);
    return value(v);
  }
  if (!std::isfinite(v)) saw_non_finite(v, size() + n - static_cast<std::size_t>(first), "");
  const char* end = format_number(buf + n, v);
  put(buf + first, static_cast<std::size_t>(end - buf - first));
  return *this;
}

JsonWriter& JsonWriter::field_integer(std::string_view k, std::int64_t v) {
  char buf[4 + kShortText + 24];
  std::size_t n = 0;
  const int first = put_key(buf, k, n);
  if (first < 0) {
    key(k);
    return integer(v);
  }
  char digits[24];
  const char* p = integer_text(digits + sizeof digits, v);
  const std::size_t len = static_cast<std::size_t>(digits + sizeof digits - p);
  std::memcpy(buf + n, p, len);
  put(buf + first, n + len - static_cast<std::size_t>(first));
  return *this;
}

JsonWriter& JsonWriter::field_text(std::string_view k, std::string_view v) {
  char buf[4 + kShortText + 2 + kShortText];
  std::size_t n = 0;
  // The value is checked before the key marks its container as written: a value that needs escaping goes the
  // long way, key() and value().
  char text[kShortText];
  if (v.size() <= kShortText && copy_plain(text, v)) {
    if (const int first = put_key(buf, k, n); first >= 0) {
      buf[n++] = '"';
      std::memcpy(buf + n, text, v.size());
      n += v.size();
      buf[n++] = '"';
      put(buf + first, n - static_cast<std::size_t>(first));
      return *this;
    }
  }
  key(k);
  return value(v);
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
  if (after_key_) after_key_ = false;
  else if (comma_needed()) *p++ = ',';
  if (!std::isfinite(v)) saw_non_finite(v, size() + static_cast<std::size_t>(p - buf), "");
  put(buf, static_cast<std::size_t>(format_number(p, v) - buf));
  return end_value();
}

JsonWriter& JsonWriter::integer(std::int64_t v) {
  separate();
  char buf[24];
  const char* p = integer_text(buf + sizeof buf, v);
  put(p, static_cast<std::size_t>(buf + sizeof buf - p));
  return end_value();
}

JsonWriter& JsonWriter::value(bool v) {
  separate();
  put(v ? "true" : "false");
  return end_value();
}

JsonWriter& JsonWriter::value(std::string_view v) {
  char buf[4 + kShortText];
  if (v.size() <= kShortText && copy_plain(buf + 2, v)) {
    const std::size_t first = after_key_ || !comma_needed() ? 1 : 0;
    after_key_ = false;
    buf[0] = ',';
    buf[1] = '"';
    std::size_t n = 2 + v.size();
    buf[n++] = '"';
    put(buf + first, n - first);
    return end_value();
  }
  separate();
  if (plain_ascii(v)) {
    put('"');
    put(v);
    put('"');
  } else {
    put(json(std::string(v)).dump(-1, ' ', false, json::error_handler_t::replace));
  }
  return end_value();
}

JsonWriter& JsonWriter::null() {
  separate();
  put("null");
  return end_value();
}

JsonWriter& JsonWriter::value(const json& v) {
  separate();
  if (!non_finite_.found) {
    std::string where;
    bool nan = false;
    if (find_non_finite(v, where, nan))
      saw_non_finite(nan ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity(), size(),
                     std::move(where));
  }
  put(v.dump(-1, ' ', false, json::error_handler_t::replace));
  return end_value();
}

JsonWriter& JsonWriter::raw(std::string_view text) {
  separate();
  put(text);
  return end_value();
}

std::size_t JsonWriter::begin_side_column(std::string_view at, std::string_view key, std::size_t rows, bool strings) {
  SideColumn c;
  c.pointer_offset = pointers_.size();
  pointers_ += at;
  if (!key.empty()) {
    pointers_ += '/';
    pointers_ += key;
  }
  c.pointer_length = pointers_.size() - c.pointer_offset;
  c.offset = side_->size();
  c.length = rows;
  c.strings = strings;
  columns_.push_back(c);
  side_->resize(c.offset + rows);
  return c.offset;
}

JsonWriter& JsonWriter::end_side_numbers(std::size_t start, std::size_t rows) {
  separate();
  if (!non_finite_.found) {
    const double* d = side_->data() + start;
    for (std::size_t i = 0; i < rows; ++i)
      if (!std::isfinite(d[i])) {
        saw_non_finite(d[i], size(), "/" + std::to_string(i));
        break;
      }
  }
  put("null");
  return end_value();
}

JsonWriter& JsonWriter::f64_column(std::string_view at, std::string_view key, const std::vector<double>& v) {
  if (side_) {
    const std::size_t start = begin_side_column(at, key, v.size(), false);
    std::copy(v.begin(), v.end(), side_->begin() + static_cast<std::ptrdiff_t>(start));
    return end_side_numbers(start, v.size());
  }
  std::size_t bad = v.size();
  if (!non_finite_.found)
    for (std::size_t i = 0; i < v.size() && bad == v.size(); ++i)
      if (!std::isfinite(v[i])) bad = i;
  begin_array();
  if (bad < v.size()) saw_non_finite(v[bad], size() - 1, "/" + std::to_string(bad));
  for (const double x : v) value(x);  // the first non-finite one is already noted, at the array
  return end_array();
}

JsonWriter& JsonWriter::string_column(std::string_view at, std::string_view key, const std::vector<std::string_view>& v) {
  begin_array();
  if (!side_) {
    for (std::string_view s : v) value(s);
    return end_array();
  }
  const std::size_t offset = begin_side_column(at, key, v.size(), true);
  double* d = side_->data() + offset;
  // Each row's index into the distinct strings: a linear search while they are few (a table's usual case), a hash
  // map beyond, so a column of n distinct strings costs O(n), not O(n^2).
  constexpr std::size_t kLinear = 16;
  std::vector<std::string_view> distinct;
  std::unordered_map<std::string_view, std::size_t> index;
  std::size_t last = 0;
  for (std::string_view s : v) {
    std::size_t k = distinct.size();
    // The same text object as the last row's (a name from one table) or equal text.
    if (k > 0 && ((distinct[last].data() == s.data() && distinct[last].size() == s.size()) || distinct[last] == s)) {
      k = last;
    } else if (distinct.size() <= kLinear) {
      k = static_cast<std::size_t>(std::find(distinct.begin(), distinct.end(), s) - distinct.begin());
    } else if (const auto it = index.find(s); it != index.end()) {
      k = it->second;
    }
    if (k == distinct.size()) {
      distinct.push_back(s);
      value(s);
      if (distinct.size() > kLinear) {
        if (index.empty())
          for (std::size_t i = 0; i < distinct.size(); ++i) index.emplace(distinct[i], i);
        else
          index.emplace(s, k);
      }
    }
    last = k;
    *d++ = static_cast<double>(k);
  }
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
