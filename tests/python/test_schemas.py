"""The JSON Schemas shipped in the wheel (python3-jsonschema), against every preset, the requests of
tests/data/requests.json (accepted by the core, their results checked) and the refused ones (refused by both)."""

import glob
import json
import os

import jsonschema
import pytest

import infercast

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(ROOT, "tests", "data", "requests.json")) as fh:
    REQUESTS = json.load(fh)

STORE = {}
for path in glob.glob(os.path.join(infercast.schema_path(), "*.schema.json")):
    with open(path) as fh:
        s = json.load(fh)
    STORE[s["$id"]] = s


def validator(ref):
    base, _, frag = ref.partition("#")
    schema = STORE[base] if not frag else {"$ref": ref}
    resolver = jsonschema.RefResolver(base_uri=base, referrer=STORE[base], store=STORE)
    cls = jsonschema.validators.validator_for(STORE[base])
    cls.check_schema(STORE[base])
    return cls(schema, resolver=resolver)


def errors(ref, value):
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(ref).iter_errors(value)]


def presets(kind):
    files = sorted(glob.glob(os.path.join(ROOT, "presets", kind, "*.json")))
    return [(os.path.basename(f), json.load(open(f))) for f in files]


@pytest.mark.parametrize("kind,ref", [("models", "urn:infercast:schema:model-preset"),
                                      ("hardware", "urn:infercast:schema:hardware"),
                                      ("systems", "urn:infercast:schema:system#/$defs/preset"),
                                      ("runtimes", "urn:infercast:schema:runtime")])
def test_every_preset_matches_its_schema(kind, ref):
    docs = presets(kind)
    if kind == "runtimes" and not docs:
        pytest.skip("no runtime presets in this tree")
    assert docs
    for name, doc in docs:
        assert errors(ref, doc) == [], name


def test_the_hardware_schema_refuses_a_device_without_memory():
    _, doc = presets("hardware")[0]
    assert errors("urn:infercast:schema:hardware", dict(doc, memory_tiers=[]))
    assert errors("urn:infercast:schema:hardware", dict(doc, bandwidth=1))


def test_real_requests_and_their_results_match_the_schemas():
    n = 0
    for fn, reqs in REQUESTS["calls"].items():
        for req in reqs:
            assert errors(f"urn:infercast:schema:requests#/$defs/{fn}", req) == [], (fn, req)
            env = infercast.envelope(fn, req)
            assert env["ok"], (fn, env.get("error"))
            assert errors("urn:infercast:schema:envelope", env) == []
            assert errors(f"urn:infercast:schema:results#/$defs/{fn}", env["value"]) == [], (fn, req)
            n += 1
    assert n >= 30


def test_file_results_match_the_schemas():
    path = os.path.join(ROOT, "tests", "data", "tiny-checkpoint")
    tensors = []
    for f in sorted(glob.glob(os.path.join(path, "*.safetensors"))):
        data = open(f, "rb").read()
        size = infercast.safetensors_size(data[:8])
        assert errors("urn:infercast:schema:results#/$defs/safetensors_size", size) == []
        table = infercast.safetensors(data[:size["header_bytes"]])
        assert errors("urn:infercast:schema:results#/$defs/safetensors", table) == []
        tensors += table["tensors"]
    with open(os.path.join(path, "config.json")) as fh:
        cp = infercast.checkpoint(tensors=tensors, model=json.load(fh))
    assert cp["matches"] is True
    assert errors("urn:infercast:schema:results#/$defs/checkpoint", cp) == []


def test_every_function_has_a_request_and_a_result_schema():
    for f in infercast.functions_list():
        assert f["name"] in STORE["urn:infercast:schema:requests"]["$defs"], f["name"]
        assert f["name"] in STORE["urn:infercast:schema:results"]["$defs"], f["name"]


def test_refused_requests_fail_the_schema_and_the_core():
    for fn, req in REQUESTS["refused"]:
        assert errors(f"urn:infercast:schema:requests#/$defs/{fn}", req), (fn, req)
        assert not infercast.envelope(fn, req)["ok"], (fn, req)


def schema_nodes(root, parts):
    """The schema nodes a field table path names ("*": every member or item), following $ref."""
    def deref(node):
        while "$ref" in node:
            base, _, frag = node["$ref"].partition("#")
            node = STORE[base] if base else root
            for p in filter(None, frag.split("/")):
                node = node[p]
        return node
    nodes = [root]
    for p in parts:
        nxt = []
        for n in map(deref, nodes):
            if p == "*":
                nxt += [n["items"]] if "items" in n else list(n.get("properties", {}).values())
            else:
                assert p in n.get("properties", {}), (parts, p)
                nxt.append(n["properties"][p])
        nodes = nxt
    return [deref(n) for n in nodes]


def test_hardware_and_system_schemas_hold_the_cores_ranges():
    # The field table (core/io/fields.cpp, listed by the options call) is what the core enforces; the hand-written
    # schemas must state the same bounds, so an editor's validation and the core agree on every device file.
    fields = []

    def walk(x):
        if isinstance(x, dict):
            if "path" in x and "min" in x:
                fields.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(infercast.envelope("options", {})["value"])
    checked = 0
    for f in fields:
        kind, *parts = f["path"].strip("/").split("/")
        if kind not in ("hardware", "system"):
            continue
        for n in schema_nodes(STORE["urn:infercast:schema:" + kind], parts):
            assert "exclusiveMinimum" not in n, f["path"]
            assert (n.get("minimum"), n.get("maximum")) == (f["min"], f["max"]), f["path"]
            checked += 1
    assert checked >= 25
