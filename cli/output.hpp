// How the CLI prints: aligned tables, numbers with units, and text from files made safe for a terminal.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace infercast::cli {

using json = nlohmann::json;

void print_table(const std::vector<std::vector<std::string>>& rows);
std::string si(double v, const char* unit);  // 1.23 GFLOP
std::string bytes_str(double v);             // 1.50 GiB
std::string time_str(double s);              // 12.345 ms
std::string num3(double v);                  // 4 significant digits
std::string pct(double v);                   // +12.3%
// "Cost: $X per million output tokens; CO2 Y g per million tokens (...)" from a result's cost object; an unknown
// value (null, with its reason) printed as unknown, never as 0.
void print_cost_line(const json& cost);
// Text that came from a file (a model's name, a GGUF's general.name): control characters (ESC and the rest of
// C0, DEL, C1) become '?', and so does every byte that is not part of valid UTF-8 (a bare 0x9B is an 8-bit CSI to a
// terminal that is not in UTF-8 mode), so a file cannot move the cursor or recolour the terminal.
std::string clean(const std::string& text);

// A CSV cell of text that came from the user (RFC 4180): quoted when it holds a comma, a quote or a line break (or
// always, with `quote`), its quotes doubled; a cell a spreadsheet would take for a formula (its first character =,
// +, -, @, tab or carriage return) gets a leading apostrophe, as OWASP's "CSV injection" advice has it.
std::string csv_text(const std::string& text, bool quote = false);

// While it lives, everything written to `stream` passes through clean()'s rule byte by byte (newlines and tabs kept):
// no file can put an escape sequence on the terminal, whichever output path printed its text.
class TerminalFilter {
 public:
  explicit TerminalFilter(std::ostream& stream);
  ~TerminalFilter();
  TerminalFilter(const TerminalFilter&) = delete;
  TerminalFilter& operator=(const TerminalFilter&) = delete;
  // Flushes the stream to its destination: 0 when everything written so far reached it, else the errno of the
  // first write that failed (ENOSPC on a full disk; EIO when the system gave no reason).
  int flush();

 private:
  std::ostream& stream_;
  std::streambuf* original_;
  std::unique_ptr<std::streambuf> filter_;
};

}  // namespace infercast::cli
