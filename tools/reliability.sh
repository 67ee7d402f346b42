#!/usr/bin/env bash
# reliability.sh - the "never crash, never lose a line" stages of
# `tools/bootstrap.sh long` (issue 8); each fails on any report.
#
#   tools/reliability.sh [asan|valgrind|fuzz|all]     (default: all)
#
#   asan      configure build-asan with clang-22, -DSMEMLINT_SANITIZE=ON
#             (ASan+UBSan+LSan) and -DSMEMLINT_FUZZ=ON, build, run the whole
#             ctest suite; every sanitizer report is also logged to a file
#             and any such file fails the stage, whatever the test checked
#   valgrind  memcheck on the normal build (build/) over every corpus file,
#             and with full uninitialised-value tracking over the unit tests
#   fuzz      the libFuzzer targets: fuzz_smemlint (sources) for
#             SMEMLINT_FUZZ_SECONDS (default 60), then fuzz_inputs (configs,
#             compile databases and response files, baselines, header-filter
#             patterns, compile commands; seeds in tools/fuzz/inputs/) for
#             SMEMLINT_FUZZ_INPUTS_SECONDS (default 30)
#
# Environment: BUILD_DIR (default build), ASAN_BUILD_DIR (default build-asan),
# SMEMLINT_FUZZ_SECONDS, SMEMLINT_FUZZ_INPUTS_SECONDS, SMEMLINT_FUZZ_JOBS
# (parallel fuzz processes, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD_DIR:-build}
ASAN=${ASAN_BUILD_DIR:-build-asan}
NPROC=$(nproc)

asan_build() {
  cmake -S . -B "$ASAN" -DCMAKE_C_COMPILER=clang-22 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSMEMLINT_SANITIZE=ON -DSMEMLINT_FUZZ=ON >/dev/null
  cmake --build "$ASAN" -j "$NPROC"
}

stage_asan() {
  asan_build
  local logs; logs="$(cd "$ASAN" && pwd)/sanitizer-logs"
  rm -rf "$logs"; mkdir -p "$logs"
  # a report makes the process exit 86, and lands in $logs whoever ran it.
  # use_sigaltstack=0: libclang (LLVM) installs its own alternate signal
  # stack on the thread that parses, which ASan would try to unmap as its
  # own when the thread exits (an ASan CHECK failure, not a memory error)
  export ASAN_OPTIONS="log_path=$logs/asan:exitcode=86:detect_leaks=1:use_sigaltstack=0:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="log_path=$logs/ubsan:exitcode=86:print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
  export LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:${LSAN_OPTIONS:-}"
  local rc=0
  ctest --test-dir "$ASAN" --output-on-failure -j "$NPROC" || rc=$?
  if compgen -G "$logs/*" >/dev/null; then
    echo "reliability: sanitizer reports:" >&2
    for f in "$logs"/*; do echo "== $f" >&2; head -60 "$f" >&2; done
    rc=1
  fi
  unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
  [ "$rc" -eq 0 ] && echo "reliability: asan: whole suite clean"
  return "$rc"
}

VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
    --show-leak-kinds=definite,indirect --suppressions="$ROOT/tests/valgrind.supp" --num-callers=30)

# one corpus file under memcheck (xargs runs these in parallel)
valgrind_one() {
  local log; log="$1/$(basename "$2").log"
  local rc=0
  "${VG[@]}" --undef-value-errors=no "$BUILD/smemlint" --no-cache -j1 "$2" >/dev/null 2>"$log" || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "reliability: valgrind: $2: exit $rc" >&2; cat "$log" >&2; return 255
  fi
}

stage_valgrind() {
  # libclang (optimized, not ours) floods memcheck with uninitialised-value
  # reports in its own code, and checking them costs ~25x; the corpus runs
  # therefore check addressing, frees and leaks, and the code that never
  # calls libclang (the engine, the rules' model) gets full definedness
  # tracking through the unit tests.
  local out; out=$(mktemp -d)
  printf '%s\n' corpus/*.cu | xargs -P "$NPROC" -n1 "$0" vg1 "$out"
  for t in "$BUILD"/tests/test_bank "$BUILD"/tests/test_barriers; do
    [ -x "$t" ] || continue
    CK_FORK=no "${VG[@]}" --track-origins=yes "$t" >"$out/unit.log" 2>&1 || { cat "$out/unit.log" >&2; return 1; }
  done
  rm -rf "$out"
  echo "reliability: valgrind: corpus and unit tests clean"
}

# fuzz_run TARGET SECONDS CORPUS...: one libFuzzer session; a failure prints
# the report's head and every failing input as base64, so that a CI log
# alone is enough to reproduce it
fuzz_run() {
  local target=$1 secs=$2; shift 2
  local jobs=${SMEMLINT_FUZZ_JOBS:-1}
  local work="$ASAN/$target-corpus" art="$ASAN/$target-artifacts/"
  mkdir -p "$work" "$art"
  local args=(-max_total_time="$secs" -timeout="${SMEMLINT_FUZZ_INPUT_SECONDS:-20}" -print_final_stats=1
              -artifact_prefix="$art")
  [ "$target" = fuzz_smemlint ] && args+=(-dict=tools/fuzz/cuda.dict)
  [ "$jobs" -gt 1 ] && args+=(-fork="$jobs" -ignore_crashes=0)
  local log="$ASAN/$target.log" rc=0
  "$ASAN/$target" "${args[@]}" "$work" "$@" >"$log" 2>&1 || rc=$?
  tail -6 "$log"
  if [ "$rc" -ne 0 ] || compgen -G "$art/crash-*" >/dev/null || compgen -G "$art/leak-*" >/dev/null \
     || compgen -G "$art/timeout-*" >/dev/null; then
    echo "reliability: $target: failure (exit $rc); inputs in $art" >&2
    grep -n -m1 -A40 -E '^==[0-9]+==|ALARM|ERROR: libFuzzer|runtime error' "$log" >&2 || tail -60 "$log" >&2
    for f in "$art"/*; do
      [ -f "$f" ] || continue
      echo "== $f ($(wc -c <"$f") bytes), base64:" >&2
      head -c 65536 "$f" | base64 >&2
    done
    return 1
  fi
  echo "reliability: $target: ${secs}s, no crash"
}

stage_fuzz() {
  { [ -x "$ASAN/fuzz_smemlint" ] && [ -x "$ASAN/fuzz_inputs" ]; } || asan_build
  # seeds of the shapes that blew up before (deep macros, labels, long lines)
  python3 tools/fuzz/gen_seeds.py "$ASAN/fuzz-seeds"
  fuzz_run fuzz_smemlint "${SMEMLINT_FUZZ_SECONDS:-60}" corpus/ "$ASAN/fuzz-seeds"
  fuzz_run fuzz_inputs "${SMEMLINT_FUZZ_INPUTS_SECONDS:-30}" tools/fuzz/inputs
}

case "${1:-all}" in
  asan) stage_asan ;;
  valgrind) stage_valgrind ;;
  vg1) valgrind_one "$2" "$3" ;;
  fuzz) stage_fuzz ;;
  all) stage_asan; stage_valgrind; stage_fuzz ;;
  *) echo "usage: tools/reliability.sh [asan|valgrind|fuzz|all]" >&2; exit 2 ;;
esac
