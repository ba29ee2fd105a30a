#include "io/python_json.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace infercast {

namespace {

// Placeholders start with the control character U+0001, which no config string holds; each names its number.
constexpr const char* kNaN = "\x01infercast:NaN";
constexpr const char* kInf = "\x01infercast:Infinity";
constexpr const char* kNegInf = "\x01infercast:-Infinity";
// The same placeholders as JSON string literals.
constexpr const char* kNaNText = "\"\\u0001infercast:NaN\"";
constexpr const char* kInfText = "\"\\u0001infercast:Infinity\"";
constexpr const char* kNegInfText = "\"\\u0001infercast:-Infinity\"";

bool word_at(const std::string& s, std::size_t i, const char* w) {
  const std::size_t n = std::strlen(w);
  if (s.compare(i, n, w) != 0) return false;
  // A whole word: the next character cannot continue an identifier or a number.
  if (i + n < s.size()) {
    const char c = s[i + n];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') return false;
  }
  return true;
}

}  // namespace

std::string python_literals_to_placeholders(const std::string& text, bool& replaced) {
  replaced = false;
  std::string out;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      if (replaced) out += c;
      continue;
    }
    if (c == '"') {
      in_string = true;
      if (replaced) out += c;
      continue;
    }
    const char* literal = nullptr;
    std::size_t len = 0;
    if (c == 'N' && word_at(text, i, "NaN")) literal = kNaNText, len = 3;
    else if (c == 'I' && word_at(text, i, "Infinity")) literal = kInfText, len = 8;
    else if (c == '-' && word_at(text, i, "-Infinity")) literal = kNegInfText, len = 9;
    if (!literal) {
      if (replaced) out += c;
      continue;
    }
    if (!replaced) {
      out.reserve(text.size() + 64);
      out.assign(text, 0, i);
      replaced = true;
    }
    out += literal;
    i += len - 1;
  }
  return replaced ? out : std::string();
}

void restore_python_numbers(nlohmann::json& doc) {
  if (doc.is_string()) {
    const auto& s = doc.get_ref<const std::string&>();
    if (s.empty() || s[0] != '\x01') return;
    if (s == kNaN) doc = std::numeric_limits<double>::quiet_NaN();
    else if (s == kInf) doc = std::numeric_limits<double>::infinity();
    else if (s == kNegInf) doc = -std::numeric_limits<double>::infinity();
    return;
  }
  if (doc.is_object() || doc.is_array())
    for (auto& v : doc) restore_python_numbers(v);
}

namespace {
void to_placeholders(nlohmann::json& doc) {
  if (doc.is_number_float()) {
    const double d = doc.get<double>();
    if (std::isnan(d)) doc = kNaN;
    else if (std::isinf(d)) doc = d > 0 ? kInf : kNegInf;
    return;
  }
  if (doc.is_object() || doc.is_array())
    for (auto& v : doc) to_placeholders(v);
}

void replace_all(std::string& s, const std::string& from, const char* to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at)) {
    s.replace(at, from.size(), to);
    at += std::strlen(to);
  }
}
}  // namespace

std::string dump_python_json(const nlohmann::json& doc) {
  nlohmann::json copy = doc;
  to_placeholders(copy);
  std::string out = copy.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  replace_all(out, kNaNText, "NaN");
  replace_all(out, kNegInfText, "-Infinity");
  replace_all(out, kInfText, "Infinity");
  return out;
}

}  // namespace infercast
