// The `options` call: every field of io/fields.hpp with its range, default and help, and every enum's names and
// descriptions from its table, so the CLI help and the page's controls read their choices from one place.
#pragma once

#include "io/fields.hpp"

namespace infercast {

// [{path, kind, help, default, min?, max?, values?: [{name, description}]}]
json options_json();

}  // namespace infercast
