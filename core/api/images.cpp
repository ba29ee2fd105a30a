#include "api/images.hpp"

#include "io/fields.hpp"

namespace infercast {

i64 image_tokens(const ModelSpec& m, const std::vector<ImageSize>& images) {
  i64 t = 0;
  for (const auto& img : images) t += plan_image(m.vision, img).tokens;
  return t;
}

json images_json(const ModelSpec& m, const std::vector<ImageSize>& images) {
  json a = json::array();
  for (const auto& img : images) {
    const ImagePlan p = plan_image(m.vision, img);
    i64 patches = 0;
    for (i64 s : p.sequences) patches += s;
    a.push_back({{"width", img.width}, {"height", img.height}, {"tokens", p.tokens}, {"encoder_patches", patches},
                 {"encoder_sequences", p.sequences.size()}, {"cross_attention_tokens", cross_attention_tokens(m.vision, {img})}});
  }
  return a;
}

void read_images(Reader& wr, const ModelSpec& m, Workload& w) {
  if (!wr.has("images")) {
    wr.raw("images");
    return;
  }
  // The count is checked as the entries are read, before any image is kept (a list of many entries stops at once).
  i64 total = 0;
  for (auto& ir : wr.object_array("images")) {
    const ImageSize img{read_field(ir, field::image_width), read_field(ir, field::image_height)};
    const i64 count = read_field(ir, field::image_count);
    ir.reject_unknown();
    total += count;
    if (total > field::image_count.hi)
      wr.fail("images", "out_of_range", wr.child_path("images") + " holds more than " + std::to_string(field::image_count.hi) +
                                            " images per prompt; expected at most " + std::to_string(field::image_count.hi));
    for (i64 i = 0; i < count; ++i) w.settings.images.push_back(img);
  }
  w.settings.cross_tokens = cross_attention_tokens(m.vision, w.settings.images);
  if (m.vision.kind == VisionKind::None)
    wr.fail("images", "unsupported", wr.child_path("images") + " is given, but " + (m.name.empty() ? m.model_type : m.name) +
                                         " has no vision encoder Infercast models (vision_config of Llama 4, Gemma 3, Gemma 3n, "
                                         "Gemma 4, Llama 3.2 Vision, Qwen2.5-VL, Qwen3-VL, Qwen3.5 or Mistral 3)");
  const i64 tokens = image_tokens(m, w.settings.images);
  bool fresh = false;
  for (auto& q : w.requests)
    if (q.cached == 0) {
      if (q.input + tokens > kMaxTokens)
        wr.fail("images", "out_of_range", wr.child_path("images") + " adds " + std::to_string(tokens) +
                                              " tokens to a prompt of " + std::to_string(q.input) + "; expected at most " +
                                              std::to_string(kMaxTokens) + " tokens per request in all");
      q.input += tokens;
      fresh = true;
    }
  if (!fresh)
    wr.fail("images", "conflict", wr.child_path("images") + " is given, but every request continues a cached prompt; "
                                                            "images belong to new prompts (cached 0)");
}

}  // namespace infercast
