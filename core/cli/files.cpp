#include "cli/files.hpp"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "util/error.hpp"

namespace infercast {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cli.unreadable_file", "", "cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_file_prefix(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cli.unreadable_file", "", "cannot read " + path);
  std::string out(limit, '\0');
  in.read(&out[0], static_cast<std::streamsize>(limit));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return out;
}

}  // namespace infercast
