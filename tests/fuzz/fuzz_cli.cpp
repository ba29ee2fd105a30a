// libFuzzer harness over the CLI's argument parsing and commands, run in-process (cli::run): the bytes are the
// arguments after `infercast`, separated by NUL bytes. A finding is an abort, a sanitizer report, a hang, or:
//   - an exit status other than 0, 1 or 2 (3 is an internal error: an exception the CLI did not turn into a message);
//   - a control character (ESC and the rest of C0 but newline and tab, DEL, C1) or a byte that is not part of valid
//     UTF-8 on stdout or stderr;
//   - exit status 2 without a message "infercast: ..." on stderr.
// Standard input is /dev/null (`call` reads it); --save (which writes a file) is skipped, and so is `validate` but for
// its --help: with valid flags it runs the whole embedded public validation (1620 rows, refitted without each source:
// minutes under ASan, past libFuzzer's timeout), which ctest runs (cli.validate and the Catch2 validation tests).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace {

// A control character, or a byte that is not part of valid UTF-8 (a bare 0x9B is an 8-bit CSI to a terminal not in
// UTF-8 mode): the CLI's output filter lets neither through.
bool has_control(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return true;
    if (c < 0x80) continue;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) n = 2, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4) n = 3, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else return true;
    if (i + n >= s.size()) return true;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xbf)) return true;
    }
    if (c == 0xc2 && static_cast<unsigned char>(s[i + 1]) <= 0x9f) return true;  // a C1 control
    i += n;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!std::freopen("/dev/null", "r", stdin)) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args = {"infercast"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  args.push_back(cur);
  if (args.size() > 48) return 0;
  for (const auto& a : args)
    if (a.rfind("--save", 0) == 0) return 0;
  if (args.size() > 1 && args[1] == "validate" && std::find(args.begin(), args.end(), "--help") == args.end()) return 0;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::ostringstream out, err;
  std::streambuf* const cout_buf = std::cout.rdbuf(out.rdbuf());
  std::streambuf* const cerr_buf = std::cerr.rdbuf(err.rdbuf());
  std::cin.clear();
  const int status = infercast::cli::run(static_cast<int>(args.size()), argv.data());
  std::cout.rdbuf(cout_buf);
  std::cerr.rdbuf(cerr_buf);
  if (status < 0 || status > 2) std::abort();
  if (has_control(out.str()) || has_control(err.str())) std::abort();
  if (status == 2 && err.str().rfind("infercast: ", 0) != 0) std::abort();
  return 0;
}
