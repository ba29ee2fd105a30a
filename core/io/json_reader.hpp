// A strict, path-aware reader over nlohmann::json. Every getter either returns a valid value or throws
// InputError whose message names the field (as a JSON pointer), what it holds and what was expected.
// It records which keys were read so callers can report the ones they ignored.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace infercast {

using json = nlohmann::json;

// A short rendering of a JSON value for error messages ("abc" (a string), 0, null, an object, ...).
std::string describe(const json& v);
// Text from the input as messages quote it: in JSON quotes and escapes, cut to `max_bytes` on a UTF-8 boundary.
std::string quote_text(const std::string& text, std::size_t max_bytes = 40);
// A number as messages show it: integral values without exponent or ".0" (below 1e16), others shortest round-trip.
std::string number_text(const json& v);

// Parse text as JSON, first checked against the text limits (util/limits.hpp: size, depth, values; codes
// <prefix>.too_large, <prefix>.too_deep), with NaN, Infinity and -Infinity as Python's json writes them (non-finite
// numbers in the document; every numeric getter refuses them by name). A syntax error becomes
// InputError{prefix + ".malformed_json", "", "..."} with the byte position.
json parse_json_text(const std::string& text, const std::string& what, const std::string& code_prefix);

// The ranges a config's encoder sizes are read in (audio and vision towers): a width up to 2^20, a count (layers,
// heads) up to 100,000.
constexpr std::int64_t kEncoderWidth = 1 << 20, kEncoderCount = 100000;

class Reader {
 public:
  Reader(const json& obj, std::string path, std::string code_prefix);

  const std::string& path() const { return path_; }
  // Read `key` from the document's `config_key` instead (a family that spells a field its own way, as EXAONE 3's
  // num_layers); messages and the unread list name the document's key.
  void alias(const std::string& key, const std::string& config_key);
  bool has(const std::string& key) const;  // present and not null
  const json* raw(const std::string& key);  // marks the key as read; nullptr when absent or null

  std::int64_t positive_int(const std::string& key);
  std::int64_t positive_int_or(const std::string& key, std::int64_t fallback);
  std::int64_t nonneg_int_or(const std::string& key, std::int64_t fallback);
  std::optional<std::int64_t> optional_positive_int(const std::string& key);
  std::int64_t int_in_or(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t fallback);
  double positive_number(const std::string& key);
  double positive_number_or(const std::string& key, double fallback);
  double nonneg_number_or(const std::string& key, double fallback);
  double number_in_or(const std::string& key, double lo, double hi, double fallback);
  // A number from `lo` (0: "none") to `hi` that is 0 or at least `least`: what number_in_or reads, a value between 0
  // and `least` refused too (a denormal or near-zero one would turn a result infinite).
  // 0, or a number from `least` to `hi`; anything else is refused with both in the message ("expected 0 (`zero`) or
  // a number from ...").
  double zero_or_number_in_or(const std::string& key, double least, double hi, double fallback, const char* zero = "none");
  double number_in(const std::string& key, double lo, double hi);  // required
  bool boolean_or(const std::string& key, bool fallback);
  std::string string(const std::string& key);
  std::string string_or(const std::string& key, const std::string& fallback);
  Reader object(const std::string& key);
  std::vector<Reader> object_array(const std::string& key);  // non-empty array of objects
  std::vector<std::string> string_array_or(const std::string& key);
  std::vector<std::int64_t> int_array_or(const std::string& key);

  // Keys of the object never read through this reader, in order.
  std::vector<std::string> unread() const;
  // Error if any key was not read (strict formats: hardware, workload, presets metadata).
  void reject_unknown() const;

  [[noreturn]] void fail(const std::string& key, const std::string& kind, const std::string& message) const;
  std::string child_path(const std::string& key) const;
  const std::string& code_prefix() const { return prefix_; }

 private:
  const json& at(const std::string& key, const char* expected);  // required: throws missing_field
  const std::string& resolve(const std::string& key) const;
  const json& obj_;
  std::string path_;
  std::string prefix_;
  std::vector<const std::string*> read_;  // keys of the object read so far (absent keys need no record)
  std::vector<std::pair<std::string, std::string>> aliases_;
};

// Escape a key for a JSON pointer (RFC 6901).
std::string pointer_escape(const std::string& key);

}  // namespace infercast
