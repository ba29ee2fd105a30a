// File access for the CLI: the only place the native build touches the filesystem.
#pragma once

#include <cstddef>
#include <string>

namespace infercast {

bool file_exists(const std::string& path);
// Reads a whole file; throws InputError("cli.unreadable_file") naming the path.
std::string read_text_file(const std::string& path);
// Reads at most the first `limit` bytes of a file (a GGUF header, not its weights).
std::string read_file_prefix(const std::string& path, std::size_t limit);

}  // namespace infercast
