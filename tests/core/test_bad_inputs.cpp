// The bad-input corpus (tests/bad_inputs/*.json) through the core API: every case gets exactly its code and
// message, and the API keeps answering good calls after each error.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/api.hpp"
#include "helpers.hpp"

using namespace test;

TEST_CASE("every case of the bad-input corpus gets its exact message", "[errors][corpus]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(INFERCAST_SOURCE_DIR) / "tests" / "bad_inputs";
  std::size_t n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    for (const auto& c : json::parse(ss.str())) {
      const std::string request = c.contains("request_text") ? c["request_text"].get<std::string>() : c["request"].dump();
      INFO(entry.path().filename().string() << ": " << c["name"].get<std::string>());
      const json env = json::parse(call(c["function"].get<std::string>(), request));
      REQUIRE_FALSE(env["ok"].get<bool>());
      CHECK(env["error"]["code"] == c["code"]);
      CHECK(env["error"]["message"] == c["message"]);
      const json ok = json::parse(call("analyze", R"({"model": "llama-3.2-1b", "hardware": "nvidia-h100-sxm"})"));
      CHECK(ok["ok"].get<bool>());
      ++n;
    }
  }
  CHECK(n >= 70);
}
