// A JSON writer that appends text to a string (gathered a kilobyte at a time; each top-level value is in the string
// once it ends): results are written as they are computed, with no tree of values in between (a tree costs an
// allocation per value and then a second pass to print it). Numbers print as
// nlohmann::json prints them (integral doubles below 1e15 as "12.0", others shortest round-trip; NaN and infinities
// as null), strings escape as it escapes them (invalid UTF-8 replaced), so a result reads back to the same values.
//
// Columns: with a side buffer, f64_column() puts a column's numbers in a buffer of doubles instead of the text (no
// digits written or parsed), and string_column() writes only a column's distinct strings, with each row's index
// into them in the buffer; the wasm boundary hands that buffer to JavaScript as one Float64Array and the envelope
// says which JSON pointer each column belongs at (docs/schema.md, "Layout").
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/json_reader.hpp"

namespace infercast {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out, std::vector<double>* side = nullptr) : out_(out), side_(side) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);  // an object's key; the next call writes its value

  JsonWriter& value(double v);
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  JsonWriter& value(T v) {
    return integer(static_cast<std::int64_t>(v));
  }
  JsonWriter& value(bool v);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(const std::string& v) { return value(std::string_view(v)); }
  JsonWriter& null();
  JsonWriter& value(const json& v);  // a tree, printed in place (for the parts of a result still built as trees)
  JsonWriter& raw(std::string_view text);  // text that already is one JSON value

  // key + value in one call; a number's or a short string's written with its key in one append.
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    using D = std::decay_t<T>;
    if constexpr (std::is_same_v<D, double>) {
      return field_number(k, v);
    } else if constexpr (std::is_integral_v<D> && !std::is_same_v<D, bool>) {
      return field_integer(k, static_cast<std::int64_t>(v));
    } else if constexpr (std::is_same_v<D, std::string> || std::is_same_v<D, std::string_view> ||
                         std::is_same_v<D, const char*> || std::is_same_v<D, char*>) {
      return field_text(k, std::string_view(v));
    } else {
      key(k);
      return value(v);
    }
  }

  // An array of numbers at `pointer` (the JSON pointer of this value in the document being written): as text, or,
  // with a side buffer, null in the text and the numbers appended to the buffer (columns() says where).
  JsonWriter& f64_column(std::string_view pointer, const std::vector<double>& v) { return f64_column(pointer, {}, v); }
  // The same at `at` + "/" + `key` (a table's column; the pointer is put together in the writer's own text).
  JsonWriter& f64_column(std::string_view at, std::string_view key, const std::vector<double>& v);
  // A column of `rows` numbers, row i's number get(i): with a side buffer they go straight into it (no column built
  // first), else as f64_column writes them.
  template <class Get>
  JsonWriter& f64_column_of(std::string_view at, std::string_view key, std::size_t rows, Get get) {
    if (!side_) {
      std::vector<double> v(rows);
      for (std::size_t i = 0; i < rows; ++i) v[i] = get(i);
      return f64_column(at, key, v);
    }
    const std::size_t start = begin_side_column(at, key, rows, false);
    double* d = side_->data() + start;
    for (std::size_t i = 0; i < rows; ++i) d[i] = get(i);
    return end_side_numbers(start, rows);
  }
  // An array of strings at `pointer`: as text, or, with a side buffer, its distinct strings in the order they first
  // appear (an array in the text) and each row's index into them appended to the buffer (a column marked `strings`).
  // Tables repeat a few strings over many rows (phase, class, compute type), so the text holds each once.
  JsonWriter& string_column(std::string_view pointer, const std::vector<std::string_view>& v) {
    return string_column(pointer, {}, v);
  }
  JsonWriter& string_column(std::string_view at, std::string_view key, const std::vector<std::string_view>& v);
  // A string column whose rows each hold one of a small list's `n` names (an enum's): row i holds name(code(i)),
  // code(i) < n. Written as string_column writes it, without comparing any text.
  template <class Code, class Name>
  JsonWriter& enum_column(std::string_view at, std::string_view key, std::size_t rows, std::size_t n, Code code, Name name) {
    const auto checked = [&](std::size_t i) {
      const std::size_t c = code(i);
      if (c >= n) throw std::logic_error("JsonWriter: a code past the enum column's names");
      return c;
    };
    if (!side_) {
      std::vector<std::string_view> v(rows);
      for (std::size_t i = 0; i < rows; ++i) v[i] = name(checked(i));
      return string_column(at, key, v);
    }
    begin_array();
    const std::size_t start = begin_side_column(at, key, rows, true);
    std::vector<double> index_of(n, -1.0);  // each name's index among the distinct ones written, once it is
    double distinct = 0;
    double* d = side_->data() + start;
    for (std::size_t i = 0; i < rows; ++i) {
      const std::size_t c = checked(i);
      if (index_of[c] < 0) {
        index_of[c] = distinct++;
        value(name(c));
      }
      d[i] = index_of[c];
    }
    return end_array();
  }
  struct SideColumn {
    std::size_t pointer_offset = 0, pointer_length = 0;  // where its JSON pointer is in the writer's pointer text
    std::size_t offset = 0, length = 0;
    bool strings = false;  // the buffer holds indices into the distinct strings the text has at `pointer`
  };
  const std::vector<SideColumn>& columns() const { return columns_; }
  // A side column's JSON pointer. The pointers share one text (a table's 30 columns would otherwise allocate 30
  // strings per call).
  std::string_view pointer(const SideColumn& c) const {
    return std::string_view(pointers_).substr(c.pointer_offset, c.pointer_length);
  }

  // The first NaN or infinity given to the writer (written as null, put in a side column, or inside a tree): where
  // it is, for the envelope's finiteness check (api/registry.cpp). `offset` is where in the text the value (the
  // column, the tree) starts, `inner` the JSON pointer within it ("" for a number written on its own).
  struct NonFinite {
    bool found = false;
    bool nan = false;
    std::size_t offset = 0;
    std::string inner;
  };
  const NonFinite& non_finite() const { return non_finite_; }

 private:
  JsonWriter& integer(std::int64_t v);
  JsonWriter& field_number(std::string_view k, double v);
  JsonWriter& field_integer(std::string_view k, std::int64_t v);
  JsonWriter& field_text(std::string_view k, std::string_view v);
  // ,"k": into buf (room for 4 + kShortText bytes) when the key needs no escaping: returns where the text starts in
  // buf (0, or 1 when no comma is due) and sets n to its end; -1 (nothing marked) when the key is long or needs
  // escaping.
  int put_key(char* buf, std::string_view k, std::size_t& n);
  void separate();  // the comma before a value or key, unless it is the first in its container
  // Whether a comma goes before the next key or value (the open container holds something already); marks the
  // container as written.
  bool comma_needed() {
    if (depth_ == 0) return false;
    const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
    const bool comma = (written_ & bit) != 0;
    written_ |= bit;
    return comma;
  }
  // Keys and strings up to this length are written through a buffer on the stack in one append.
  static constexpr std::size_t kShortText = 60;
  // The text is gathered here and appended to the output a kilobyte at a time: an append to a std::string per
  // token (a call, a capacity check and a memcpy for a few bytes) was a tenth of a result's time natively and more in
  // wasm, whose memcpy copies short, unaligned runs a byte at a time. The output holds every top-level value written
  // once it ends (end_value()); of one not yet ended, the output may hold a part (whole kilobytes), so a caller whose
  // document is cut short by an exception replaces the output (api/registry.cpp writes an error in its place).
  static constexpr std::size_t kPending = 1024;
  char pending_[kPending];
  std::size_t used_ = 0;
  std::size_t size() const { return out_.size() + used_; }  // the text written so far, pending included
  void flush();
  void put_long(const char* p, std::size_t n);
  // n bytes of text; copied in 8-byte words (overlapping at the end), never byte by byte.
  void put(const char* p, std::size_t n) {
    if (n > kPending - used_) return put_long(p, n);
    char* d = pending_ + used_;
    used_ += n;
    if (n >= 8) {
      for (std::size_t i = 0; i + 8 < n; i += 8) std::memcpy(d + i, p + i, 8);
      std::memcpy(d + n - 8, p + n - 8, 8);
    } else if (n >= 4) {
      std::memcpy(d, p, 4);
      std::memcpy(d + n - 4, p + n - 4, 4);
    } else {
      for (std::size_t i = 0; i < n; ++i) d[i] = p[i];
    }
  }
  void put(std::string_view s) { put(s.data(), s.size()); }
  void put(char c) {
    if (used_ == kPending) flush();
    pending_[used_++] = c;
  }
  // After a value: when it is a whole top-level value, its text goes to the output.
  JsonWriter& end_value() {
    if (depth_ == 0) flush();
    return *this;
  }
  void saw_non_finite(double v, std::size_t offset, std::string inner);
  NonFinite non_finite_;
  std::string& out_;
  std::vector<double>* side_;
  std::vector<SideColumn> columns_;
  std::string pointers_;  // the side columns' JSON pointers, one after another
  // A side column of `rows` values: its pointer (`at` + "/" + `key`, or `at` alone) recorded and the buffer grown by
  // `rows` (values to be written there); returns where in the buffer they start.
  std::size_t begin_side_column(std::string_view at, std::string_view key, std::size_t rows, bool strings);
  // After a number column's values are in the buffer from `start`: null in the text, the first non-finite one noted.
  JsonWriter& end_side_numbers(std::size_t start, std::size_t rows);
  // Containers open: one bit each (1 = something written in it already); depth at most 64.
  std::uint64_t written_ = 0;
  int depth_ = 0;
  bool after_key_ = false;
};

// Where in `v` the first NaN or infinity is, as a JSON pointer into `where` (false when every number is finite),
// and whether it is NaN. Trees here are results (user JSON echoed in them is at most limit::kJsonDepth deep), so the
// recursion is bounded.
bool find_non_finite(const json& v, std::string& where, bool& nan);

// The JSON pointer of the value that starts at byte `at` of `text` (one JSON value, as a JsonWriter wrote it).
std::string pointer_at(std::string_view text, std::size_t at);

// A tree written by `text`'s writer `w`, read back: the first non-finite number it was given (the text holds null
// there) is put back, so a finiteness check of the tree still finds it.
json tree_from(const std::string& text, const JsonWriter& w);

// A tree built by a writer function (for the callers that still want one).
template <class F>
json tree_of(F&& write) {
  std::string text;
  JsonWriter w(text);
  write(w);
  return tree_from(text, w);
}

}  // namespace infercast
