#!/usr/bin/env python3
"""Regenerate presets/hardware/*.json from shared/hardware/hardware_facts.csv plus the rows below.

Every number comes from the CSV (whose `sources` column is copied into `source`) or from a row of EXTRA/BINS/
PEAK_FIX below, each with its own source. Nothing is filled by guessing: a peak the vendor does not publish is
left to scripts/derive_peaks.py, which derives it from the preset's `architecture` and marks it estimated.
It merges into presets/hardware/, never deletes: a preset added by hand is left as it is, and in a preset the
script also writes, every key it does not produce (architecture, estimated peaks with their derivations, FP16-
accumulate peaks, memory_system, default_runtime, efficiencies), each tier's `technology`, notes added by hand
after the imported ones, a class set in CLASS, and every peak it has no figure for are kept.
Usage: python3 scripts/import_hardware_facts.py [--out DIR] [../shared/hardware/hardware_facts.csv]
"""
import csv, json, os, re, sys

OUT = os.path.join(os.path.dirname(__file__), "..", "presets", "hardware")

# Existing ids kept stable (tests and saved links use them).
IDS = {
    "NVIDIA Tesla V100 SXM2 32GB": "nvidia-v100-sxm2-32gb", "NVIDIA A100 SXM4 80GB": "nvidia-a100-sxm-80gb",
    "NVIDIA A100 PCIe 40GB": "nvidia-a100-pcie-40gb", "NVIDIA A10G (AWS G5)": "nvidia-a10g",
    "NVIDIA L4": "nvidia-l4", "NVIDIA L40S": "nvidia-l40s", "NVIDIA H100 SXM5 80GB": "nvidia-h100-sxm",
    "NVIDIA H100 PCIe 80GB": "nvidia-h100-pcie", "NVIDIA H200 SXM 141GB": "nvidia-h200-sxm",
    "NVIDIA B200 (HGX, 1000 W)": "nvidia-b200", "NVIDIA GB200 (per Blackwell GPU, NVL72)": "nvidia-gb200",
    "NVIDIA GeForce RTX 3090": "nvidia-rtx-3090", "NVIDIA GeForce RTX 4090": "nvidia-rtx-4090",
    "NVIDIA GeForce RTX 5090": "nvidia-rtx-5090", "NVIDIA Jetson AGX Orin 64GB": "nvidia-jetson-agx-orin-64gb",
    "NVIDIA Jetson Orin Nano 8GB (Super mode)": "nvidia-jetson-orin-nano-super", "NVIDIA DGX Spark (GB10 Grace Blackwell)": "nvidia-dgx-spark",
    "AMD Instinct MI250X (OAM)": "amd-mi250x", "AMD Instinct MI300X": "amd-mi300x", "AMD Instinct MI325X": "amd-mi325x",
    "AMD Instinct MI355X": "amd-mi355x", "AMD Radeon RX 7900 XTX": "amd-rx-7900-xtx",
    "AMD Ryzen AI 9 HX 370 - CPU cores (Zen 5 + Zen 5c)": "amd-ryzen-ai-9-hx-370-cpu",
    "AMD Ryzen AI 9 HX 370 - XDNA 2 NPU": "amd-ryzen-ai-9-hx-370-npu", "AMD Radeon 890M (iGPU in Ryzen AI 9 HX 370)": "amd-radeon-890m",
    "AMD Ryzen AI Max+ 395 - XDNA 2 NPU": "amd-ryzen-ai-max-395-npu", "AMD Radeon 8060S (iGPU in Ryzen AI Max+ 395)": "amd-radeon-8060s",
    "Apple M1": "apple-m1", "Apple M1 Pro": "apple-m1-pro", "Apple M1 Max": "apple-m1-max", "Apple M1 Ultra": "apple-m1-ultra",
    "Apple M2": "apple-m2", "Apple M2 Pro": "apple-m2-pro", "Apple M2 Max": "apple-m2-max", "Apple M2 Ultra": "apple-m2-ultra",
    "Apple M3": "apple-m3", "Apple M3 Pro": "apple-m3-pro", "Apple M3 Max (40-core GPU)": "apple-m3-max", "Apple M3 Ultra": "apple-m3-ultra",
    "Apple M4": "apple-m4", "Apple M4 Pro": "apple-m4-pro", "Apple M4 Max (40-core GPU)": "apple-m4-max",
    "Intel Xeon Platinum 8480+ (Sapphire Rapids)": "intel-xeon-8480", "Intel Gaudi 2 (HL-225)": "intel-gaudi-2",
    "Intel Gaudi 3 (OAM HL-325L)": "intel-gaudi-3", "Intel Arc A770 16GB": "intel-arc-a770",
    "Intel Core Ultra 7 258V - NPU 4 (Lunar Lake)": "intel-lunar-lake-npu", "Intel Core Ultra 7 258V - Arc 140V iGPU (Xe2)": "intel-arc-140v",
    "Google Cloud TPU v4": "google-tpu-v4", "Google Cloud TPU v5e": "google-tpu-v5e", "Google Cloud TPU v5p": "google-tpu-v5p",
    "Google Cloud TPU v6e (Trillium)": "google-tpu-v6e", "Qualcomm Snapdragon 8 Gen 3": "qualcomm-snapdragon-8-gen-3",
    "Qualcomm Snapdragon 8 Elite": "qualcomm-snapdragon-8-elite", "MediaTek Dimensity 9300": "mediatek-dimensity-9300",
    "Apple A17 Pro": "apple-a17-pro", "Groq LPU (GroqChip v1 / TSP)": "groq-lpu", "Cerebras WSE-3 (CS-3)": "cerebras-wse-3",
    "d-Matrix Corsair (PCIe card, 8 chiplets)": "dmatrix-corsair", "SambaNova SN40L RDU (per socket)": "sambanova-sn40l",
    "Samsung HBM-PIM (Aquabolt-XL, HBM2 + PCUs)": "samsung-hbm-pim", "SK hynix GDDR6-AiM (per chip)": "skhynix-gddr6-aim",
}
# Interconnect per direction, GB/s, read from the CSV's interconnect text.
LINK = {"nvidia-v100-sxm2-32gb": 150, "nvidia-a100-sxm-80gb": 300, "nvidia-h100-sxm": 450, "nvidia-h200-sxm": 450,
        "nvidia-b200": 900, "nvidia-gb200": 900, "nvidia-h100-pcie": 64, "nvidia-l4": 32, "nvidia-l40s": 32,
        "nvidia-a100-pcie-40gb": 32, "amd-mi300x": 448, "amd-mi325x": 448, "amd-mi250x": 400,
        "intel-gaudi-2": 300, "intel-gaudi-3": 600, "google-tpu-v5e": 200, "google-tpu-v5p": 600, "google-tpu-v6e": 400}
# Cache tiers that software does not place data in (GPU last-level caches) are not memory tiers here.
SKIP_TIER = re.compile(r"Infinity Cache|On-die SRAM \(L2/L3\)|^On-die SRAM$")
UFS = {"name": "UFS 4.0 flash", "capacity_GB": 256, "bandwidth_GBps": 4.2}  # the flash row of the CSV

FLASH = re.compile(r"UFS|NAND|NVMe|flash", re.I)

def binary_units(d):
    """DRAM, HBM and SRAM are sold in binary units (a "80 GB" H100 holds 80 GiB: nvidia-smi shows 81,559 MiB), flash in
    decimal ones: the vendor's figure is written as capacity_GiB for every tier but flash."""
    d["memory_tiers"] = [{("capacity_GiB" if k == "capacity_GB" and not FLASH.search(t["name"]) else k): v for k, v in t.items()}
                         for t in d.get("memory_tiers", [])]
    return d

def num(s):
    s = (s or "").strip()
    return float(s) if s else None

def clean(d):
    return {k: v for k, v in d.items() if v is not None}

def from_row(r):
    id_ = IDS[r["device"]]
    peaks = {}
    fp32, tf32, f16, fp8, i8, f4 = (num(r[k]) for k in ("fp32_tflops", "tf32_tflops", "fp16_bf16_tflops", "fp8_tflops", "int8_tops", "fp4_int4_tops"))
    if fp32: peaks["fp32"] = fp32
    if tf32: peaks["tf32"] = tf32
    if f16:
        peaks["fp16"] = f16
        if not (id_.startswith("apple-") or id_ == "nvidia-v100-sxm2-32gb"): peaks["bf16"] = f16
    if fp8: peaks["fp8"] = fp8
    if i8 and not id_.startswith("apple-"): peaks["int8"] = i8   # Apple's column is the Neural Engine, not the GPU
    if f4:
        kind = "fp4" if re.search(r"fp4_int4 cell = (NV|MX)?FP4", r["notes"]) else "int4"
        peaks[kind] = f4
    notes = [r["notes"]]
    if id_.startswith("apple-") and i8:
        notes.append(f"Neural Engine {i8:g} TOPS (Apple) is not a GPU peak and is not used for timing.")
    tiers = []
    for i in (1, 2, 3):
        name, cap, bw = r[f"tier{i}_name"], num(r[f"tier{i}_capacity_GB"]), num(r[f"tier{i}_bandwidth_GBps"])
        if not name: continue
        if SKIP_TIER.search(name):
            notes.append(f"Tier '{name}' is a cache, not placed into; omitted.")
            continue
        if "not additive" in name:
            notes.append(f"Tier '{name}' is the same memory seen from outside; not a second tier.")
            continue
        if "UFS" in name or "NAND" in name:
            if bw or "UFS" in name:
                tiers.append(dict(UFS))
            continue
        if bw is None:
            notes.append(f"Tier '{name}': bandwidth not published; omitted.")
            continue
        if id_ in CAP_FIX:
            cap = CAP_FIX[id_][0]
        if cap is None:
            cap = ASSUMED_CAP.get(id_)
            notes.append(f"Capacity of '{name}' not stated by the vendor for the chip; {cap:g} GB is the configuration assumed here (edit to your machine).")
        tiers.append({"name": name, "capacity_GB": cap, "bandwidth_GBps": bw})
    return clean({
        "schema_version": 1, "id": id_, "name": r["device"].replace(" (AWS G5)", " (AWS G5)"), "vendor": r["vendor"],
        "class": r["class"], "source": r["sources"] + " (via shared/hardware/hardware_facts.csv)" + (CAP_FIX[id_][1] if id_ in CAP_FIX else ""),
        "peak_dense_TFLOPS": peaks, "memory_tiers": tiers, "interconnect_GBps": LINK.get(id_),
        "tdp_W": num(r["tdp_w"]), "price_USD": num(r["launch_price_usd"]),
        "launch_year": int(r["launch_year"]) if r["launch_year"].strip() else None, "notes": " ".join(n for n in notes if n)})

# Classes reviewed by physics (the reason is in each preset's notes): NVIDIA GPUs in SoCs on unified LPDDR.
CLASS = {"nvidia-jetson-agx-orin-64gb": "embedded-gpu", "nvidia-jetson-orin-nano-super": "embedded-gpu",
         "nvidia-dgx-spark": "embedded-gpu"}
# Peaks of the CSV replaced, each with its reason; DROP: CSV peaks not used (the preset derives them instead).
# CSV rows whose capacity was converted to decimal GB: the vendor's binary figure (every DRAM tier is written as
# capacity_GiB with the vendor's number).
CAP_FIX = {"google-tpu-v4": (32, "; HBM2 32 GiB (docs.cloud.google.com/tpu/docs/v4: \"32 GiB, 1200 GBps\"; the CSV's 34.4 is that in GB)")}
PEAK_FIX = {
    # HGX B200: FP32 600 TFLOPS over 8 GPUs (NVIDIA's HGX B200 table, as tabulated at fibermall.com/blog/?p=17161;
    # verda.com/blog/gb300-nvl72-architecture: 0.075 PFLOPS); the CSV's 80 is GB200's.
    "nvidia-b200": ({"fp32": 75.0}, "; FP32 75 TFLOPS per GPU: HGX B200's 600 over 8 (fibermall.com/blog/?p=17161; verda.com/blog/gb300-nvl72-architecture)"),
    # GeForce presets carry the FP32-accumulate rates; the CSV's 5090 row has the FP16-accumulate ones.
    "nvidia-rtx-5090": ({"fp16": 209.6, "bf16": 209.6, "fp8": 419.2},
                        "; NVIDIA RTX Blackwell whitepaper Appendix A as tabulated in lamonoai/gpumap@8d5e174f nvidia/GPU.md (FP16 tensor 419 with FP16 accumulate, 210 with FP32 accumulate; FP8 419 with FP32 accumulate, 838 with FP16 accumulate)"),
    # The GPU's own dense INT8 (170 sparse TOPS); the CSV's 137.5 adds the two DLAs, which LLM runtimes do not use.
    "nvidia-jetson-agx-orin-64gb": ({"int8": 85.2}, ""),
}
DROP = {"amd-radeon-8060s": ["fp32", "fp16", "bf16"],   # third-party values without dual issue or WMMA
        "amd-radeon-890m": ["fp32", "fp16", "bf16"],
        "samsung-hbm-pim": ["bf16"],                    # FP16-only processing units
        "skhynix-gddr6-aim": ["fp16"]}                  # BF16-only bank units

ASSUMED_CAP = {"amd-ryzen-ai-9-hx-370-cpu": 32, "amd-ryzen-ai-9-hx-370-npu": 32, "amd-radeon-890m": 32,
               "intel-xeon-8480": 512, "qualcomm-snapdragon-8-gen-3": 16, "mediatek-dimensity-9300": 16}

# Devices of shared/validation/measured_public.csv and consumer cards not in the CSV, with their sources.
EXTRA = [
    {"id": "nvidia-rtx-3090-ti", "name": "NVIDIA GeForce RTX 3090 Ti", "vendor": "NVIDIA", "class": "consumer-gpu",
     "source": "nvidia.com GeForce RTX 3090 Ti specifications (10752 CUDA cores, 1.86 GHz boost, 24 GB GDDR6X 21 Gbps 384-bit = 1008 GB/s, 450 W, $1,999 launch); tensor FP16 with FP32 accumulate = 2x FP32 rate on GA102 GeForce (NVIDIA Ampere GA102 whitepaper, Appendix A, RTX 3090 column ratio)",
     "peak_dense_TFLOPS": {"fp32": 40.0},
     "memory_tiers": [{"name": "GDDR6X", "capacity_GB": 24, "bandwidth_GBps": 1008}], "tdp_W": 450, "price_USD": 1999, "launch_year": 2022,
     "notes": "Compute derived: 10752 x 2 FLOP x 1.86 GHz = 40.0 TFLOPS FP32; tensor FP16/FP32-acc at 2x (as the 3090 row of hardware_facts.csv)."},
    {"id": "nvidia-rtx-3080", "name": "NVIDIA GeForce RTX 3080 10GB", "vendor": "NVIDIA", "class": "consumer-gpu",
     "source": "NVIDIA Ampere GA102 GPU Architecture whitepaper v2, Appendix A table 9 (RTX 3080: 29.8 FP32 TFLOPS, 59.5 dense FP16 tensor TFLOPS with FP32 accumulate, 119 INT8 TOPS, 760 GB/s, 10 GB GDDR6X, 320 W); $699 launch price from NVIDIA's launch announcement",
     "peak_dense_TFLOPS": {"fp32": 29.8, "fp16": 59.5, "bf16": 59.5, "int8": 238},
     "memory_tiers": [{"name": "GDDR6X", "capacity_GB": 10, "bandwidth_GBps": 760}], "tdp_W": 320, "price_USD": 699, "launch_year": 2020,
     "notes": "INT8 dense tensor 238 TOPS per the whitepaper table (476 sparse)."},
    {"id": "nvidia-rtx-4080", "name": "NVIDIA GeForce RTX 4080", "vendor": "NVIDIA", "class": "consumer-gpu",
     "source": "NVIDIA Ada Lovelace GPU Architecture whitepaper v1.1, Appendix A table (RTX 4080 16GB: 48.7 FP32 TFLOPS, 97.5 dense FP16 tensor TFLOPS with FP32 accumulate, 194.9 dense FP8 (FP32 acc), 716.8 GB/s, 16 GB GDDR6X, 320 W); $1,199 launch price",
     "peak_dense_TFLOPS": {"fp32": 48.7, "fp16": 97.5, "bf16": 97.5, "fp8": 194.9, "int8": 389.9},
     "memory_tiers": [{"name": "GDDR6X", "capacity_GB": 16, "bandwidth_GBps": 716.8}], "tdp_W": 320, "price_USD": 1199, "launch_year": 2022,
     "notes": "GeForce tensor rates with FP32 accumulate are half the FP16-accumulate rates."},
    {"id": "nvidia-rtx-4060", "name": "NVIDIA GeForce RTX 4060", "vendor": "NVIDIA", "class": "consumer-gpu",
     "source": "nvidia.com GeForce RTX 4060 family specifications (3072 CUDA cores, 2.46 GHz boost, 8 GB GDDR6 17 Gbps 128-bit = 272 GB/s, 115 W, $299 launch)",
     "peak_dense_TFLOPS": {"fp32": 15.1},
     "memory_tiers": [{"name": "GDDR6", "capacity_GB": 8, "bandwidth_GBps": 272}], "tdp_W": 115, "price_USD": 299, "launch_year": 2023,
     "notes": "Compute derived: 3072 x 2 x 2.46 GHz = 15.1 TFLOPS FP32; tensor FP16/FP32-acc at 2x, the Ada GeForce ratio."},
    {"id": "nvidia-rtx-5080", "name": "NVIDIA GeForce RTX 5080", "vendor": "NVIDIA", "class": "consumer-gpu",
     "source": "nvidia.com GeForce RTX 5080 specifications (10752 CUDA cores, 2.62 GHz boost, 16 GB GDDR7 30 Gbps 256-bit = 960 GB/s, 360 W, $999 launch); NVIDIA RTX Blackwell whitepaper Appendix A as tabulated in lamonoai/gpumap@8d5e174f nvidia/GPU.md (FP16 tensor 112.6 with FP32 accumulate, 225.1 with FP16 accumulate); NVIDIA's 1801 AI TOPS = FP4 with sparsity, 900.5 dense",
     "peak_dense_TFLOPS": {"fp32": 56.3, "fp16": 112.6, "bf16": 112.6, "fp4": 900.5},
     "memory_tiers": [{"name": "GDDR7", "capacity_GB": 16, "bandwidth_GBps": 960}], "tdp_W": 360, "price_USD": 999, "launch_year": 2025,
     "notes": "Compute derived: 10752 x 2 x 2.62 GHz = 56.3 TFLOPS FP32; tensor FP16/FP32-acc at 2x, the GeForce ratio (FP8/FP4 not listed: NVIDIA publishes sparse AI TOPS only). FP16 112.6 is the FP32-accumulate rate, 225.1 the FP16-accumulate one; FP4 900.5 dense is half of NVIDIA's 1801 AI TOPS."},
    {"id": "amd-rx-7800-xt", "name": "AMD Radeon RX 7800 XT", "vendor": "AMD", "class": "consumer-gpu",
     "source": "amd.com Radeon RX 7800 XT specifications (60 CUs, 2.43 GHz boost, 37.3 FP32 TFLOPS, 74.6 FP16 TFLOPS, 16 GB GDDR6 19.5 Gbps 256-bit = 624 GB/s, 263 W, $499 launch)",
     "peak_dense_TFLOPS": {"fp32": 37.3, "fp16": 74.6, "bf16": 74.6},
     "memory_tiers": [{"name": "GDDR6", "capacity_GB": 16, "bandwidth_GBps": 624}], "tdp_W": 263, "price_USD": 499, "launch_year": 2023,
     "notes": "FP32 counts RDNA3 dual-issue, as AMD does; 64 MB Infinity Cache omitted (a cache)."},
    {"id": "amd-rx-9070-xt", "name": "AMD Radeon RX 9070 XT", "vendor": "AMD", "class": "consumer-gpu",
     "source": "amd.com Radeon RX 9070 XT specifications (64 CUs, 2.97 GHz boost, 48.7 FP32 TFLOPS, 16 GB GDDR6 20 Gbps 256-bit = 640 GB/s, 304 W, $599 launch); FP16 matrix 389 TFLOPS with sparsity halved to dense",
     "peak_dense_TFLOPS": {"fp32": 48.7, "fp16": 194.7, "bf16": 194.7},
     "memory_tiers": [{"name": "GDDR6", "capacity_GB": 16, "bandwidth_GBps": 640}], "tdp_W": 304, "price_USD": 599, "launch_year": 2025,
     "notes": "RDNA4 WMMA FP16 dense = half of AMD's sparse figure."},
]
# Binned GPUs of Apple SoCs that appear in shared/validation/measured_public.csv: same clocks and per-core rate
# as the full part (philipturner/metal-benchmarks); their peaks are derived from `architecture` (derive_peaks.py).
BINS = [("apple-m1", 7, 8, 68.25, 16), ("apple-m1-pro", 14, 16, 200, 32), ("apple-m1-max", 24, 32, 400, 64),
        ("apple-m1-ultra", 48, 64, 800, 128), ("apple-m2", 8, 10, 100, 24), ("apple-m2-pro", 16, 19, 200, 32),
        ("apple-m2-max", 30, 38, 400, 96), ("apple-m2-ultra", 60, 76, 800, 192)]
# CPU peak from the LIFE paper (seed 001, Sec. 4.4): "AMD Ryzen 9 HX 370 CPU with 326.4 GFLOPS", used for its Table 6.
CPU_PEAK = {"amd-ryzen-ai-9-hx-370-cpu": (0.3264, "LIFE (arXiv 2508.00904, seed 001), Sec. 4.4: 326.4 GFLOPS on the HX 370 CPU, the peak behind its Table 6 bf16 rows; its 240 GB/s bandwidth conflicts with the 120 GB/s derived from LPDDR5X-7500 x 128-bit, which is kept")}

def main(path):
    rows = list(csv.DictReader(open(path)))
    out = {}
    for r in rows:
        if r["device"].startswith("UFS 4.0"): continue  # a tier of the phone presets, not a device
        d = from_row(r)
        if not d["memory_tiers"]:
            print("skip (no tier with a bandwidth):", r["device"]); continue
        for k in DROP.get(d["id"], []):
            d["peak_dense_TFLOPS"].pop(k, None)
        if d["id"] in PEAK_FIX:
            fix, src = PEAK_FIX[d["id"]]
            d["peak_dense_TFLOPS"].update(fix)
            d["source"] += src
        if d["id"] in CLASS:
            d["class"] = CLASS[d["id"]]
        if d["id"] in CPU_PEAK:
            v, src = CPU_PEAK[d["id"]]
            d["peak_dense_TFLOPS"]["bf16"] = v
            d["source"] += "; " + src
        out[d["id"]] = d
    # Samsung HBM-PIM: internal bandwidth is '4x off-chip'; Aquabolt HBM2 off-chip is 2.4 Gb/s x 1024 = 307.2 GB/s.
    pim = [r for r in rows if r["device"].startswith("Samsung HBM-PIM")][0]
    d = from_row(pim)
    d["memory_tiers"] = [{"name": "HBM2 banks via in-bank PCUs", "capacity_GB": 6, "bandwidth_GBps": 1228.8}]
    d["notes"] += " Internal bandwidth DERIVED: 4 x 307.2 GB/s (Aquabolt HBM2 off-chip)."
    for k in DROP.get(d["id"], []):
        d["peak_dense_TFLOPS"].pop(k, None)
    out[d["id"]] = d
    # A17 Pro: LPDDR5 bandwidth not published; DERIVED LPDDR5-6400 x 64-bit = 51.2 GB/s; flash as the UFS-class tier.
    a17 = [r for r in rows if r["device"] == "Apple A17 Pro"][0]
    d = from_row(a17)
    d["memory_tiers"] = [{"name": "LPDDR5", "capacity_GB": 8, "bandwidth_GBps": 51.2}, dict(UFS, name="NAND flash (UFS 4.0-class)")]
    d["notes"] += " LPDDR5 bandwidth DERIVED (6400 MT/s x 64-bit); flash tier takes the UFS 4.0 sequential read (4.2 GB/s) as its class figure."
    out[d["id"]] = d
    for e in EXTRA: out[e["id"]] = dict({"schema_version": 1}, **e)
    for base, cores, full, bw, cap in BINS:
        b = json.loads(json.dumps(out[base]))
        b["id"] = f"{base}-{cores}c"
        b["name"] = f"{b['name']} ({cores}-core GPU)"
        b["peak_dense_TFLOPS"] = {}  # derived from the preset's architecture by derive_peaks.py
        b["notes"] = f"Binned GPU: {cores} of {full} cores at the full part's clock; peaks derived per core (architecture). " + b["notes"]
        out[b["id"]] = b
        out[base]["name"] = f"{out[base]['name']} ({full}-core GPU)" if "core GPU" not in out[base]["name"] else out[base]["name"]
    written = kept = 0
    for id_, d in sorted(out.items()):
        d = binary_units(d)
        target = os.path.join(OUT, id_ + ".json")
        if os.path.exists(target):
            d = merge(json.load(open(target)), d)
            kept += 1
        with open(target, "w") as f:
            json.dump(d, f, indent=2); f.write("\n")
        written += 1
    print(written, "presets written,", kept, "merged into existing files;", len(os.listdir(OUT)) - written, "other presets left as they are")

def merge(old, new):
    """The imported figures over an existing preset: keys the import does not write are kept, and so are peaks it
    has no figure for (a hand-added or estimated peak survives a re-import), each tier's keys the import does not
    write (technology), and notes added by hand after the imported ones."""
    out = dict(old)
    for k, v in new.items():
        if k == "peak_dense_TFLOPS" and isinstance(old.get(k), dict):
            out[k] = dict(old[k], **v)
        elif k == "memory_tiers" and isinstance(old.get(k), list):
            merged = [dict({a: b for a, b in o.items() if a not in ("capacity_GB", "capacity_GiB")}, **t)
                      if i < len(old[k]) and (o := old[k][i]).get("name") == t.get("name") else t
                      for i, t in enumerate(v)]
            order = ["name", "capacity_GiB", "capacity_GB", "bandwidth_GBps"]
            out[k] = [dict(sorted(t.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
                      for t in merged]
        elif k == "notes" and isinstance(old.get(k), str) and old[k].startswith(v):
            out[k] = old[k]
        else:
            out[k] = v
    return out

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--out"]:
        OUT = args[1]
        args = args[2:]
    main(args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "hardware", "hardware_facts.csv"))
