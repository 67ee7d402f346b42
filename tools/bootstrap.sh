#!/usr/bin/env bash
# bootstrap.sh - set up a fresh Debian machine, build, and lint or test.
#   tools/bootstrap.sh lint   install what is missing, build, run smemlint on corpus/
#   tools/bootstrap.sh test   install what is missing, build, run the unit, golden and
#                             integration tests (ctest -LE long; minutes)
#   tools/bootstrap.sh long   install what is missing, build, run the long tests
#                             (ctest -L long), then the sanitizer, valgrind and fuzz
#                             stages (tools/reliability.sh; about 20 minutes)
# CI (.ci/run) runs test, then long.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(cmake make gcc pkg-config python3 libclang-22-dev clang-22 check libjansson-dev libyaml-dev libcsv-dev
      python3-jsonschema python3-yaml chromium libclang-rt-22-dev valgrind time)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm: Debian's package only when no npm is installed (a Node.js from
# another source ships its own npm, and Debian's npm conflicts with it)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

BUILD=${BUILD_DIR:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j "$(nproc)"

# Microsoft's SARIF Multitool (ci.formats validates the SARIF output with
# its GitHub rule set): the Linux build from npm, beside the binary. npm may
# refuse the package's postinstall chmod, so it is done here.
MT_VERSION=5.7.0
MT="$BUILD/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ "${1:-test}" != lint ] && [ ! -x "$MT" ]; then
  echo "bootstrap: installing the SARIF Multitool $MT_VERSION from npm"
  npm install --silent --no-audit --no-fund --prefix "$BUILD/sarif-multitool" \
    "@microsoft/sarif-multitool-linux@$MT_VERSION"
  chmod u+x "$MT"
fi

case "${1:-test}" in
  lint)
    rc=0; "$BUILD/smemlint" corpus/ || rc=$?
    # 1 means findings (the corpus has them on purpose); 2 is an error
    [ "$rc" -le 1 ] ;;
  test|long)
    # every optional tool is installed now: a test that would skip for a
    # missing one fails instead (tests/tooling.py), so a pass ran them all
    [ -e "${CUDA_PATH:-/usr/local/cuda}/include/cuda_runtime.h" ] ||
      echo "bootstrap: no CUDA toolkit at ${CUDA_PATH:-/usr/local/cuda} (set CUDA_PATH): the tests that need one will fail" >&2
    # test: everything but the tests labelled long (tests/CMakeLists.txt);
    # long: those, then the whole suite under ASan+UBSan, valgrind and a
    # bounded fuzz session
    if [ "${1:-test}" = test ]; then sel=(-LE long); else sel=(-L long); fi
    SMEMLINT_REQUIRE_TOOLS=1 ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" "${sel[@]}"
    if [ "${1:-test}" = long ]; then BUILD_DIR="$BUILD" tools/reliability.sh all; fi ;;
  *)
    echo "usage: tools/bootstrap.sh lint|test|long" >&2; exit 2 ;;
esac
