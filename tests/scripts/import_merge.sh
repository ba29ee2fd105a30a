#!/usr/bin/env bash
# scripts/import_hardware_facts.py merges, never deletes: re-importing into a copy of presets/hardware leaves a
# hand-made preset in place, keeps a hand-added key and peak in an imported preset, and rewrites every other
# preset byte for byte. Usage: tests/scripts/import_merge.sh SOURCE_DIR (ctest runs it when python3 and
# ../shared/hardware/hardware_facts.csv are there).
set -euo pipefail
src=$1
csv="$src/../shared/hardware/hardware_facts.csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src"/presets/hardware/*.json "$tmp"/
echo '{"schema_version": 1, "id": "hand-made", "name": "kept as it is"}' > "$tmp/hand-made.json"
python3 - "$tmp/nvidia-h100-sxm.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["memory_system"] = "hbm"
d["peak_dense_TFLOPS"]["fp4"] = 1.5
json.dump(d, open(sys.argv[1], "w"))
PY
python3 "$src/scripts/import_hardware_facts.py" --out "$tmp" "$csv" > /dev/null
test "$(cat "$tmp/hand-made.json")" = '{"schema_version": 1, "id": "hand-made", "name": "kept as it is"}'
python3 - "$tmp/nvidia-h100-sxm.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["memory_system"] == "hbm" and d["peak_dense_TFLOPS"]["fp4"] == 1.5 and d["peak_dense_TFLOPS"]["bf16"] == 989.4, d
PY
n=0
for f in "$src"/presets/hardware/*.json; do
  b=$(basename "$f")
  [ "$b" = nvidia-h100-sxm.json ] && continue
  cmp -s "$f" "$tmp/$b" || { echo "re-import changed $b"; exit 1; }
  n=$((n + 1))
done
echo "import merges: hand-made preset kept, hand-added key and peak kept, $n presets unchanged"
