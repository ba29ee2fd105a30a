// A parameter count that refuses to overflow: configs come from users, and a signed overflow would be undefined
// behaviour (and a wrong answer). Any count past 2^63 - 1 throws model.too_large. Internal to model/ and the config
// readers (io/config_common.hpp), which size layers with it.
#pragma once

#include "model/model.hpp"

namespace infercast {

struct Count {
  i64 v = 0;
  Count(i64 x = 0) : v(x) {}  // NOLINT: implicit from integers, on purpose
};
[[noreturn]] inline void count_too_large() {
  throw InputError("model.too_large", "/model",
                   "the config describes more than 9223372036854775807 parameters; check its sizes");
}
inline Count operator+(Count a, Count b) {
  i64 r;
  if (__builtin_add_overflow(a.v, b.v, &r)) count_too_large();
  return r;
}
inline Count operator*(Count a, Count b) {
  i64 r;
  if (__builtin_mul_overflow(a.v, b.v, &r)) count_too_large();
  return r;
}
inline Count& operator+=(Count& a, Count b) { return a = a + b; }

}  // namespace infercast
