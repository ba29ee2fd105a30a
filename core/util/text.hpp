// Small string helpers the core shares (one definition, so that no two files keep their own).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace infercast {

// ASCII lower case (names and units compared without case).
inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

inline bool starts_with(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }
inline bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace infercast
