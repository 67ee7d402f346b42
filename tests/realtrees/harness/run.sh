#!/usr/bin/env bash
# Racecheck of the harnesses reduced from real trees (doc/trees.md, "Races
# checked on the GPU"): each .cu here is built at -O0 -G and -O3, run under
# compute-sanitizer racecheck, and its log written to OUTDIR/NAME.{g,o3}.log,
# with the GPU, driver and CUDA versions in OUTDIR/env.txt. On the GPU
# machine: bash tests/realtrees/harness/run.sh "$OUT"
set -u
out=${1:?usage: run.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; } > "$out/env.txt" 2>&1
for f in "$here"/*.cu; do
	n=$(basename "$f" .cu)
	nvcc -O0 -G -arch=sm_90 "$f" -o "/tmp/$n.g" && nvcc -O3 -lineinfo -arch=sm_90 "$f" -o "/tmp/$n.o3" || { echo "$n: build failed" >> "$out/env.txt"; continue; }
	timeout 300 compute-sanitizer --tool racecheck --print-limit 200 "/tmp/$n.g" > "$out/$n.g.log" 2>&1
	timeout 300 compute-sanitizer --tool racecheck --racecheck-report analysis "/tmp/$n.o3" > "$out/$n.o3.log" 2>&1
done
