#include "cli/output.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace infercast::cli {

void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> w;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (w.size() <= i) w.push_back(0);
      w[i] = std::max(w[i], r[i].size());
    }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line = "|";
    for (std::size_t i = 0; i < rows[k].size(); ++i) line += " " + rows[k][i] + std::string(w[i] - rows[k][i].size(), ' ') + " |";
    std::cout << line << "\n";
    if (k == 0) {
      std::string sep = "|";
      for (auto x : w) sep += std::string(x + 2, '-') + "|";
      std::cout << sep << "\n";
    }
  }
}

std::string si(double v, const char* unit) {
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 1000 && p < 6) {
    x /= 1000;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s%s", x, prefixes[p], unit);
  return buf;
}

std::string bytes_str(double v) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 1024 && p < 5) {
    x /= 1024;
    ++p;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %s", x, units[p]);
  return buf;
}

std::string time_str(double s) {
  char buf[64];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}

std::string num3(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", v * 100);
  return b;
}

std::string clean(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      out += '?';
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += '?';  // a C1 control (U+0080..U+009F) in UTF-8
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace infercast::cli
