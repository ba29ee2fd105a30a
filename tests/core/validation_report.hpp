// The validation over every embedded measurement, each source also left out of the fits: computed once per process.
// It takes most of a minute under the sanitizers, so the test cases tagged [full-validation] share it, and ctest runs
// them together as one test (tests/CMakeLists.txt). Its in-sample part (fits and forecasts over all rows) is what
// `validate` gives without cross-validation.
#pragma once
#include "validation/validation.hpp"

namespace test {

inline const infercast::ValidationReport& embedded_validation() {
  static const infercast::ValidationReport rep = infercast::validate(infercast::parse_csv(infercast::embedded_measurements()));
  return rep;
}

}  // namespace test
