# nlohmann_json and Catch2 come from Debian packages (nlohmann-json3-dev, catch2).
# Under Emscripten the find_package search is re-rooted into the sysroot, and -I/usr/include breaks the
# build (shared/TOOLCHAIN.md), so the json headers are found outside the root and copied into the build tree.
if(EMSCRIPTEN)
  find_path(NLOHMANN_JSON_INCLUDE nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
  set(INFERCAST_JSON_DIR "${CMAKE_BINARY_DIR}/third_party/include")
  file(COPY "${NLOHMANN_JSON_INCLUDE}/nlohmann" DESTINATION "${INFERCAST_JSON_DIR}")
  add_library(infercast_json INTERFACE)
  target_include_directories(infercast_json SYSTEM INTERFACE "${INFERCAST_JSON_DIR}")
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  add_library(infercast_json INTERFACE)
  target_link_libraries(infercast_json INTERFACE nlohmann_json::nlohmann_json)
endif()
