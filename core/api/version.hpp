// The project's version: one string, set by CMake from project(VERSION) (tests check package.json and the Python
// package against it), and the version of the request and result schemas (schemas/, docs/schema.md, "Versions").
#pragma once

namespace infercast {
#ifndef INFERCAST_VERSION
#error "INFERCAST_VERSION is defined by the build (CMakeLists.txt, project VERSION)"
#endif
inline constexpr const char* kVersion = INFERCAST_VERSION;
// Raised when a field of a request or a result changes meaning or goes away; fields may be added within a version.
inline constexpr int kSchemaVersion = 2;
}  // namespace infercast
