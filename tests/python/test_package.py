"""The Python package as installed from the wheel (scripts/test.sh installs dist/python/*.whl in a fresh virtual
environment): the same numbers as the CLI, typed errors with code and path, every call of the registry, the
interpreter lock released during a call, pandas tables, and the example of docs/python.md."""

import json
import os
import re
import subprocess
import threading
import time

import pytest

import infercast

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("INFERCAST_CLI", os.path.join(ROOT, "build", "native-release", "infercast"))
REQ = {"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "workload": {"batch": 8, "prompt": 2048, "gen": 512}}


def cli_json(*args):
    return json.loads(subprocess.run([CLI, *args], capture_output=True, check=True).stdout)


def test_imported_from_the_wheel_not_the_source_tree():
    assert "site-packages" in infercast.__file__ or "dist-packages" in infercast.__file__


def test_version_is_the_project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as fh:
        cmake = re.search(r"project\(infercast VERSION ([0-9.]+)", fh.read()).group(1)
    with open(os.path.join(ROOT, "package.json")) as fh:
        assert json.load(fh)["version"] == cmake
    assert infercast.__version__ == cmake
    assert infercast.version() == {"version": cmake, "schema_version": infercast.schema_version}


def test_analyze_gives_the_cli_numbers_exactly():
    py = infercast.analyze(REQ)
    cli = cli_json("analyze", "--model", "llama-3.1-8b", "--hardware", "nvidia-h100-sxm", "--batch", "8", "--prompt", "2048",
                   "--gen", "512", "--format", "json")
    assert py == cli
    assert py["decode"]["tpot_s"] > 0 and py["ttft_s"] > 0
    assert py["schema_version"] == infercast.schema_version and py["version"] == infercast.__version__


def test_request_as_keywords_or_json_text_is_the_same():
    a = infercast.analyze(REQ)
    assert infercast.analyze(**REQ) == a
    assert infercast.analyze(json.dumps(REQ)) == a
    assert infercast.analyze({"model": "llama-3.1-8b"}, hardware="nvidia-h100-sxm", workload=REQ["workload"]) == a


def test_refused_requests_raise_infercast_error_with_code_and_path():
    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze(model="llama-3.1-8b", workload={"batch": 0})
    assert e.value.code == "request.out_of_range"
    assert e.value.path == "/workload/batch"
    assert "/workload/batch" in e.value.message and str(e.value).endswith("[request.out_of_range]")
    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze(model="llama-3.1-8b", wrokload={})
    assert (e.value.code, e.value.path) == ("request.unknown_field", "/wrokload")
    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze(model="no-such-model")
    assert e.value.path == "/model"
    with pytest.raises(infercast.InfercastError) as e:
        infercast.call("no_such_function")
    assert e.value.code == "api.unknown_function" and "analyze" in e.value.message
    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze("{not json")
    assert e.value.path == ""


def test_what_python_cannot_send_as_json_is_refused_by_field():
    with pytest.raises(TypeError):
        infercast.analyze(["llama-3.1-8b"])
    with pytest.raises(TypeError):
        infercast.gguf("not bytes")
    # A value json cannot write is refused with its path and the core's code, raised as InfercastError (a TypeError
    # too) by call() and returned as an envelope by envelope(), which never raises for a refused request.
    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze(model="llama-3.1-8b", workload={"requests": [{"input": 8}, {"input": b"12"}]})
    assert isinstance(e.value, TypeError)
    assert (e.value.code, e.value.path) == ("request.wrong_type", "/workload/requests/1/input")
    assert e.value.message.startswith("/workload/requests/1/input holds a value of type bytes (b'12'); expected a JSON value")
    env = infercast.envelope("analyze", model="llama-3.1-8b", costs={"region": {1, 2}})
    assert not env["ok"] and env["error"]["path"] == "/costs/region" and env["schema_version"] == infercast.schema_version


def test_nan_and_infinity_are_read_as_the_cli_reads_them(tmp_path):
    # NaN and Infinity go to the core as the literals Python's json writes, which the CLI reads too: a NaN where the
    # core computes is refused by field, one in a config field the model does not use is ignored.
    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze(model="llama-3.1-8b", costs={"pue": float("nan")})
    assert (e.value.code, e.value.path) == ("request.out_of_range", "/costs/pue")
    assert e.value.message == "/costs/pue holds NaN; expected a number from 1 to 10"
    env = infercast.envelope("analyze", model="llama-3.1-8b", hardware="nvidia-h100-sxm", workload={"prompt": float("inf")})
    assert not env["ok"] and env["error"]["path"] == "/workload/prompt" and "holds Infinity" in env["error"]["message"]
    with open(os.path.join(ROOT, "tests", "data", "tiny-llama.json")) as fh:
        config = json.load(fh)
    config["initializer_range"] = float("nan")
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    assert "NaN" in path.read_text()
    py = infercast.analyze(model=config, hardware="nvidia-h100-sxm")
    assert py == infercast.analyze(f'{{"model": {path.read_text()}, "hardware": "nvidia-h100-sxm"}}')
    cli = cli_json("analyze", "--model", str(path), "--hardware", "nvidia-h100-sxm", "--format", "json")
    assert py["decode"]["tpot_s"] == cli["decode"]["tpot_s"] and py["ttft_s"] == cli["ttft_s"]


def test_numbers_of_numpy_and_decimal_are_numbers():
    numpy = pytest.importorskip("numpy")
    import decimal
    base = infercast.analyze(model="llama-3.1-8b", hardware="nvidia-h100-sxm", workload={"batch": 4, "prompt": 512})
    for batch, prompt in [(numpy.int64(4), numpy.float64(512)), (decimal.Decimal(4), numpy.array([512])[0])]:
        r = infercast.analyze(model="llama-3.1-8b", hardware="nvidia-h100-sxm", workload={"batch": batch, "prompt": prompt})
        assert r == base


def test_infercast_error_pickles_whole_and_a_process_pool_goes_on():
    import concurrent.futures
    import copy
    import pickle

    with pytest.raises(infercast.InfercastError) as e:
        infercast.analyze(model="llama-3.1-8b", workload={"batch": 0})
    for back in (pickle.loads(pickle.dumps(e.value)), copy.copy(e.value)):
        assert type(back) is infercast.InfercastError
        assert (back.code, back.path, back.message, str(back)) == (e.value.code, e.value.path, e.value.message, str(e.value))
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        futures = {b: pool.submit(_tpot, b) for b in (1, 0, 8)}
        with pytest.raises(infercast.InfercastError) as refused:
            futures[0].result()
        assert refused.value.path == "/workload/batch"
        assert futures[8].result() == _tpot(8) and futures[1].result() == _tpot(1)


def _tpot(batch):
    return infercast.analyze(model="llama-3.1-8b", hardware="nvidia-h100-sxm", workload={"batch": batch})["decode"]["tpot_s"]


def test_envelope_carries_the_versions_and_never_raises():
    ok = infercast.envelope("models")
    assert ok["ok"] and ok["schema_version"] == infercast.schema_version and ok["version"] == infercast.__version__
    bad = infercast.envelope("analyze", {"model": 7})
    assert not bad["ok"] and bad["error"]["path"] == "/model" and bad["schema_version"] == infercast.schema_version


def test_every_function_of_the_registry_is_a_function_of_the_package():
    entries = infercast.functions_list()
    assert {"analyze", "batching", "sweep", "validate", "calibrate", "models", "hardware", "gguf"} <= {f["name"] for f in entries}
    for f in entries:
        fn = getattr(infercast, f["name"])
        assert callable(fn) and fn.__name__ == f["name"] and f["help"] in fn.__doc__
        assert f["name"] in infercast.__all__


def test_catalogs_are_lists_of_plain_dicts():
    models = infercast.models()
    assert isinstance(models, list) and all(isinstance(m, dict) for m in models)
    assert any(m["id"] == "llama-3.1-8b" and m["params_total"] == 8030261248 for m in models)
    assert any(h["id"] == "nvidia-h100-sxm" for h in infercast.hardware())


def test_file_bytes_functions():
    path = os.path.join(ROOT, "tests", "data", "tiny-checkpoint", "model-00001-of-00002.safetensors")
    with open(path, "rb") as fh:
        data = fh.read()
    size = infercast.safetensors_size(data[:8])["header_bytes"]
    assert size == 8 + int.from_bytes(data[:8], "little")
    table = infercast.safetensors(data[:size])
    assert table["header_bytes"] == size and table["tensors"]
    with pytest.raises(infercast.InfercastError) as e:
        infercast.gguf(b"not a gguf header")
    assert e.value.code.startswith("gguf.")


def test_call_bytes_reads_at_most_the_largest_header():
    # A whole file (open(path, "rb").read()) costs no more than its header: only MAX_FILE_BYTES go to the core, the
    # limit of the CLI and the npm package (the largest header a function of bytes reads: a safetensors header).
    assert infercast.MAX_FILE_BYTES == 100_000_008
    with open(os.path.join(ROOT, "tests", "fuzz", "corpus", "gguf", "tiny-llama.gguf"), "rb") as fh:
        head = fh.read()
    want = infercast.gguf(head)
    big = bytearray(infercast.MAX_FILE_BYTES + 50_000_000)
    big[:len(head)] = head
    for data in (big, bytes(big), memoryview(big)):
        assert infercast.gguf(data) == want
    assert infercast.call_bytes("gguf", memoryview(head)) == want


def test_the_interpreter_lock_is_released_during_a_call():
    # A sweep of 2**18 design points runs for a while in C++; the main thread counts meanwhile. Holding the lock
    # through the call would leave the counter where it was until the call returns.
    req = dict(REQ, axes=[{"param": "compute_TFLOPS", "min": 100, "max": 4000, "steps": 512},
                          {"param": "bandwidth_GBps", "min": 500, "max": 16000, "steps": 512}])
    done = threading.Event()
    result = {}

    def run():
        t0 = time.perf_counter()
        result["value"] = infercast.sweep(req)
        result["seconds"] = time.perf_counter() - t0
        done.set()

    t = threading.Thread(target=run)
    t.start()
    ticks = 0
    t0 = time.perf_counter()
    while not done.is_set():
        ticks += 1
    elapsed = time.perf_counter() - t0
    t.join()
    assert result["value"]["points"] == 512 * 512
    assert result["seconds"] > 0.05, "the sweep is too short to tell"
    assert ticks > 10000, f"the main thread ran {ticks} loops in {elapsed:.3f} s beside the call"


def test_calls_from_several_threads_agree_with_one_thread():
    reqs = [dict(REQ, workload={"batch": b, "prompt": 1024, "gen": 256}) for b in (1, 2, 4, 8, 16, 32)]
    alone = [infercast.analyze(r) for r in reqs]
    got = [None] * len(reqs)

    def run(i):
        got[i] = infercast.analyze(reqs[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(reqs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == alone


def test_frame_makes_tables_with_pandas():
    pandas = pytest.importorskip("pandas")
    pts = infercast.frame(infercast.batching(REQ, batching={"max_batch": 64}), "points")
    assert isinstance(pts, pandas.DataFrame)
    assert list(pts["batch"][:4]) == [1, 2, 4, 8]
    assert (pts["total_tokens_per_s"].diff().dropna() > 0).any()
    ops = infercast.frame(infercast.analyze(REQ)["ops"])
    assert {"name", "phase", "flops", "time_s"} <= set(ops.columns)
    hw = infercast.frame(infercast.hardware())
    assert "peak_dense_TFLOPS.bf16" in hw.columns
    with pytest.raises(TypeError):
        infercast.frame({"not": "a table"})


def test_the_docs_example_runs_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    with open(os.path.join(ROOT, "docs", "python.md")) as fh:
        code = re.search(r"```python\n(# batching curve.*?)```", fh.read(), re.S).group(1)
    import matplotlib
    matplotlib.use("Agg")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        scope = {}
        exec(compile(code, "docs/python.md", "exec"), scope)
    finally:
        os.chdir(cwd)
    png = tmp_path / "batching.png"
    assert png.exists() and png.stat().st_size > 10000
    assert len(scope["pts"]) >= 5
