// Audio configs to AudioSpec (model/audio.hpp). Source: transformers' models/gemma4/configuration_gemma4.py
// (Gemma4AudioConfig: its defaults are the E2B and E4B towers) and modeling_gemma4.py.
#include "io/config_audio.hpp"

namespace infercast {

void read_audio_config(Reader& top, const std::string& type, ModelSpec& m, std::vector<Warning>& warnings) {
  if (type != "gemma4") {
    top.raw("audio_config");
    warnings.push_back(Warning{"model.audio_not_modelled", top.child_path("audio_config"),
                               "the audio encoder (audio_config) of model_type \"" + type +
                                   "\" and its embedder into the text model are not counted or forecast: results "
                                   "cover the language model only"});
    return;
  }
  Reader a = top.object("audio_config");
  AudioSpec s;
  s.kind = AudioKind::Gemma4;
  constexpr i64 kWidth = 1 << 20, kCount = 100000;
  s.hidden = a.int_in_or("hidden_size", 1, kWidth, 1024);
  s.layers = a.int_in_or("num_hidden_layers", 1, kCount, 12);
  s.heads = a.int_in_or("num_attention_heads", 1, kCount, 8);
  if (s.hidden % s.heads != 0)
    a.fail("hidden_size", "invalid", a.child_path("hidden_size") + " holds " + std::to_string(s.hidden) +
                                         ", which is not a multiple of the " + std::to_string(s.heads) + " audio heads");
  s.conv_kernel = a.int_in_or("conv_kernel_size", 1, 4096, 5);
  std::vector<i64> ch = {128, 32};
  if (a.has("subsampling_conv_channels")) {
    ch = a.int_array_or("subsampling_conv_channels");
    if (ch.size() != 2 || ch[0] < 1 || ch[1] < 1 || ch[0] > kWidth || ch[1] > kWidth)
      a.fail("subsampling_conv_channels", "invalid",
             a.child_path("subsampling_conv_channels") + " holds " + std::to_string(ch.size()) +
                 " values; expected the two positive channel counts of the subsampler's convolutions (at most 1048576)");
  }
  s.sub_channels0 = ch[0];
  s.sub_channels1 = ch[1];
  s.output = a.int_in_or("output_proj_dims", 1, kWidth, 1536);
  s.clipped = a.boolean_or("use_clipped_linears", true);
  s.text_hidden = m.hidden;
  // Numerics, the attention's chunking and caps, and the residual weight change no count.
  for (const auto& key : a.unread()) a.raw(key);
  warnings.push_back(Warning{"model.audio_not_forecast", top.child_path("audio_config"),
                             "the audio encoder (audio_config) is counted in the parameters and the weights in memory; "
                             "audio inputs are not forecast"});
  m.audio = s;
}

}  // namespace infercast
