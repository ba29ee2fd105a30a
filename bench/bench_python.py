#!/usr/bin/env python3
"""Times a Python call (infercast.analyze(dict): the request written as JSON, the core, the result read back into
dicts and lists) against the native JSON call (infercast::call in C++, JSON text in, text out) for the scenarios of
bench_analyze.cpp, and prints the ratio per model (target: at most 1.5x).

The native call is timed two ways: inside this process through the binding's raw entry point (_core.call: C++
from text to text, at the same moment and load as the Python call), and, when it is built, by the C++ benchmark
build/native-release/bench/infercast_bench. Usage: python3 bench/bench_python.py [iterations] (the package installed, or
PYTHONPATH pointing at it)."""

import json
import os
import re
import subprocess
import sys
import time

import infercast
from infercast import _core

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MODELS = ["llama-3.1-8b", "gemma-2-9b", "llama-4-scout", "deepseek-v3"]


def best_of(f, iters, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(iters):
            f()
        best = min(best, (time.perf_counter() - t0) / iters)
    return best


def native_bench():
    exe = os.path.join(ROOT, "build", "native-release", "bench", "infercast_bench")
    if not os.path.exists(exe):
        return {}
    out = subprocess.run([exe, "200"], capture_output=True, text=True, check=True).stdout
    return {m.group(1): float(m.group(3)) * 1e-6 for m in re.finditer(r"^(\S+)\s+([0-9.]+)\s+([0-9.]+)", out, re.M)}


def main():
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    cxx = native_bench()
    print(f"infercast {infercast.__version__}, {iters} calls x 5 rounds, best round")
    print(f"{'model':16} {'python (us)':>12} {'native in-process (us)':>23} {'ratio':>6} {'infercast_bench (us)':>21} {'ratio':>6}")
    worst = 0.0
    for m in MODELS:
        req = {"model": m, "hardware": "nvidia-h100-sxm", "workload": {"batch": 8, "prompt": 2048, "gen": 32768}}
        text = json.dumps(req)
        assert infercast.analyze(req) == json.loads(_core.call("analyze", text))["value"]
        py = best_of(lambda: infercast.analyze(req), iters)
        native = best_of(lambda: _core.call("analyze", text), iters)
        ratio = py / native
        worst = max(worst, ratio)
        line = f"{m:16} {py * 1e6:12.1f} {native * 1e6:23.1f} {ratio:6.2f}"
        if m in cxx:
            line += f" {cxx[m] * 1e6:21.1f} {py / cxx[m]:6.2f}"
        print(line)
    print(f"worst ratio (in-process): {worst:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
