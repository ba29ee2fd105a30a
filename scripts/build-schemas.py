#!/usr/bin/env python3
"""Writes the JSON Schemas into dist/schemas/: the hand-written ones of schemas/ (presets, the envelope, every
result) as they are, and requests.schema.json generated from the core itself: every field of the `options` call
(the one field table, core/io/fields.cpp) with its type, range, default, choices and help, and one request per
function of the `functions` call. A field added to the field table needs no edit here; a new top-level field of
the table is accepted by every call that reads the analysis request.

Usage: build-schemas.py --cli build/native-release/infercast [--src schemas] [--out dist/schemas]"""

import argparse
import json
import os
import shutil
import subprocess
import sys

BASE = "urn:infercast:schema:"

# What is not in the field table: documents (a model, a device, a system) and lists whose items the readers
# check themselves. Each entry is a JSON pointer with "*" for array items, as the options' paths.
EXTRA = {
    "/model": {"anyOf": [{"type": "string", "description": "a model preset id (the `models` call)"},
                         {"$ref": BASE + "model-preset"}, {"$ref": BASE + "model-preset#/$defs/config"}],
               "description": "a model preset id, a model preset document, or a config.json"},
    "/hardware": {"anyOf": [{"type": "string", "description": "a hardware preset id (the `hardware` call)"},
                            {"$ref": BASE + "hardware"}],
                  "description": "a hardware preset id or a hardware document"},
    "/runtime": {"anyOf": [{"type": "string", "description": "a runtime preset id (the `runtimes` call)"},
                           {"$ref": BASE + "runtime"}],
                 "description": "the software stack: a runtime preset id or a runtime document (default: the device's)"},
    "/cross_validate": {"type": "boolean", "default": True, "description": "also refit without each source (leave one source out)"},
    "/system": {"anyOf": [{"type": "string", "description": "a system preset id (the `systems` call)"},
                          {"$ref": BASE + "system"}],
                "description": "several devices: a system preset id or a system document"},
    "/speculative/model": {"$ref": BASE + "requests#/$defs/request_model", "description": "the draft model"},
    "/speculative/draft": {"const": "mtp", "description": "the model's own multi-token-prediction layers as the draft"},
    "/sweep/weights": {"type": "array", "minItems": 1, "maxItems": 40, "items": {"$ref": BASE + "requests#/$defs/dtype"}},
    "/sweep/kv": {"type": "array", "minItems": 1, "maxItems": 40, "items": {"$ref": BASE + "requests#/$defs/dtype"}},
    "/axes/*/min": {"type": "number", "minimum": 0},
    "/axes/*/max": {"type": "number", "minimum": 0},
    "/axes/*/scale": {"enum": ["log", "linear"]},
    "/axes/*/values": {"type": "array", "minItems": 1, "items": {"type": "number", "minimum": 0}},
    "/constraints/must_fit": {"type": "boolean", "default": True},
    "/compute_TOPS/min": {"type": "number", "minimum": 1e-6, "maximum": 1e9},
    "/compute_TOPS/max": {"type": "number", "minimum": 1e-6, "maximum": 1e9},
    "/bandwidth_GBps/min": {"type": "number", "minimum": 1e-6, "maximum": 1e9},
    "/bandwidth_GBps/max": {"type": "number", "minimum": 1e-6, "maximum": 1e9},
    "/params": {"type": "object", "description": "the design point: any of the sweep's parameters (the base device's own for the rest)",
                "propertyNames": {"$ref": BASE + "requests#/$defs/dse_param"},
                "additionalProperties": {"type": "number", "minimum": 0, "maximum": 1e12}},
    "/points/*/value": {"type": "number", "exclusiveMinimum": 0, "description": "the measured value of the metric"},
    "/points/*/model": {"$ref": BASE + "requests#/$defs/request_model"},
    "/csv": {"type": "string", "description": "measurements in the columns of presets/validation/measured_public.csv"},
    "/tensors": {"type": "array", "description": "the tensor tables of a checkpoint's shards (the `safetensors` call's `tensors`)"},
    "/measurements": {"type": "string", "minLength": 1,
                      "description": "measurements as a tool prints them: llama-bench's table, `vllm bench serve`'s summary, or a CSV"},
    "/concurrency": {"type": "integer", "minimum": 1, "maximum": 1000000, "default": 1,
                     "description": "requests at a time in a vllm run whose output does not state it"},
    "/hardware_class": {"type": "string", "description": "summarize the rows of this device class apart (`selection`)"},
    "/hardware_id": {"type": "string", "description": "summarize the rows of this hardware preset apart"},
    "/runtime_id": {"type": "string", "description": "summarize the rows measured with this runtime apart"},
}
# The bandwidth axis of tc_tm_map has the compute axis's steps.
ALIASES = {"/bandwidth_GBps/steps": "/compute_TOPS/steps"}

# The top-level fields each call reads. ANALYSIS is what read_inputs, read_workload and read_costs take
# (core/api/request.cpp); the table's top-level fields no call below names join it.
ANALYSIS = ["model", "hardware", "runtime", "scenario", "convert_mla", "workload", "precision", "convention", "attention", "mla",
            "mlp", "moe_traffic", "timing", "attention_tile", "lora", "online_hadamard", "placement", "costs", "memory_reserve_GB"]
MULTI = ["system", "parallel", "speculative"]
SWEEP = ["axes", "objectives", "constraints", "sram_bandwidth_GBps", "keep_points", "part", "layout"]
CALLS = {
    "analyze": ANALYSIS + MULTI + ["layout", "echo_requests"],
    "batching": ANALYSIS + MULTI + ["batching"],
    "serving": ANALYSIS + MULTI + ["serving"],
    "deploy": ANALYSIS + ["system", "serving", "deploy"],
    "quant_sweep": ANALYSIS + MULTI + ["sweep"],
    "sweep": ANALYSIS + SWEEP,
    "tc_tm_map": ANALYSIS + ["compute_TOPS", "bandwidth_GBps", "compute_efficiency", "memory_efficiency"],
    "dse_device": ["hardware", "params", "sram_bandwidth_GBps", "costs"],
    "model": ["model"],
    "device": ["hardware"],
    "validate": ["csv", "cross_validate", "hardware_class", "hardware_id", "runtime_id"],
    "calibrate": ["hardware", "runtime", "memory_reserve_GB", "model", "fit", "points", "measurements", "concurrency", "precision"],
    "checkpoint": ["tensors", "model"],
}
REQUIRED = {"analyze": ["model"], "batching": ["model"], "serving": ["model", "serving"], "deploy": ["model"], "quant_sweep": ["model"], "sweep": ["model", "hardware", "axes"],
            "tc_tm_map": ["model", "compute_TOPS", "bandwidth_GBps"], "dse_device": ["hardware", "params"],
            "model": ["model"], "device": ["hardware"], "calibrate": ["hardware"], "checkpoint": ["tensors"]}
# Per point of a calibration: the metric, its value, its model, and the workload part of the analysis request.
POINT = ["metric", "value", "model", "workload", "precision", "convention", "attention", "mla", "mlp", "moe_traffic",
         "timing", "attention_tile", "lora", "online_hadamard", "placement"]


def cli_call(cli, fn):
    out = subprocess.run([cli, "call", fn], input=b"{}", capture_output=True, check=True)
    return json.loads(out.stdout)


def leaf(o):
    """One field of the options call as a JSON Schema."""
    kind = o["kind"]
    s = {"description": o["help"]}
    if kind in ("integer", "number"):
        s.update({"type": kind, "minimum": o["min"], "maximum": o["max"]})
    elif kind == "boolean":
        s["type"] = "boolean"
    elif kind == "dtype":
        s["$ref"] = BASE + "requests#/$defs/dtype"
    elif kind == "enum":
        s["enum"] = [v["name"] for v in o["values"]]
    else:
        sys.exit(f"build-schemas: {o['path']} has a kind this script does not know: {kind}")
    d = o.get("default")
    if d is not None and not (kind in ("integer", "number") and not o["min"] <= d <= o["max"]):
        s["default"] = d  # a default outside the range means "derived" (e.g. -1: the placement the core picks)
    return s


def insert(tree, path, schema):
    """Puts `schema` at a JSON pointer of the tree of objects ("*": the items of an array)."""
    parts = path.strip("/").split("/")
    node = tree
    for i, p in enumerate(parts):
        last = i == len(parts) - 1
        if p == "*":
            node.setdefault("type", "array")
            node = node.setdefault("items", {"type": "object", "properties": {}, "additionalProperties": False}) \
                if not last else node.setdefault("items", schema)
            continue
        node.setdefault("type", "object")
        node.setdefault("additionalProperties", False)
        props = node.setdefault("properties", {})
        if last:
            if p in props and "properties" in props[p]:
                continue  # an object the table already built keeps its fields
            props[p] = schema
        else:
            nxt = parts[i + 1]
            props.setdefault(p, {"type": "array"} if nxt == "*" else {"type": "object", "properties": {}, "additionalProperties": False})
            node = props[p]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", "schemas"))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "dist", "schemas"))
    a = ap.parse_args()

    options = cli_call(a.cli, "options")
    functions = cli_call(a.cli, "functions")
    dtypes = cli_call(a.cli, "dtypes")
    version = cli_call(a.cli, "version")

    fields = {}
    by_path = {o["path"]: o for o in options}
    for o in options:
        top = o["path"].split("/")[1]
        if top in ("hardware", "system"):
            continue  # documents: their own schemas (hardware.schema.json, system.schema.json) hold these ranges
        insert(fields, o["path"], leaf(o))
    for path, alias in ALIASES.items():
        insert(fields, path, leaf({**by_path[alias], "path": path}))
    for path, schema in EXTRA.items():
        insert(fields, path, schema)
    props = fields["properties"]
    # The /workload fields: batch x prompt, or a ragged list of requests, not both.
    props["workload"]["not"] = {"anyOf": [{"required": ["requests", "prompt"]}, {"required": ["requests", "batch"]}]}
    props["speculative"]["not"] = {"required": ["model", "draft"]}
    props["objectives"].update({"type": "array", "minItems": 2, "maxItems": 4, "uniqueItems": True})
    props["fit"].update({"type": "array", "minItems": 1, "uniqueItems": True})
    props["axes"].update({"minItems": 1, "maxItems": 5})
    props["axes"]["items"]["required"] = ["param"]
    props["points"].update({"minItems": 1, "maxItems": 60})
    point = props["points"]["items"]
    point["required"] = ["metric", "value"]

    named = {t for names in CALLS.values() for t in names}
    extra_analysis = sorted(t for t in props if t not in named and t not in POINT)
    point_props = point["properties"]
    for t in POINT:
        if t not in point_props:
            point_props[t] = {"$ref": f"{BASE}requests#/$defs/field_{t}"}

    defs = {
        "dtype": {"type": "string", "description": "a format of the `dtypes` call, or intN-gG (N-bit integers in groups of G)",
                  "anyOf": [{"enum": [d["name"] for d in dtypes]}, {"pattern": "^int[1-8]-g[1-9][0-9]*$"}]},
        "dse_param": {"enum": [v["name"] for v in by_path["/axes/*/param"]["values"]]},
        "request_model": EXTRA["/model"],
        "empty": {"type": "object", "additionalProperties": False, "description": "no fields"},
    }
    for name, schema in props.items():
        defs[f"field_{name}"] = schema
    for f in functions:
        name = f["name"]
        if f["input"] == "bytes":
            defs[name] = {"description": f"{f['help']}: the file's bytes, not JSON (call_bytes)"}
            continue
        if name == "check":
            # {"function": a checkable call, "request": that call's request}: one branch per call, so the request is
            # held to the named call's schema (and the npm types are a union keyed by "function").
            checkable = [g["name"] for g in functions if g.get("checkable")]
            defs[name] = {"description": f["help"],
                          "oneOf": [{"type": "object", "additionalProperties": False, "required": ["function"],
                                     "properties": {"function": {"const": c, "description": "the call whose request is checked"},
                                                    "request": {"$ref": f"{BASE}requests#/$defs/{c}"}}} for c in checkable]}
            continue
        if name in CALLS:
            tops = CALLS[name] + (extra_analysis if CALLS[name][:len(ANALYSIS)] == ANALYSIS else [])
            missing = [t for t in tops if t not in props]
            if missing:
                sys.exit(f"build-schemas: {name} reads {missing}, which neither the options nor EXTRA describe")
            defs[name] = {"type": "object", "description": f["help"], "additionalProperties": False,
                          "required": REQUIRED.get(name, []),
                          "properties": {t: {"$ref": f"{BASE}requests#/$defs/field_{t}"} for t in tops}}
        else:
            # A call this table does not describe yet (a catalog list takes no fields; a new call, any object).
            print(f"build-schemas: {name}: no request structure here; the catalog's empty request", file=sys.stderr) \
                if name not in ("version", "functions", "options", "models", "families", "hardware", "systems",
                                "conventions", "dtypes", "scenarios", "regions", "limits") else None
            defs[name] = {"$ref": BASE + "requests#/$defs/empty", "description": f["help"]}

    # A calibration takes points, or measurements pasted as a tool prints them (then a model), never both.
    defs["calibrate"]["oneOf"] = [{"required": ["points"], "not": {"anyOf": [{"required": ["measurements"]}, {"required": ["concurrency"]},
                                                                           {"required": ["precision"]}]}},
                                  {"required": ["measurements", "model"], "not": {"required": ["points"]}}]

    requests = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE + "requests",
        "title": "Infercast requests",
        "description": ("The request of every call (`#/$defs/<function>`), generated by scripts/build-schemas.py "
                        f"from the core's options and functions calls (infercast {version['version']}). Ranges, "
                        "defaults and choices are the core's own; unknown fields are errors."),
        "$defs": defs,
    }

    os.makedirs(a.out, exist_ok=True)
    for f in sorted(os.listdir(a.src)):
        if f.endswith(".schema.json"):
            shutil.copyfile(os.path.join(a.src, f), os.path.join(a.out, f))
    with open(os.path.join(a.out, "requests.schema.json"), "w") as fh:
        json.dump(requests, fh, indent=1)
        fh.write("\n")
    print(f"build-schemas: {a.out} ({len(os.listdir(a.out))} schemas, {len(functions)} calls)")


if __name__ == "__main__":
    main()
