// The core stays pure: nothing under core/ mentions emscripten (the bindings live in wasm/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

TEST_CASE("core/ never mentions emscripten", "[purity]") {
  namespace fs = std::filesystem;
  const fs::path core = fs::path(INFERCAST_SOURCE_DIR) / "core";
  REQUIRE(fs::exists(core));
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(core)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    INFO(e.path().string());
    CHECK(text.find("emscripten") == std::string::npos);
    ++files;
  }
  CHECK(files > 10);
}

// No mutable static state: every `static` object in the core is const or constexpr (functions may be static).
// A growing static table (as grouped formats once were) or a static scratch value (as a request's convention once
// was) races as soon as calls run in threads, and leaks one call's settings into the next. The one kind of static
// filled after it is made is io/presets.cpp's memo of the embedded presets: each entry is read once under its own
// std::once_flag (no race) and is a function of the build alone (nothing of a call reaches it).
TEST_CASE("core/ keeps no mutable static state", "[purity]") {
  namespace fs = std::filesystem;
  const std::regex mutable_static(R"(^\s*(?:thread_local\s+)?static\s+(?!const\b|constexpr\b)[^()=;{]*[;={])");
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(INFERCAST_SOURCE_DIR) / "core")) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path());
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      INFO(e.path().string() << ":" << line_no << ": " << line);
      CHECK_FALSE(std::regex_search(line, mutable_static));
    }
    ++files;
  }
  CHECK(files > 10);
}
