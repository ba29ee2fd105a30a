// Audio configs to AudioSpec (model/audio.hpp). Sources: transformers' models/gemma4/configuration_gemma4.py
// (Gemma4AudioConfig: its defaults are the E2B and E4B towers) and modeling_gemma4.py; models/gemma3n/
// configuration_gemma3n.py (Gemma3nAudioConfig: its defaults are E2B's and E4B's tower) and modeling_gemma3n.py;
// models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeAudioEncoderConfig) and its modeling file.
#include "io/config_audio.hpp"

namespace infercast {

namespace {

// Audio towers and embedders are counted, their inputs not forecast: said once, at audio_config.
void counted_not_forecast(Reader& top, std::vector<Warning>& warnings, const char* what) {
  warnings.push_back(Warning{"model.audio_not_forecast", top.child_path("audio_config"),
                             std::string("the audio ") + what + " (audio_config) is counted in the parameters and the weights in "
                             "memory; audio inputs are not forecast"});
}

// A pair of positive sizes (the subsampler's channels), or the default when absent.
std::vector<i64> size_pair(Reader& a, const char* key, std::vector<i64> fallback) {
  if (!a.has(key)) return fallback;
  const std::vector<i64> v = a.int_array_or(key);
  if (v.size() != 2 || v[0] < 1 || v[1] < 1 || v[0] > kEncoderWidth || v[1] > kEncoderWidth)
    a.fail(key, "invalid", a.child_path(key) + " holds " + std::to_string(v.size()) +
                               " values; expected the two positive channel counts of the subsampler's convolutions (at most 1048576)");
  return v;
}

// Gemma 3n's subsampler: its kernels and strides must be the 3 x 3, stride 2 the count assumes.
void check_sscp(Reader& a, const char* key, i64 want) {
  const json* v = a.raw(key);
  if (!v) return;
  bool ok = v->is_array() && v->size() == 2;
  for (std::size_t i = 0; ok && i < 2; ++i) {
    const json& row = (*v)[i];
    ok = row.is_array() && row.size() == 2;
    for (std::size_t j = 0; ok && j < 2; ++j) ok = row[j].is_number_integer() && row[j].get<i64>() == want;
  }
  if (!ok)
    a.fail(key, "unsupported", a.child_path(key) + " is not [[" + std::to_string(want) + ", " + std::to_string(want) + "], [" +
                                   std::to_string(want) + ", " + std::to_string(want) + "]], the subsampler Gemma 3n ships and "
                                   "Infercast counts");
}

}  // namespace

namespace {

// Qwen3-Omni's AuT encoder (Qwen3OmniMoeAudioEncoder): Whisper's names for its sizes, with the config class's defaults.
AudioSpec read_qwen_omni_audio(Reader& a, const ModelSpec& m) {
  AudioSpec s;
  s.kind = AudioKind::QwenOmni;
  s.hidden = a.int_in_or("d_model", 1, kEncoderWidth, 1280);
  s.layers = a.int_in_or("encoder_layers", 1, kEncoderCount, 32);
  s.heads = a.int_in_or("encoder_attention_heads", 1, kEncoderCount, 20);
  if (s.hidden % s.heads != 0)
    a.fail("d_model", "invalid", a.child_path("d_model") + " holds " + std::to_string(s.hidden) +
                                     ", which is not a multiple of the " + std::to_string(s.heads) + " audio heads");
  s.ffn = a.int_in_or("encoder_ffn_dim", 1, kEncoderWidth, 5120);
  s.features = a.int_in_or("num_mel_bins", 1, kEncoderWidth, 128);
  s.sub_channels0 = a.int_in_or("downsample_hidden_size", 1, kEncoderWidth, 480);
  s.output = a.int_in_or("output_dim", 1, kEncoderWidth, 3584);
  // proj2 writes the audio tokens into the language model's stream.
  if (s.output != m.hidden)
    a.fail("output_dim", "invalid", a.child_path("output_dim") + " holds " + std::to_string(s.output) +
                                        "; expected the language model's hidden_size (" + std::to_string(m.hidden) +
                                        "), the width the encoder's last projection feeds");
  s.text_hidden = m.hidden;
  return s;
}

}  // namespace

void read_audio_config(Reader& top, const std::string& type, ModelSpec& m, std::vector<Warning>& warnings) {
  if (type == "qwen3_omni_moe_thinker") {
    Reader a = top.object("audio_config");
    m.audio = read_qwen_omni_audio(a, m);
    // Windows, chunking, dropout and the activation change no count.
    for (const auto& key : a.unread()) a.raw(key);
    counted_not_forecast(top, warnings, "encoder");
    return;
  }
  if (type == "gemma4_unified") {
    // Gemma4UnifiedAudioConfig: audio_embed_dim samples a token (hidden_size, output_proj_dims and
    // audio_samples_per_token are other names of it), projected to the text width.
    Reader a = top.object("audio_config");
    AudioSpec s;
    s.kind = AudioKind::Gemma4Unified;
    s.hidden = a.int_in_or("audio_embed_dim", 1, kEncoderWidth, 640);
    for (const char* key : {"hidden_size", "output_proj_dims", "audio_samples_per_token"})
      if (a.has(key) && a.int_in_or(key, 1, kEncoderWidth, s.hidden) != s.hidden)
        a.fail(key, "invalid", a.child_path(key) + " holds " + std::to_string(a.int_in_or(key, 1, kEncoderWidth, s.hidden)) +
                                   "; expected audio_embed_dim (" + std::to_string(s.hidden) + "), which it names");
    s.text_hidden = m.hidden;
    for (const auto& key : a.unread()) a.raw(key);
    counted_not_forecast(top, warnings, "embedder");
    m.audio = s;
    return;
  }
  if (type != "gemma4" && type != "gemma3n") {
    top.raw("audio_config");
    warnings.push_back(Warning{"model.audio_not_modelled", top.child_path("audio_config"),
                               "the audio encoder (audio_config) of model_type \"" + type +
                                   "\" and its embedder into the text model are not counted or forecast: results "
                                   "cover the language model only"});
    return;
  }
  Reader a = top.object("audio_config");
  AudioSpec s;
  const bool g3n = type == "gemma3n";
  s.kind = g3n ? AudioKind::Gemma3n : AudioKind::Gemma4;
  // Gemma 3n names the Conformer's sizes conf_*; Gemma 4 uses the usual names.
  s.hidden = a.int_in_or("hidden_size", 1, kEncoderWidth, g3n ? 1536 : 1024);
  s.layers = a.int_in_or(g3n ? "conf_num_hidden_layers" : "num_hidden_layers", 1, kEncoderCount, 12);
  s.heads = a.int_in_or(g3n ? "conf_num_attention_heads" : "num_attention_heads", 1, kEncoderCount, 8);
  if (s.hidden % s.heads != 0)
    a.fail("hidden_size", "invalid", a.child_path("hidden_size") + " holds " + std::to_string(s.hidden) +
                                         ", which is not a multiple of the " + std::to_string(s.heads) + " audio heads");
  s.conv_kernel = a.int_in_or(g3n ? "conf_conv_kernel_size" : "conv_kernel_size", 1, 4096, 5);
  const std::vector<i64> ch = size_pair(a, g3n ? "sscp_conv_channel_size" : "subsampling_conv_channels", {128, 32});
  s.sub_channels0 = ch[0];
  s.sub_channels1 = ch[1];
  s.features = a.int_in_or("input_feat_size", 1, kEncoderWidth, 128);
  if (g3n) {
    check_sscp(a, "sscp_conv_kernel_size", 3);
    check_sscp(a, "sscp_conv_stride_size", 2);
    s.output = 0;  // no output projection: the embedder takes the tower's width
    s.clipped = false;
    s.embed_vocab = a.int_in_or("vocab_size", 1, kEncoderCount * 100, 128);
  } else {
    s.output = a.int_in_or("output_proj_dims", 1, kEncoderWidth, 1536);
    s.clipped = a.boolean_or("use_clipped_linears", true);
  }
  s.text_hidden = m.hidden;
  // Numerics, the attention's chunking and caps, the vocabulary offset and the residual weight change no count.
  for (const auto& key : a.unread()) a.raw(key);
  counted_not_forecast(top, warnings, "encoder");
  m.audio = s;
}

}  // namespace infercast
