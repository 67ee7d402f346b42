#!/usr/bin/env python3
"""Suites labelled by others (issue 23): race and barrier bugs marked by
their own authors, the barrier rules judged against those marks.

tests/realtrees holds real trees that this team labelled by reading every
finding. The suites here were labelled by the people who wrote them:

  indigo      Indigo (Liu, Azami, Walters, Burtscher, ISPASS 2022), graph
              code patterns generated with and without planted bugs. Its
              generator names each file after its bugs: `syncBug` is a
              missing __syncthreads (a shared-memory race), a file without
              `Bug` in its name is bug-free.
  gpuverify   GPUVerify's CUDA test suite: each kernel's first line is
              `//pass` (verified free of races and barrier divergence) or
              `//xfail:...` (GPUVerify reports an error), its second line
              the block shape and defines it is checked with.

The repository holds the pins (tests/suites/suites.tsv) and, per file or
file pattern, which mark counts for smemlint's barrier rules
(tests/suites/labels.tsv), never the suites' code. Clone each repository at
its commit into one folder, under the name in the `checkout` column, and

    python3 tools/suites.py --suites DIR      (or tools/bench --suites DIR)

prints per suite: the files, those that fail to parse, the files marked
racy that have a barrier finding (recall), the files marked race-free that
have one (false alarms, each listed with its finding), and the precision of
the findings in labelled files. A barrier finding is one of the rules
missing-barrier, divergent-barrier or warp-sync above the level `assumed`.

Labels (labels.tsv: suite, glob, expect, reason; the first matching row
wins): `race` (the authors mark a shared-memory race or a divergent
barrier), `clean` (marked free of both) or `skip` (the mark is about
something else, or holds only under the suite's own semantics, e.g.
GPUVerify's --warp-sync lockstep lanes; the reason says which). A file no
row matches takes the suite's own mark: an Indigo file without `Bug` in its
name, or a GPUVerify `//pass`, is `clean`; any other is not counted.

    python3 tools/suites.py --check      (the files' format; a test)"""
import argparse, collections, fnmatch, glob, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "suites")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from realtrees import BARRIER_RULES, _rows, check_pin, pinned_checkout  # noqa: E402

KINDS = ("indigo", "gpuverify")
EXPECTS = ("race", "clean", "skip")
SHIM = "gpuverify_annotations.h"


def load_suites(path=os.path.join(DATA, "suites.tsv")):
    suites = collections.OrderedDict()
    for n, (name, repo, commit, checkout, kind, sub) in _rows(path, 6):
        check_pin(path, n, suites, name, repo, commit, checkout)
        if kind not in KINDS:
            raise ValueError(f"{path}:{n}: kind '{kind}' is not one of {KINDS}")
        if not sub or sub.startswith("/") or ".." in sub.split("/"):
            raise ValueError(f"{path}:{n}: path '{sub}' leaves the checkout")
        suites[name] = {"name": name, "repo": repo, "commit": commit, "checkout": checkout, "kind": kind,
                        "path": sub}
    return suites


def load_labels(suites, path=os.path.join(DATA, "labels.tsv")):
    """{suite: [(glob, expect, reason)]}, in the file's order."""
    labels = collections.defaultdict(list)
    for n, (suite, pattern, expect, reason) in _rows(path, 4):
        if suite not in suites:
            raise ValueError(f"{path}:{n}: suite '{suite}' is not in suites.tsv")
        if expect not in EXPECTS:
            raise ValueError(f"{path}:{n}: expect '{expect}' is not one of {EXPECTS}")
        if pattern.startswith("/") or ".." in pattern.split("/"):
            raise ValueError(f"{path}:{n}: pattern '{pattern}' leaves the suite")
        if len(reason.strip()) < 10:
            raise ValueError(f"{path}:{n}: the reason is missing or too short")
        if any(p == pattern for p, _, _ in labels[suite]):
            raise ValueError(f"{path}:{n}: pattern '{pattern}' labelled twice")
        labels[suite].append((pattern, expect, reason))
    return labels


def own_mark(kind, rel, text):
    """What the suite's authors say of one file: 'clean' or None."""
    if kind == "indigo":
        return None if "Bug" in os.path.basename(rel) else "clean"
    first = text.split("\n", 1)[0].strip().lower()
    return "clean" if first == "//pass" else None


def expectation(labels, kind, rel, text):
    for pattern, expect, _ in labels:
        if fnmatch.fnmatchcase(rel, pattern):
            return expect
    return own_mark(kind, rel, text)


def gpuverify_options(text):
    """The block shape and defines of a GPUVerify kernel's second line
    (`//--blockDim=64 ...`, `--blockDim=[8,8]`, `-DWIDTH=256`), and the
    headers GPUVerify's cuda.h would bring in: smemlint options and
    compiler flags."""
    lines = text.split("\n")
    spec = lines[1] if len(lines) > 1 and lines[1].startswith("//") else ""
    opts, flags = [], []
    m = re.search(r"--blockDim=\[?([0-9]+(?:,[0-9]+){0,2})\]?", spec)
    if m:
        opts = ["--block-dim", m.group(1)]
    flags = re.findall(r"(?<!\S)(-D[A-Za-z_][A-Za-z0-9_]*(?:=\S+)?)", spec)
    # what GPUVerify's own cuda.h includes, for the kernels that use it
    # (before the annotations, whose __assert the system assert.h declares)
    for word, header in (("cooperative_groups", "cooperative_groups.h"), ("curand", "curand_kernel.h")):
        if word in text:
            flags += ["-include", header]
    return opts, flags


def lint(smemlint, cwd, files, opts, flags, jobs, options=()):
    """smemlint on files; {file: [(line, rule, level, message)]} of barrier
    findings, and the set of files with an input problem above a note."""
    cmd = [os.path.abspath(smemlint), "-q", "--format=jsonl", f"-j{jobs}", "--timeout", "300", *options, *opts, *files]
    if flags:
        cmd += ["--"] + flags
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    found, failed = collections.defaultdict(list), set()
    for line in p.stdout.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("type") == "notification":
            if d.get("level") != "note" and d.get("file"):
                failed.add(os.path.normpath(d["file"]))
        elif d.get("rule") in BARRIER_RULES and d.get("level") != "assumed":
            found[os.path.normpath(d["file"])].append((d["line"], d["rule"], d.get("level"), d.get("message", "")))
    if p.returncode not in (0, 1, 2):
        raise SystemExit(f"suites: smemlint exited {p.returncode}: {p.stderr.strip()[:300]}")
    return found, failed


def collect_indigo(top, sub, work):
    """Run Indigo's CUDA generator (its own configure.txt: every pattern
    and option, int data) into work; returns (folder, files, flags)."""
    gen = os.path.join(top, sub)
    out = os.path.join(work, "indigo")
    os.makedirs(out)
    for idg in sorted(glob.glob(os.path.join(gen, "CUDA_sources", "*.idg"))):
        p = subprocess.run([sys.executable, "generate_CUDA_codes.py", os.path.relpath(idg, gen),
                            os.path.join("..", "copyright.txt"), out], cwd=gen, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"suites: Indigo's generator failed on {os.path.basename(idg)}: {p.stderr.strip()[:300]}")
    files = sorted(os.path.relpath(f, out) for f in glob.glob(os.path.join(out, "**", "*.cu"), recursive=True))
    return out, files, ["-I" + os.path.join(gen, "sources_include")]


def run_suite(smemlint, top, suite, labels, jobs, work, options=()):
    """Lint one suite; returns {file: (expect, findings, failed)}."""
    if suite["kind"] == "indigo":
        folder, files, flags = collect_indigo(top, suite["path"], work)
        found, failed = lint(smemlint, folder, files, [], flags, jobs, options)
        # Indigo's mark is the file's name: its text is not read
        return {f: (expectation(labels, "indigo", f, ""), found.get(f, []), f in failed) for f in files}
    folder = os.path.join(top, suite["path"])
    files = sorted(os.path.relpath(f, folder) for f in glob.glob(os.path.join(folder, "**", "*.cu"), recursive=True))
    groups = collections.defaultdict(list)
    texts = {}
    for f in files:
        with open(os.path.join(folder, f), encoding="utf-8", errors="replace") as fh:
            texts[f] = fh.read()
        opts, flags = gpuverify_options(texts[f])
        groups[(tuple(opts), tuple(flags))].append(f)
    per = {}
    for (opts, flags), group in groups.items():
        found, failed = lint(smemlint, folder, group, list(opts),
                             [*flags, "-include", os.path.join(DATA, SHIM)], jobs, options)
        for f in group:
            per[f] = (expectation(labels, "gpuverify", f, texts[f]), found.get(f, []), f in failed)
    return per


def report(smemlint, root, names=None, jobs=2, out=sys.stdout, data=DATA, options=()):
    """Lint every fetched suite and print its figures; returns one row per
    suite: (name, commit, files, parse failures, racy found, racy, clean
    flagged, clean, precision, seconds)."""
    suites = load_suites(os.path.join(data, "suites.tsv"))
    labels = load_labels(suites, os.path.join(data, "labels.tsv"))
    rows = []
    for name, suite in suites.items():
        if names and name not in names:
            continue
        top = pinned_checkout(root, name, suite, out)
        if not top:
            continue
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="smemlint-suite-") as work:
            per = run_suite(smemlint, top, suite, labels[name], jobs, work, options)
        secs = time.monotonic() - t0
        racy = [f for f, (e, _, _) in per.items() if e == "race"]
        clean = [f for f, (e, _, _) in per.items() if e == "clean"]
        hit = [f for f in racy if per[f][1]]
        flagged = [f for f in clean if per[f][1]]
        failed = sorted(f for f, (_, _, bad) in per.items() if bad)
        in_racy = sum(len(per[f][1]) for f in racy)
        in_clean = sum(len(per[f][1]) for f in clean)
        other = sum(len(v[1]) for f, v in per.items() if v[0] not in ("race", "clean"))
        prec = f"{100.0 * in_racy / (in_racy + in_clean):.0f}%" if in_racy + in_clean else "-"
        rows.append((name, suite["commit"][:10], len(per), len(failed), len(hit), len(racy), len(flagged),
                     len(clean), prec, secs))
        print(f"{name} @ {suite['commit'][:10]}: {len(per)} files ({len(failed)} fail to parse), {secs:.1f} s; "
              f"marked racy: {len(hit)} of {len(racy)} found; marked race-free: {len(flagged)} of {len(clean)} "
              f"flagged; barrier findings: {in_racy} in racy files, {in_clean} in race-free ones, {other} "
              f"in files not counted; precision {prec}", file=out)
        for f in sorted(set(racy) - set(hit)):
            print(f"  racy, not found: {f}" + (" (fails to parse)" if per[f][2] else ""), file=out)
        for f in sorted(flagged):
            for line, rule, level, msg in per[f][1]:
                print(f"  race-free, flagged: {f}:{line} {rule} ({level}): {msg[:160]}", file=out)
        for f in failed:
            print(f"  fails to parse: {f} ({per[f][0] or 'not counted'})", file=out)
    if rows:
        print(file=out)
        print("| suite | commit | files | fail to parse | marked racy, found | marked race-free, flagged "
              "| precision | seconds |", file=out)
        print("|---|---|---:|---:|---:|---:|---:|---:|", file=out)
        for r in rows:
            print("| {} | {} | {} | {} | {} of {} | {} of {} | {} | {:.1f} |".format(*r), file=out)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="check the format of suites.tsv and labels.tsv")
    ap.add_argument("--suites", metavar="DIR", help="the folder holding the fetched suites")
    ap.add_argument("--suite-names", help="only these suites, comma separated")
    ap.add_argument("--smemlint", default=os.path.join(ROOT, "build", "smemlint"))
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    if a.check:
        suites = load_suites()
        labels = load_labels(suites)
        print(f"{len(suites)} suites, {sum(len(v) for v in labels.values())} labels")
        return 0
    if not a.suites:
        ap.error("--suites DIR or --check")
    report(a.smemlint, a.suites, a.suite_names.split(",") if a.suite_names else None, a.j)
    return 0


if __name__ == "__main__":
    sys.exit(main())
