// Launch commands for a deployment in vLLM, SGLang and TensorRT-LLM (docs/serving.md, "Launch commands"). The flags
// are the engines' own: vLLM `vllm serve` (--tensor-parallel-size, --pipeline-parallel-size, --data-parallel-size,
// --enable-expert-parallel, --max-num-seqs, --max-num-batched-tokens, --gpu-memory-utilization, --kv-cache-dtype;
// disaggregated prefill through --kv-transfer-config with the NixlConnector, docs.vllm.ai "NixlConnector Usage
// Guide"); SGLang `python -m sglang.launch_server` (--tp, --pp-size, --dp, --ep-size, --max-running-requests,
// --chunked-prefill-size, --kv-cache-dtype; --disaggregation-mode prefill|decode behind sglang_router's
// --pd-disaggregation, docs.sglang.io "PD Disaggregation"); TensorRT-LLM `trtllm-serve` (--tp_size, --pp_size,
// --ep_size, --max_batch_size, --max_num_tokens, --kv_cache_free_gpu_memory_fraction; `trtllm-serve disaggregated -c`
// with context and generation servers, nvidia.github.io/TensorRT-LLM "trtllm-serve").
#include <cstdio>
#include <string>

#include "serving/deploy.hpp"

namespace infercast {

namespace {

// The model's id as one shell word: as it is when every character is one a Hugging Face id uses
// ([A-Za-z0-9._/:@+-]), else in POSIX single quotes (a quote inside as '\''), so that a copied command never runs
// what a model document's source or id holds. One that would read as an option (a leading '-'), one with a control
// character (a line break would split the command), or none at all, is the placeholder MODEL.
std::string shell_word(const std::string& repo) {
  if (repo.empty() || repo.front() == '-') return "MODEL";
  for (unsigned char c : repo)
    if (c < 0x20 || c == 0x7f) return "MODEL";
  const bool plain = repo.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/:@+-") == std::string::npos;
  if (plain) return repo;
  std::string q = "'";
  for (char c : repo) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string flag_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string vllm_one(const std::string& repo, const ParallelPlan& p, long long batch, long long budget, const Workload& w,
                     bool replicas, const std::string& extra) {
  std::string c = "vllm serve " + repo + " --tensor-parallel-size " + std::to_string(p.tp);
  if (p.pp > 1) c += " --pipeline-parallel-size " + std::to_string(p.pp);
  if (replicas && p.dp > 1) c += " --data-parallel-size " + std::to_string(p.dp);
  if (p.ep > 1) c += " --enable-expert-parallel";
  c += " --max-num-seqs " + std::to_string(batch) + " --max-num-batched-tokens " + std::to_string(budget);
  // The fraction the forecast used: the request's, else vLLM's default.
  c += " --gpu-memory-utilization " + flag_number(w.memory_fraction > 0 ? w.memory_fraction : 0.9);
  if (w.settings.precision.kv.name == "fp8") c += " --kv-cache-dtype fp8";
  if (w.settings.precision.weights.name == "fp8") c += " --quantization fp8";
  return c + extra;
}

std::string sglang_one(const std::string& repo, const ParallelPlan& p, long long batch, long long budget, const Workload& w,
                       bool replicas, const std::string& extra) {
  std::string c = "python -m sglang.launch_server --model-path " + repo + " --tp " + std::to_string(p.tp);
  if (p.pp > 1) c += " --pp-size " + std::to_string(p.pp);
  if (replicas && p.dp > 1) c += " --dp " + std::to_string(p.dp);
  if (p.ep > 1) c += " --ep-size " + std::to_string(p.ep);
  c += " --max-running-requests " + std::to_string(batch) + " --chunked-prefill-size " + std::to_string(budget);
  // SGLang derives its fraction from the device's memory unless one is given (the forecast's reserve does the same).
  if (w.memory_fraction > 0) c += " --mem-fraction-static " + flag_number(w.memory_fraction);
  if (w.settings.precision.kv.name == "fp8") c += " --kv-cache-dtype fp8_e4m3";
  if (w.settings.precision.weights.name == "fp8") c += " --quantization fp8";
  return c + extra;
}

std::string trtllm_one(const std::string& repo, const ParallelPlan& p, long long batch, long long budget, double fraction) {
  std::string c = "trtllm-serve " + repo + " --tp_size " + std::to_string(p.tp);
  if (p.pp > 1) c += " --pp_size " + std::to_string(p.pp);
  if (p.ep > 1) c += " --ep_size " + std::to_string(p.ep);
  c += " --max_batch_size " + std::to_string(batch) + " --max_num_tokens " + std::to_string(budget);
  return c + " --kv_cache_free_gpu_memory_fraction " + flag_number(fraction);
}

}  // namespace

LaunchCommands launch_commands(const DeployConfig& c, const std::string& model, const Workload& w) {
  LaunchCommands l;
  const std::string repo = shell_word(model);
  const long long B = c.batch, T = c.token_budget;
  if (!c.disaggregated) {
    l.vllm = vllm_one(repo, c.plan, B, T, w, true, "");
    l.sglang = sglang_one(repo, c.plan, B, T, w, true, "");
    l.trtllm = trtllm_one(repo, c.plan, B, T, w.memory_fraction > 0 ? w.memory_fraction : 0.9);
    if (c.plan.dp > 1) l.trtllm = "# " + std::to_string(c.plan.dp) + " servers, one per replica, behind a load balancer\n" + l.trtllm;
    return l;
  }
  const std::string xs = std::to_string(c.prefill.dp), ys = std::to_string(c.plan.dp);
  const std::string nixl = " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'";
  l.vllm = "# " + xs + " prefill instance(s):\n" + vllm_one(repo, c.prefill, B, T, w, false, nixl) + "\n# " + ys +
           " decode instance(s):\n" + vllm_one(repo, c.plan, B, T, w, false, nixl) +
           "\n# a proxy sends each request to a prefill instance, then to a decode instance (vLLM's disaggregated examples)";
  l.sglang = "# " + xs + " prefill instance(s):\n" + sglang_one(repo, c.prefill, B, T, w, false, " --disaggregation-mode prefill") +
             "\n# " + ys + " decode instance(s):\n" + sglang_one(repo, c.plan, B, T, w, false, " --disaggregation-mode decode") +
             "\npython -m sglang_router.launch_router --pd-disaggregation --prefill http://PREFILL_HOST:30000 --decode http://DECODE_HOST:30000";
  l.trtllm = "# disagg.yaml\nhostname: localhost\nport: 8000\nbackend: pytorch\ncontext_servers:\n  num_instances: " + xs +
             "\n  tensor_parallel_size: " + std::to_string(c.prefill.tp) + "\n  max_num_tokens: " + std::to_string(T) +
             "\ngeneration_servers:\n  num_instances: " + ys + "\n  tensor_parallel_size: " + std::to_string(c.plan.tp) +
             "\n  max_batch_size: " + std::to_string(B) + "\ntrtllm-serve disaggregated -c disagg.yaml";
  return l;
}

}  // namespace infercast
