#!/usr/bin/env python3
"""Write the estimated peaks of presets/hardware/*.json from their `architecture`, through the core itself.

For every preset with an `architecture`, asks the CLI's `derive_peaks` call (core/hardware/derive.cpp, rates from
presets/defaults/architectures.json) for every data type the generation has a rate for, and stores as estimated
each type the preset has no published figure for: its value (TFLOPS, 4 significant digits), its FP16-accumulate
value where the generation has one, the arithmetic in `peak_estimated.derivation` and the generation's source.
A published peak (a type not listed in `peak_estimated.dtypes`) is never touched. Run it after changing an
architecture row or a preset's `architecture`; tests/core/test_derive.cpp fails until the stored values agree.
Usage: python3 scripts/derive_peaks.py [--cli build/native-release/infercast] [PRESET_ID ...]
"""
import json, os, subprocess, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HW = os.path.join(ROOT, "presets", "hardware")
ORDER = ["fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"]


def call(cli, fn, request):
    out = subprocess.run([cli, "call", fn], input=json.dumps(request), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{fn}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def derive(cli, doc, trust_of):
    old = doc.get("peak_estimated", {}).get("dtypes", [])
    published = {k: v for k, v in doc["peak_dense_TFLOPS"].items() if k not in old}
    published_acc = {k: v for k, v in doc.get("peak_dense_TFLOPS_fp16_accumulate", {}).items() if k not in old}
    probe = {k: v for k, v in doc.items() if k not in ("peak_estimated", "peak_dense_TFLOPS_fp16_accumulate")}
    probe["peak_dense_TFLOPS"] = published
    d = call(cli, "derive_peaks", {"hardware": probe})
    estimated = [t for t in ORDER if t in d["peak_dense_TFLOPS"] and t not in published]
    peaks = dict(published)
    acc = dict(published_acc)
    lines = []
    for t in estimated:
        peaks[t] = d["peak_dense_TFLOPS"][t]
        line = f"{t}: {d['arithmetic'][t]}"
        if t in d["peak_dense_TFLOPS_fp16_accumulate"]:
            acc[t] = d["peak_dense_TFLOPS_fp16_accumulate"][t]
            line += f" (FP16 accumulate: {d['arithmetic_fp16_accumulate'][t]})"
        lines.append(line)
    doc["peak_dense_TFLOPS"] = {t: peaks[t] for t in ORDER if t in peaks}
    if acc:
        doc["peak_dense_TFLOPS_fp16_accumulate"] = {t: acc[t] for t in ORDER if t in acc}
    else:
        doc.pop("peak_dense_TFLOPS_fp16_accumulate", None)
    if estimated:
        gen = d["generation"]
        basis = ("compute units and clock: this preset's architecture and source" if d["method"] == "architecture"
                 else "scaled from this preset's published peak by the generation's ratio of rates")
        doc["peak_estimated"] = {
            "dtypes": estimated,
            "derivation": "; ".join(lines),
            "sources": f"presets/defaults/architectures.json, {gen} ({trust_of[gen]} trust): {d['source']}; {basis}",
        }
    else:
        doc.pop("peak_estimated", None)
    return estimated


def ordered(doc):
    first = ["schema_version", "id", "name", "vendor", "class", "source", "peak_dense_TFLOPS", "peak_dense_TFLOPS_fp16_accumulate",
             "peak_estimated", "architecture", "memory_tiers"]
    out = {k: doc[k] for k in first if k in doc}
    out.update({k: v for k, v in doc.items() if k not in out})
    return out


def main(args):
    cli = os.path.join(ROOT, "build", "native-release", "infercast")
    if args[:1] == ["--cli"]:
        cli, args = args[1], args[2:]
    trust_of = {g["generation"]: g["trust"] for g in call(cli, "architectures", {})["generations"]}
    ids = args or sorted(f[:-5] for f in os.listdir(HW) if f.endswith(".json"))
    for id_ in ids:
        path = os.path.join(HW, id_ + ".json")
        doc = json.load(open(path))
        if "architecture" not in doc:
            print(f"{id_}: no architecture, left as it is")
            continue
        est = derive(cli, doc, trust_of)
        with open(path, "w") as f:
            json.dump(ordered(doc), f, indent=2)
            f.write("\n")
        print(f"{id_}: estimated {', '.join(est) if est else 'nothing (all published)'}")


if __name__ == "__main__":
    main(sys.argv[1:])
