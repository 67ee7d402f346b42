#!/usr/bin/env python3
"""Regression inputs (tests/regress/*.cu): inputs that once crashed smemlint
(found by tests/test_hostile.py, the fuzzer or the IR-limit sweep). Each must
now give an exit status of 0, 1 or 2, never a signal or a sanitizer report,
and a JSON document that parses. A line `// smemlint-regress-env: K=V`
sets an environment variable for that input.

    SMEMLINT=build/smemlint python3 tests/regress.py
"""
import glob, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))


def main():
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "regress", "*")))
    bad = 0
    for path in files:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
        env = dict(os.environ)
        for k, v in re.findall(r"smemlint-regress-env:\s*(\w+)=(\S*)", head):
            env[k] = v
        p = subprocess.run([SMEMLINT, "--no-cuda", "--no-cache", "--format=json", path], capture_output=True,
                           env=env, timeout=600)
        err = p.stderr.decode("utf-8", "replace")
        why = None
        if p.returncode < 0:
            why = f"killed by signal {-p.returncode}"
        elif p.returncode not in (0, 1, 2):
            why = f"exit {p.returncode}"
        elif "Sanitizer" in err or "runtime error" in err:
            why = "sanitizer report"
        else:
            try:
                json.loads(p.stdout)
            except ValueError as e:
                why = f"invalid JSON: {e}"
        if why:
            bad += 1
            print(f"FAIL {os.path.relpath(path, ROOT)}: {why}\n{err[-3000:]}")
    print(f"regress: {len(files) - bad} passed, {bad} failed")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
