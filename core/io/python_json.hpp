// JSON as Python's json module writes it. Python writes a non-finite float as the bare words NaN, Infinity and
// -Infinity, which strict JSON (RFC 8259) has no spelling for; real config.json files contain them (Nemotron-H's
// time_step_limit [0.0, Infinity], rope extras). parse_json_text accepts them: each becomes a non-finite number in
// the parsed document, so a field nobody computes with reads as what it is, and every numeric getter of Reader
// refuses it by name where a finite number is expected.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace infercast {

// The text with every NaN, Infinity and -Infinity outside strings replaced by a placeholder string that
// restore_python_numbers turns back into the number. `replaced` tells whether any was found.
std::string python_literals_to_placeholders(const std::string& text, bool& replaced);
// Every placeholder string in `doc` (as left by python_literals_to_placeholders) becomes its number.
void restore_python_numbers(nlohmann::json& doc);
// `doc` as JSON text with its non-finite numbers written as Python writes them (NaN, Infinity, -Infinity), which
// parse_json_text reads back: strict JSON would write them as null and lose what they were.
std::string dump_python_json(const nlohmann::json& doc);

}  // namespace infercast
