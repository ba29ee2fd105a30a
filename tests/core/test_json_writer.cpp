// The JSON writer results are written with: the same text nlohmann::json prints for the same values (numbers,
// escapes, invalid UTF-8), separators in nested containers, and number columns moved to a side buffer.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "io/json_writer.hpp"

using namespace infercast;

TEST_CASE("numbers and strings print as nlohmann::json prints them", "[json]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double v : {0.0, -0.0, 1.0, -1.0, 12.0, 0.1, 1.0 / 3, 2.5e-7, 1e-300, 123456789012345.0, 999999999999999.0, 1e15,
                   1e15 + 2, 9.007199254740993e15, 1e20, -1e21, 6.02214076e23, 5e-324, 1.7976931348623157e308, nan, inf, -inf}) {
    std::string out;
    JsonWriter(out).value(v);
    INFO(v);
    CHECK(out == json(v).dump());
  }
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{-7}, std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    std::string out;
    JsonWriter(out).value(v);
    CHECK(out == json(v).dump());
  }
  for (std::string s : {std::string(""), std::string("plain"), std::string("a \"quoted\" \\ back\\slash"), std::string("tab\tnew\nline\x01"),
                        std::string("é ü 中文 😀"), std::string("bad \xff\xfe utf-8"), std::string(200, 'x')}) {
    std::string out;
    JsonWriter(out).value(s);
    INFO(s);
    CHECK(out == json(s).dump(-1, ' ', false, json::error_handler_t::replace));
  }
}

// The writer tests strings for bytes to escape eight at a time: every such byte (control characters, the quote, the
// backslash, bytes from 0x80) at every position of strings of 1 to 80 bytes, as a value and as a key, and the bytes
// next to those limits (0x1f/0x20, 0x7f/0x80, 0x21/0x23 around the quote, 0x5b/0x5d around the backslash) plain.
TEST_CASE("strings are escaped whichever of their bytes needs it", "[json]") {
  const auto as_nlohmann = [](const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); };
  for (unsigned char bad : {0x00, 0x01, 0x1f, 0x22, 0x5c, 0x80, 0xc3, 0xff}) {
    for (std::size_t len = 1; len <= 80; ++len) {
      for (std::size_t at = 0; at < len; ++at) {
        std::string s(len, 'a');
        s[at] = static_cast<char>(bad);
        std::string v, k;
        JsonWriter(v).value(s);
        JsonWriter kw(k);
        kw.begin_object().key(s).value(1).end_object();
        INFO("byte " << int(bad) << " at " << at << " of " << len);
        CHECK(v == as_nlohmann(s));
        CHECK(k == "{" + as_nlohmann(s) + ":1}");
      }
    }
  }
  for (unsigned char ok : {0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7e, 0x7f}) {
    for (std::size_t len = 1; len <= 24; ++len) {
      const std::string s(len, static_cast<char>(ok));
      std::string v;
      JsonWriter(v).value(s);
      CHECK(v == as_nlohmann(s));
    }
  }
}

TEST_CASE("objects and arrays nest with their separators, and read back", "[json]") {
  std::string out;
  JsonWriter w(out);
  w.begin_object().field("a", 1).key("b").begin_array().value(1.5).begin_object().end_object().begin_array().end_array().null().end_array();
  w.field("c", "x").key("d").begin_object().field("e", true).field("f", false).end_object().key("g").value(json{{"h", {1, 2}}});
  w.key("we\"ird").value(std::string("v")).end_object();
  CHECK(out == R"({"a":1,"b":[1.5,{},[],null],"c":"x","d":{"e":true,"f":false},"g":{"h":[1,2]},"we\"ird":"v"})");
  CHECK(json::parse(out)["g"]["h"][1] == 2);
}

// The writer gathers text in a kilobyte and appends it to the output as each top-level value ends: a document of
// many values, strings of every length up to 3,000 bytes (past the gathered kilobyte) and numbers reads back as
// nlohmann's tree of the same values; the output holds each top-level value once it ends.
TEST_CASE("long documents are written whole, each top-level value once it ends", "[json]") {
  std::string out;
  JsonWriter w(out);
  json expected = json::object();
  w.begin_object();
  for (int i = 0; i < 400; ++i) {
    const std::string k = "k" + std::to_string(i), text(static_cast<std::size_t>((i * 37) % 3001), static_cast<char>('a' + i % 26));
    w.field(k, text).field(k + "n", i * 0.37).key(k + "a").begin_array().value(i).value(std::string(static_cast<std::size_t>(i % 9), '"')).end_array();
    expected[k] = text;
    expected[k + "n"] = i * 0.37;
    expected[k + "a"] = json::array({i, std::string(static_cast<std::size_t>(i % 9), '"')});
  }
  w.end_object();
  CHECK(out.size() > 600000);
  CHECK(json::parse(out) == expected);
  std::string two;
  JsonWriter t(two);
  t.value(1.5);
  CHECK(two == "1.5");
  t.begin_array().value("x").end_array();
  CHECK(two == R"(1.5["x"])");
}

// field() writes a number's or a short string's key and value in one append (json_writer.cpp): the same text as
// key() then value(), first in its object or after another field, for keys and values short and long, plain and
// needing escapes.
TEST_CASE("field() writes what key() and value() write", "[json]") {
  const std::string long_text(70, 'k');
  const std::vector<std::string> keys = {"a", "tpot_s", "we\"ird", "\x01", long_text, std::string(60, 'x'), ""};
  const std::vector<std::string> texts = {"", "bf16", "s,{[\"", "caf\xc3\xa9", long_text, std::string(60, 'v')};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> numbers = {0.0, -0.0, 12.0, 0.1, 1e20, -3.25e-7, nan};
  const std::vector<std::int64_t> integers = {0, -1, 42, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  const auto both = [&](auto write_field, auto write_pair) {
    for (const auto& k : keys)
      for (int before = 0; before < 2; ++before) {
        std::string a, b;
        JsonWriter wa(a), wb(b);
        wa.begin_object();
        wb.begin_object();
        if (before) {
          wa.field("p", 1);
          wb.key("p").value(1);
        }
        write_field(wa, k);
        write_pair(wb, k);
        wa.end_object();
        wb.end_object();
        INFO("key " << k << ", " << before << " before");
        CHECK(a == b);
        CHECK(wa.non_finite().found == wb.non_finite().found);
        if (wa.non_finite().found) CHECK(wa.non_finite().offset == wb.non_finite().offset);
      }
  };
  for (const auto& t : texts) {
    both([&](JsonWriter& w, const std::string& k) { w.field(k, t); }, [&](JsonWriter& w, const std::string& k) { w.key(k).value(t); });
    both([&](JsonWriter& w, const std::string& k) { w.field(k, t.c_str()); }, [&](JsonWriter& w, const std::string& k) { w.key(k).value(t.c_str()); });
  }
  for (double v : numbers)
    both([&](JsonWriter& w, const std::string& k) { w.field(k, v); }, [&](JsonWriter& w, const std::string& k) { w.key(k).value(v); });
  for (std::int64_t v : integers)
    both([&](JsonWriter& w, const std::string& k) { w.field(k, v); }, [&](JsonWriter& w, const std::string& k) { w.key(k).value(v); });
}

TEST_CASE("number columns go to the side buffer with their pointers, or into the text", "[json]") {
  const std::vector<double> a = {1, 2.5, -3}, b = {}, c = {7};
  std::string text;
  JsonWriter plain(text);
  plain.begin_object().key("a").f64_column("/a", a).key("b").f64_column("/b", b).key("c").f64_column("/c", c).end_object();
  CHECK(text == R"({"a":[1.0,2.5,-3.0],"b":[],"c":[7.0]})");
  std::string lean;
  std::vector<double> side = {42};
  JsonWriter w(lean, &side);
  w.begin_object().key("a").f64_column("/a", a).key("b").f64_column("/b", b).key("c").f64_column("/c", c).end_object();
  CHECK(lean == R"({"a":null,"b":null,"c":null})");
  CHECK(side == std::vector<double>{42, 1, 2.5, -3, 7});
  REQUIRE(w.columns().size() == 3);
  CHECK(w.pointer(w.columns()[0]) == "/a");
  CHECK(w.columns()[0].offset == 1);
  CHECK(w.columns()[0].length == 3);
  CHECK(w.columns()[1].length == 0);
  CHECK(w.columns()[2].offset == 4);
}

// A string column as text, or with a side buffer its distinct strings in the text and each row's index beside the
// numbers; past 16 distinct strings the indices come from a hash map, and must be the same.
TEST_CASE("string columns keep each distinct string once, with each row's index in the side buffer", "[json]") {
  const std::vector<std::string_view> v = {"prefill", "prefill", "decode", "a\"b", "prefill", "decode"};
  std::string text;
  JsonWriter plain(text);
  plain.begin_object().key("s").string_column("/s", v).key("e").string_column("/e", {}).end_object();
  CHECK(text == R"({"s":["prefill","prefill","decode","a\"b","prefill","decode"],"e":[]})");
  CHECK(plain.columns().empty());
  std::string lean;
  std::vector<double> side = {42};
  JsonWriter w(lean, &side);
  w.begin_object().key("n").f64_column("/n", {1.5}).key("s").string_column("/s", v).key("e").string_column("/e", {}).end_object();
  CHECK(lean == R"({"n":null,"s":["prefill","decode","a\"b"],"e":[]})");
  CHECK(side == std::vector<double>{42, 1.5, 0, 0, 1, 2, 0, 1});
  REQUIRE(w.columns().size() == 3);
  CHECK(!w.columns()[0].strings);
  CHECK(w.columns()[1].strings);
  CHECK(w.pointer(w.columns()[1]) == "/s");
  CHECK(w.columns()[1].offset == 2);
  CHECK(w.columns()[1].length == 6);
  CHECK(w.columns()[2].length == 0);

  // 16 distinct (the linear search's most), a repeat of each while exactly 16 are known, then 20 distinct in all
  // (the hash map's) and each of those again.
  std::vector<std::string> names;
  for (int i = 0; i < 16; ++i) names.push_back("op" + std::to_string(i));
  for (int i = 15; i >= 0; --i) names.push_back("op" + std::to_string(i));
  for (int i = 0; i < 40; ++i) names.push_back("op" + std::to_string(i % 20));
  const std::vector<std::string_view> many(names.begin(), names.end());
  std::string out;
  std::vector<double> codes;
  JsonWriter m(out, &codes);
  m.string_column("", many);
  const json distinct = json::parse(out);
  REQUIRE(distinct.size() == 20);
  REQUIRE(codes.size() == names.size());
  for (std::size_t i = 0; i < many.size(); ++i) CHECK(distinct[static_cast<std::size_t>(codes[i])] == names[i]);
}

// Columns filled row by row (the operator table's): the same text and side buffer as the columns given whole, an
// enum's names in the order they first appear, and the first non-finite number found where it is.
TEST_CASE("columns filled by row equal the columns given whole", "[json]") {
  const std::vector<double> nums = {3, 0.25, -1e300};
  const char* const names[] = {"gemm", "attention", "memory"};
  const std::vector<std::size_t> codes = {2, 2, 0, 1, 0};
  std::vector<std::string_view> as_text;
  for (std::size_t c : codes) as_text.push_back(names[c]);
  for (bool side : {false, true}) {
    std::string by_row, whole;
    std::vector<double> side_row = {7}, side_whole = {7};
    JsonWriter a(by_row, side ? &side_row : nullptr), b(whole, side ? &side_whole : nullptr);
    a.begin_object().key("t").begin_object();
    a.key("n").f64_column_of("/t", "n", nums.size(), [&](std::size_t i) { return nums[i]; });
    a.key("c").enum_column("/t", "c", codes.size(), 3, [&](std::size_t i) { return codes[i]; }, [&](std::size_t c) { return names[c]; });
    a.end_object().end_object();
    b.begin_object().key("t").begin_object().key("n").f64_column("/t/n", nums).key("c").string_column("/t/c", as_text);
    b.end_object().end_object();
    CHECK(by_row == whole);
    CHECK(side_row == side_whole);
    REQUIRE(a.columns().size() == b.columns().size());
    for (std::size_t i = 0; i < a.columns().size(); ++i) {
      CHECK(a.pointer(a.columns()[i]) == b.pointer(b.columns()[i]));
      CHECK(a.columns()[i].offset == b.columns()[i].offset);
      CHECK(a.columns()[i].length == b.columns()[i].length);
      CHECK(a.columns()[i].strings == b.columns()[i].strings);
    }
  }
  std::string lean;
  std::vector<double> buffer;
  JsonWriter w(lean, &buffer);
  w.begin_object().key("c").enum_column("/c", "", codes.size(), 3, [&](std::size_t i) { return codes[i]; }, [&](std::size_t c) { return names[c]; });
  w.key("n").f64_column_of("/n", "", 3, [](std::size_t i) { return i == 1 ? std::numeric_limits<double>::infinity() : 1.0; });
  w.end_object();
  CHECK(lean == R"({"c":["memory","gemm","attention"],"n":null})");
  CHECK(buffer == std::vector<double>{0, 0, 1, 2, 1, 1, std::numeric_limits<double>::infinity(), 1});
  CHECK(w.pointer(w.columns()[0]) == "/c");
  REQUIRE(w.non_finite().found);
  CHECK_FALSE(w.non_finite().nan);
  CHECK(pointer_at(lean, w.non_finite().offset) + w.non_finite().inner == "/n/1");
  // A code past the names is an internal error, never a read or write out of bounds.
  for (bool side : {false, true}) {
    std::string out;
    std::vector<double> b;
    JsonWriter bad(out, side ? &b : nullptr);
    bad.begin_array();
    CHECK_THROWS_AS(bad.enum_column("/e", "", 2, 3, [](std::size_t i) { return i == 1 ? 3 : 0; }, [&](std::size_t c) { return names[c]; }),
                    std::logic_error);
  }
}

// The envelope's finiteness check (api/registry.cpp) reads where the writer was given its first NaN or infinity:
// a number on its own, one in a column (text or side buffer) or one inside a tree, as a JSON pointer.
TEST_CASE("the first non-finite number is found where it was written", "[json]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto where = [](const std::string& text, const JsonWriter& w) {
    return pointer_at(text, w.non_finite().offset) + w.non_finite().inner;
  };
  {
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("a", 1.0).key("b/c").begin_array().value(2.0).begin_object().field("x", "s,{[\"").field("y~", inf);
    w.field("z", nan).end_object().end_array().end_object();
    REQUIRE(w.non_finite().found);
    CHECK_FALSE(w.non_finite().nan);
    CHECK(where(out, w) == "/b~1c/1/y~0");
  }
  for (bool side : {false, true}) {
    std::string out;
    std::vector<double> buffer;
    JsonWriter w(out, side ? &buffer : nullptr);
    w.begin_object().field("ok", true).key("t").begin_object().key("tpot_s").f64_column("/t/tpot_s", {1.0, 2.0, nan});
    w.end_object().end_object();
    REQUIRE(w.non_finite().found);
    CHECK(w.non_finite().nan);
    CHECK(where(out, w) == "/t/tpot_s/2");
  }
  {
    std::string out;
    JsonWriter w(out);
    w.begin_array().value(json{{"k", 1.0}}).value(json{{"k", json::array({1.0, -inf})}}).end_array();
    REQUIRE(w.non_finite().found);
    CHECK(where(out, w) == "/1/k/1");
  }
  {
    std::string out;
    JsonWriter w(out);
    w.begin_object().field("a", 1.0).field("b", json(nullptr)).end_object();
    CHECK_FALSE(w.non_finite().found);  // null written as null is no finding
  }
  // A tree made by a writer keeps the number, so a check of the tree finds it.
  const json t = tree_of([&](JsonWriter& w) { w.begin_object().field("a", 1.0).field("b", nan).end_object(); });
  CHECK(std::isnan(t.at("b").get<double>()));
}
