// Errors as values with a stable code, a JSON-pointer path to the offending field and a message that says
// what the field holds and what was expected. Parsing code throws InputError; every public entry point
// (core/api) catches it and returns an error envelope, so nothing escapes to a caller raw.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace infercast {

struct Error {
  std::string code;     // stable id, e.g. "model.missing_field"
  std::string path;     // JSON pointer into the input, e.g. "/num_attention_heads"
  std::string message;  // human sentence naming the field, what it holds, what was expected
};

class InputError : public std::runtime_error {
 public:
  InputError(std::string code, std::string path, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)), path_(std::move(path)) {}
  const std::string& code() const { return code_; }
  const std::string& path() const { return path_; }
  Error error() const { return Error{code_, path_, what()}; }

 private:
  std::string code_;
  std::string path_;
};

// A field we read but whose effect we do not model, or a choice we made for the user: carried in results.
struct Warning {
  std::string code;
  std::string path;
  std::string message;
};

}  // namespace infercast
