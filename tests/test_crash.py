#!/usr/bin/env python3
"""One file's crash is one file's problem (issue 27 item 3): with a crash
injected into libclang for one file (tests/crash/crash_shim.c, a test-only
library preloaded here; nothing in smemlint knows of it), the run reports
that file as an internal-error naming it and the phase, reports every other
file's findings, and exits 2 as for any input error, in every format and
at -j1 and -j2. Never a bare signal.

    SMEMLINT=build/smemlint CRASH_SHIM=build/tests/libcrash_shim.so python3 tests/test_crash.py"""
import json, os, subprocess, sys, tempfile

SMEMLINT = os.environ["SMEMLINT"]
SHIM = os.environ["CRASH_SHIM"]

RACE = """\
__global__ void k(float *o)
{
	__shared__ float s[64];
	s[threadIdx.x] = o[threadIdx.x];
	o[threadIdx.x] = s[63 - threadIdx.x];
}
void run(float *o) { k<<<1, 64>>>(o); }
"""


def main():
    fails = []
    # under AddressSanitizer (tools/reliability.sh) ASan would catch the
    # injected SIGSEGV itself and exit 86 with a report; the crash must kill
    # the child as it does in a normal build
    env = dict(os.environ, LD_PRELOAD=os.path.abspath(SHIM),
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":handle_segv=0:verify_asan_link_order=0")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("a.cu", "smemlint-crash-me.cu", "z.cu"):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(RACE)
        for jobs in ("-j1", "-j2"):
            p = subprocess.run([SMEMLINT, "--no-cuda", "--no-cache", jobs, "--format=json", "."], cwd=tmp,
                               env=env, capture_output=True, text=True, timeout=300)
            what = f"{jobs} json"
            if p.returncode != 2:
                fails.append(f"{what}: exit {p.returncode}, expected 2 (stderr: {p.stderr[-300:]})")
                continue
            doc = json.loads(p.stdout)
            files = sorted(os.path.normpath(r["file"]) for r in doc["results"] if r["rule"] == "missing-barrier")
            if files != ["a.cu", "z.cu"]:
                fails.append(f"{what}: the other files' findings are {files}, expected a.cu and z.cu")
            crash = [n for n in doc["notifications"] if n["id"] == "internal-error"]
            if len(crash) != 1 or os.path.normpath(crash[0].get("file", "")) != "smemlint-crash-me.cu" \
                    or "while parsing" not in crash[0]["message"] or "signal 11" not in crash[0]["message"]:
                fails.append(f"{what}: the crash is not one internal-error naming the file and phase: "
                             f"{doc['notifications']}")
        p = subprocess.run([SMEMLINT, "--no-cuda", "--no-cache", "."], cwd=tmp, env=env, capture_output=True,
                           text=True, timeout=300)
        if p.returncode != 2 or "a.cu:5" not in p.stdout or "z.cu:5" not in p.stdout:
            fails.append(f"text: exit {p.returncode}; findings of the other files missing:\n{p.stdout}")
        line = [l for l in (p.stdout + p.stderr).splitlines() if "internal error" in l]
        if not line or "smemlint-crash-me.cu" not in line[0] or "while parsing" not in line[0]:
            fails.append(f"text: the report does not name the crashed file and phase:\n{p.stdout}{p.stderr}")
        # the same run without the crash: every file analyzed (the shim is inert)
        os.rename(os.path.join(tmp, "smemlint-crash-me.cu"), os.path.join(tmp, "m.cu"))
        p = subprocess.run([SMEMLINT, "--no-cuda", "--no-cache", "--format=json", "."], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 1 or len(json.loads(p.stdout)["results"]) != 3:
            fails.append(f"without the crash: exit {p.returncode}, expected 1 with three findings")
    for f in fails:
        print("FAIL:", f)
    print("ok" if not fails else f"{len(fails)} failure(s)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
