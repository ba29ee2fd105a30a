// Parallelism, speculative decoding and batching curves: collective costs against hand calculations, the split
// checks, what each device holds, the fit of DeepSeek-V3 and Llama-3.1-405B on multi-GPU nodes, and invariants.
#include <catch2/catch.hpp>
#include <cmath>

#include "api/envelope.hpp"
#include "helpers.hpp"
#include "parallel/parallel.hpp"

using namespace infercast;
using test::preset_model;

namespace {

Link nvlink() { return Link{"NVLink", 450e9, 0.5e-6, 0.8}; }  // achievable 360 GB/s
Link ib() { return Link{"IB", 50e9, 2.7e-6, 0.8}; }            // achievable 40 GB/s

Workload workload(i64 batch, i64 prompt, i64 gen, const std::string& w = "bf16", const std::string& kv = "bf16") {
  Workload wl;
  wl.requests = {Request{0, prompt, batch}};
  wl.gen_tokens = gen;
  wl.settings = test::settings("infercast", w, kv);
  return wl;
}

const System& sys(const std::string& id) {
  const System* s = find_system_preset(id);
  REQUIRE(s != nullptr);
  return *s;
}

// The speculative case the tests share: Llama-3.1-70B on four H100s of a DGX with a Llama-3.2-1B draft of 4 tokens at
// acceptance 0.7, a 1,024-token prompt and 256 generated.
struct SpecCase {
  ModelSpec target = preset_model("llama-3.1-70b");
  ModelSpec draft = preset_model("llama-3.2-1b");
  Workload w = workload(1, 1024, 256);
  ParallelPlan p;
  Speculative s;
  SpecCase() {
    p.tp = 4;
    s.draft_tokens = 4;
    s.acceptance = 0.7;
    s.draft = &draft;
  }
  SpecCase(const SpecCase&) = delete;
};

std::string split_error(const std::string& model, const std::string& system, ParallelPlan p) {
  try {
    plan_stages(preset_model(model), p, sys(system));
  } catch (const InputError& e) {
    CHECK(e.code() == "parallel.invalid_split");
    return e.path() + " | " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("collective costs match hand calculations", "[parallel]") {
  const double S = 16 * 1024 * 1024;  // 16 MiB
  const Group node8{8, 1};
  SECTION("ring all-reduce in a node: 2(n-1) hops, 2(n-1)/n of the buffer") {
    const auto c = collective_cost(Collective::AllReduce, S, node8, nvlink(), ib(), CollectiveAlgo::Ring);
    CHECK(c.latency_s == Approx(14 * 0.5e-6));
    CHECK(c.transfer_s == Approx(2.0 * 7 / 8 * S / 360e9));  // 81.556 us
    CHECK(c.seconds == Approx(7e-6 + 81.5559e-6).epsilon(1e-5));
    // Inside one node NCCL's tree is a chain: the same hops and twice the buffer, so auto keeps the ring.
    const auto t = collective_cost(Collective::AllReduce, S, node8, nvlink(), ib(), CollectiveAlgo::Tree);
    CHECK(t.latency_s == Approx(2 * 7 * 0.5e-6));
    CHECK(t.transfer_s == Approx(2 * S / 360e9));
    CHECK(collective_cost(Collective::AllReduce, S, node8, nvlink(), ib(), CollectiveAlgo::Auto).algorithm == "ring");
  }
  SECTION("across two nodes: tree for small buffers, ring for large ones") {
    // NCCL runs a ring per network adapter: a node's 8 crossings carry 8 x 40 GB/s = 320 GB/s, below NVLink's 360.
    const Group two{8, 2};
    const double small = 64 * 1024;
    const auto ring = collective_cost(Collective::AllReduce, small, two, nvlink(), ib(), CollectiveAlgo::Ring);
    CHECK(ring.latency_s == Approx(2 * 14 * 0.5e-6 + 2 * 1 * 2.7e-6));  // 19.4 us
    CHECK(ring.transfer_s == Approx(2.0 * 15 / 16 * small / 320e9));
    const auto tree = collective_cost(Collective::AllReduce, small, two, nvlink(), ib(), CollectiveAlgo::Tree);
    CHECK(tree.latency_s == Approx(2 * (7 * 0.5e-6 + 1 * 2.7e-6)));  // 12.4 us
    CHECK(tree.transfer_s == Approx(2 * small / 320e9));
    CHECK(collective_cost(Collective::AllReduce, small, two, nvlink(), ib(), CollectiveAlgo::Auto).algorithm == "tree");
    CHECK(collective_cost(Collective::AllReduce, 256e6, two, nvlink(), ib(), CollectiveAlgo::Auto).algorithm == "ring");
  }
  SECTION("all-gather and reduce-scatter rings, all-to-all, point-to-point") {
    const auto ag = collective_cost(Collective::AllGather, S, Group{4, 1}, nvlink(), ib(), CollectiveAlgo::Auto);
    CHECK(ag.seconds == Approx(3 * 0.5e-6 + 0.75 * S / 360e9));
    const auto rs = collective_cost(Collective::ReduceScatter, S, Group{8, 2}, nvlink(), ib(), CollectiveAlgo::Auto);
    CHECK(rs.seconds == Approx(14 * 0.5e-6 + 1 * 2.7e-6 + 15.0 / 16 * S / 320e9));
    // Four devices per node across nodes: 4 adapters, 160 GB/s.
    const auto rs4 = collective_cost(Collective::ReduceScatter, S, Group{4, 2}, nvlink(), ib(), CollectiveAlgo::Auto);
    CHECK(rs4.transfer_s == Approx(7.0 / 8 * S / 160e9));
    const auto a2a = collective_cost(Collective::AllToAll, S, node8, nvlink(), ib(), CollectiveAlgo::Auto);
    CHECK(a2a.seconds == Approx(0.5e-6 + 7.0 / 8 * S / 360e9));
    // Spanning nodes: 7/16 of the data over NVLink and 8/16 over InfiniBand at once; the slower one counts.
    const auto a2a2 = collective_cost(Collective::AllToAll, S, Group{8, 2}, nvlink(), ib(), CollectiveAlgo::Auto);
    CHECK(a2a2.seconds == Approx(2.7e-6 + 0.5 * S / 40e9));
    const auto p2p = collective_cost(Collective::PointToPoint, S, Group{1, 2}, nvlink(), ib(), CollectiveAlgo::Auto);
    CHECK(p2p.seconds == Approx(2.7e-6 + S / 40e9));
    CHECK(collective_cost(Collective::AllReduce, S, Group{1, 1}, nvlink(), ib(), CollectiveAlgo::Auto).seconds == 0);
  }
}

TEST_CASE("a device's own link: NCCL's hop latency by link class", "[parallel]") {
  // NVLink-class (H100 SXM, 450 GB/s per direction): 0.5 us per hop; PCIe (L4, 32 GB/s; H100 PCIe, 64 GB/s): 1 us.
  const System nv = single_node_system(*find_hardware_preset("nvidia-h100-sxm"), 8);
  CHECK(nv.intra.latency_s == 0.5e-6);
  CHECK(nv.intra.bandwidth_bytes_per_s == 450e9);
  CHECK(nv.devices_per_node == 8);
  const System l4 = single_node_system(*find_hardware_preset("nvidia-l4"), 4);
  CHECK(l4.intra.latency_s == 1e-6);
  CHECK(l4.intra.name == "device interconnect (PCIe)");
  CHECK(single_node_system(*find_hardware_preset("nvidia-h100-pcie"), 2).intra.latency_s == 1e-6);
  // A ring all-reduce of 1 MiB over 4 L4s: 2(n-1) hops x 1 us + 2(n-1)/n x S / (32 GB/s x 0.8).
  const double S = 1 << 20;
  CHECK(collective_cost(Collective::AllReduce, S, Group{4, 1}, l4.intra, l4.inter, CollectiveAlgo::Ring).seconds ==
        Approx(6 * 1e-6 + 1.5 * S / (32e9 * 0.8)));
}

TEST_CASE("invalid splits are refused with messages that say why", "[parallel]") {
  ParallelPlan p;
  p.tp = 3;
  CHECK(split_error("deepseek-v3", "hgx-h200", p) ==
        "/parallel/tp | /parallel/tp holds 3; DeepSeek-V3: layer 0 has 128 attention heads, which 3 does not divide; "
        "expected one of 1, 2, 4, 8, 16, 32, 64, 128");
  p.tp = 5;  // Phi-3-medium: 40 heads, 10 KV heads, width 17920 all divide by 5, but a group of 5 straddles nodes of 8
  CHECK(split_error("phi-3-medium-4k", "dgx-h100", p) ==
        "/parallel/tp | /parallel/tp holds 5; a tensor-parallel group of 5 would straddle nodes of 8 devices; expected a "
        "divisor of 8 or a multiple of it");
  p = ParallelPlan{};
  p.tp = 8;
  p.ep = 2;
  CHECK(split_error("llama-3.1-405b", "hgx-h200", p) == "/parallel/ep | /parallel/ep holds 2; Llama-3.1-405B has no routed experts; expected 1");
  p.ep = 16;
  CHECK(split_error("deepseek-v3", "hgx-h200", p) ==
        "/parallel/ep | /parallel/ep holds 16 with tp 8; expected a divisor of tp (experts are divided among a stage's "
        "tensor-parallel devices; attention split by data parallelism is not modelled)");
  p = ParallelPlan{};
  p.tp = 16;
  CHECK(split_error("llama-3.1-405b", "hgx-h200", p) ==
        "/parallel | /parallel holds tp 16 x pp 1 x dp 1 = 16 devices; the system \"8x NVIDIA H200 SXM (HGX H200, NVLink 4)\" "
        "has 8; expected at most that many");
  p = ParallelPlan{};
  p.pp = 20;
  CHECK(split_error("llama-3.2-1b", "4x-dgx-h100-ib", p) ==
        "/parallel/pp | /parallel/pp holds 20; Llama-3.2-1B has 16 layers; expected at most one stage per layer");
  // Fewer KV heads than devices: replicated, valid (Llama-3.1-405B has 8 KV heads, tp 16 over two nodes).
  p = ParallelPlan{};
  p.tp = 16;
  CHECK(split_error("llama-3.1-405b", "2x-hgx-h200-ib", p).empty());
}

// A request that names a system and no plan (the CLI's --system without --tp, the page right after a system is
// chosen) runs tensor parallelism over the largest group of one node, at most 8, that the model splits over.
TEST_CASE("a system without a plan runs the largest valid tensor-parallel group of a node", "[parallel]") {
  const auto tp_of = [](const std::string& model, const std::string& system) {
    const ParallelPlan p = default_plan(preset_model(model), sys(system));
    CHECK(p.pp == 1);
    CHECK(p.dp == 1);
    CHECK(p.ep == 1);
    CHECK(split_error(model, system, p).empty());  // never an invalid split
    return p.tp;
  };
  CHECK(tp_of("deepseek-v3", "hgx-h200") == 8);      // 128 heads
  CHECK(tp_of("qwen2.5-7b", "hgx-h200") == 4);       // 28 heads: 8 does not divide them
  CHECK(tp_of("phi-3-medium-4k", "hgx-h200") == 2);  // 10 KV heads: neither 8 nor 4 divides or is a multiple
  CHECK(tp_of("llama-3.1-8b", "2x-dgx-h100-ib") == 8);  // one node of two
  CHECK(tp_of("llama-3.1-8b", "2x-rtx-4090-pcie") == 2);
  // Through the API: the same plan as asking for it, and the request without /parallel says which it ran.
  const json none = call_json("analyze", R"({"model":"deepseek-v3","system":"hgx-h200"})");
  const json given = call_json("analyze", R"({"model":"deepseek-v3","system":"hgx-h200","parallel":{"tp":8}})");
  REQUIRE(none["ok"] == true);
  CHECK(none["value"]["parallel"]["plan"]["tp"] == 8);
  CHECK(none["value"]["parallel"]["plan"]["devices"] == 8);
  CHECK(none["value"]["parallel"]["stages"][0]["fits"] == true);
  CHECK(none["value"]["parallel"]["tpot_s"] == given["value"]["parallel"]["tpot_s"]);
  // A plan given in part keeps its own defaults: pp 2 alone runs tp 1.
  const json pp2 = call_json("analyze", R"({"model":"llama-3.1-8b","system":"hgx-h200","parallel":{"pp":2}})");
  CHECK(pp2["value"]["parallel"]["plan"]["tp"] == 1);
}

// Audit H (a helper asked "does it fit" of public deployments): DeepSeek-V3 in its published FP8 on two DGX H100
// nodes ran tp 8 on one node, 79.4 GiB a device against 70.1 GiB, "does not fit", with 8 devices idle and no word of
// them. SGLang's and vLLM's multi-node recipes run it as tp 8 within a node and a pipeline stage per node.
TEST_CASE("a default plan that one node cannot hold spreads over the nodes", "[parallel]") {
  const json ds = call_json("analyze", R"({"model":"deepseek-v3","system":"2x-dgx-h100-ib"})");
  REQUIRE(ds["ok"] == true);
  const json& plan = ds["value"]["parallel"]["plan"];
  CHECK(plan["tp"] == 8);
  CHECK(plan["pp"] == 2);
  CHECK(plan["devices"] == 16);
  CHECK(ds["value"]["parallel"]["fits"] == true);
  const json& note = ds["value"]["parallel"]["warnings"][0];
  CHECK(note["code"] == "parallel.default_pipeline");
  CHECK(note["message"] ==
        "no /parallel given: one node (tp 8) does not hold the model (a device needs 79.4 GiB of the 70.1 GiB it can use), so "
        "the default plan adds pipeline stages over the nodes, the fewest that hold it (tp 8 x pp 2 on 2 nodes: 41.0 GiB a "
        "device), as multi-node deployments of vLLM and SGLang run");
  // The same as asking for it; asking for one node keeps the answer "does not fit", with no note.
  const json given = call_json("analyze", R"({"model":"deepseek-v3","system":"2x-dgx-h100-ib","parallel":{"tp":8,"pp":2}})");
  CHECK(given["value"]["parallel"]["tpot_s"] == ds["value"]["parallel"]["tpot_s"]);
  const json one = call_json("analyze", R"({"model":"deepseek-v3","system":"2x-dgx-h100-ib","parallel":{"tp":8}})");
  CHECK(one["value"]["parallel"]["fits"] == false);
  for (const auto& w : one["value"]["parallel"]["warnings"]) CHECK(w["code"] != "parallel.default_pipeline");
  // A model one node holds stays on it, and the page and CLI are told the other node is idle.
  const json small = call_json("analyze", R"({"model":"llama-3.1-8b","system":"2x-dgx-h100-ib"})");
  CHECK(small["value"]["parallel"]["plan"]["pp"] == 1);
  CHECK(small["value"]["parallel"]["warnings"][0]["code"] == "parallel.devices_idle");
  CHECK(small["value"]["parallel"]["warnings"][0]["message"] ==
        "no /parallel given: the default plan (tp 8) holds the model on one node and leaves 8 of the system's 16 devices "
        "idle; /parallel/dp replicates it, /parallel/pp spreads it over the nodes");
  // One node: nothing to say.
  const json node = call_json("analyze", R"({"model":"llama-3.1-8b","system":"dgx-h100"})");
  for (const auto& w : node["value"]["parallel"]["warnings"]) CHECK(w["code"].get<std::string>().rfind("parallel.de", 0) != 0);
  // The batching curve says why its plan spans the nodes too (review of stop 57: it gave no note).
  const json curve = call_json("batching", R"({"model":"deepseek-v3","system":"2x-dgx-h100-ib","workload":{"prompt":512,"gen":16}})");
  REQUIRE(curve["ok"] == true);
  CHECK(curve["value"]["plan"]["pp"] == 2);
  CHECK(curve["value"]["warnings"][0]["code"] == "parallel.default_pipeline");
  CHECK(call_json("batching", R"({"model":"llama-3.1-8b","system":"dgx-h100"})")["value"]["warnings"].empty());
  // Serving on the same system runs the same plan.
  const json sv = call_json("serving", R"({"model":"deepseek-v3","system":"2x-dgx-h100-ib","serving":{"concurrency":8,"isl":512,"osl":64,"simulate":false}})");
  REQUIRE(sv["ok"] == true);
  CHECK(sv["value"]["plan"]["pp"] == 2);
  CHECK(sv["value"]["warnings"][0]["code"] == "parallel.default_pipeline");
}

// Serving's default plan: the search holds one request of the load's mean lengths (the model alone fit on one node
// while a 120k-token request did not, and serving then said the pool held no request), and the devices the plan
// leaves idle serve too: replicas where whole ones fit, each one's stages spread over its share.
TEST_CASE("serving's default plan holds a request of the load and fills the system", "[parallel][serving]") {
  const auto serve = [](const std::string& model, const std::string& system, const std::string& extra, int isl) {
    const json r = call_json("serving", R"({"model":")" + model + R"(","system":")" + system + R"(")" + extra +
                                            R"(,"serving":{"concurrency":4,"isl":)" + std::to_string(isl) +
                                            R"(,"osl":1000,"simulate":false}})");
    REQUIRE(r["ok"] == true);
    return r["value"];
  };
  const auto plan = [](const json& v) {
    return std::vector<int>{v["plan"]["tp"].get<int>(), v["plan"]["pp"].get<int>(), v["plan"]["dp"].get<int>()};
  };
  // Llama-3.1-405B in FP8 on two DGX H100 nodes whose devices keep 62 GiB: one node holds the weights and a 1,000-token
  // request, so the second node runs a replica; a 120,000-token request needs both nodes' memory (pp 2).
  const std::string tight = R"(,"precision":{"weights":"fp8"},"memory_capacity_GiB":62)";
  const json shorter = serve("llama-3.1-405b", "2x-dgx-h100-ib", tight, 1000);
  CHECK(plan(shorter) == std::vector<int>{8, 1, 2});
  CHECK(shorter["warnings"][0]["code"] == "parallel.default_serving");
  CHECK(shorter["warnings"][0]["message"] ==
        "no /parallel given: serving runs 2 replicas of tp 8 over the system's 16 devices: one node's plan (tp 8), "
        "repeated as a router spreads requests over vLLM or SGLang instances (/parallel/dp)");
  const json longer = serve("llama-3.1-405b", "2x-dgx-h100-ib", tight, 120000);
  CHECK(plan(longer) == std::vector<int>{8, 2, 1});
  CHECK(longer["warnings"][0]["code"] == "parallel.default_pipeline");
  CHECK(longer["memory"]["max_concurrency"].get<double>() >= 1);
  // One node's plan there holds no such request: asked for, the pool is too small for it.
  const json one = call_json("serving", R"({"model":"llama-3.1-405b","system":"2x-dgx-h100-ib","precision":{"weights":"fp8"},
    "memory_capacity_GiB":62,"parallel":{"tp":8},"serving":{"concurrency":4,"isl":120000,"osl":1000,"simulate":false}})");
  CHECK(one["ok"] == false);
  // DeepSeek-V3 in BF16 on four DGX H100 nodes: three stages hold it, one replica fits, and its stages take the fourth
  // node too (each device keeps more room for the cache: more requests at once). The same as asking for it.
  const json ds = serve("deepseek-v3", "4x-dgx-h100-ib", R"(,"precision":{"weights":"bf16"})", 1000);
  CHECK(plan(ds) == std::vector<int>{8, 4, 1});
  CHECK(ds["warnings"][0]["message"] ==
        "no /parallel given: serving runs 1 replica of tp 8 x pp 4 over the system's 32 devices: the fewest stages that "
        "hold the model and one request of the load (tp 8 x pp 3), spread to pp 4 so that each device keeps more room for "
        "the cache");
  const json three = call_json("serving", R"({"model":"deepseek-v3","system":"4x-dgx-h100-ib","precision":{"weights":"bf16"},
    "parallel":{"tp":8,"pp":3},"serving":{"concurrency":4,"isl":1000,"osl":1000,"simulate":false}})");
  REQUIRE(three["ok"] == true);
  CHECK(ds["memory"]["max_concurrency"].get<double>() > 2 * three["value"]["memory"]["max_concurrency"].get<double>());
  const json asked = call_json("serving", R"({"model":"deepseek-v3","system":"4x-dgx-h100-ib","precision":{"weights":"bf16"},
    "parallel":{"tp":8,"pp":4},"serving":{"concurrency":4,"isl":1000,"osl":1000,"simulate":false}})");
  CHECK(asked["value"]["ttft_s"] == ds["ttft_s"]);
  // One node whose plan leaves devices idle (Qwen2.5-7B's 28 heads split over 4 of 8): two replicas.
  CHECK(plan(serve("qwen2.5-7b", "dgx-h100", "", 1000)) == std::vector<int>{4, 1, 2});
  // Nothing idle: no note. A runtime that splits layers keeps its stages (llama.cpp: a stage per device).
  CHECK(serve("llama-3.1-8b", "dgx-h100", "", 1000)["warnings"].empty());
  const json layers = serve("llama-3.1-8b", "8x-rtx-4090-pcie", "", 1000);
  CHECK(plan(layers) == std::vector<int>{1, 8, 1});
  CHECK(layers["warnings"][0]["code"] == "parallel.default_layers");
  // analyze keeps one node's plan (a static batch's throughput is the one asked about).
  CHECK(call_json("analyze", R"({"model":"llama-3.1-8b","system":"2x-dgx-h100-ib"})")["value"]["parallel"]["plan"]["dp"] == 1);
}

// Review of stop 57: the widened plan took a stage per node on every node (DeepSeek-V3 on 1,000 nodes: pp 61, one
// layer a stage), and the search's work was checked apart from the forecast's (a call could reach twice the limit,
// or be refused for work one node would have done).
TEST_CASE("the default plan takes the fewest nodes that hold the model, its search checked with the call's work", "[parallel][work]") {
  nlohmann::json system = nlohmann::json::parse(R"({"schema_version":1,"id":"dgx-h100-cluster","name":"DGX H100 nodes",
    "device":"nvidia-h100-sxm","devices_per_node":8,"nodes":8,
    "intra":{"name":"NVLink 4 via NVSwitch","bandwidth_GBps":450,"latency_us":0.5,"efficiency":0.8},
    "inter":{"name":"InfiniBand NDR","bandwidth_GBps":50,"latency_us":2.7,"efficiency":0.8},"source":"test"})");
  const auto ask = [&](int nodes, const nlohmann::json& extra) {
    nlohmann::json req = {{"model", "deepseek-v3"}, {"system", system}};
    req["system"]["nodes"] = nodes;
    req.update(extra);
    return nlohmann::json::parse(call("analyze", req.dump()));
  };
  // FP8 as published: two nodes hold it, on 8 as on 1,000.
  for (int nodes : {8, 1000}) {
    const nlohmann::json env = ask(nodes, nlohmann::json::object());
    REQUIRE(env["ok"] == true);
    CHECK(env["value"]["parallel"]["plan"]["pp"] == 2);
    CHECK(env["value"]["parallel"]["fits"] == true);
  }
  // BF16 weights need three: two do not fit, and the note names the idle devices.
  const nlohmann::json bf16 = ask(8, {{"precision", {{"weights", "bf16"}}}});
  const nlohmann::json& p = bf16["value"]["parallel"];
  CHECK(p["plan"]["pp"] == 3);
  CHECK(p["fits"] == true);
  CHECK(p["warnings"][0]["message"] ==
        "no /parallel given: one node (tp 8) does not hold the model (a device needs 158.0 GiB of the 70.1 GiB it can use), so "
        "the default plan adds pipeline stages over the nodes, the fewest that hold it (tp 8 x pp 3 on 3 of the 8 nodes: 56.9 "
        "GiB a device), as multi-node deployments of vLLM and SGLang run; it leaves 40 of the system's 64 devices idle, "
        "/parallel/dp replicates it");
  // The search's answer is the least count that fits, found by trying every one, under vLLM and under SGLang (whose
  // own reserve grows with the plan's devices, so the need can grow again with more stages: review of stop 58).
  for (const char* rt : {"vllm", "sglang"}) {
    INFO(rt);
    const nlohmann::json chosen = ask(8, {{"precision", {{"weights", "bf16"}}}, {"runtime", rt}});
    int least = 0;
    for (int pp = 2; pp <= 8 && least == 0; ++pp)
      if (ask(8, {{"precision", {{"weights", "bf16"}}}, {"runtime", rt}, {"parallel", {{"tp", 8}, {"pp", pp}}}})["value"]["parallel"]["fits"] == true)
        least = pp;
    REQUIRE(least > 0);
    CHECK(chosen["value"]["parallel"]["plan"]["pp"] == least);
  }
  // Two nodes cannot hold it in BF16: the stages closest to fitting, and the note says they still do not.
  const nlohmann::json two_nodes = ask(2, {{"precision", {{"weights", "bf16"}}}});
  CHECK(two_nodes["value"]["parallel"]["plan"]["pp"] == 2);
  CHECK(two_nodes["value"]["parallel"]["fits"] == false);
  CHECK(two_nodes["value"]["parallel"]["warnings"][0]["message"].get<std::string>().find(
            "the closest to fitting, and still does not hold it; expected smaller weights (/precision/weights), a shorter "
            "workload or more devices") != std::string::npos);
  const nlohmann::json two = ask(8, {{"precision", {{"weights", "bf16"}}}, {"parallel", {{"tp", 8}, {"pp", 2}}}});
  CHECK(two["value"]["parallel"]["fits"] == false);
  const nlohmann::json three = ask(8, {{"precision", {{"weights", "bf16"}}}, {"parallel", {{"tp", 8}, {"pp", 3}}}});
  CHECK(three["value"]["parallel"]["tpot_s"] == p["tpot_s"]);

  // 10,001 steps of a Llama that one node holds, on 64 nodes: the search forecasts one node only (three analyses in
  // all with the plan's); charging a stage per node up front (66 analyses, 10.6M operator-steps) refused it.
  system["nodes"] = 64;
  const nlohmann::json small = nlohmann::json::parse(call("analyze", nlohmann::json({{"model", "llama-3.1-8b"}, {"system", system},
      {"workload", {{"prompt", 10000}, {"prefill_chunk", 1}, {"gen", 1}}}}).dump()));
  REQUIRE(small["ok"] == true);
  CHECK(small["value"]["parallel"]["plan"]["pp"] == 1);
  // The search's three analyses and the plan's three are checked together: each half alone passed.
  const nlohmann::json heavy = nlohmann::json::parse(call("analyze",
      R"({"model":"deepseek-v3","system":"2x-dgx-h100-ib","workload":{"prompt":40000,"prefill_chunk":1,"gen":1}})"));
  REQUIRE(heavy["ok"] == false);
  CHECK(heavy["error"]["code"] == "workload.too_much_work");
  CHECK(heavy["error"]["message"] ==
        "/workload: the default plan's search over the nodes and the plan's stages runs 6 analyses of 40001 steps each, 40000 "
        "prefill chunks and 1 decode interval (an interval ends where a request's keys cross a sliding window, an attention "
        "chunk or the attention tile), with 40 operators a step: 9600240 operator-steps in all, past the limit of 8388608; "
        "expected fewer generated tokens, fewer distinct requests, or a larger prefill chunk or tile");
}

// llama.cpp splits a model's layers over its GPUs unless told otherwise (--split-mode layer, common/common.h), so two
// RTX 4090s run Llama-3.1-70B's 80 layers as two stages of 40 that a token passes in turn: the step is both stages'
// time and the hop between them, not half of one device's (the default plan was tp 2, vLLM's, a third too fast).
TEST_CASE("a runtime that splits by layers runs every device as a stage by default", "[parallel][runtime]") {
  const json ll = call_json("analyze", R"({"model":"llama-3.1-70b","system":"2x-rtx-4090-pcie","precision":{"weights":"q4_k_m"}})");
  REQUIRE(ll["ok"] == true);
  const json& p = ll["value"]["parallel"];
  CHECK(ll["value"]["execution"]["runtime"] == "llama.cpp-cuda");
  CHECK(p["plan"]["tp"] == 1);
  CHECK(p["plan"]["pp"] == 2);
  CHECK(p["stages"][0]["layers"] == 40);
  CHECK(p["warnings"][0]["code"] == "parallel.default_layers");
  CHECK(p["warnings"][0]["message"] ==
        "no /parallel given: llama.cpp (CUDA) splits a model's layers over the devices by default (pp 2: each device holds "
        "consecutive layers and their cache, and a token passes them in turn); /parallel/tp splits every layer over the "
        "devices instead (tensor parallelism)");
  // By hand: one request's step is the two stages' own steps and the hop of its hidden state (8,192 x 2 bytes).
  const double stages = p["stages"][0]["tpot_s"].get<double>() + p["stages"][1]["tpot_s"].get<double>();
  CHECK(p["communication"]["decode_step"][0]["bytes"] == 16384);
  CHECK(p["tpot_s"].get<double>() == Approx(stages + p["communication"]["decode_step_s"].get<double>()).epsilon(1e-3));
  // The same as asking for it; vLLM on the same system keeps tensor parallelism, with no such note.
  const json asked = call_json("analyze", R"({"model":"llama-3.1-70b","system":"2x-rtx-4090-pcie","precision":{"weights":"q4_k_m"},"parallel":{"pp":2}})");
  CHECK(asked["value"]["parallel"]["tpot_s"] == p["tpot_s"]);
  const json v = call_json("analyze", R"({"model":"llama-3.1-70b","system":"2x-rtx-4090-pcie","runtime":"vllm","precision":{"weights":"int4-g128"}})");
  CHECK(v["value"]["parallel"]["plan"]["tp"] == 2);
  for (const auto& w : v["value"]["parallel"]["warnings"]) CHECK(w["code"] != "parallel.default_layers");
  // Serving under a layer-split runtime without a scheduler block of its own (ExLlamaV2) passes a step through the
  // stages in turn: no micro-batches in flight (review of stop 58); vLLM keeps them.
  for (const auto& [rt, overlap] : {std::pair<const char*, bool>{"exllamav2", false}, {"vllm", true}}) {
    const json sv = call_json("serving", std::string(R"({"model":"llama-3.1-8b","system":"2x-rtx-4090-pcie","runtime":")") + rt +
                                             R"(","parallel":{"pp":2},"serving":{"concurrency":4,"isl":128,"osl":16}})");
    REQUIRE(sv["ok"] == true);
    CHECK(sv["value"]["scheduler"]["pp_micro_batches"] == overlap);
  }
  // More devices than layers: a stage per layer, the rest named idle.
  const json tiny = call_json("analyze", R"({"model":{"model_type":"llama","hidden_size":256,"num_attention_heads":4,
      "num_key_value_heads":4,"intermediate_size":512,"num_hidden_layers":2,"vocab_size":1024},"system":"4x-rtx-4090-pcie"})");
  CHECK(tiny["value"]["parallel"]["plan"]["pp"] == 2);
  CHECK(tiny["value"]["parallel"]["warnings"][0]["message"].get<std::string>().find(
            "(2 of the system's 4 devices left idle: a stage holds at least one layer)") != std::string::npos);
}

// Audit H's leftover: a plan gave the largest batch but not the longest context, the other half of the user's first
// question. It is each stage's own (its devices' memory at this batch), the smallest of them: the context at which
// the plan still fits, and one token block past it it does not.
TEST_CASE("a plan says the longest context its devices hold at this batch", "[parallel][memory]") {
  const auto plan = [](int prompt) {
    return call_json("analyze", R"({"model":"llama-3.1-70b","system":"2x-rtx-4090-pcie","precision":{"weights":"q4_k_m"},"workload":{"prompt":)" +
                                    std::to_string(prompt) + R"(,"gen":1}})")["value"]["parallel"];
  };
  const json p = plan(512);
  const double c = p["max_context"].get<double>();
  CHECK(c > 10000);
  CHECK(c < 131072);  // memory binds, not the window
  CHECK(plan(static_cast<int>(c) - 1)["fits"] == true);
  CHECK(plan(static_cast<int>(c) + 256)["fits"] == false);
  // DeepSeek-V3 on eight H200s holds its whole 163,840-token window; with a draft the figure is not computed.
  CHECK(call_json("analyze", R"({"model":"deepseek-v3","system":"hgx-h200"})")["value"]["parallel"]["max_context"] == 163840);
  CHECK(call_json("analyze", R"({"model":"llama-3.1-8b","system":"dgx-h100","speculative":{"model":"llama-3.2-1b"}})")["value"]["parallel"]["max_context"].is_null());
}

TEST_CASE("each device holds its share of the parameters", "[parallel]") {
  SECTION("tensor parallel: devices x share - replicated norms = the model") {
    const ModelSpec m = preset_model("llama-3.1-70b");  // vocab 128256 and 8 KV heads divide by 8
    ParallelPlan p;
    p.tp = 8;
    const auto stages = plan_stages(m, p, sys("dgx-h100"));
    REQUIRE(stages.size() == 1);
    const ParamCounts whole = count_params(m), dev = count_params(stages[0].model);
    CHECK(8 * dev.total - 7 * dev.norms == whole.total);
    CHECK(dev.norms == whole.norms);
    CHECK(stages[0].model.layers[0].attn.n_kv_heads == 1);
  }
  SECTION("pipeline stages partition the layers; the embedding goes first and the head last") {
    const ModelSpec m = preset_model("llama-3.1-8b");
    ParallelPlan p;
    p.pp = 3;
    const auto stages = plan_stages(m, p, sys("dgx-h100"));
    REQUIRE(stages.size() == 3);
    CHECK(stages[0].layers + stages[1].layers + stages[2].layers == 32);
    // vLLM's get_pp_indices: 10 each, the 2 left over to the stages before the last: [11, 11, 10].
    CHECK(stages[0].layers == 11);
    CHECK(stages[1].first_layer == 11);
    CHECK(stages[2].first_layer == 22);
    CHECK(stages[2].layers == 10);
    // DeepSeek-V3's 61 layers over 2 stages: [31, 30]; 126 over 4: [31, 32, 32, 31].
    ParallelPlan p2;
    p2.pp = 2;
    const auto ds = plan_stages(preset_model("deepseek-v3"), p2, sys("dgx-h100"));
    CHECK(ds[0].layers == 31);
    CHECK(ds[1].layers == 30);
    ParallelPlan p4;
    p4.pp = 4;
    const auto big = plan_stages(preset_model("llama-3.1-405b"), p4, sys("dgx-h100"));
    CHECK((std::vector<int>{big[0].layers, big[1].layers, big[2].layers, big[3].layers}) == std::vector<int>{31, 32, 32, 31});
    i64 sum = 0;
    for (const auto& st : stages) sum += count_params(st.model).total;
    CHECK(sum == count_params(m).total);
    CHECK(count_params(stages[0].model).embedding > 0);
    CHECK(count_params(stages[0].model).lm_head == 0);
    CHECK(count_params(stages[2].model).lm_head > 0);
    CHECK(count_params(stages[1].model).embedding + count_params(stages[1].model).lm_head == 0);
  }
  SECTION("a tied head on the last stage is its own copy") {
    const ModelSpec m = preset_model("llama-3.2-1b");  // tied embeddings
    ParallelPlan p;
    p.pp = 2;
    const auto stages = plan_stages(m, p, sys("dgx-h100"));
    const i64 table = m.vocab * m.hidden;
    CHECK(count_params(stages[0].model).total + count_params(stages[1].model).total == count_params(m).total + table);
  }
}

TEST_CASE("DeepSeek-V3 fits on 8 H200 and not on one, Llama-3.1-405B needs the right node", "[parallel]") {
  const ModelSpec ds = preset_model("deepseek-v3");
  const Workload w = workload(1, 1024, 256, "fp8", "bf16");
  const Analysis one = analyze(ds, w, &sys("hgx-h200").device);
  CHECK_FALSE(one.fits);
  ParallelPlan p;
  p.tp = 8;
  const PlanForecast f = forecast_plan(ds, w, sys("hgx-h200"), p, Speculative{});
  CHECK(f.fits);
  CHECK(f.device_required_bytes < 141e9);
  CHECK(f.device_required_bytes > 671e9 / 8);  // its share of the FP8 weights, plus replicated latent cache and norms
  CHECK(f.ttft_s > 0);
  CHECK(f.tpot_mean_s > 0);
  // Expert parallelism inside tensor parallelism: the same work per device and the same all-reduces (every device
  // holds every token; vLLM dispatches with an all-to-all only under data-parallel attention).
  p.ep = 8;
  const PlanForecast e = forecast_plan(ds, w, sys("hgx-h200"), p, Speculative{});
  CHECK(e.fits);
  bool has_a2a = false;
  for (const auto& l : e.decode_comm.lines) has_a2a = has_a2a || l.kind == Collective::AllToAll;
  CHECK_FALSE(has_a2a);
  CHECK(e.decode_comm.seconds == Approx(f.decode_comm.seconds));
  CHECK(e.decode_comm.lines.size() == f.decode_comm.lines.size());

  const ModelSpec big = preset_model("llama-3.1-405b");
  ParallelPlan t8;
  t8.tp = 8;
  CHECK_FALSE(forecast_plan(big, workload(1, 1024, 128), sys("dgx-h100"), t8, Speculative{}).fits);  // 810 GB / 8 > 80 GB
  CHECK(forecast_plan(big, workload(1, 1024, 128, "fp8"), sys("dgx-h100"), t8, Speculative{}).fits);
  ParallelPlan t8p2 = t8;
  t8p2.pp = 2;
  const PlanForecast two = forecast_plan(big, workload(1, 1024, 128), sys("2x-dgx-h100-ib"), t8p2, Speculative{});
  CHECK(two.fits);
  bool inter = false;
  for (const auto& l : two.decode_comm.lines) inter = inter || (l.kind == Collective::PointToPoint && l.inter_node);
  CHECK(inter);  // the stage boundary crosses the InfiniBand link
}

TEST_CASE("plan forecasts add stage times and communication", "[parallel]") {
  const ModelSpec m = preset_model("llama-3.1-70b");
  const Workload w = workload(4, 512, 64);
  SECTION("one device: the plan is the single-device analysis") {
    const PlanForecast f = forecast_plan(m, w, sys("dgx-h100"), ParallelPlan{}, Speculative{});
    const Analysis a = analyze(m, w, &sys("dgx-h100").device);
    CHECK(f.ttft_s == Approx(a.ttft_s));
    CHECK(f.tpot_mean_s == Approx(a.tpot_mean_s));
    CHECK(f.decode_comm.seconds == 0);
  }
  SECTION("tensor parallel: two all-reduces per layer, one for the embedding, a gather of the logits") {
    ParallelPlan p;
    p.tp = 8;
    const PlanForecast f = forecast_plan(m, w, sys("dgx-h100"), p, Speculative{});
    double calls = 0, ar = 0;
    for (const auto& l : f.decode_comm.lines) {
      calls += l.calls;
      if (l.kind == Collective::AllReduce) ar += l.calls;
    }
    CHECK(ar == 2 * 80 + 1);
    CHECK(calls == 2 * 80 + 2);
    // Each decode all-reduce moves batch x hidden x 2 bytes.
    for (const auto& l : f.decode_comm.lines)
      if (l.what == "attention output") CHECK(l.bytes == Approx(80 * 4 * 8192 * 2.0));
    const Analysis dev = analyze(f.stages[0].model, w, &sys("dgx-h100").device);
    CHECK(f.tpot_mean_s == Approx(dev.tpot_mean_s + f.decode_comm.seconds));
    CHECK(f.ttft_s == Approx(dev.ttft_s + f.prefill_comm.seconds));
    const Analysis whole = analyze(m, w, &sys("dgx-h100").device);
    CHECK(f.tpot_mean_s < whole.tpot_mean_s);  // 8 devices beat one spilling one
  }
  SECTION("pipeline: stages in sequence plus the boundary") {
    ParallelPlan p;
    p.tp = 4;
    p.pp = 2;
    const PlanForecast f = forecast_plan(m, w, sys("dgx-h100"), p, Speculative{});
    CHECK(f.ttft_s == Approx(f.stages[0].a.ttft_s + f.stages[1].a.ttft_s + f.prefill_comm.seconds));
    CHECK(f.devices == 8);
    CHECK(f.total_tokens_per_s == Approx(4 / f.tpot_mean_s));
  }
  SECTION("data-parallel replicas multiply throughput, not per-sequence speed") {
    ParallelPlan p;
    p.tp = 4;
    const PlanForecast one = forecast_plan(m, w, sys("dgx-h100"), p, Speculative{});
    p.dp = 2;
    const PlanForecast two = forecast_plan(m, w, sys("dgx-h100"), p, Speculative{});
    CHECK(two.tpot_mean_s == Approx(one.tpot_mean_s));
    CHECK(two.total_tokens_per_s == Approx(2 * one.total_tokens_per_s));
    CHECK(two.tokens_per_s_per_device == Approx(one.tokens_per_s_per_device));
  }
}

TEST_CASE("speculative decoding: expected tokens and TPOT", "[parallel]") {
  CHECK(speculative_tokens_per_step(0.8, 3) == Approx((1 - std::pow(0.8, 4)) / 0.2));  // 2.952
  CHECK(speculative_tokens_per_step(1.0, 4) == 5);
  CHECK(speculative_tokens_per_step(0.0, 4) == 1);
  CHECK(speculative_tokens_per_step(0.5, 1) == Approx(1.5));
  SpecCase c;
  const ModelSpec& target = c.target;
  const Workload& w = c.w;
  const ParallelPlan& p = c.p;
  Speculative& s = c.s;
  const PlanForecast f = forecast_plan(target, w, sys("dgx-h100"), p, s);
  REQUIRE(f.spec.enabled);
  CHECK(f.spec.tokens_per_step == Approx((1 - std::pow(0.7, 5)) / 0.3));
  CHECK(f.spec.tpot_s == Approx((4 * f.spec.draft_step_s + f.spec.verify_step_s) / f.spec.tokens_per_step));
  CHECK(f.spec.draft_step_s < f.spec.plain_tpot_s);
  CHECK(f.spec.verify_step_s > f.tpot_first_s * 0.99);  // five tokens per request cost at least one
  CHECK(f.spec.speedup > 1);
  CHECK(f.spec.draft_weights_bytes > 0);
  // The plan's figures are the speculative ones: TPOT, and the throughput and end-to-end time that follow from it
  // (they once stayed at plain decoding's while TPOT changed).
  const PlanForecast plain = forecast_plan(target, w, sys("dgx-h100"), p, Speculative{});
  CHECK(f.tpot_mean_s == Approx(f.spec.tpot_s));
  CHECK(f.spec.plain_tpot_s == Approx(plain.tpot_mean_s));
  CHECK(f.tokens_per_s == Approx(1 / f.spec.tpot_s));
  CHECK(f.total_tokens_per_s == Approx(plain.total_tokens_per_s * f.spec.speedup));
  CHECK(f.tokens_per_s_per_device == Approx(f.total_tokens_per_s / 4));
  CHECK(f.e2e_s == Approx(f.ttft_s + 255 * f.spec.tpot_s));
  CHECK(f.spec.plain_e2e_s == Approx(plain.e2e_s));
  CHECK(f.tpot_first_s == Approx(plain.tpot_first_s / f.spec.speedup));
  // The draft's weights and cache share the first stage's devices: the largest batch is smaller by what they take,
  // and a draft larger than the room left fits no batch (a 405B draft of an 8B target once showed 542 and "fits").
  CHECK(f.max_batch < plain.max_batch);
  CHECK(f.max_batch > 0.5 * plain.max_batch);
  const ModelSpec small = preset_model("llama-3.1-8b"), huge = preset_model("llama-3.1-405b");
  Speculative big = s;
  big.draft = &huge;
  const PlanForecast g = forecast_plan(small, w, sys("dgx-h100"), ParallelPlan{}, big);
  CHECK_FALSE(g.fits);
  CHECK(g.max_batch == 0);
  // The drafter runs inside the verification's engine step: vLLM's step overhead is paid once per step, by the
  // verification, never by a draft step.
  Workload wv = w;
  wv.runtime = find_runtime_preset("vllm");
  REQUIRE(wv.runtime->step_overhead_s > 100e-6);
  RuntimeSpec lean = *wv.runtime;
  lean.step_overhead_s = 0;
  Workload wl = w;
  wl.runtime = &lean;
  const PlanForecast fv = forecast_plan(target, wv, sys("dgx-h100"), p, s);
  const PlanForecast fl = forecast_plan(target, wl, sys("dgx-h100"), p, s);
  CHECK(fv.spec.draft_step_s == Approx(fl.spec.draft_step_s));
  CHECK(fv.spec.verify_step_s - fl.spec.verify_step_s == Approx(wv.runtime->step_overhead_s));
  // Acceptance 0: every step yields one token after paying for the draft; slower than plain decoding.
  s.acceptance = 0;
  CHECK(forecast_plan(target, w, sys("dgx-h100"), p, s).spec.speedup < 1);
  // MTP: DeepSeek-V3 has one module; a dense Llama has none.
  Speculative mtp;
  mtp.draft_tokens = 1;
  mtp.acceptance = 0.85;
  mtp.mtp = true;
  ParallelPlan p8;
  p8.tp = 8;
  const PlanForecast d = forecast_plan(preset_model("deepseek-v3"), workload(1, 1024, 256, "fp8"), sys("hgx-h200"), p8, mtp);
  CHECK(d.spec.tokens_per_step == Approx(1.85));
  CHECK(d.spec.speedup > 1.3);
  // Verification runs MLA absorbed, as a decode (vLLM raises its MLA decode threshold to 1 + the speculative
  // tokens): the same step as with the absorbed form forced, and far cheaper than kv_b_proj over the whole cache.
  Workload absorbed = workload(1, 8192, 256, "fp8");
  absorbed.settings.mla = MlaForm::Absorbed;
  Workload expanded = absorbed;
  expanded.settings.mla = MlaForm::Expanded;
  const PlanForecast a8 = forecast_plan(preset_model("deepseek-v3"), workload(1, 8192, 256, "fp8"), sys("hgx-h200"), p8, mtp);
  CHECK(a8.spec.verify_step_s == Approx(forecast_plan(preset_model("deepseek-v3"), absorbed, sys("hgx-h200"), p8, mtp).spec.verify_step_s));
  CHECK(a8.spec.verify_step_s < 0.9 * forecast_plan(preset_model("deepseek-v3"), expanded, sys("hgx-h200"), p8, mtp).spec.verify_step_s);
  try {
    forecast_plan(target, w, sys("dgx-h100"), p, mtp);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "/speculative/draft holds \"mtp\"; Llama-3.1-70B has no multi-token-prediction layers (num_nextn_predict_layers); expected a draft model");
  }
}

TEST_CASE("batching curve: throughput grows, latency grows, the cache stops fitting", "[parallel]") {
  const ModelSpec m = preset_model("llama-3.1-70b");
  ParallelPlan p;
  p.tp = 4;
  const BatchingCurve c = batching_curve(m, workload(1, 1024, 512, "fp8", "fp8"), sys("dgx-h100"), p, Speculative{}, 65536);
  REQUIRE(c.points.size() > 5);
  CHECK(c.kv_fit_batch > 100);
  bool saw_fit = false, saw_no_fit = false;
  for (std::size_t i = 1; i < c.points.size(); ++i) {
    const auto &a = c.points[i - 1], &b = c.points[i];
    CHECK(b.batch > a.batch);
    CHECK(b.tpot_s >= a.tpot_s);
    CHECK(b.total_tokens_per_s > a.total_tokens_per_s);
    CHECK(b.tokens_per_s_per_user <= a.tokens_per_s_per_user);
  }
  for (const auto& pt : c.points) {
    CHECK(pt.fits == (pt.batch <= c.kv_fit_batch));
    saw_fit = saw_fit || pt.batch == c.kv_fit_batch;
    saw_no_fit = saw_no_fit || pt.batch == c.kv_fit_batch + 1;
  }
  CHECK(saw_fit);
  CHECK(saw_no_fit);
}

// Audit H (a helper read vLLM's v1/spec_decode/metrics.py and SGLang's metrics collector against ours): alpha is the
// chance a drafted token is accepted once those before it were, while vLLM logs "Draft acceptance rate" (accepted /
// drafted) and "Mean acceptance length" (1 + accepted / drafts). Pasting vLLM's 44.3% as acceptance gave 1.77 tokens
// a step instead of 2.77 and TPOT 14.1 ms instead of 9.0. The mean acceptance length is now an input of its own, and
// the result gives the rate in vLLM's terms. The drafter's pass over the prompt (vLLM's proposer, SGLang's
// draft-extend) runs in the step that yields the first token, so it is in TTFT.
TEST_CASE("speculative decoding: the runtimes' acceptance metrics, and the draft's prefill in TTFT", "[parallel]") {
  // The inverse of the expected tokens per step, to the bisection's precision, at its ends too.
  for (int g : {1, 3, 4, 16})
    for (double a : {0.0, 0.3, 0.7, 0.95, 1.0})
      CHECK(speculative_acceptance_for_length(speculative_tokens_per_step(a, g), g) == Approx(a).margin(1e-9));
  SpecCase c;
  const ModelSpec& target = c.target;
  const ModelSpec& draft = c.draft;
  const Workload& w = c.w;
  const ParallelPlan& p = c.p;
  const Speculative& by_alpha = c.s;
  Speculative by_length = by_alpha;
  by_length.acceptance = 0.8;  // ignored: the length is given
  by_length.acceptance_length = (1 - std::pow(0.7, 5)) / 0.3;  // 2.7731
  const PlanForecast fa = forecast_plan(target, w, sys("dgx-h100"), p, by_alpha);
  const PlanForecast fl = forecast_plan(target, w, sys("dgx-h100"), p, by_length);
  CHECK(fl.spec.tokens_per_step == by_length.acceptance_length);
  CHECK(fl.spec.acceptance == Approx(0.7).margin(1e-9));
  CHECK(fl.spec.tpot_s == Approx(fa.spec.tpot_s));
  // vLLM's draft acceptance rate for alpha 0.7 and four drafted tokens: (2.7731 - 1) / 4 = 44.33%.
  CHECK(fa.spec.draft_acceptance_rate == Approx((fa.spec.tokens_per_step - 1) / 4));
  CHECK(fa.spec.draft_acceptance_rate == Approx(0.44328).margin(1e-5));
  // TTFT: the plain one and the draft's prefill, which is the draft's own shard (tp 4) over the prompt.
  const PlanForecast plain = forecast_plan(target, w, sys("dgx-h100"), p, Speculative{});
  const std::vector<Stage> ds = plan_stages(draft, p, sys("dgx-h100"));
  const double by_hand = analyze(ds.front().model, w, &sys("dgx-h100").device).ttft_s;
  CHECK(fa.spec.draft_prefill_s == Approx(by_hand));
  CHECK(fa.spec.draft_prefill_s > 0.005 * plain.ttft_s);
  CHECK(fa.ttft_s == Approx(plain.ttft_s + fa.spec.draft_prefill_s));
  CHECK(fa.e2e_s == Approx(fa.ttft_s + 255 * fa.spec.tpot_s));
  // The largest batch with the draft is where `fits` turns false (audit H: 212 while 222 still fit, from the plain
  // batch's room less the draft's weights with activations growing with the batch; with a budget step's activations
  // under vLLM it is exact).
  Workload wv = w;
  wv.runtime = find_runtime_preset("vllm");
  const double mb = forecast_plan(target, wv, sys("dgx-h100"), p, by_alpha).max_batch;
  REQUIRE(mb > 100);
  Workload at = workload(static_cast<i64>(mb), 1024, 256), past = workload(static_cast<i64>(mb) + 1, 1024, 256);
  at.runtime = past.runtime = wv.runtime;
  CHECK(forecast_plan(target, at, sys("dgx-h100"), p, by_alpha).fits);
  CHECK_FALSE(forecast_plan(target, past, sys("dgx-h100"), p, by_alpha).fits);
  // Through the API, and its refusals.
  const json ok = call_json("analyze", R"({"model":"llama-3.1-70b","system":"dgx-h100","parallel":{"tp":4},
    "workload":{"batch":1,"prompt":1024,"gen":256},"speculative":{"model":"llama-3.2-1b","draft_tokens":4,"acceptance_length":2.5}})");
  REQUIRE(ok["ok"] == true);
  CHECK(ok["value"]["speculative"]["tokens_per_step"] == 2.5);
  CHECK(ok["value"]["speculative"]["draft_acceptance_rate"] == Approx(0.375));
  const auto error = [](const std::string& spec) {
    const json e = call_json("analyze", R"({"model":"llama-3.1-70b","system":"dgx-h100","speculative":)" + spec + "}");
    return e["error"]["code"].get<std::string>() + " | " + e["error"]["path"].get<std::string>() + " | " + e["error"]["message"].get<std::string>();
  };
  CHECK(error(R"({"model":"llama-3.2-1b","draft_tokens":3,"acceptance_length":4.5})") ==
        "request.out_of_range | /speculative/acceptance_length | /speculative/acceptance_length holds 4.5; expected at most draft_tokens + 1 = 4 "
        "(every drafted token accepted, and the bonus token)");
  CHECK(error(R"({"model":"llama-3.2-1b","acceptance":0.7,"acceptance_length":2})") ==
        "request.conflict | /speculative/acceptance_length | /speculative has both /speculative/acceptance and "
        "/speculative/acceptance_length; expected one: the chance each drafted token is accepted, or the mean tokens a "
        "verification step yields");
  // A hybrid target keeps its recurrent state for every drafted position (vLLM's num_speculative_blocks, SGLang's
  // intermediate SSM state): Qwen3.5-35B-A3B's 30 Gated DeltaNet layers hold 61 MB a request, 3 more copies of it with
  // three drafted tokens (audit H: they were not counted, and the largest batch came out about 3x too large).
  const json plain_h = call_json("analyze", R"({"model":"qwen3.5-35b-a3b","system":"hgx-h200","parallel":{"tp":1},
    "workload":{"batch":64,"prompt":1024,"gen":256}})")["value"];
  const json mtp_h = call_json("analyze", R"({"model":"qwen3.5-35b-a3b","system":"hgx-h200","parallel":{"tp":1},
    "workload":{"batch":64,"prompt":1024,"gen":256},"speculative":{"draft":"mtp","draft_tokens":3}})")["value"];
  const double state = mtp_h["memory"]["state_bytes"].get<double>();  // tp 1: the one device holds all of it
  CHECK(state > 3.8 * 1073741824.0);
  CHECK(mtp_h["speculative"]["draft_state_bytes"].get<double>() == 3 * state);
  CHECK(mtp_h["parallel"]["device_required_bytes"].get<double>() ==
        Approx(plain_h["parallel"]["device_required_bytes"].get<double>() + mtp_h["speculative"]["draft_weights_bytes"].get<double>() +
               mtp_h["speculative"]["draft_kv_bytes"].get<double>() + 3 * state));
  CHECK(mtp_h["parallel"]["max_batch"].get<double>() < 0.4 * plain_h["parallel"]["max_batch"].get<double>());
  CHECK(error(R"({"model":"llama-3.2-1b","acceptance_length":0.5})") ==
        "request.out_of_range | /speculative/acceptance_length | /speculative/acceptance_length holds 0.5; expected 0 (from "
        "/speculative/acceptance) or a number from 1 to 17");
  CHECK(error(R"({"model":"llama-3.2-1b","acceptance_length":-2})") ==
        "request.out_of_range | /speculative/acceptance_length | /speculative/acceptance_length holds -2; expected 0 (from "
        "/speculative/acceptance) or a number from 1 to 17");
}

// The decode's energy under speculative decoding is D / E verification steps, each with gamma draft steps, not D
// plain steps: at acceptance 0 every token costs a verification and three draft steps (more than a plain step), at
// acceptance 1 four tokens share them. The cost once kept the plain decode's energy whatever the speculation did
// (518 J for Llama-3.1-8B batch 8 on an H100 at acceptances 0, 0.8 and 1), and on one device ignored the plan.
TEST_CASE("speculative decoding: energy and cost follow the verification and draft steps", "[parallel][cost]") {
  const auto run = [](const json& spec) {
    json req = {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"batch", 8}, {"prompt", 1024}, {"gen", 256}}}};
    if (!spec.is_null()) req["speculative"] = spec;
    return api_value("analyze", req);
  };
  const json plain = run(nullptr);
  const json none = run({{"model", "llama-3.2-1b"}, {"draft_tokens", 3}, {"acceptance", 0.0}});
  const json all = run({{"model", "llama-3.2-1b"}, {"draft_tokens", 3}, {"acceptance", 1.0}});
  const auto mem = [](const json& v) { return v["cost"]["decode"]["memory_j"].get<double>(); };
  const auto e2e = [](const json& v) { return v.contains("parallel") ? v["parallel"]["e2e_s"].get<double>() : v["e2e_s"].get<double>(); };
  INFO("decode memory J: plain " << mem(plain) << ", acceptance 0 " << mem(none) << ", acceptance 1 " << mem(all));
  CHECK(mem(none) > mem(plain));
  CHECK(mem(all) < mem(plain) / 2);
  CHECK(mem(all) > mem(plain) / 4);  // four tokens a step, each step's weights read once, and the draft's on top
  // Cost per token follows the time the speculation takes (electricity only: the H100 has no public price).
  const auto usd = [](const json& v) { return v["cost"]["usd_per_million_tokens"].get<double>(); };
  CHECK(usd(none) > usd(plain));
  CHECK(usd(all) < usd(plain));
  CHECK(none["cost"]["decode"]["static_j"].get<double>() ==
        Approx(plain["cost"]["decode"]["static_j"].get<double>() * (e2e(none) - none["parallel"]["ttft_s"].get<double>()) /
               (e2e(plain) - plain["ttft_s"].get<double>())));
}

TEST_CASE("a plan's devices are bounded before anything counts them: no int overflow", "[parallel][regression]") {
  // tp, pp and dp each within range multiply past 2^31: the product wrapped to -262,144 or 0 devices, and
  // tokens_per_s_per_device came out as the total.
  const nlohmann::json model = {{"model_type", "llama"}, {"hidden_size", 256}, {"num_attention_heads", 64}, {"num_key_value_heads", 64},
                                {"intermediate_size", 256}, {"num_hidden_layers", 4096}, {"vocab_size", 1024},
                                {"max_position_embeddings", 4096}};
  const auto err = [&](int tp, int pp, int dp) {
    const nlohmann::json req = {{"model", model}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"prompt", 16}, {"gen", 4}}},
                                {"parallel", {{"tp", tp}, {"pp", pp}, {"dp", dp}}}};
    const nlohmann::json env = nlohmann::json::parse(infercast::call("analyze", req.dump()));
    REQUIRE_FALSE(env["ok"].get<bool>());
    return env["error"];
  };
  auto e = err(64, 4096, 32767);
  CHECK(e["code"] == "request.out_of_range");
  CHECK(e["path"] == "/parallel/dp");
  CHECK(e["message"] == "/parallel/dp holds 32767 with tp 64 and pp 4096: 8589672448 devices; expected tp x pp x dp at most "
                        "268435456 (the devices of the largest system, 4096 per node in 65536 nodes)");
  e = err(64, 4096, 65536);
  CHECK(e["message"] == "/parallel/dp holds 65536 with tp 64 and pp 4096: 17179869184 devices; expected tp x pp x dp at most "
                        "268435456 (the devices of the largest system, 4096 per node in 65536 nodes)");
  e = err(8, 4096, 65536);  // 2^31 exactly: signed overflow (UB) at the first count
  CHECK(e["path"] == "/parallel/dp");
  // At the limit the plan is forecast, and counts its devices.
  const auto v = api_value("analyze", {{"model", model}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"prompt", 16}, {"gen", 4}}},
                                       {"parallel", {{"tp", 64}, {"pp", 4096}, {"dp", 1024}}}});
  CHECK(v["parallel"]["plan"]["devices"] == 268435456);
  CHECK(v["parallel"]["tokens_per_s_per_device"].get<double>() < v["parallel"]["total_tokens_per_s"].get<double>());
  ParallelPlan p;
  p.tp = 4096;
  p.pp = 4096;
  p.dp = 16;
  CHECK(p.devices() == 268435456);
}
