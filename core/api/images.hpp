// The images of a request's prompts (workload.images: [{width, height, count}]): each new prompt (a request with
// nothing cached) carries them; their tokens join its input, and the vision encoder runs in the prefill
// (docs/schema.md, "workload"; docs/formulas.md, "Vision encoders").
#pragma once

#include "analysis/analysis.hpp"
#include "io/json_reader.hpp"

namespace infercast {

// Reads workload.images from `wr` (the workload object) into `w.settings.images` and adds the image tokens to every
// new prompt. Refused when the model has no vision encoder modelled or no request starts a new prompt.
void read_images(Reader& wr, const ModelSpec& m, Workload& w);

// Tokens the images add to one prompt.
i64 image_tokens(const ModelSpec& m, const std::vector<ImageSize>& images);

// The images as the result echoes them, each with its tokens.
json images_json(const ModelSpec& m, const std::vector<ImageSize>& images);

}  // namespace infercast
