// The project's version: one string, set by CMake from project(VERSION) (tests check package.json against it).
#pragma once

namespace infercast {
#ifndef INFERCAST_VERSION
#error "INFERCAST_VERSION is defined by the build (CMakeLists.txt, project VERSION)"
#endif
inline constexpr const char* kVersion = INFERCAST_VERSION;
}  // namespace infercast
