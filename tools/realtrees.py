#!/usr/bin/env python3
"""The labelled real-tree regression set (issue 23 item 7).

Third-party CUDA trees, pinned at a commit, on which every barrier finding
(missing-barrier, divergent-barrier, warp-sync) smemlint reports has been
read by hand and labelled `real` or `false`. The repository holds only the
pins and the labels (tests/realtrees/trees.tsv, labels.tsv), never the
trees' code: clone each repository yourself at its commit into one folder,
under the name in the `checkout` column, and run

    tools/bench --trees DIR [--tree-names llm.c-dev,...]

which lints each tree as a user would (the tree's own include flags), and
prints per tree: the exit code, input problems by id, seconds, and the
barrier findings: labelled real, labelled false, not labelled, and the
precision (real / labelled, of the findings above the level `assumed`:
the findings under an invented block shape that do not hold for every
shape the kernel admits, which do not fail a run by default). A finding not labelled yet is listed, to be
read and labelled; a label that no finding matches any more is listed too
(a false alarm fixed, or a real race lost: the verdict says which).

    python3 tools/realtrees.py --check       (the files' format; a test)

Green trees (issue 27): every file with an input problem above the level
note is a file smemlint fails on. Each is looked up in nvcc.tsv, the
verdict of `nvcc -c -std=c++17 -arch=sm_90 FLAGS FILE` (CUDA 13, the
tree's flags) on that file; `--nvcc` compiles the files not in it yet and
`--write-nvcc` adds them. The report lists the flagged files nvcc accepts
(the ones smemlint must parse), the headers flagged (never acceptable) and
those nvcc rejects too; the table's column `nvcc accepts, flagged`
counts the first two.

trees.tsv columns: name, repository, commit, checkout (the folder under DIR
holding the clone; trees of one clone share it), path (linted, relative to
the checkout; several, comma separated), flags (compiler flags after `--`, space separated; `-` none).
labels.tsv columns: tree, file (relative to the checkout), line, rule,
verdict (real | false), reason (one line: why, read from the code).
nvcc.tsv columns: tree, file (relative to the checkout), verdict (accepts |
rejects), nvcc's first error line ('-' when it accepts).
Lines starting with '#' are comments."""
import argparse, collections, concurrent.futures, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "realtrees")
BARRIER_RULES = ("missing-barrier", "divergent-barrier", "warp-sync")
VERDICTS = ("real", "false")
NVCC_VERDICTS = ("accepts", "rejects")
HEADER_EXTS = (".cuh", ".h", ".hpp", ".hh", ".inl")


def _rows(path, ncols):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != ncols:
                raise ValueError(f"{path}:{n}: {len(cols)} columns, expected {ncols}")
            out.append((n, cols))
    return out


def check_pin(path, n, seen, name, repo, commit, checkout):
    """The columns every pinned third-party repository has (trees.tsv,
    tests/suites/suites.tsv): a ValueError naming the line when one is
    malformed."""
    if name in seen:
        raise ValueError(f"{path}:{n}: '{name}' listed twice")
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise ValueError(f"{path}:{n}: commit '{commit}' is not 40 hex digits")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
        raise ValueError(f"{path}:{n}: repository '{repo}' is not owner/name")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", checkout) or checkout in (".", ".."):
        raise ValueError(f"{path}:{n}: checkout '{checkout}' is not a plain folder name")


def pinned_checkout(root, name, pin, out):
    """The folder of pin's clone under root, or None (said on out) when it
    is not fetched or not at the pinned commit."""
    top = os.path.join(root, pin["checkout"])
    if not os.path.isdir(top):
        print(f"{name}: not fetched (clone {pin['repo']} at {pin['commit']} into {top})", file=out)
        return None
    head = checkout_commit(top)
    if head != pin["commit"]:
        print(f"{name}: checkout is at {head}, the labels are for {pin['commit']}; skipped", file=out)
        return None
    return top


def load_trees(path=os.path.join(DATA, "trees.tsv")):
    trees = collections.OrderedDict()
    for n, (name, repo, commit, checkout, sub, flags) in _rows(path, 6):
        check_pin(path, n, trees, name, repo, commit, checkout)
        for part in sub.split(","):
            if not part or part.startswith("/") or ".." in part.split("/"):
                raise ValueError(f"{path}:{n}: path '{part}' leaves the checkout")
        trees[name] = {"name": name, "repo": repo, "commit": commit, "checkout": checkout, "path": sub,
                       "flags": [] if flags == "-" else flags.split()}
    return trees


def load_labels(trees, path=os.path.join(DATA, "labels.tsv")):
    labels = {}
    for n, (tree, file, line, rule, verdict, reason) in _rows(path, 6):
        if tree not in trees:
            raise ValueError(f"{path}:{n}: tree '{tree}' is not in trees.tsv")
        if not line.isdigit() or int(line) < 1:
            raise ValueError(f"{path}:{n}: line '{line}' is not a line number")
        if rule not in BARRIER_RULES:
            raise ValueError(f"{path}:{n}: rule '{rule}' is not a barrier rule {BARRIER_RULES}")
        if verdict not in VERDICTS:
            raise ValueError(f"{path}:{n}: verdict '{verdict}' is not one of {VERDICTS}")
        if len(reason.strip()) < 10:
            raise ValueError(f"{path}:{n}: the reason is missing or too short")
        key = (tree, file, int(line), rule)
        if key in labels:
            raise ValueError(f"{path}:{n}: {file}:{line} {rule} labelled twice")
        labels[key] = (verdict, reason)
    return labels


def load_nvcc(trees, path=os.path.join(DATA, "nvcc.tsv")):
    """{(tree, file): (verdict, first error)} from nvcc.tsv ({} without it)."""
    out = {}
    if not os.path.exists(path):
        return out
    for n, (tree, file, verdict, err) in _rows(path, 4):
        if tree not in trees:
            raise ValueError(f"{path}:{n}: tree '{tree}' is not in trees.tsv")
        if verdict not in NVCC_VERDICTS:
            raise ValueError(f"{path}:{n}: verdict '{verdict}' is not one of {NVCC_VERDICTS}")
        if file.startswith("/") or ".." in file.split("/"):
            raise ValueError(f"{path}:{n}: file '{file}' leaves the checkout")
        if (tree, file) in out:
            raise ValueError(f"{path}:{n}: {file} listed twice")
        out[(tree, file)] = (verdict, err)
    return out


def write_nvcc(verdicts, path=os.path.join(DATA, "nvcc.tsv")):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# tree\tfile\tverdict\tnvcc's first error ('-': none); made by tools/realtrees.py --nvcc --write-nvcc\n")
        for (tree, file), (verdict, err) in sorted(verdicts.items()):
            f.write(f"{tree}\t{file}\t{verdict}\t{err}\n")


def nvcc_verdict(nvcc, top, tree, file, timeout=900):
    """Compile one file of a tree as its build would (the tree's flags) and
    say whether nvcc accepts it, with its first error line."""
    cmd = [nvcc, "-c", "-std=c++17", "-arch=sm_90", *tree["flags"], "-o", os.devnull, file]
    try:
        p = subprocess.run(cmd, cwd=top, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ("rejects", f"nvcc took over {timeout} s")
    if p.returncode == 0:
        return ("accepts", "-")
    errs = [l for l in (p.stderr + p.stdout).splitlines() if "error" in l.lower()] or ["exit %d" % p.returncode]
    return ("rejects", re.sub(r"\s+", " ", errs[0]).strip()[:200])


def checkout_commit(path):
    p = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def lint_tree(smemlint, root, tree, jobs=2, timeout=300, options=(), keep=None, env=None):
    """Lint one tree (env: more environment variables); returns exit code,
    seconds, barrier findings {(file, line, rule): first message}, and
    input problems by id."""
    top = os.path.join(root, tree["checkout"])
    cmd = [os.path.abspath(smemlint), "-q", "--format=jsonl", f"-j{jobs}", "--timeout", str(timeout), *options, *tree["path"].split(",")]
    if tree["flags"]:
        cmd += ["--"] + tree["flags"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=top, capture_output=True, text=True, env={**os.environ, **(env or {})})
    secs = time.monotonic() - t0
    if keep:
        # every finding of every rule, to read (--keep)
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, tree["name"] + ".jsonl"), "w") as fh:
            fh.write(p.stdout)
    found, problems, flagged = {}, collections.Counter(), {}
    for line in p.stdout.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("type") == "notification":
            problems[d.get("id", "?")] += 1
            if d.get("level") != "note" and d.get("file"):
                flagged.setdefault(os.path.normpath(d["file"]), set()).add(d.get("id", "?"))
        elif d.get("rule") in BARRIER_RULES:
            found.setdefault((d["file"], d["line"], d["rule"]), (d.get("level"), d.get("message", "")))
    return p.returncode, secs, found, problems, flagged


def clang_tree(smemlint, root, tree, clang, virtual, jobs=2, options=()):
    """`clang -fsyntax-only` of the files smemlint parses in one tree, with
    exactly its parse flags (--print-clang-args), `jobs` at a time, as
    smemlint's -j runs its workers; returns (seconds, files, files clang
    rejects). `virtual` maps the headers smemlint keeps in memory to their
    sources (tools/bench's VIRTUAL)."""
    top = os.path.join(root, tree["checkout"])
    cmd = [os.path.abspath(smemlint), *options, "--print-clang-args", *tree["path"].split(",")]
    if tree["flags"]:
        cmd += ["--"] + tree["flags"]
    p = subprocess.run(cmd, cwd=top, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"realtrees: --print-clang-args failed on {tree['name']}: {p.stderr.strip()[:300]}")
    cmds = [[clang, "-fsyntax-only", *[virtual.get(x, x) for x in e["arguments"]], e["file"]]
            for e in json.loads(p.stdout)]

    def one(c):
        return subprocess.run(c, cwd=top, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode

    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        rcs = list(pool.map(one, cmds))
    return time.monotonic() - t0, len(cmds), sum(1 for r in rcs if r != 0)


def report(smemlint, root, names=None, jobs=2, out=sys.stdout, data=DATA, options=(), keep=None, nvcc=None,
           write=False, clang=None, virtual=None, cold_cache=False):
    """Lint every fetched tree and print its figures; returns one row per
    tree linted: (name, commit, exit, seconds, findings, real, false, not
    labelled, precision, input problems, crashes, flagged files nvcc
    accepts, smemlint's time over clang's: '-' without `clang`)."""
    trees = load_trees(os.path.join(data, "trees.tsv"))
    labels = load_labels(trees, os.path.join(data, "labels.tsv"))
    verdicts = load_nvcc(trees, os.path.join(data, "nvcc.tsv"))
    rows = []
    for name, tree in trees.items():
        if names and name not in names:
            continue
        top = pinned_checkout(root, name, tree, out)
        if not top:
            continue
        if cold_cache:
            # an empty header cache: the run builds its precompiled
            # headers, as a first run on a fresh CI machine does
            with tempfile.TemporaryDirectory(prefix="smemlint-cold-") as cache:
                rc, secs, found, problems, flagged = lint_tree(smemlint, root, tree, jobs, options=options,
                                                               keep=keep, env={"XDG_CACHE_HOME": cache})
        else:
            rc, secs, found, problems, flagged = lint_tree(smemlint, root, tree, jobs, options=options, keep=keep)
        vs = "-"
        if clang:
            csecs, nfiles, crej = clang_tree(smemlint, root, tree, clang, virtual or {}, jobs, options)
            vs = f"{secs / csecs:.2f}x" if csecs > 0 else "-"
            print(f"{name}: clang-22 -fsyntax-only of the same {nfiles} files at -j{jobs}: {csecs:.1f} s "
                  f"({crej} rejected); smemlint / clang {vs}", file=out)
        green = {"accepts": [], "header": [], "rejects": [], "unchecked": []}
        for file, ids in sorted(flagged.items()):
            if file.endswith(HEADER_EXTS):
                green["header"].append((file, ids, "-"))
                continue
            v = verdicts.get((name, file))
            if v is None and nvcc:
                v = verdicts[(name, file)] = nvcc_verdict(nvcc, top, tree, file)
            green[v[0] if v else "unchecked"].append((file, ids, v[1] if v else "-"))
        real = false = assumed = 0
        unlabelled = []
        by_level = collections.Counter()
        for (file, line, rule), (level, msg) in sorted(found.items()):
            by_level[level] += 1
            v = labels.get((name, file, line, rule))
            if v is None:
                unlabelled.append((file, line, rule, level, msg))
            elif level == "assumed":
                assumed += 1  # below note: not counted by --fail-on, nor here
            elif v[0] == "real":
                real += 1
            else:
                false += 1
        gone = [(k, v) for k, v in sorted(labels.items())
                if k[0] == name and (k[1], k[2], k[3]) not in found]
        prec = f"{100.0 * real / (real + false):.0f}%" if real + false else "-"
        crashes = problems.get("internal-error", 0) + problems.get("analysis-failed", 0)
        bad = len(green["accepts"]) + len(green["header"])
        rows.append((name, tree["commit"][:10], rc, secs, len(found), real, false, len(unlabelled), prec,
                     sum(problems.values()), crashes, f"{bad}" + ("+?" if green["unchecked"] else ""), vs))
        print(f"{name} @ {tree['commit'][:10]}: exit {rc}, {secs:.1f} s, {len(found)} barrier findings "
              f"({', '.join(f'{n} {l}' for l, n in sorted(by_level.items(), key=lambda x: str(x[0])))}): "
              f"{real} real, {false} false, {len(unlabelled)} not labelled, {assumed} at the level assumed; "
              f"precision {prec} (of those above 'assumed')", file=out)
        if problems:
            print("  input problems: " + ", ".join(f"{k} {v}" for k, v in problems.most_common()), file=out)
        for what, title in (("accepts", "flagged, nvcc accepts it"), ("header", "flagged, a header"),
                            ("unchecked", "flagged, not compiled with nvcc yet (--nvcc)"),
                            ("rejects", "flagged, nvcc rejects it too")):
            for file, ids, err in green[what]:
                print(f"  {title}: {file} ({', '.join(sorted(ids))})" + (f": {err}" if err != "-" else ""), file=out)
        for file, line, rule, level, msg in unlabelled:
            print(f"  not labelled: {file}:{line} {rule} ({level}): {msg[:160]}", file=out)
        for (t, file, line, rule), (verdict, reason) in gone:
            what = "a real race no longer found" if verdict == "real" else "a false alarm gone"
            print(f"  label unmatched ({what}): {file}:{line} {rule}", file=out)
    if rows:
        print(file=out)
        print("| tree | commit | exit | seconds | barrier findings | real | false | not labelled | precision "
              "| input problems | crashes | nvcc accepts, flagged | smemlint / clang |", file=out)
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|", file=out)
        for r in rows:
            print("| {} | {} | {} | {:.1f} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(*r), file=out)
    if write:
        write_nvcc(verdicts, os.path.join(data, "nvcc.tsv"))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="check the format of trees.tsv and labels.tsv")
    ap.add_argument("--trees", metavar="DIR", help="the folder holding the fetched trees")
    ap.add_argument("--tree-names", help="only these trees, comma separated")
    ap.add_argument("--smemlint", default=os.path.join(ROOT, "build", "smemlint"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="also write each tree's whole report (JSON lines) to DIR/NAME.jsonl")
    ap.add_argument("--nvcc", nargs="?", const="nvcc", metavar="NVCC",
                    help="compile the flagged files nvcc.tsv has no verdict for (default: nvcc on PATH)")
    ap.add_argument("--write-nvcc", action="store_true", help="with --nvcc: add the new verdicts to nvcc.tsv")
    a = ap.parse_args()
    if a.check:
        trees = load_trees()
        labels = load_labels(trees)
        verdicts = load_nvcc(trees)
        print(f"{len(trees)} trees, {len(labels)} labels, {len(verdicts)} nvcc verdicts")
        return 0
    if not a.trees:
        ap.error("--trees DIR or --check")
    if a.write_nvcc and not a.nvcc:
        ap.error("--write-nvcc needs --nvcc")
    report(a.smemlint, a.trees, a.tree_names.split(",") if a.tree_names else None, a.j, keep=a.keep,
           nvcc=a.nvcc, write=a.write_nvcc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
