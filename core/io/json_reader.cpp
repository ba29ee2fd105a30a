#include "io/json_reader.hpp"

#include <algorithm>
#include <cmath>

#include "io/python_json.hpp"
#include <limits>

#include "util/limits.hpp"

namespace infercast {

namespace {
constexpr const char* kPositiveInt = "a positive integer";
constexpr const char* kNonnegInt = "a non-negative integer";
constexpr const char* kPositiveNumber = "a positive finite number";
constexpr const char* kNonnegNumber = "a non-negative finite number";

bool is_integral(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return true;
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.007199254740992e15;
  }
  return false;
}

std::int64_t as_int(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return static_cast<std::int64_t>(v.get<double>());
}
}  // namespace

std::string number_text(const json& v) {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // Non-finite numbers (Python's json writes them) as Python spells them; nlohmann would write null.
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    // The same value reads the same whatever the sender wrote: 1e15, 1000000000000000 and 1e+15 are one number.
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e16) return std::to_string(static_cast<long long>(d));
  }
  return v.dump();
}

std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return v.get<bool>() ? "true (a boolean)" : "false (a boolean)";
    case json::value_t::string: return quote_text(v.get<std::string>()) + " (a string)";
    case json::value_t::array: return "an array of " + std::to_string(v.size());
    case json::value_t::object: return "an object";
    default: return number_text(v);
  }
}

std::string quote_text(const std::string& text, std::size_t max_bytes) {
  // Cut on a character boundary, and invalid UTF-8 shown as U+FFFD rather than refused by the writer.
  return json(utf8_prefix(text, max_bytes)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string pointer_escape(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

json parse_json_text(const std::string& text, const std::string& what, const std::string& code_prefix) {
  check_json_text(text.data(), text.data() + text.size(), what, code_prefix);
  // The parser stops at a NUL byte as at the end: whatever followed would be dropped without a word. JSON has no
  // raw NUL, in a string or out of one (a string writes it \u0000).
  if (const auto z = text.find('\0'); z != std::string::npos)
    throw InputError(code_prefix + ".malformed_json", "",
                     what + " holds a NUL byte at byte " + std::to_string(z) + "; expected JSON text, which has none");
  try {
    // NaN, Infinity and -Infinity as Python's json writes them (io/python_json.hpp).
    bool python = false;
    const std::string replaced = python_literals_to_placeholders(text, python);
    if (!python) return json::parse(text);
    json doc = json::parse(replaced);
    restore_python_numbers(doc);
    return doc;
  } catch (const json::parse_error& e) {
    std::string detail = e.what();
    const auto pos = detail.find("parse error");
    if (pos != std::string::npos) detail = detail.substr(pos);
    throw InputError(code_prefix + ".malformed_json", "",
                     what + " is not valid JSON (" + detail + ")");
  } catch (const json::out_of_range& e) {
    // nlohmann reports a literal beyond the double range (1e999) as out_of_range 406.
    std::string detail = e.what();
    const auto q = detail.find('\'');
    const std::string lit = q == std::string::npos ? std::string() : detail.substr(q);
    throw InputError(code_prefix + ".malformed_json", "",
                     what + " holds a number too large to represent" + (lit.empty() ? "" : " (" + lit + ")") +
                         "; expected finite numbers");
  }
}

Reader::Reader(const json& obj, std::string path, std::string code_prefix)
    : obj_(obj), path_(std::move(path)), prefix_(std::move(code_prefix)) {
  if (!obj_.is_object()) {
    throw InputError(prefix_ + ".wrong_type", path_,
                     (path_.empty() ? std::string("the document") : path_) + " holds " + describe(obj_) +
                         "; expected an object");
  }
}

void Reader::alias(const std::string& key, const std::string& config_key) { aliases_.emplace_back(key, config_key); }

const std::string& Reader::resolve(const std::string& key) const {
  for (const auto& [k, to] : aliases_)
    if (k == key) return to;
  return key;
}

std::string Reader::child_path(const std::string& key) const { return path_ + "/" + pointer_escape(resolve(key)); }

void Reader::fail(const std::string& key, const std::string& kind, const std::string& message) const {
  throw InputError(prefix_ + "." + kind, child_path(key), message);
}

bool Reader::has(const std::string& key) const {
  auto it = obj_.find(resolve(key));
  return it != obj_.end() && !it->is_null();
}

const json* Reader::raw(const std::string& key) {
  const std::string& name = resolve(key);
  auto it = obj_.find(name);
  if (it == obj_.end()) return nullptr;
  read_.push_back(&it.key());
  if (it->is_null()) return nullptr;
  return &*it;
}

const json& Reader::at(const std::string& key, const char* expected) {
  const json* v = raw(key);
  if (!v) fail(key, "missing_field", child_path(key) + " is missing; expected " + expected);
  return *v;
}

std::int64_t Reader::positive_int(const std::string& key) {
  const json* v = raw(key);
  if (!v) fail(key, "missing_field", child_path(key) + " is missing; expected " + kPositiveInt);
  if (!is_integral(*v)) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + kPositiveInt);
  const auto i = as_int(*v);
  if (i <= 0) fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + kPositiveInt);
  return i;
}

std::int64_t Reader::positive_int_or(const std::string& key, std::int64_t fallback) {
  return has(key) ? positive_int(key) : (raw(key), fallback);
}

std::optional<std::int64_t> Reader::optional_positive_int(const std::string& key) {
  if (!has(key)) {
    raw(key);
    return std::nullopt;
  }
  return positive_int(key);
}

std::int64_t Reader::nonneg_int_or(const std::string& key, std::int64_t fallback) {
  const json* v = raw(key);
  if (!v) return fallback;
  if (!is_integral(*v)) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + kNonnegInt);
  const auto i = as_int(*v);
  if (i < 0) fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + kNonnegInt);
  return i;
}

std::int64_t Reader::int_in_or(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t fallback) {
  const json* v = raw(key);
  if (!v) return fallback;
  const std::string expected = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (!v->is_number()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + expected);
  if (!is_integral(*v) && !(v->is_number_float() && std::isfinite(v->get<double>()) && std::fabs(v->get<double>()) >= 9.007199254740992e15))
    fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + expected);
  if (v->is_number_float() && std::fabs(v->get<double>()) >= 9.007199254740992e15)
    fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + expected);
  const auto i = as_int(*v);
  if (i < lo || i > hi) fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + expected);
  return i;
}

double Reader::positive_number(const std::string& key) {
  const json* v = raw(key);
  if (!v) fail(key, "missing_field", child_path(key) + " is missing; expected " + kPositiveNumber);
  if (!v->is_number()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + kPositiveNumber);
  const double d = v->get<double>();
  if (!std::isfinite(d) || d <= 0)
    fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + kPositiveNumber);
  return d;
}

double Reader::positive_number_or(const std::string& key, double fallback) {
  return has(key) ? positive_number(key) : (raw(key), fallback);
}

double Reader::nonneg_number_or(const std::string& key, double fallback) {
  const json* v = raw(key);
  if (!v) return fallback;
  if (!v->is_number()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + kNonnegNumber);
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < 0)
    fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + kNonnegNumber);
  return d;
}

double Reader::number_in_or(const std::string& key, double lo, double hi, double fallback) {
  const json* v = raw(key);
  if (!v) return fallback;
  std::string expected = "a number from " + number_text(json(lo)) + " to " + number_text(json(hi));
  if (!v->is_number()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected " + expected);
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    fail(key, "out_of_range", child_path(key) + " holds " + describe(*v) + "; expected " + expected);
  return d;
}

double Reader::zero_or_number_in_or(const std::string& key, double least, double hi, double fallback, const char* zero) {
  const json* v = has(key) ? raw(key) : nullptr;
  const bool number = v && v->is_number();
  const auto refuse = [&](const char* code) {
    fail(key, code, child_path(key) + " holds " + describe(*v) + "; expected 0 (" + zero + ") or a number from " +
                        number_text(json(least)) + " to " + number_text(json(hi)));
  };
  if (v && !number) refuse("wrong_type");
  const double d = number_in_or(key, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), fallback);
  if (number && d != 0 && !(d >= least && d <= hi)) refuse("out_of_range");
  return d;
}

double Reader::number_in(const std::string& key, double lo, double hi) {
  if (!has(key))
    fail(key, "missing_field", child_path(key) + " is missing; expected a number from " + number_text(json(lo)) + " to " + number_text(json(hi)));
  return number_in_or(key, lo, hi, 0);
}

bool Reader::boolean_or(const std::string& key, bool fallback) {
  const json* v = raw(key);
  if (!v) return fallback;
  if (!v->is_boolean()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected true or false");
  return v->get<bool>();
}

std::string Reader::string(const std::string& key) {
  const json* v = raw(key);
  if (!v) fail(key, "missing_field", child_path(key) + " is missing; expected a string");
  if (!v->is_string()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected a string");
  return v->get<std::string>();
}

std::string Reader::string_or(const std::string& key, const std::string& fallback) {
  return has(key) ? string(key) : (raw(key), fallback);
}

Reader Reader::object(const std::string& key) {
  const json& v = at(key, "an object");
  if (!v.is_object()) fail(key, "wrong_type", child_path(key) + " holds " + describe(v) + "; expected an object");
  return Reader(v, child_path(key), prefix_);
}

std::vector<Reader> Reader::object_array(const std::string& key) {
  const json& v = at(key, "a non-empty array of objects");
  if (!v.is_array() || v.empty())
    fail(key, v.is_array() ? "out_of_range" : "wrong_type",
         child_path(key) + " holds " + describe(v) + "; expected a non-empty array of objects");
  std::vector<Reader> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.emplace_back(v[i], child_path(key) + "/" + std::to_string(i), prefix_);
  return out;
}

std::vector<std::string> Reader::string_array_or(const std::string& key) {
  const json* v = raw(key);
  std::vector<std::string> out;
  if (!v) return out;
  if (!v->is_array()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected an array of strings");
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string())
      throw InputError(prefix_ + ".wrong_type", child_path(key) + "/" + std::to_string(i),
                       child_path(key) + "/" + std::to_string(i) + " holds " + describe((*v)[i]) + "; expected a string");
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::vector<std::int64_t> Reader::int_array_or(const std::string& key) {
  const json* v = raw(key);
  std::vector<std::int64_t> out;
  if (!v) return out;
  if (!v->is_array()) fail(key, "wrong_type", child_path(key) + " holds " + describe(*v) + "; expected an array of integers");
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!is_integral((*v)[i]))
      throw InputError(prefix_ + ".wrong_type", child_path(key) + "/" + std::to_string(i),
                       child_path(key) + "/" + std::to_string(i) + " holds " + describe((*v)[i]) + "; expected an integer");
    out.push_back(as_int((*v)[i]));
  }
  return out;
}

std::vector<std::string> Reader::unread() const {
  std::vector<std::string> out;
  for (auto it = obj_.begin(); it != obj_.end(); ++it)
    if (std::find(read_.begin(), read_.end(), &it.key()) == read_.end()) out.push_back(it.key());
  return out;
}

void Reader::reject_unknown() const {
  const auto left = unread();
  if (!left.empty()) {
    throw InputError(prefix_ + ".unknown_field", child_path(left.front()),
                     child_path(left.front()) + " is not a known field here");
  }
}

}  // namespace infercast
