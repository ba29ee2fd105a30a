"""Infercast: forecasts of LLM inference performance (FLOPs, bytes, memory, TTFT, TPOT, costs) from a model and a
device, computed in-process by the same C++ core as the CLI, the page and the npm package.

Every function of the core's registry is a function here, with the same name and request (docs/schema.md)::

    import infercast
    r = infercast.analyze({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "workload": {"batch": 8}})
    r["decode"]["tpot_s"]
    infercast.analyze(model="llama-3.1-8b", hardware="nvidia-h100-sxm")   # the same, the fields as keywords

Values are plain dicts and lists, as the CLI's ``--format json`` prints them; ``frame()`` turns a table (a list of
records) into a pandas DataFrame when pandas is installed. A request the core refuses raises ``InfercastError``
with the core's ``code``, ``path`` (a JSON pointer into the request) and ``message``. The interpreter lock is
released while the core runs, so calls from several threads run at once.
"""

import json as _json

from . import _core

__version__ = _core.version
#: The version of the request and result schemas (docs/schema.md, "Versions"); every result object carries it.
schema_version = _core.schema_version

__all__ = ["MAX_FILE_BYTES", "InfercastError", "call", "call_bytes", "envelope", "frame", "functions_list", "schema_path", "__version__",
           "schema_version"]


class InfercastError(Exception):
    """A request the core refused: ``code`` (e.g. ``request.out_of_range``), ``path`` (a JSON pointer into the
    request, "" for the request as a whole) and ``message`` (names the field, what it holds, what was expected)."""

    def __init__(self, code, path, message):
        super().__init__(message)
        self.code = code
        self.path = path
        self.message = message

    # Pickled with its three fields (Exception's own pickling would call InfercastError(message) alone): an error
    # raised in a worker process of a ProcessPoolExecutor reaches the parent whole, and the pool goes on.
    def __reduce__(self):
        return (type(self), (self.code, self.path, self.message))

    def __str__(self):
        return f"{self.message} [{self.code}]"

    def __repr__(self):
        return f"InfercastError(code={self.code!r}, path={self.path!r}, message={self.message!r})"


class _NotJson(InfercastError, TypeError):
    """A value Python cannot write as JSON (bytes, a set, an object): refused before the core, by field, with the
    core's code for a wrong type. A TypeError too, as json's own error was."""


def _pointer(path):
    return "".join("/" + str(k).replace("~", "~0").replace("/", "~1") for k in path)


def _not_json(request):
    """The path and a description of the first value of ``request`` that json cannot write, or None."""
    stack = [((), request)]
    seen = set()  # containers already walked: a request that holds itself is json's own ValueError
    while stack:
        path, v = stack.pop()
        if v is None or isinstance(v, (str, int, float, bool)):
            continue
        if isinstance(v, (dict, list, tuple)):
            if id(v) in seen:
                continue
            seen.add(id(v))
        if isinstance(v, dict):
            for k, x in v.items():
                if not (k is None or isinstance(k, (str, int, float, bool))):
                    return path, f"a key of type {type(k).__name__} ({k!r:.40})"
                stack.append((path + (k,), x))
        elif isinstance(v, (list, tuple)):
            stack.extend((path + (i,), x) for i, x in enumerate(v))
        else:
            n = _number(v)
            if n is None:
                return path, f"a value of type {type(v).__name__} ({v!r:.40})"
            if isinstance(n, list):
                stack.append((path, n))
    return None


def _number(v):
    """A value of another library as Python's own: numpy's scalars and arrays (``tolist()``: a DataFrame's
    numbers are numpy's), Decimal, Fraction; None for anything else."""
    try:
        if hasattr(v, "tolist") and hasattr(v, "dtype"):
            return v.tolist()
        if hasattr(v, "__index__"):
            return int(v.__index__())
        if hasattr(v, "__float__"):
            return float(v)
    except (TypeError, ValueError):
        pass
    return None


def _json_default(v):
    n = _number(v)
    if n is None:
        raise TypeError  # _request_text finds the value's path and names it
    return n


def _request_text(request, fields):
    if request is None:
        request = {}
    if isinstance(request, (str, bytes)):
        if fields:
            raise TypeError("give the request as JSON text or as a dict with keywords, not both")
        return request if isinstance(request, str) else request.decode("utf-8")
    if not isinstance(request, dict):
        raise TypeError(f"a request is a dict or JSON text, not {type(request).__name__}")
    if fields:
        request = {**request, **fields}
    # NaN, Infinity and -Infinity are written as those literals (json's default), which the core reads as the CLI
    # does: a config's unused NaN is ignored, a NaN where the core computes is refused by field. Numbers of other
    # types (numpy's, from a DataFrame; Decimal) are written as numbers.
    try:
        return _json.dumps(request, default=_json_default)
    except (TypeError, ValueError, RecursionError):
        found = _not_json(request)
        if found is None:
            raise
        path, what = found
        where = _pointer(path)
        raise _NotJson("request.wrong_type", where,
                       f"{where or 'the request'} holds {what}; expected a JSON value (a number, a string, true or "
                       "false, null, a list or a dict)") from None


def _value(env):
    if env["ok"]:
        return env["value"]
    e = env["error"]
    raise InfercastError(e["code"], e["path"], e["message"])


def envelope(fn, request=None, **fields):
    """The core's whole envelope: ``{"ok", "schema_version", "version", "value" | "error"}``; never raises for a
    refused request (one holding a value JSON cannot write is refused the same way, with its path)."""
    try:
        text = _request_text(request, fields)
    except _NotJson as e:
        return {"ok": False, "schema_version": schema_version, "version": __version__,
                "error": {"code": e.code, "path": e.path, "message": e.message}}
    return _core.call_value(fn, text)


def call(fn, request=None, **fields):
    """Calls the core's function ``fn`` (``functions_list()`` names them) with a request (a dict, JSON text, or
    keyword fields merged over the dict) and returns its value; raises InfercastError when the core refuses it."""
    return _value(_core.call_value(fn, _request_text(request, fields)))


def call_bytes(fn, data):
    """Calls a function that reads a file's bytes (``gguf``, ``safetensors``, ``safetensors_size``). Only the first
    ``MAX_FILE_BYTES`` are read, as the CLI and the npm package do: every such function reads a header within
    them, so a whole file (``open(path, "rb").read()``) costs no more than its header."""
    if isinstance(data, memoryview):
        view = data if data.ndim == 1 and data.format in ("B", "b", "c") else data.cast("B")
        data = view[:MAX_FILE_BYTES].tobytes()
    elif isinstance(data, (bytes, bytearray)):
        # bytes and bytearray go to the core as they are (one copy, the core's own); a longer one is cut first.
        if len(data) > MAX_FILE_BYTES:
            data = data[:MAX_FILE_BYTES]
    else:
        raise TypeError(f"{fn} reads bytes (a file's header), not {type(data).__name__}")
    return _value(_core.call_bytes_value(fn, data))


def frame(rows, key=None):
    """A table as a pandas DataFrame: a list of records (``models()``, ``batching(...)["points"]``), or the list at
    ``key`` of a result (``frame(infercast.analyze(...), "ops")``). Nested objects become dotted columns."""
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - exercised where pandas is absent
        raise ImportError("infercast.frame needs pandas (pip install pandas, or apt install python3-pandas)") from e
    if key is not None:
        rows = rows[key]
    if not isinstance(rows, list):
        raise TypeError("frame() takes a list of records, or a result and the key of its list")
    return pandas.json_normalize(rows, sep=".")


def schema_path(name=None):
    """Where the JSON Schemas shipped with the package are (a folder), or the path of one of them by name
    (``schema_path("results")``, ``schema_path("hardware")``)."""
    import os

    here = os.path.join(os.path.dirname(__file__), "schemas")
    return here if name is None else os.path.join(here, f"{name}.schema.json")


def functions_list():
    """The core's registry: ``[{"name", "input": "json" | "bytes", "help"}]``."""
    return call("functions")


def _make(entry):
    name, kind, help_text = entry["name"], entry["input"], entry["help"]
    if kind == "bytes":
        def fn(data):
            return call_bytes(name, data)
        fn.__doc__ = f"{help_text}. Takes the file's bytes; returns the value, raises InfercastError."
    else:
        def fn(request=None, **fields):
            return call(name, request, **fields)
        fn.__doc__ = (f"{help_text}. Takes a request (a dict, JSON text, or keyword fields; docs/schema.md, "
                      f"schemas/requests.schema.json#/$defs/{name}); returns the value, raises InfercastError.")
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    return fn


def _max_file_bytes():
    limits = {entry["name"]: int(entry["value"]) for entry in call("limits")}
    return max(limits["gguf_header_bytes"], 8 + limits["safetensors_header_bytes"])


#: The bytes of a file that ``call_bytes`` passes on at most: the largest header a function of file bytes reads (a
#: safetensors header: its 8-byte length and at most 100,000,000 bytes; a GGUF header: at most 64 MiB), the CLI's
#: and the npm package's limit too (docs/schema.md, "Limits").
MAX_FILE_BYTES = _max_file_bytes()

# One Python function per function of the core's registry, so a call the core gains is here with no edit.
for _entry in functions_list():
    if _entry["name"] in globals():
        raise RuntimeError(f"infercast: the core's function {_entry['name']!r} would hide a name of the package")
    globals()[_entry["name"]] = _make(_entry)
    __all__.append(_entry["name"])
del _entry
