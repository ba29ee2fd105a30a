// The core stays pure: nothing under core/ mentions emscripten (the bindings live in wasm/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
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

// CI compiles the core 16 files to a translation unit (INFERCAST_UNITY_BUILD; docs/architecture.md). Two files' helpers
// of one name in their anonymous namespaces then meet: with one signature they fail to compile there (and only
// there), and with two (num(i64) and num(double), as parallel.cpp and launch.cpp once had) a call in one file can
// silently take the other file's overload. So every function and type a core file keeps in its anonymous namespace
// has a name no other core file gives one of its own.
TEST_CASE("core/ files' anonymous namespaces share no names", "[purity]") {
  namespace fs = std::filesystem;
  // At the start of a line inside `namespace {`: a function's definition or declaration, or a type.
  const std::regex function(R"(^(?!return\b|static_assert\b|if\b|for\b|while\b|switch\b)[A-Za-z_][\w:<>,*& ]*?[\s*&>](\w+)\()");
  const std::regex type(R"(^(?:struct|class|enum class|enum|using)\s+(\w+))");
  std::map<std::string, std::set<std::string>> where;
  int files = 0, names = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(INFERCAST_SOURCE_DIR) / "core")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    std::ifstream in(e.path());
    bool inside = false;
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
      if (line == "namespace {") inside = true;
      else if (inside && line.rfind("}  // namespace", 0) == 0) inside = false;
      else if (inside && (std::regex_search(line, m, type) || std::regex_search(line, m, function))) {
        where[m[1].str()].insert(fs::relative(e.path(), INFERCAST_SOURCE_DIR).string());
        ++names;
      }
    }
    ++files;
  }
  for (const auto& [name, in] : where) {
    std::string list;
    for (const auto& f : in) list += " " + f;
    INFO(name << " is kept in the anonymous namespaces of" << list);
    CHECK(in.size() == 1);
  }
  CHECK(files > 100);
  CHECK(names > 250);  // the scan sees the helpers (302 names when written)
}
