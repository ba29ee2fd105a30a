// The core stays pure: nothing under core/ mentions emscripten (the bindings live in wasm/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
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
