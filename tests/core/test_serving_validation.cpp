// How serving rows of the validation file become serving runs (core/validation/serving_cases.cpp, cases.cpp): the
// launch flags a source printed and the formats its act/KV column names.
#include <catch2/catch.hpp>

#include <string>

#include "io/csv.hpp"
#include "io/presets.hpp"
#include "validation/cases.hpp"
#include "validation/validation.hpp"

using namespace infercast;

namespace {

const char* kHeader =
    "row_id,source_id,model,model_config_file,weights_format,act_kv_format,hardware,vendor,num_devices,parallelism,"
    "peak_bw_GBps_per_device,peak_compute_TFLOPS_per_device,peak_compute_kind,hw_spec_source,framework,batch_size,"
    "prompt_len,gen_len,context_depth,metric,unit,value,source_ref,trust,notes,runtime\n";

// One serving row of Llama-3.1-8B on one H100 under vLLM: 8 prompts of 128 tokens sent at once, 64 tokens out.
std::string row(const std::string& id, const std::string& metric, const std::string& notes) {
  return id + ",S99,Llama-3.1-8B,,BF16,BF16 KV cache,NVIDIA H100 (form factor not stated),NVIDIA,1,TP1,,,,,vLLM,8,128,64,,"
              + metric + ",ms,100,,low,\"" + notes + "\",vllm\n";
}

double forecast(const ValidationReport& rep, const std::string& id) {
  for (const auto& r : rep.rows)
    if (r.row_id == id) {
      REQUIRE(r.covered);
      return r.forecast;
    }
  FAIL("row " << id << " missing");
  return 0;
}

}  // namespace

TEST_CASE("serving rows run with the sequence cap the source launched", "[serving][validation]") {
  const std::string all = "concurrency=8; num_prompts=8";
  const std::string capped = all + "; vllm serve --max-num-seqs 2";
  const std::string csv = std::string(kHeader) + row("1", "serving_ttft_p50", all) + row("2", "serving_tpot_p50", all) +
                          row("3", "serving_ttft_p50", capped) + row("4", "serving_tpot_p50", capped);
  ValidationOptions opt;
  opt.cross_validate = false;
  const ValidationReport rep = validate(parse_csv(csv), opt);
  const double ttft = forecast(rep, "1"), tpot = forecast(rep, "2");
  const double ttft_capped = forecast(rep, "3"), tpot_capped = forecast(rep, "4");
  // All eight prompts at once: one prefill, then the eight decode together; the median request's first token comes
  // long before one request's 63 decode steps.
  CHECK(ttft < 63 * tpot);
  // Two at a time: four waves, the median request (the fourth or fifth) waits at least one whole wave of 63 decode
  // steps; a memory-bound 8B model decodes two requests about as fast as eight, so the cap barely moves TPOT.
  CHECK(ttft_capped > 63 * tpot_capped);
  CHECK(ttft_capped > 5 * ttft);
  CHECK(tpot_capped == Approx(tpot).epsilon(0.05));
}

TEST_CASE("a KV-cache format leaves the GEMMs of a 16-bit model in 16 bits", "[validation]") {
  std::string w, a, kv;
  REQUIRE(formats("BF16", "FP8 (e4m3) KV cache and FP8 attention (--kv-cache-dtype fp8)", w, a, kv));
  CHECK(w == "bf16");
  CHECK(a == "bf16");
  CHECK(kv == "fp8");
  // An FP8 engine's FP8 cache: its GEMMs stay in FP8.
  REQUIRE(formats("FP8", "FP8 (engine built with --enable_fp8 --fp8_kv_cache)", w, a, kv));
  CHECK(a == "fp8");
  CHECK(kv == "fp8");
  // Activations named as such are taken as stated.
  REQUIRE(formats("FP8", "FP8 activations; FP8 KV cache (doc's engine configs: quant_algo FP8, kv_cache_quant_algo FP8)", w,
                  a, kv));
  CHECK(a == "fp8");
  // 16-bit caches are untouched.
  REQUIRE(formats("Q4_0", "f16 KV (llama.cpp default)", w, a, kv));
  CHECK(a == "fp16");
}

TEST_CASE("launch flags past a serving request's ranges are not stated: the runtime's defaults stand", "[serving][validation][regression]") {
  // 1e23 was cast to long long (undefined behaviour); 2e8 batched tokens, past the 1e8 a request takes, left the row
  // not covered.
  const std::string all = "concurrency=8; num_prompts=8";
  const std::string csv = std::string(kHeader) + row("1", "serving_ttft_p50", all) +
                          row("2", "serving_ttft_p50", all + "; vllm serve --max-num-batched-tokens 200000000") +
                          row("3", "serving_ttft_p50", all + "; vllm serve --max-num-seqs 2000000") +
                          row("4", "serving_ttft_p50", all + "; vllm serve --max-num-seqs 99999999999999999999999 --max-num-batched-tokens 99999999999999999999999");
  ValidationOptions opt;
  opt.cross_validate = false;
  const ValidationReport rep = validate(parse_csv(csv), opt);
  const double plain = forecast(rep, "1");
  for (const char* id : {"2", "3", "4"}) CHECK(forecast(rep, id) == plain);
}

// llama.cpp runs flash attention by default since 2025-08 (PR #15434, -fa auto), as its presets now do; the public
// rows ran earlier builds (-fa 0, their default), and each says so in its notes. A row's -fa sets its attention, so
// the fits and the left-out figures stay those of the builds measured (audit H moved the presets to today's default).
TEST_CASE("a llama.cpp row runs the attention its -fa flag names, else its preset's", "[validation][runtime]") {
  // Llama-2-7B Q8_0 on an M1 Max, an 8,192-token prompt (pp8192): the unfused attention's F32 score matrix is heavy.
  const auto row = [](const std::string& id, const std::string& notes) {
    return id + ",S99,Llama-2-7B,configs/Llama-2-7B.json,Q8_0,f16 KV (llama.cpp default),Apple M1 Max (32-core GPU),Apple,1,,400,,,,"
                "llama.cpp Metal,1,8192,0,0,prompt_throughput,tok/s,100,,medium,\"" + notes + "\",llama.cpp-metal\n";
  };
  const std::string csv = std::string(kHeader) + row("1", "pp8192; -fa 0 (before 2025-08)") + row("2", "pp8192; -fa 1") + row("3", "pp8192");
  ValidationOptions opt;
  opt.cross_validate = false;
  const ValidationReport rep = validate(parse_csv(csv), opt);
  const double off = forecast(rep, "1"), on = forecast(rep, "2"), preset = forecast(rep, "3");
  CHECK(find_runtime_preset("llama.cpp-metal")->flash_attention);
  CHECK_FALSE(find_runtime_preset("llama.cpp-cuda-2023")->flash_attention);
  CHECK(preset == on);
  CHECK(off < 0.97 * on);  // tokens/s: the scores' traffic slows the prompt
}

// Review of stop 57: serving rows ran the runtime's attention whatever their notes said; the static rows read -fa.
// Two serving runs that differ only in -fa are two runs (the key that shares a run between metrics names the
// attention), and the unfused one's long prompts take longer to their first token.
TEST_CASE("a serving row runs the attention its notes name", "[serving][validation][runtime]") {
  const auto long_row = [](const std::string& id, const std::string& notes) {
    return id + ",S99,Llama-3.1-8B,,BF16,BF16 KV cache,NVIDIA H100 (form factor not stated),NVIDIA,1,TP1,,,,,vLLM,4,16384,16,,"
                "serving_ttft_p50,ms,100,,low,\"" + notes + "\",vllm\n";
  };
  const std::string load = "concurrency=4; num_prompts=4";
  const std::string csv = std::string(kHeader) + long_row("1", load) + long_row("2", load + "; -fa 0") + long_row("3", load + "; -fa off");
  ValidationOptions opt;
  opt.cross_validate = false;
  const ValidationReport rep = validate(parse_csv(csv), opt);
  const double preset = forecast(rep, "1"), off = forecast(rep, "2"), off_word = forecast(rep, "3");
  CHECK(off > 1.03 * preset);  // ms to the first token: 16,384-token prompts' scores through memory
  CHECK(off_word == off);
}

TEST_CASE("a one-device row's parallelism text needs no plan, several devices need TPn or TPn PPm", "[validation]") {
  // Intel's S66 writes "single socket" for its one-socket runs: one device runs the model whatever the text says.
  const auto static_row = [](const std::string& id, const std::string& devices, const std::string& parallelism) {
    return id + ",S99,Llama-3.1-8B,,BF16,BF16 KV cache,NVIDIA H100 (form factor not stated),NVIDIA," + devices + "," +
           parallelism + ",,,,,vLLM,1,128,64,,TPOT,ms,10,,low,,vllm\n";
  };
  // The same rule for serving rows (one function, cases.cpp unmapped_reason).
  const auto serving_row = [](const std::string& id, const std::string& devices, const std::string& parallelism) {
    return id + ",S99,Llama-3.1-8B,,BF16,BF16 KV cache,NVIDIA H100 (form factor not stated),NVIDIA," + devices + "," +
           parallelism + ",,,,,vLLM,8,1024,128,,serving_tpot,ms,10,,low,concurrency=8; num_prompts=64,vllm\n";
  };
  const std::string csv = std::string(kHeader) + static_row("1", "1", "single socket") + static_row("2", "1", "TP1") +
                          static_row("3", "2", "two instances") + static_row("4", "1", "TP2") +
                          serving_row("5", "1", "single socket") + serving_row("6", "1", "TP1") +
                          serving_row("7", "2", "two instances") + serving_row("8", "1", "TP2");
  ValidationOptions opt;
  opt.cross_validate = false;
  const ValidationReport rep = validate(parse_csv(csv), opt);
  CHECK(forecast(rep, "1") == Approx(forecast(rep, "2")));
  CHECK(forecast(rep, "5") == Approx(forecast(rep, "6")));
  CHECK(forecast(rep, "5") > 0);
  int checked = 0;
  for (const auto& r : rep.rows) {
    if (r.row_id == "3" || r.row_id == "7") {
      CHECK(r.reason == "runs on 2 devices as \"two instances\"; only TPn or TPn PPm over all of them is mapped");
      ++checked;
    }
    if (r.row_id == "4" || r.row_id == "8") {
      CHECK(r.reason == "runs on 1 devices as \"TP2\"; only TPn or TPn PPm over all of them is mapped");
      ++checked;
    }
  }
  CHECK(checked == 4);
}
