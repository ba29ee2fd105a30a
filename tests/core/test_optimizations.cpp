// Quantization formats, declared quantization, KV compression: exact bits and visible overheads.
#include <catch2/catch.hpp>

#include "api/api.hpp"
#include "helpers.hpp"

using namespace test;

TEST_CASE("bits per weight match the format definitions exactly", "[quant]") {
  // GGUF (ggml block structs), OCP MX, NVFP4, AWQ/GPTQ groups (fp16 scale + N-bit zero per group).
  const std::pair<const char*, double> want[] = {
      {"q8_0", 34.0 * 8 / 32},   {"q6_k", 210.0 * 8 / 256}, {"q5_k", 176.0 * 8 / 256}, {"q5_0", 22.0 * 8 / 32},
      {"q4_k", 144.0 * 8 / 256}, {"q4_0", 18.0 * 8 / 32},  {"q3_k", 110.0 * 8 / 256}, {"q2_k", 84.0 * 8 / 256},
      {"mxfp4", 4 + 8.0 / 32},   {"mxfp8", 8 + 8.0 / 32},  {"mxint8", 8 + 8.0 / 32},  {"nvfp4", 4 + 8.0 / 16},
      {"int4-g128", 4 + 20.0 / 128}, {"int4-g32", 4 + 20.0 / 32}, {"int3-g64", 3 + 19.0 / 64}, {"int8-g128", 8 + 24.0 / 128},
      {"fp8_block128", 8 + 32.0 / 16384}};
  for (const auto& [name, bits] : want) {
    INFO(name);
    REQUIRE(find_dtype(name).has_value());
    CHECK(find_dtype(name)->bits_per_element == bits);
  }
  CHECK(find_dtype("int4-g128")->name == find_dtype("INT4-G128")->name);  // any case, one canonical name
  CHECK_FALSE(find_dtype("int5-g128").has_value());
  CHECK_FALSE(find_dtype("int4-g4").has_value());
}

TEST_CASE("a checkpoint's quantization_config sets the weight formats by default", "[quant]") {
  auto analyze_json = [](const std::string& req) { return json::parse(call("analyze", req))["value"]; };
  // gpt-oss-20b: MXFP4 experts; attention, router, embedding and LM head stay bf16 (modules_to_not_convert).
  auto v = analyze_json(R"({"model": "gpt-oss-20b"})");
  const auto& by = v["workload"]["precision"]["by_class"];
  CHECK(by["experts"]["dtype"] == "mxfp4");
  CHECK(by["attention"]["dtype"] == "bf16");
  CHECK(by["router"]["dtype"] == "bf16");
  CHECK(by["lm_head"]["dtype"] == "bf16");
  // Weights by hand: routed experts at 4.25 bits, everything else at 16 bits.
  const auto m = preset_model("gpt-oss-20b");
  const auto p = count_params(m);
  CHECK(v["memory"]["weights_bytes"].get<double>() ==
        Approx(p.experts_routed * 4.25 / 8 + (p.total - p.experts_routed) * 2.0).epsilon(1e-12));
  // DeepSeek-V3: fp8 with 128x128 block scales except the embedding and LM head.
  v = analyze_json(R"({"model": "deepseek-v3"})");
  CHECK(v["workload"]["precision"]["by_class"]["experts"]["dtype"] == "fp8_block128");
  CHECK(v["workload"]["precision"]["by_class"]["embedding"]["dtype"] == "bf16");
  // Its activation_scheme "dynamic" makes it W8A8: FP8 GEMMs on a device with FP8 matrix units under a runtime
  // that uses them (vLLM on an H200), bf16 on an A100 (no FP8 units) and under llama.cpp (no FP8 kernels); a
  // request's activations, or its own weights, replace the declaration.
  const auto act = [&](const std::string& extra) {
    return analyze_json(R"({"model": "deepseek-v3")" + extra + "}")["workload"]["precision"]["activations"].get<std::string>();
  };
  CHECK(act("") == "bf16");  // no device: nothing to run FP8 on
  CHECK(act(R"(, "hardware": "nvidia-h200-sxm")") == "fp8");
  CHECK(act(R"(, "hardware": "nvidia-a100-sxm-80gb")") == "bf16");
  CHECK(act(R"(, "hardware": "nvidia-h200-sxm", "runtime": "llama.cpp-cuda")") == "bf16");
  CHECK(act(R"(, "hardware": "nvidia-h200-sxm", "precision": {"activations": "bf16"})") == "bf16");
  CHECK(act(R"(, "hardware": "nvidia-h200-sxm", "precision": {"weights": "fp8"})") == "bf16");
  // gpt-oss's MXFP4 declares no activations: bf16 on an H200.
  CHECK(analyze_json(R"({"model": "gpt-oss-20b", "hardware": "nvidia-h200-sxm"})")["workload"]["precision"]["activations"] == "bf16");
  // An AWQ config: int4 in groups of 128 on the projections.
  v = analyze_json(R"({"model": {"model_type": "llama", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
      "intermediate_size": 512, "vocab_size": 1000, "quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128,
      "zero_point": true, "version": "gemm"}}})");
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "int4-g128");
  CHECK(v["workload"]["precision"]["by_class"]["lm_head"]["dtype"] == "bf16");
  // A request's weights override the declaration; per-class keys override both.
  v = analyze_json(R"({"model": "gpt-oss-20b", "precision": {"weights": "fp8", "experts": "q4_k"}})");
  CHECK(v["workload"]["precision"]["by_class"]["attention"]["dtype"] == "fp8");
  CHECK(v["workload"]["precision"]["by_class"]["experts"]["dtype"] == "q4_k");
  // A method we do not read is said, and weights stay bf16.
  const std::string tiny = R"("model_type": "llama", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
      "intermediate_size": 512, "vocab_size": 1000)";
  const auto with_quant = [&](const std::string& q, const std::string& extra = "") {
    return analyze_json(R"({"model": {)" + tiny + R"(, "quantization_config": )" + q + R"(}, "hardware": "nvidia-h200-sxm")" + extra + "}");
  };
  v = with_quant(R"({"quant_method": "hqq", "nbits": 4})");
  bool warned = false;
  for (const auto& w : v["model"]["warnings"]) warned = warned || w["code"] == "model.quantization_not_applied";
  CHECK(warned);
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "bf16");
  // bitsandbytes: NF4 with an fp32 absmax per 64 (4.5 bits), or double-quantized (an 8-bit absmax per 64 and an
  // fp32 scale per 256 absmaxes: 4.127 bits; bitsandbytes/functional.py quantize_4bit, compress_statistics);
  // LLM.int8().
  CHECK(with_quant(R"({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "nf4"})")["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "nf4");
  CHECK(with_quant(R"({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_use_double_quant": true})")["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "nf4-dq");
  CHECK(find_dtype("nf4")->bits_per_element == 4.5);
  CHECK(find_dtype("nf4-dq")->bits_per_element == 4.126953125);
  CHECK(with_quant(R"({"quant_method": "bitsandbytes", "load_in_8bit": true})")["workload"]["precision"]["by_class"]["attention"]["dtype"] == "int8");
  // compressed-tensors FP8-dynamic (llm-compressor, RedHatAI): fp8 weights per channel, fp8 activations per token.
  v = with_quant(R"({"quant_method": "compressed-tensors", "format": "float-quantized", "config_groups": {"group_0": {"targets": ["Linear"],
      "weights": {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": true, "dynamic": false},
      "input_activations": {"num_bits": 8, "type": "float", "strategy": "token", "dynamic": true}}}, "ignore": ["lm_head"]})");
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "fp8");
  CHECK(v["workload"]["precision"]["activations"] == "fp8");
  // W4A16 in groups of 128; attention left out by a regular expression stays bf16.
  v = with_quant(R"({"quant_method": "compressed-tensors", "format": "pack-quantized", "config_groups": {"group_0": {"targets": ["Linear"],
      "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": true}}},
      "ignore": ["lm_head", "re:.*self_attn.*"]})");
  // Symmetric: a scale per group and no zero point (4 + 16 / 128 bits).
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "int4-g128-sym");
  CHECK(find_dtype("int4-g128-sym")->bits_per_element == 4.125);
  CHECK(find_dtype("int4-g32-sym")->bits_per_element == 4.5);
  CHECK_FALSE(find_dtype("int4-g32-symx"));
  CHECK(v["workload"]["precision"]["by_class"]["attention"]["dtype"] == "bf16");
  CHECK(v["workload"]["precision"]["activations"] == "bf16");
  // ModelOpt writes quant_algo without a quant_method: FP8 weights and activations per tensor.
  v = with_quant(R"({"quant_algo": "FP8", "kv_cache_quant_algo": null, "exclude_modules": ["lm_head"]})");
  CHECK(v["workload"]["precision"]["by_class"]["attention"]["dtype"] == "fp8");
  CHECK(v["workload"]["precision"]["activations"] == "fp8");
  CHECK(with_quant(R"({"quant_method": "modelopt", "quant_algo": "NVFP4"})")["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "nvfp4");
  // The config.json of a ModelOpt checkpoint names the kept modules `ignore` (hf_quant_config.json: exclude_modules).
  v = with_quant(R"({"quant_method": "modelopt", "quant_algo": "NVFP4", "ignore": ["lm_head", "model.layers.*.self_attn*"]})");
  CHECK(v["workload"]["precision"]["by_class"]["attention"]["dtype"] == "bf16");
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "nvfp4");
  // Meta's fbgemm_fp8 (Llama-3.1-405B-Instruct-FP8): fp8 weights per channel, activations per token.
  v = with_quant(R"({"quant_method": "fbgemm_fp8", "activation_scale_ub": 1200.0, "modules_to_not_convert": ["lm_head"]})");
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "fp8");
  CHECK(v["workload"]["precision"]["by_class"]["lm_head"]["dtype"] == "bf16");
  // Kimi-K2's int4 checkpoints: routed experts in int4 groups of 32, everything else in bf16; the
  // quantization_config of a multimodal wrapper sits beside its text_config.
  const std::string moe = R"("model_type": "mixtral", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
      "num_key_value_heads": 4, "intermediate_size": 512, "vocab_size": 1000, "num_local_experts": 8, "num_experts_per_tok": 2)";
  v = analyze_json(R"({"model": {"model_type": "llava", "text_config": {)" + moe + R"(}, "quantization_config": {"quant_method": "compressed-tensors",
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 32}}},
      "ignore": ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*", "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"]}}})");
  CHECK(v["workload"]["precision"]["by_class"]["experts"]["dtype"] == "int4-g32");
  CHECK(v["workload"]["precision"]["by_class"]["attention"]["dtype"] == "bf16");
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "bf16");
  // mlx-community checkpoints: `quantization` {bits, group_size}, an fp16 scale and bias per group (4.5 bits at 4
  // in 64), the embedding and the head quantized too.
  v = analyze_json(R"({"model": {)" + tiny + R"(, "quantization": {"group_size": 64, "bits": 4}}})");
  CHECK(v["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "mlx4-g64");
  CHECK(v["workload"]["precision"]["by_class"]["embedding"]["dtype"] == "mlx4-g64");
  CHECK(v["workload"]["precision"]["by_class"]["lm_head"]["dtype"] == "mlx4-g64");
  CHECK(v["workload"]["precision"]["by_class"]["router"]["dtype"] == "bf16");
  CHECK(find_dtype("mlx4-g64")->bits_per_element == 4.5);
  CHECK(find_dtype("mlx3-g32")->bits_per_element == 4);
  CHECK_FALSE(find_dtype("mlx7-g64"));
  CHECK(with_quant(R"({"group_size": 32, "bits": 4, "mode": "mxfp4"})")["workload"]["precision"]["by_class"]["ffn"]["dtype"] == "mxfp4");
}

TEST_CASE("KV compression: fewer bytes, and the dequantization it costs", "[quant]") {
  const auto m = preset_model("llama-3.1-8b");
  const auto groups = group_layers(m);
  double prev_bytes = 1e300;
  for (const char* kv : {"bf16", "int8-g64", "fp8", "int4-g64", "int4"}) {
    INFO(kv);
    const auto ops = step_ops(m, groups, {{8192, 1, 1}}, settings("infercast", "bf16", kv));
    const auto& att = find_op(ops, "attention");
    CHECK(att.kv_read_bytes < prev_bytes);
    prev_bytes = att.kv_read_bytes;
    const double elements = 32 * 8193.0 * 8 * 256;  // layers x keys x KV heads x (k + v dims)
    CHECK(att.kv_read_bytes == Approx(elements * find_dtype(kv)->bits_per_element / 8));
    CHECK(att.dequant_flops == (std::string(kv) == "bf16" ? 0 : 2 * elements));
  }
}

TEST_CASE("a weight format names the linear layers' format, as its checkpoints store it", "[quant]") {
  // Llama-3.1-8B in int4-g128: the published AWQ checkpoint (hugging-quants) keeps the embedding and the LM head in
  // fp16: 5,727,854,592 bytes, what its own config.json gives. GGUF and mlx-lm formats quantize those too.
  const auto analyze_json = [](const std::string& req) { return json::parse(call("analyze", req))["value"]; };
  const auto classes = [](const json& v) { return v["workload"]["precision"]["by_class"]; };
  const json awq = analyze_json(R"({"model": "llama-3.1-8b", "precision": {"weights": "int4-g128"}})");
  CHECK(awq["memory"]["weights_bytes"].get<double>() == 5727854592.0);
  CHECK(classes(awq)["embedding"]["dtype"] == "bf16");
  CHECK(classes(awq)["lm_head"]["dtype"] == "bf16");
  CHECK(classes(awq)["router"]["dtype"] == "bf16");
  CHECK(classes(awq)["attention"]["dtype"] == "int4-g128");
  for (const char* f : {"fp8", "nvfp4", "mxfp4", "int8", "nf4-dq"}) {
    INFO(f);
    CHECK(classes(analyze_json(std::string(R"({"model": "llama-3.1-8b", "precision": {"weights": ")") + f + "\"}}"))["lm_head"]["dtype"] == "bf16");
  }
  CHECK(classes(analyze_json(R"({"model": "llama-3.1-8b", "precision": {"weights": "q4_0"}})"))["embedding"]["dtype"] == "q4_0");
  CHECK(classes(analyze_json(R"({"model": "llama-3.1-8b", "precision": {"weights": "mlx4-g64"}})"))["lm_head"]["dtype"] == "mlx4-g64");
  CHECK(classes(analyze_json(R"({"model": "llama-3.1-8b", "precision": {"weights": "int4-g128", "lm_head": "int4-g128"}})"))["lm_head"]["dtype"] == "int4-g128");
  // ExLlamaV2's EXL2: the head at 6 bits per weight (convert.py's --head_bits default), the embedding in 16 bits.
  // Llama-3.1-8B at 4.0: 6,979,321,856 linear weights of the layers at 4.0 bits, the 525,336,576-weight head at 6,
  // the embedding and the 65 norms' 266,240 weights at 16: 3,489,660,928 + 394,002,432 + 1,051,205,632 bytes.
  const json exl2 = analyze_json(R"({"model": "llama-3.1-8b", "precision": {"weights": "exl2-4"}})");
  CHECK(classes(exl2)["attention"]["dtype"] == "exl2-4.0");
  CHECK(classes(exl2)["lm_head"]["dtype"] == "exl2-6.0");
  CHECK(classes(exl2)["embedding"]["dtype"] == "bf16");
  CHECK(exl2["memory"]["weights_bytes"].get<double>() == 3489660928.0 + 394002432.0 + 1051205632.0);
  CHECK(find_dtype("exl2-4.65")->bits_per_element == 4.65);
  CHECK(find_dtype("EXL2-2.5")->name == "exl2-2.5");
  CHECK(find_dtype("exl2-8.00")->name == "exl2-8.0");
  CHECK(find_dtype("exl2-3.10")->name == "exl2-3.1");
  CHECK(find_dtype("exl2-5.0")->native == ComputeType::FP16);
  CHECK(find_dtype("exl2-5.0")->weight_only);
  for (const char* bad : {"exl2-", "exl2-1.99", "exl2-8.01", "exl2-4.", "exl2-.5", "exl2-4.655", "exl2-04.0", "exl2-4,0", "exl2-4.0x", "exl2-10"}) {
    INFO(bad);
    CHECK_FALSE(find_dtype(bad));
  }
  // LIFE's scenarios quantize every weight, as its tables assume.
  CHECK(classes(analyze_json(R"({"model": "llama-2-7b", "scenario": "life/bf16-int4"})"))["lm_head"]["dtype"] == "int4-g128");
}
