// The CLI's flags, written once: name, group, kind, the request field it sets and its help. Parsing (--flag value,
// --flag=value, repeated and unknown flags), per-command help and the request fields of simple flags all come
// from this table; the help's defaults, ranges and choices come from the core's `options` call, so they cannot
// drift from what the core accepts.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "io/json_reader.hpp"

namespace infercast::cli {

enum class FlagKind {
  Int,       // one integer, set at `path`
  Number,    // one finite number, set at `path`
  String,    // one string, set at `path` (the core checks it)
  List,      // comma-separated strings, set at `path` as an array
  Document,  // a preset id, or a JSON file read and set at `path`
  OnOff,     // on|off, set at `path` as a boolean
  Values,    // one or more values up to the next flag (--cached-tokens 0 512): the command reads them
  Repeated,  // given once per item (--point, --axis): the command reads them
  Custom,    // one value the command reads itself
  Switch,    // no value: present or not (--envelope)
};

struct Flag {
  const char* name;     // "--batch"
  const char* group;    // the commands that take a group take all its flags
  FlagKind kind;
  const char* path;     // request field set directly; "" when the command builds it
  const char* metavar;  // "N", "DTYPE", ...
  const char* help;     // "" to take the help of the request field at `path` from the options
};

const std::vector<Flag>& flags();
// The flag of that name among `groups`: a name may stand in two groups no command takes together (--concurrency is
// serving's concurrency and calibrate's vllm run's), so a flag is looked up within the command's own groups.
const Flag* find_flag(const std::string& name, const std::vector<std::string>& groups);

// The command line after the command word: each flag's values, in order; `positional` for `call FUNCTION`.
struct Args {
  std::string command;
  std::vector<std::string> groups;  // the command's flag groups
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> values;
  bool help = false;
  bool has(const std::string& flag) const { return values.count(flag) > 0; }
  const std::string& one(const std::string& flag) const { return values.at(flag).front(); }
  std::string one_or(const std::string& flag, const std::string& fallback) const { return has(flag) ? one(flag) : fallback; }
};

// Parses argv against the flags of `groups`; exits 2 with a message naming the flag on an unknown flag, a flag
// given twice, a missing value or a value given to a flag that takes none.
Args parse_args(int argc, char** argv, int first, const std::string& command, const std::vector<std::string>& groups);

// Sets the request fields of every simple flag given (Int, Number, String, List, Document, OnOff).
void apply_simple_flags(const Args& a, json& request);

// Help lines for the flags of `groups`: "  --batch N   identical requests (default 1; 1 to 1000000)".
std::string flags_help(const std::vector<std::string>& groups);

// Strict conversions; exit 2 naming the flag when the text is not one.
json integer(const std::string& flag, const std::string& text);
json number(const std::string& flag, const std::string& text);
// A preset id as it is, or a file's JSON (exit 2 naming the file when it does not parse).
json document(const std::string& text);
// `text` split at each `sep`, every item kept; exit 2 naming the flag when an item is empty (a separator at either
// end or two together: "int4," is refused, never read as "int4").
std::vector<std::string> split_items(const std::string& flag, const std::string& text, char sep);
std::vector<std::string> split_commas(const std::string& flag, const std::string& text);
// "WxH[xN],..." to workload.images.
json images_value(const std::string& flag, const std::string& text);

// Ends the command with exit status 2 and `message` on stderr (thrown as Exit, caught by run()).
[[noreturn]] void die(const std::string& message);
struct Exit {
  int status;
  std::string message;
};

}  // namespace infercast::cli
