#!/usr/bin/env bash
# The corpus after `smemlint --fix` was re-measured on the GPU
# (corpus/measured-fixed, see tools/gpu/README.md). This test regenerates the
# fixed copies, checks they are the very sources that were measured, and
# compares smemlint's predictions on them with the hardware: every fixed
# array must be conflict-free by the model and by the counters.
set -euo pipefail
SMEMLINT=${1:?usage: test_fixed_measured.sh SMEMLINT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp "$ROOT"/corpus/*.cu "$ROOT"/corpus/common.cuh "$T"/
"$SMEMLINT" --fix "$T" >/dev/null 2>"$T/fix.log" || [ $? -eq 1 ]
# SOURCES.sha256 holds the hashes of each fixed file up to its trailing check
# block (tests/rules/README.md): that block is smemlint's expected text output,
# a comment that follows its wording and is not part of what was measured
mkdir "$T/code"
python3 - "$ROOT" "$T" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests"))
from run_rules import code_part
t = sys.argv[2]
for f in os.listdir(t):
    if f.endswith((".cu", ".cuh")):
        with open(os.path.join(t, f), encoding="utf-8", newline="") as src, \
                open(os.path.join(t, "code", f), "w", encoding="utf-8", newline="") as dst:
            dst.write(code_part(src.read()))
PY
(cd "$T/code" && sha256sum -c --quiet "$ROOT/corpus/measured-fixed/SOURCES.sha256") || {
  echo "the --fix output changed since corpus/measured-fixed was measured: re-measure (tools/gpu/README.md)"; exit 1; }
python3 "$ROOT/tools/compare.py" --smemlint "$SMEMLINT" --corpus "$T" --measured "$ROOT/corpus/measured-fixed" \
  --known '' --only-measured
# and none of the fixed arrays conflicts any more (other arrays may)
"$SMEMLINT" --format=json "$T" > "$T/after.json" || [ $? -eq 1 ]
python3 - "$T/fix.log" "$T/after.json" <<'PY'
import json, re, sys
fixed = set()
for l in open(sys.argv[1]):
    m = re.match(r"(.*?):(\d+):\d+: fixed: '([^']+)'", l)
    if m:  # (file, line of the declaration)
        fixed.add((m.group(1).rsplit("/", 1)[-1], int(m.group(2))))
assert len(fixed) >= 6, fixed
left = [r for r in json.load(open(sys.argv[2]))["results"]
        if r["rule"] == "bank-conflict" and r["related"]
        and (r["file"].rsplit("/", 1)[-1], r["related"][0]["line"]) in fixed]
for r in left:
    print("still conflicting:", r["file"], r["line"], r["message"])
print("%d fixed arrays, %d conflicts left on them" % (len(fixed), len(left)))
sys.exit(1 if left else 0)
PY
