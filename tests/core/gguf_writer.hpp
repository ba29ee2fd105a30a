// A GGUF header written byte by byte in llama.cpp's layout (gguf.md: little-endian, version 3, metadata then the
// tensor table; no tensor data), for tests that read headers back.
#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>
#include <string>
#include <vector>

namespace test {

struct Writer {
  std::string b;
  template <typename T>
  void put(T v) {
    char buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));
    b.append(buf, sizeof(T));
  }
  void str(const std::string& s) {
    put<std::uint64_t>(s.size());
    b += s;
  }
  void kv_u32(const std::string& k, std::uint32_t v) { str(k), put<std::uint32_t>(4), put(v); }
  void kv_f32(const std::string& k, float v) { str(k), put<std::uint32_t>(6), put(v); }
  void kv_str(const std::string& k, const std::string& v) { str(k), put<std::uint32_t>(8), str(v); }
  void kv_strings(const std::string& k, int n) {
    str(k), put<std::uint32_t>(9), put<std::uint32_t>(8), put<std::uint64_t>(n);
    for (int i = 0; i < n; ++i) str("tok" + std::to_string(i));
  }
  void kv_bools(const std::string& k, const std::vector<bool>& v) {
    str(k), put<std::uint32_t>(9), put<std::uint32_t>(7), put<std::uint64_t>(v.size());
    for (bool x : v) put<std::uint8_t>(x ? 1 : 0);
  }
  void kv_f32s(const std::string& k, const std::vector<float>& v) {
    str(k), put<std::uint32_t>(9), put<std::uint32_t>(6), put<std::uint64_t>(v.size());
    for (float x : v) put(x);
  }
  void kv_i32s(const std::string& k, const std::vector<std::int32_t>& v) {
    str(k), put<std::uint32_t>(9), put<std::uint32_t>(5), put<std::uint64_t>(v.size());
    for (std::int32_t x : v) put(x);
  }
  void tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type) {
    str(name);
    put<std::uint32_t>(static_cast<std::uint32_t>(dims.size()));
    for (auto d : dims) put(d);
    put(type);
    put<std::uint64_t>(0);
  }
};

// A whole file: metadata entries and tensors collected, then written with their counts.
struct GgufFile {
  Writer kv, tensors;
  std::uint64_t n_kv = 0, n_tensors = 0;
  void u32(const std::string& k, std::uint32_t v) { kv.kv_u32(k, v), ++n_kv; }
  // Several `<arch>.<key>` u32 entries at once, as a table.
  void u32s(const std::string& arch, std::initializer_list<std::pair<const char*, std::uint64_t>> entries) {
    for (const auto& [k, v] : entries) u32(arch + "." + k, static_cast<std::uint32_t>(v));
  }
  void f32(const std::string& k, float v) { kv.kv_f32(k, v), ++n_kv; }
  void text(const std::string& k, const std::string& v) { kv.kv_str(k, v), ++n_kv; }
  void bools(const std::string& k, const std::vector<bool>& v) { kv.kv_bools(k, v), ++n_kv; }
  void f32s(const std::string& k, const std::vector<float>& v) { kv.kv_f32s(k, v), ++n_kv; }
  void i32s(const std::string& k, const std::vector<std::int32_t>& v) { kv.kv_i32s(k, v), ++n_kv; }
  void tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type = 0) {
    tensors.tensor(name, std::move(dims), type), ++n_tensors;
  }
  std::string bytes() const {
    Writer w;
    w.b = "GGUF";
    w.put<std::uint32_t>(3);
    w.put<std::uint64_t>(n_tensors);
    w.put<std::uint64_t>(n_kv);
    return w.b + kv.b + tensors.b;
  }
};

}  // namespace test
