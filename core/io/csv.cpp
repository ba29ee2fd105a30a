#include "io/csv.hpp"

#include "util/error.hpp"
#include "util/limits.hpp"

namespace infercast {

std::vector<CsvRecord> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  int line = 1, quote_line = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      quote_line = line;
      any = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
      if (row.size() >= limit::kCsvColumns)
        throw InputError("csv.too_large", "", "CSV: line " + std::to_string(line) + " has more than " +
                                                  std::to_string(limit::kCsvColumns) + " fields; expected at most " +
                                                  std::to_string(limit::kCsvColumns) + " columns");
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        row.push_back(field);
        rows.push_back(row);
        if (rows.size() > limit::kCsvRecords + 1)
          throw InputError("csv.too_large", "", "CSV: more than " + std::to_string(limit::kCsvRecords) +
                                                    " records (line " + std::to_string(line) + "); expected at most " +
                                                    std::to_string(limit::kCsvRecords) + " measurements");
      }
      row.clear();
      field.clear();
      any = false;
      ++line;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted)
    throw InputError("csv.malformed", "", "CSV: the quote opened on line " + std::to_string(quote_line) + " is never closed");
  if (any || !field.empty()) {
    row.push_back(field);
    rows.push_back(row);
  }
  std::vector<CsvRecord> out;
  if (rows.empty()) return out;
  const auto& header = rows[0];
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() > header.size())
      throw InputError("csv.malformed", "", "CSV: record " + std::to_string(r) + " has " + std::to_string(rows[r].size()) +
                                                " fields; the header has " + std::to_string(header.size()));
    CsvRecord rec;
    for (std::size_t k = 0; k < header.size(); ++k) rec[header[k]] = k < rows[r].size() ? rows[r][k] : "";
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace infercast
