#!/usr/bin/env python3
"""Golden tests: each corpus file ends with a comment block

    /* smemlint-expect
     * LINE RULE [ARRAY WAYS]
     */

listing exactly the findings smemlint must report for it (as sparse's
validation/ tests keep their expectations in the file). Runs smemlint
--format=json on every file and compares the multisets."""
import argparse, collections, json, os, re, subprocess, sys

BLOCK = re.compile(r"/\*\s*smemlint-expect\b(.*?)\*/", re.S)


def expectations(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    m = None
    for m in BLOCK.finditer(text):
        pass
    if m is None:
        return None
    out = []
    for raw in m.group(1).splitlines():
        line = raw.strip().lstrip("*").strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) == 4 and parts[1] == "bank-conflict":
            out.append((int(parts[0]), parts[1], parts[2], int(parts[3])))
        elif len(parts) == 2:
            out.append((int(parts[0]), parts[1], None, None))
        else:
            raise SystemExit(f"{path}: bad expectation line: {raw!r}")
    return out


def actual(smemlint, path, extra):
    p = subprocess.run([smemlint, "--format=json", *extra, path], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None, f"exit {p.returncode}: {p.stderr.strip()}"
    doc = json.loads(p.stdout)
    out = []
    for r in doc["results"]:
        if r["rule"] == "bank-conflict":
            out.append((r["line"], r["rule"], r["array"], r["ways"]))
        else:
            out.append((r["line"], r["rule"], None, None))
    return out, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--smemlint", required=True)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    files = []
    for d in a.dirs:
        if os.path.isdir(d):
            files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith((".cu", ".cuh")))
    passed = failed = 0
    for f in files:
        exp = expectations(f)
        if exp is None:
            print(f"FAIL {f}: no smemlint-expect block")
            failed += 1
            continue
        extra = []
        m = re.search(r"smemlint-args:(.*)", open(f, encoding="utf-8", errors="replace").read())
        if m:
            extra = m.group(1).split()
        got, err = actual(a.smemlint, f, extra)
        if err:
            print(f"FAIL {f}: {err}")
            failed += 1
            continue
        ce, cg = collections.Counter(exp), collections.Counter(got)
        if ce == cg:
            passed += 1
            continue
        failed += 1
        print(f"FAIL {f}")
        for x in sorted((ce - cg).elements(), key=str):
            print(f"  missing:    {x}")
        for x in sorted((cg - ce).elements(), key=str):
            print(f"  unexpected: {x}")
    print(f"golden: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
