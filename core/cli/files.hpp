// File access for the CLI: the only place the native build touches the filesystem.
#pragma once

#include <string>

namespace infercast {

bool file_exists(const std::string& path);
// Reads a whole file; throws InputError("cli.unreadable_file") naming the path.
std::string read_text_file(const std::string& path);

}  // namespace infercast
