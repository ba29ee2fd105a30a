#!/usr/bin/env python3
"""Assembles the Python package's wheel from the built extension module, with no network and no build backend: a
wheel is a zip of the package and a .dist-info folder (PEP 427), written here with the standard library.

Usage (CMake's python_wheel target runs it): build-wheel.py --version X.Y.Z --module path/_core.*.so
       --package python/infercast --schemas dist/schemas --out dist/python
The tag is the running interpreter's (cp311-cp311-linux_x86_64 under Debian bookworm's python3): run it with the
interpreter the module was built for."""

import argparse
import base64
import hashlib
import os
import sys
import sysconfig
import zipfile

SUMMARY = "Forecasts of LLM inference performance (TTFT, TPOT, memory, costs) from a model and a device, in-process"


def tag():
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    abi = impl + getattr(sys, "abiflags", "")
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{abi}-{plat}"


def record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arc},sha256={digest},{len(data)}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--module", required=True)
    ap.add_argument("--package", required=True)
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not a.module.endswith(suffix):
        sys.exit(f"build-wheel: {a.module} is not built for this interpreter (expected a name ending {suffix})")
    if not os.path.isdir(a.schemas):
        sys.exit(f"build-wheel: {a.schemas} is missing; run scripts/build-schemas.py first")

    files = {}  # name in the wheel -> bytes
    for f in sorted(os.listdir(a.package)):
        if f.endswith(".py"):
            with open(os.path.join(a.package, f), "rb") as fh:
                files[f"infercast/{f}"] = fh.read()
    with open(a.module, "rb") as fh:
        files[f"infercast/_core{suffix}"] = fh.read()
    for f in sorted(os.listdir(a.schemas)):
        if f.endswith(".json"):
            with open(os.path.join(a.schemas, f), "rb") as fh:
                files[f"infercast/schemas/{f}"] = fh.read()

    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    info = f"infercast-{a.version}.dist-info"
    files[f"{info}/METADATA"] = (
        "Metadata-Version: 2.1\n"
        "Name: infercast\n"
        f"Version: {a.version}\n"
        f"Summary: {SUMMARY}\n"
        f"Requires-Python: =={py}.*\n"
        "Provides-Extra: pandas\n"
        "Requires-Dist: pandas; extra == \"pandas\"\n"
        "Description-Content-Type: text/markdown\n\n"
        "See docs/python.md in the Infercast repository.\n").encode()
    files[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\n"
        "Generator: infercast scripts/build-wheel.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {tag()}\n").encode()
    files[f"{info}/top_level.txt"] = b"infercast\n"
    record = [record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()

    os.makedirs(a.out, exist_ok=True)
    for old in os.listdir(a.out):
        if old.endswith(".whl"):
            os.remove(os.path.join(a.out, old))
    wheel = os.path.join(a.out, f"infercast-{a.version}-{tag()}.whl")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            zi = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # reproducible: the same bytes every build
            zi.external_attr = (0o755 if name.endswith(suffix) else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    print(f"build-wheel: {wheel} ({os.path.getsize(wheel) // 1024} KiB)")


if __name__ == "__main__":
    main()
