// One table per enum: the names a request, a result, the CLI and the page use for its values, with a line of
// description each. Reading, writing and listing all go through the table, so a new value is one entry.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util/error.hpp"

namespace infercast {

template <class E>
struct NameEntry {
  E value;
  const char* name;
  const char* description;
};

// How a list of names reads in "expected ..." messages: "a, b or c", or "one of a, b, c".
enum class ListStyle { Natural, OneOf };

template <class E>
class NameTable {
 public:
  NameTable(std::vector<NameEntry<E>> entries, ListStyle style = ListStyle::Natural)
      : entries_(std::move(entries)), style_(style) {}

  const std::vector<NameEntry<E>>& entries() const { return entries_; }

  const char* name(E v) const {
    for (const auto& e : entries_)
      if (e.value == v) return e.name;
    return "?";
  }

  std::optional<E> find(const std::string& n) const {
    for (const auto& e : entries_)
      if (n == e.name) return e.value;
    return std::nullopt;
  }

  // "a, b or c" (or "one of a, b, c").
  std::string list() const {
    std::string s = style_ == ListStyle::OneOf ? "one of " : "";
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (i > 0) s += (style_ == ListStyle::Natural && i + 1 == entries_.size()) ? " or " : ", ";
      s += entries_[i].name;
    }
    return s;
  }

  // The value named `n`, or InputError(code, path, "<path> holds "n"; expected <list>").
  E parse(const std::string& n, const std::string& path, const std::string& code) const {
    if (auto v = find(n)) return *v;
    throw InputError(code, path, path + " holds \"" + n + "\"; expected " + list());
  }

 private:
  std::vector<NameEntry<E>> entries_;
  ListStyle style_;
};

}  // namespace infercast
