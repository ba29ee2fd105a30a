#include "cli/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/stat.h>

#include "util/error.hpp"
#include "util/limits.hpp"

namespace infercast {

namespace {
bool readable_kind(mode_t mode) { return S_ISREG(mode) || S_ISFIFO(mode) || S_ISCHR(mode); }

// Refuses what no read should take as a file's text: a missing path (with the system's reason), a folder (an
// ifstream opens one and reads it as empty), a block device or a socket.
void check_readable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cli.unreadable_file", "", "cannot read " + path + " (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw InputError("cli.unreadable_file", "", "cannot read " + path + ": it is a folder; expected a file");
  if (!readable_kind(st.st_mode))
    throw InputError("cli.unreadable_file", "", "cannot read " + path + ": it is not a file, a pipe or a character device");
}
}  // namespace

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && readable_kind(st.st_mode);
}

namespace {
// At most limit::kRequestBytes of `in`; refused past it, having read one byte more.
std::string read_bounded(std::istream& in, const std::string& what) {
  std::string out;
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    out.append(buf, static_cast<std::size_t>(in.gcount()));
    if (out.size() > limit::kRequestBytes)
      throw InputError("cli.too_large", "", what + " holds more than " + std::to_string(limit::kRequestBytes) + " bytes (" +
                                                 mib_text(limit::kRequestBytes) + "); expected at most that");
  }
  return out;
}
}  // namespace

std::string read_text_file(const std::string& path) {
  check_readable(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cli.unreadable_file", "", "cannot read " + path);
  return read_bounded(in, path);
}

std::string read_stdin() { return read_bounded(std::cin, "standard input"); }

std::string read_file_prefix(const std::string& path, std::size_t limit) {
  check_readable(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cli.unreadable_file", "", "cannot read " + path);
  std::string out(limit, '\0');
  in.read(&out[0], static_cast<std::streamsize>(limit));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return out;
}

std::string write_text_file(const std::string& path, const std::string& text) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return errno ? std::strerror(errno) : "it cannot be opened for writing";
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  const int write_errno = errno;
  const bool written = static_cast<bool>(out);
  out.close();
  if (written && out) return "";
  const int e = write_errno ? write_errno : errno;
  return e ? std::strerror(e) : "the write failed";
}

namespace {
namespace fs = std::filesystem;
bool is_safetensors(const fs::path& p) { return p.extension() == ".safetensors"; }
fs::path folder_of(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fs::path(path);
  if (is_safetensors(path) && fs::is_regular_file(path, ec)) return fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  return {};
}
}  // namespace

std::vector<std::string> safetensors_files(const std::string& path) {
  std::vector<std::string> out;
  const fs::path dir = folder_of(path);
  if (dir.empty()) return out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && is_safetensors(e.path())) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string config_beside(const std::string& path) {
  const fs::path dir = folder_of(path);
  if (dir.empty()) return "";
  std::error_code ec;
  const fs::path c = dir / "config.json";
  return fs::is_regular_file(c, ec) ? c.string() : "";
}

std::string config_in_folder(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return "";
  for (const char* name : {"config.json", "params.json"}) {
    const fs::path c = fs::path(path) / name;
    if (fs::is_regular_file(c, ec)) return c.string();
  }
  return "";
}

}  // namespace infercast
