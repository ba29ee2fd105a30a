// Result writing: the JSON a result carries for models, operators, precisions and the timeline (docs/schema.md),
// written as it goes. Costs and plans are in result_plan.cpp. Every number a result carries passes through here.
#include "api/result.hpp"

#include <cmath>
#include <string_view>

#include "io/hardware_json.hpp"
#include "quant/llama_mix.hpp"

namespace infercast {

double finite(double v) { return v; }

const NameTable<TableLayout>& table_layout_names() {
  static const NameTable<TableLayout> t(
      {{TableLayout::Rows, "rows", "operators and the timeline as arrays of objects, one per row"},
       {TableLayout::Columns, "columns", "one array per field (numbers as Float64Array through the wasm module's callColumns)"}});
  return t;
}

void write_warnings(JsonWriter& w, const std::vector<Warning>& ws) {
  w.begin_array();
  for (const auto& x : ws) w.begin_object().field("code", x.code).field("path", x.path).field("message", x.message).end_object();
  w.end_array();
}

json warnings_json(const std::vector<Warning>& ws) {
  return tree_of([&](JsonWriter& w) { write_warnings(w, ws); });
}

bool lower_bound(const std::vector<Warning>& ws) {
  for (const auto& w : ws)
    if (w.code == "hardware.no_compute_peak") return true;
  return false;
}

void write_run_efficiency(JsonWriter& w, const Execution& x) {
  w.begin_object().field("gemm", x.eff.gemm).field("gemm_low", x.eff.gemm_low).field("attention", x.eff.attention);
  w.field("elementwise", x.eff.elementwise).field("memory", x.eff.memory).field("kv_memory", x.kv_memory);
  w.field("dispatch_us", x.eff.dispatch_s * 1e6).field("graph_dispatch_us", x.graph_gap_s * 1e6).end_object();
}

json run_efficiency_json(const Execution& x) {
  return tree_of([&](JsonWriter& w) { write_run_efficiency(w, x); });
}

void write_execution(JsonWriter& w, const Execution& x, const HardwareSpec& hw) {
  const RuntimeSpec* rt = x.runtime;
  w.begin_object().field("runtime", rt ? rt->id : "reference").field("runtime_name", rt ? rt->name : "reference");
  w.field("launch", x.graphs ? "graph" : "per-kernel").field("graph_max_tokens", x.graph_max_tokens);
  w.field("memory_family", memory_family_names().name(memory_family(hw)));
  w.key("efficiency");
  write_run_efficiency(w, x);
  w.field("kernel_gap_us", x.eff.dispatch_s * 1e6).field("kernel_launch_us", x.launch_s * 1e6);
  w.field("step_overhead_us", x.step_overhead_s * 1e6);
  w.key("compute_paths").begin_object().field("fp8", rt ? rt->fp8 : true).field("fp16_accumulate", rt && rt->fp16_accumulate);
  w.field("quantized", rt ? quant_path_names().name(rt->quant) : "dequantize");
  // The types it runs on a CPU's matrix engine; the others run on the vector units where the device states them.
  w.key("matrix_engine").begin_array();
  for (std::size_t i = 0; i < 8; ++i)
    if (!rt || rt->matrix_engine[i]) w.value(compute_type_name(static_cast<ComputeType>(i)));
  w.end_array().end_object();
  w.key("fusion").begin_object();
  if (rt) {
    w.field("qkv", rt->fusion.qkv).field("gate_up", rt->fusion.gate_up).field("act_in_gemm", rt->act_in_gemm);
    w.field("norm_residual", rt->fusion.norm_residual).field("rope", rt->fusion.rope).field("kv_write", rt->fusion.kv_write);
    w.field("qk_norm", rt->fusion.qk_norm);
  }
  w.end_object().end_object();
}

json execution_json(const Execution& x, const HardwareSpec& hw) {
  return tree_of([&](JsonWriter& w) { write_execution(w, x, hw); });
}

namespace {

void write_params(JsonWriter& w, const ParamCounts& p) {
  w.begin_object().field("total", p.total).field("active", p.active).field("active_excluding_embedding", p.active_no_embed);
  w.field("embedding", p.embedding).field("lm_head", p.lm_head).field("attention", p.attention);
  w.field("ffn_dense", p.ffn_dense).field("experts_routed", p.experts_routed).field("experts_shared", p.experts_shared);
  w.field("router", p.router).field("norms", p.norms).field("vision", p.vision).field("audio", p.audio).end_object();
}

// The operator fields that are numbers, in the order a row lists them.
struct OpNumber {
  const char* key;
  double (*get)(const Op& o);
};
const OpNumber kOpNumbers[] = {
    {"flops", [](const Op& o) { return o.flops; }},
    {"weight_bytes", [](const Op& o) { return o.weight_bytes; }},
    {"act_read_bytes", [](const Op& o) { return o.act_read_bytes; }},
    {"act_write_bytes", [](const Op& o) { return o.act_write_bytes; }},
    {"kv_read_bytes", [](const Op& o) { return o.kv_read_bytes; }},
    {"kv_write_bytes", [](const Op& o) { return o.kv_write_bytes; }},
    {"bytes", [](const Op& o) { return o.bytes(); }},
    {"dispatches", [](const Op& o) { return o.dispatches; }},
    {"dequant_flops", [](const Op& o) { return o.dequant_flops; }},
    {"lora_flops", [](const Op& o) { return o.lora_flops; }},
    {"padded_flops", [](const Op& o) { return o.padded_flops; }},
    {"intensity_flop_per_byte", [](const Op& o) { return o.bytes() > 0 ? o.flops / o.bytes() : 0.0; }},
};
struct TimeNumber {
  const char* key;
  double (*get)(const OpTime& t);
};
const TimeNumber kTimeNumbers[] = {
    {"time_s", [](const OpTime& t) { return t.time_s; }},
    {"compute_s", [](const OpTime& t) { return t.compute_s; }},
    {"memory_s", [](const OpTime& t) { return t.memory_s; }},
    {"dispatch_s", [](const OpTime& t) { return t.dispatch_s; }},
    // What the explanation of this time shows: the efficiency reached, the bandwidth the bytes moved at, the gap.
    {"compute_efficiency", [](const OpTime& t) { return t.compute_efficiency; }},
    {"bandwidth_Bps", [](const OpTime& t) { return t.bandwidth_bytes_per_s; }},
    {"gap_us", [](const OpTime& t) { return t.gap_s * 1e6; }},
};

// Where an operator runs: on the host (an offloaded part's groups are labelled "host ...") or on the device.
constexpr const char* kDevices[] = {"host", "device"};
std::size_t op_device_code(const Op& o) { return o.group.rfind("host", 0) == 0 ? 0 : 1; }
const char* op_device(const Op& o) { return kDevices[op_device_code(o)]; }
constexpr const char* kPhases[] = {"prefill", "decode"};

void write_op_row(JsonWriter& w, const Op& o, const OpTime* t, const char* phase) {
  w.begin_object().field("name", o.name).field("phase", phase).field("group", o.group).field("class", op_class_name(o.cls));
  w.field("count", o.count).field("compute_type", compute_type_name(o.compute)).field("device", op_device(o));
  for (const auto& n : kOpNumbers) w.field(n.key, n.get(o));
  if (t) {
    for (const auto& n : kTimeNumbers) w.field(n.key, n.get(*t));
    w.field("bound", t->bound).field("compute_type_used", compute_type_name(t->compute_used));
  }
  w.end_object();
}

}  // namespace

void write_model(JsonWriter& w, const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups) {
  const auto& m = rm.spec;
  w.begin_object().field("id", rm.id).field("name", rm.name).field("source", rm.source).field("model_type", m.model_type);
  w.field("stated_params_total", rm.stated_total).field("stated_params_active", rm.stated_active);
  w.field("params_total", p.total).field("params_active", p.active).field("params_active_includes_embedding", true);
  w.field("params_active_excluding_embedding", p.active_no_embed);
  w.key("params");
  write_params(w, p);
  w.field("hidden_size", m.hidden).field("vocab_size", m.vocab).field("num_layers", static_cast<i64>(m.layers.size()));
  w.field("mtp_layers_not_counted", m.mtp_layers).field("vision_encoder", vision_kind_names().name(m.vision.kind));
  w.field("tied_embeddings", m.tied_embeddings);
  w.field("declared_quantization", m.declared_quant);
  w.key("groups").begin_array();
  for (const auto& g : groups) {
    w.begin_object().field("label", g.label).field("count", g.count).key("layers").begin_array();
    for (i64 l : g.layers) w.value(l);
    w.end_array().end_object();
  }
  w.end_array();
  w.key("warnings");
  write_warnings(w, m.warnings);
  w.end_object();
}

json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups) {
  return tree_of([&](JsonWriter& w) { write_model(w, rm, p, groups); });
}

void write_ops(JsonWriter& w, const Phase& prefill, const Phase& decode, TableLayout layout, const std::string& at) {
  const std::pair<const Phase*, const char*> phases[] = {{&prefill, kPhases[0]}, {&decode, kPhases[1]}};
  if (layout == TableLayout::Rows) {
    w.begin_array();
    for (const auto& [p, name] : phases)
      for (std::size_t i = 0; i < p->ops.size(); ++i) write_op_row(w, p->ops[i], p->times.empty() ? nullptr : &p->times[i], name);
    w.end_array();
    return;
  }
  // Columns: the times are columns only when both phases are timed (with a device), as rows carry them. Row k is
  // the prefill's operator k, then the decode's.
  const bool timed = !prefill.times.empty() && !decode.times.empty();
  const std::size_t first = prefill.ops.size(), rows = first + decode.ops.size();
  const auto op = [&](std::size_t k) -> const Op& { return k < first ? prefill.ops[k] : decode.ops[k - first]; };
  const auto time = [&](std::size_t k) -> const OpTime& { return k < first ? prefill.times[k] : decode.times[k - first]; };
  w.begin_object().field("layout", "columns").field("rows", rows);
  std::vector<std::string_view> text(rows);
  const auto strings = [&](const char* key, auto get) {
    for (std::size_t k = 0; k < rows; ++k) text[k] = get(k);
    w.key(key).string_column(at, key, text);
  };
  // Columns of a few names (an enum's): indices, no text compared.
  const auto names = [&](const char* key, std::size_t n, auto code, auto name) {
    w.key(key).enum_column(at, key, rows, n, code, name);
  };
  const auto compute_name = [](std::size_t c) { return compute_type_name(static_cast<ComputeType>(c)); };
  const std::size_t compute_types = compute_type_names().entries().size();  // a name for each value
  strings("name", [&](std::size_t k) -> const std::string& { return op(k).name; });
  names("phase", 2, [&](std::size_t k) { return k < first ? 0 : 1; }, [](std::size_t c) { return kPhases[c]; });
  strings("group", [&](std::size_t k) -> const std::string& { return op(k).group; });
  names("class", op_class_names().entries().size(), [&](std::size_t k) { return static_cast<std::size_t>(op(k).cls); },
        [](std::size_t c) { return op_class_name(static_cast<OpClass>(c)); });
  names("compute_type", compute_types, [&](std::size_t k) { return static_cast<std::size_t>(op(k).compute); }, compute_name);
  names("device", 2, [&](std::size_t k) { return op_device_code(op(k)); }, [](std::size_t c) { return kDevices[c]; });
  w.key("count").f64_column_of(at, "count", rows, [&](std::size_t k) { return static_cast<double>(op(k).count); });
  for (const auto& n : kOpNumbers) w.key(n.key).f64_column_of(at, n.key, rows, [&](std::size_t k) { return n.get(op(k)); });
  if (timed) {
    for (const auto& n : kTimeNumbers) w.key(n.key).f64_column_of(at, n.key, rows, [&](std::size_t k) { return n.get(time(k)); });
    strings("bound", [&](std::size_t k) -> const std::string& { return time(k).bound; });
    names("compute_type_used", compute_types, [&](std::size_t k) { return static_cast<std::size_t>(time(k).compute_used); }, compute_name);
  }
  w.end_object();
}

void write_timeline(JsonWriter& w, const std::vector<TimelinePoint>& t, TableLayout layout, const std::string& at) {
  if (layout == TableLayout::Rows) {
    w.begin_array();
    for (const auto& p : t) w.begin_object().field("generated", p.generated).field("context", p.context).field("tpot_s", finite(p.tpot_s)).end_object();
    w.end_array();
    return;
  }
  w.begin_object().field("layout", "columns").field("rows", t.size());
  const auto column = [&](const char* key, double (*get)(const TimelinePoint&)) {
    w.key(key).f64_column_of(at, key, t.size(), [&](std::size_t i) { return get(t[i]); });
  };
  column("generated", [](const TimelinePoint& p) { return p.generated; });
  column("context", [](const TimelinePoint& p) { return p.context; });
  column("tpot_s", [](const TimelinePoint& p) { return finite(p.tpot_s); });
  w.end_object();
}

// The format of each weight class, and where it came from.
void write_precision(JsonWriter& w, const Precision& p, const ModelSpec& m) {
  w.begin_object().field("weights", p.weights.name).field("weights_bits_per_element", p.weights.bits_per_element);
  w.field("activations", p.activations.name).field("kv", p.kv.name).field("kv_bits_per_element", p.kv.bits_per_element);
  w.key("by_class").begin_object();
  for (int c = 0; c < kWeightClasses; ++c) {
    const DType& d = p.of(static_cast<WeightClass>(c));
    w.key(weight_class_name(static_cast<WeightClass>(c))).begin_object();
    w.field("dtype", d.name).field("bits_per_element", d.bits_per_element).end_object();
  }
  w.end_object();
  w.field("declared_quantization", m.declared_quant).field("declared_weights", m.declared_weights);
  // A llama.cpp file type on every class: its tensors by type and the exact bytes of the file's tensor data.
  if (const LlamaMix* mix = find_llama_mix(p.weights.name)) {
    bool whole = true;
    for (int c = 0; c < kWeightClasses; ++c) whole = whole && p.of(static_cast<WeightClass>(c)).name == mix->name;
    if (whole) {
      const MixPlan plan = plan_llama_mix(m, *mix);
      w.key("gguf").begin_object().field("file_type", mix->name).field("description", mix->description);
      w.field("tensor_bytes", plan.tensor_bytes).key("elements_by_type").begin_object();
      for (const auto& [t, n] : plan.elements_by_type) w.field(t, n);
      w.end_object().end_object();
    }
  }
  w.end_object();
}

json precision_json(const Precision& p, const ModelSpec& m) {
  return tree_of([&](JsonWriter& w) { write_precision(w, p, m); });
}

void write_totals_fields(JsonWriter& w, const PhaseTotals& t) {
  w.field("flops", t.flops).field("weight_bytes", t.weight_bytes).field("act_read_bytes", t.act_read_bytes);
  w.field("act_write_bytes", t.act_write_bytes).field("kv_read_bytes", t.kv_read_bytes);
  w.field("kv_write_bytes", t.kv_write_bytes).field("bytes", t.bytes()).field("dispatches", t.dispatches);
}

}  // namespace infercast
