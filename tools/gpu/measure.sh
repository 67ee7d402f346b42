#!/usr/bin/env bash
# Measure shared-memory wavefronts per SASS instruction (Nsight Compute),
# shared-memory races (compute-sanitizer racecheck) and out-of-bounds
# accesses (compute-sanitizer memcheck) for every corpus/*.cu.
#
# Runs ON the GPU machine, from the repository root:
#     tools/gpu/measure.sh OUTDIR
# Writes OUTDIR/raw.tar.gz (everything, for tools/gpu/import.py) and a short
# OUTDIR/log.txt.  Keeps going when one file fails; failures are logged.
#
# Environment knobs:
#   CORPUS        folder of .cu files (default: corpus)
#   ARCH          nvcc -arch (default: sm_90)
#   JOBS          parallel builds / racechecks (default: nproc)
#   NCU_TIMEOUT   seconds per program under ncu (default: 300)
#   RACE_TIMEOUT  seconds per program under racecheck (default: 300)
#   RUN_TIMEOUT   seconds for a plain run of the -O3 binary (default: 60)
#   WORKDIR       where to build (default: a fresh mktemp -d); kept afterwards
#   NVCC_FLAGS    extra flags for both builds (default: empty)
#   NCU_FLAGS     extra flags for the ncu profiling run (default: empty), e.g.
#                 '--kernel-name-base mangled --kernel-id ::regex:.:1' to profile
#                 only the first launch of each kernel instantiation, for
#                 third-party programs that launch the same kernels many times
set -u -o pipefail

OUTDIR=${1:?usage: tools/gpu/measure.sh OUTDIR}
CORPUS=${CORPUS:-corpus}
ARCH=${ARCH:-sm_90}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
NCU_TIMEOUT=${NCU_TIMEOUT:-300}
RACE_TIMEOUT=${RACE_TIMEOUT:-300}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}
NVCC_FLAGS=${NVCC_FLAGS:-}
NCU_FLAGS=${NCU_FLAGS:-}
export ARCH NVCC_FLAGS RACE_TIMEOUT

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
WORKDIR=${WORKDIR:-$(mktemp -d)}
W=$WORKDIR/raw
rm -rf "$W"
mkdir -p "$W"/bin "$W"/rep "$W"/src "$W"/race "$W"/mem "$W"/build
export W
LOG=$W/log.txt
: >"$LOG"
T0=$(date +%s)
log() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$LOG" >&2; }

shopt -s nullglob
FILES=("$CORPUS"/*.cu)
log "measure.sh: ${#FILES[@]} files in $CORPUS, arch $ARCH, $JOBS jobs, workdir $W"
printf '%s\n' "${FILES[@]}" >"$W/files.txt"
if [ ${#FILES[@]} -eq 0 ]; then log "no .cu files in $CORPUS"; fi

# ---- environment -----------------------------------------------------------
{
  echo "gpu_csv: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "arch: $ARCH"
  echo "--- nvcc --version"; nvcc --version 2>&1
  echo "--- ncu --version"; ncu --version 2>&1
  echo "--- compute-sanitizer --version"; compute-sanitizer --version 2>&1
} >"$W/env.txt"

# ---- builds (parallel) -----------------------------------------------------
build_one() {
  f=$1; b=$(basename "$f" .cu); d=$(dirname "$f")
  # -I the file's own folder so corpus-local headers resolve.
  if nvcc -O3 -lineinfo -arch="$ARCH" $NVCC_FLAGS -I"$d" "$f" -o "$W/bin/$b" >"$W/build/$b.O3.log" 2>&1; then
    echo "$b O3 ok"; else echo "$b O3 FAILED"; rm -f "$W/bin/$b"; fi
  if nvcc -O0 -G -arch="$ARCH" $NVCC_FLAGS -I"$d" "$f" -o "$W/bin/${b}_g" >"$W/build/$b.G.log" 2>&1; then
    echo "$b G ok"; else echo "$b G FAILED"; rm -f "$W/bin/${b}_g"; fi
}
export -f build_one
if [ ${#FILES[@]} -gt 0 ]; then
  printf '%s\0' "${FILES[@]}" | xargs -0 -n1 -P "$JOBS" bash -c 'build_one "$1"' _ \
    >"$W/build/status.txt" 2>&1
fi
grep FAILED "$W/build/status.txt" | while read -r l; do log "build: $l"; done
log "builds done: $(grep -c ' ok$' "$W/build/status.txt") ok, $(grep -c FAILED "$W/build/status.txt") failed"

# ---- racecheck (parallel, before ncu so it does not overlap profiling) -----
# race/F.log: the -O0 -G build (default report).  race/F.O3.log: the -O3 build
# with --racecheck-report analysis; it sees intra-warp hazards (e.g. a warp
# reduction without __syncwarp) that the -G build did not show on the H100.
# The print limit is high: a cluster kernel's hazards (another block's
# shared memory read before it entered or after it exited) come one per
# thread, and 200 of them hid the other kernels' races.
race_one() {
  b=$1
  if [ -x "$W/bin/${b}_g" ]; then
    timeout "$RACE_TIMEOUT" compute-sanitizer --tool racecheck --print-limit 5000 "$W/bin/${b}_g" \
      >"$W/race/$b.log" 2>&1
    echo "$b G rc=$?"
  else
    echo "$b G no binary"
  fi
  if [ -x "$W/bin/$b" ]; then
    timeout "$RACE_TIMEOUT" compute-sanitizer --tool racecheck --racecheck-report analysis --print-limit 5000 \
      "$W/bin/$b" >"$W/race/$b.O3.log" 2>&1
    echo "$b O3 rc=$?"
  else
    echo "$b O3 no binary"
  fi
}
export -f race_one
if [ ${#FILES[@]} -gt 0 ]; then
  for f in "${FILES[@]}"; do basename "$f" .cu; done |
    xargs -n1 -P "$(( JOBS < 8 ? JOBS : 8 ))" bash -c 'race_one "$1"' _ >"$W/race/status.txt" 2>&1
fi
grep -v ' rc=0$' "$W/race/status.txt" | while read -r l; do log "racecheck: $l"; done
log "racecheck done"

# ---- memcheck (parallel): out-of-bounds shared accesses ---------------------
# mem/F.log: the -O0 -G build, so each report names the access's own line.
# A kernel stops at its first invalid access, so a file's out-of-bounds
# kernel is the last it launches (corpus/README.md).
mem_one() {
  b=$1
  if [ -x "$W/bin/${b}_g" ]; then
    timeout "$RACE_TIMEOUT" compute-sanitizer --tool memcheck --print-limit 1000 "$W/bin/${b}_g" \
      >"$W/mem/$b.log" 2>&1
    echo "$b G rc=$?"
  else
    echo "$b G no binary"
  fi
}
export -f mem_one
if [ ${#FILES[@]} -gt 0 ]; then
  for f in "${FILES[@]}"; do basename "$f" .cu; done |
    xargs -n1 -P "$(( JOBS < 8 ? JOBS : 8 ))" bash -c 'mem_one "$1"' _ >"$W/mem/status.txt" 2>&1
fi
grep -v ' rc=0$' "$W/mem/status.txt" | while read -r l; do log "memcheck: $l"; done
log "memcheck done"

# ---- kernel listing helper (reads ncu --page raw --csv) ---------------------
cat >"$W/list_kernels.py" <<'PY'
import csv, re, sys
# usage: list_kernels.py function.csv mangled.csv demangled.csv > kernels.tsv
def names(path):
    try:
        rows = list(csv.reader(open(path, newline='', errors='replace')))
    except OSError:
        return []
    hdr = None
    out = []
    for r in rows:
        if hdr is None:
            if 'Kernel Name' in r:
                hdr = r
            continue
        if len(r) != len(hdr):
            continue
        d = dict(zip(hdr, r))
        if not d.get('ID', '').strip().isdigit():  # units row
            continue
        out.append((d['ID'].strip(), d['Kernel Name']))
    return out
fn, mg, dm = (names(p) for p in sys.argv[1:4])
n = max(len(fn), len(mg), len(dm))
seen = {}
used = set()
print('id\tfunction\tmangled\tdemangled\tcsv')
for i in range(n):
    rid = (fn or mg or dm)[i][0]
    f = fn[i][1] if i < len(fn) else ''
    m = mg[i][1] if i < len(mg) else ''
    d = dm[i][1] if i < len(dm) else ''
    key = m or d or f
    if key in seen:
        continue
    base = re.sub(r'[^A-Za-z0-9_.-]', '_', f or m or d or 'kernel')[:100]
    name, k = base, 2
    while name in used:
        name = '%s__%d' % (base, k); k += 1
    used.add(name); seen[key] = name
    print('\t'.join([rid, f, m, d, name]))
PY

# ---- ncu profiling (serial: one program at a time on the GPU) --------------
PROFILED=()
for f in "${FILES[@]}"; do
  b=$(basename "$f" .cu)
  [ -x "$W/bin/$b" ] || { log "ncu: $b skipped (no -O3 binary)"; continue; }
  t=$(date +%s)
  timeout "$NCU_TIMEOUT" ncu --section SourceCounters --import-source yes $NCU_FLAGS -f -o "$W/rep/$b" "$W/bin/$b" \
    >"$W/rep/$b.ncu.log" 2>&1
  rc=$?
  if [ ! -s "$W/rep/$b.ncu-rep" ]; then log "ncu: $b FAILED rc=$rc (no report; see rep/$b.ncu.log)"; continue; fi
  [ $rc -ne 0 ] && log "ncu: $b rc=$rc (report written; the program may have failed)"
  log "ncu: $b profiled $(grep -c '==PROF== Profiling' "$W/rep/$b.ncu.log") launches in $(( $(date +%s) - t ))s"
  PROFILED+=("$b")
done

# ---- exports (parallel; reading reports needs no GPU) ---------------------
export_one() {
  b=$1
  for base in function mangled demangled; do
    ncu -i "$W/rep/$b.ncu-rep" --page raw --csv --print-kernel-base "$base" \
      --metrics launch__grid_size,launch__block_size >"$W/rep/$b.kernels.$base.csv" 2>&1
  done
  python3 "$W/list_kernels.py" "$W/rep/$b.kernels."{function,mangled,demangled}.csv >"$W/src/$b.kernels.tsv" \
    2>"$W/src/$b.kernels.err"
  [ -s "$W/src/$b.kernels.err" ] || rm -f "$W/src/$b.kernels.err"
  nk=0; nf=0
  while IFS=$'\t' read -r rid fn mg dm name; do
    [ "$rid" = id ] && continue
    out=$W/src/$b.$name.csv
    ok=0
    if [ -n "$mg" ]; then
      esc=$(printf '%s' "$mg" | sed 's/[][\.*^$+?(){}|\\]/\\&/g')
      ncu -i "$W/rep/$b.ncu-rep" --page source --csv --print-source cuda,sass \
        --kernel-name-base mangled --kernel-name "regex:^${esc}\$" >"$out" 2>"$out.err" && [ -s "$out" ] && ok=1
    fi
    if [ $ok = 0 ] && [ -n "$fn" ]; then
      esc=$(printf '%s' "$fn" | sed 's/[][\.*^$+?(){}|\\]/\\&/g')
      ncu -i "$W/rep/$b.ncu-rep" --page source --csv --print-source cuda,sass \
        --kernel-name "regex:^${esc}\$" >"$out" 2>"$out.err" && [ -s "$out" ] && ok=1
      [ $ok = 1 ] && echo "exported by function name (mangled filter failed)" >>"$out.err"
    fi
    [ -s "$out.err" ] || rm -f "$out.err"
    if [ $ok = 1 ]; then nk=$((nk + 1)); else nf=$((nf + 1)); echo "export: $b $name FAILED"; fi
  done <"$W/src/$b.kernels.tsv"
  echo "export: $b $nk kernels exported, $nf failed"
}
export -f export_one
if [ ${#PROFILED[@]} -gt 0 ]; then
  printf '%s\n' "${PROFILED[@]}" | xargs -n1 -P "$JOBS" bash -c 'export_one "$1"' _ >"$W/src/status.txt" 2>&1
fi
while read -r l; do log "$l"; done <"$W/src/status.txt"

# ---- archive -----------------------------------------------------------------
log "total $(( $(date +%s) - T0 ))s"
cp "$LOG" "$OUTDIR/log.txt"
# Binaries stay out; reports (for a later re-export on a GPU machine) only with INCLUDE_REPORTS=1.
EXCL=(--exclude=raw/bin)
[ -n "${INCLUDE_REPORTS:-}" ] || EXCL+=(--exclude='*.ncu-rep')
tar -C "$WORKDIR" -czf "$OUTDIR/raw.tar.gz" "${EXCL[@]}" raw
echo "wrote $OUTDIR/raw.tar.gz ($(du -h "$OUTDIR/raw.tar.gz" | cut -f1)) and $OUTDIR/log.txt" | tee -a "$OUTDIR/log.txt"
