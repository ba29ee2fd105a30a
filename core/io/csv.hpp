// RFC 4180 CSV: a header row, then records; quoted fields may hold commas, quotes ("") and newlines.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace infercast {

using CsvRecord = std::map<std::string, std::string>;

// Throws InputError("csv.malformed") naming the line when a quote is left open or a record has more fields
// than the header.
std::vector<CsvRecord> parse_csv(const std::string& text);

}  // namespace infercast
