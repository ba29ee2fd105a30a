// The harnesses' entry functions, compiled once in the harness library (tests/fuzz/CMakeLists.txt); each fuzz target's
// LLVMFuzzerTestOneInput (generated from fuzz_entry.cpp.in) calls one of them with its selector.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz {

enum class ApiTarget { analyze, model, hardware, system, validate, calls, searches, checks };
enum class FilesTarget { gguf, safetensors, measurements };

int api_one(ApiTarget target, const uint8_t* data, size_t size);
int files_one(FilesTarget target, const uint8_t* data, size_t size);

}  // namespace fuzz
