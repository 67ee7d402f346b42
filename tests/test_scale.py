#!/usr/bin/env python3
"""Whole-tree linting (issue 7): directory walking, parallel and sharded
runs, the header cache and --timeout; and the race search's cost on the
generated workloads of tools/gen_scaling.py, in budget steps (issue 22).
Each group is one ctest entry:

    test_scale.py walk|parallel|shard|cache|timeout|budget

SMEMLINT names the binary. The corpus is linted with the toolkit when one
is found (like a user's run) and always with a private cache directory, so
that the user's ~/.cache is never touched."""
import json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
CORPUS = os.path.join(ROOT, "corpus")
KERNEL = "__global__ void k(float *o) { __shared__ float t[64]; t[threadIdx.x * 2] = 1.0f; o[0] = t[0]; }\n"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def run(args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([SMEMLINT, *args], capture_output=True, text=True, env=e, cwd=cwd)


def files_of(p):
    """The files a run analyzed, in report order (json)."""
    doc = json.loads(p.stdout)
    seen = []
    for r in doc["results"]:
        if r["file"] not in seen:
            seen.append(r["file"])
    return seen


def listed(tree, *extra, cwd=None):
    p = run(["--format=json", "--print-clang-args", *extra, tree], cwd=cwd)
    assert p.returncode == 0, p.stderr
    return [e["file"] for e in json.loads(p.stdout)]


def write(path, text=KERNEL):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def test_walk(tmp):
    t = os.path.join(tmp, "tree")
    for rel in ["b.cu", "a.cu", "a/z.cuh", "a/b/y.cu", "c/x.cu", "notcuda.cpp", ".hidden/h.cu",
                "build/CMakeCache.txt", "build/gen.cu", "gen/skip.gen.cu", "ignored_dir/i.cu", "keep.gen.cu",
                "vendor/v.cu"]:
        write(os.path.join(t, rel))
    # sorted order (byte order, directories in place), hidden and build dirs skipped
    got = [os.path.relpath(f, t) for f in listed(t, "--no-gitignore")]
    check(got == ["a/b/y.cu", "a/z.cuh", "a.cu", "b.cu", "c/x.cu", "gen/skip.gen.cu", "ignored_dir/i.cu",
                  "keep.gen.cu", "vendor/v.cu"], f"walk: sorted order, hidden/build skipped: {got}")
    # exclude globs: on the base name and on the path, repeatable
    got = [os.path.relpath(f, t) for f in listed(t, "--no-gitignore", "--exclude", "*.cuh", "--exclude", "*/vendor")]
    check("a/z.cuh" not in got and "vendor/v.cu" not in got and "a/b/y.cu" in got, f"walk: --exclude: {got}")
    # symlink loop: the walk ends and lists each file once
    os.symlink("..", os.path.join(t, "a", "b", "loop"))
    got = [os.path.relpath(f, t) for f in listed(t, "--no-gitignore")]
    check(got.count("a/b/y.cu") == 1 and len(got) == len(set(got)) and len(got) <= 12,
          f"walk: symlink loop: {got}")
    os.unlink(os.path.join(t, "a", "b", "loop"))
    # git ignore
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", t], check=True)
        write(os.path.join(t, ".gitignore"), "*.gen.cu\n!keep.gen.cu\nignored_dir/\n")
        got = [os.path.relpath(f, t) for f in listed(t)]
        check("gen/skip.gen.cu" not in got and "ignored_dir/i.cu" not in got and "keep.gen.cu" in got
              and "a/b/y.cu" in got, f"walk: gitignored files skipped: {got}")
        # relative root, from inside the tree, and a subdirectory root
        got = listed(".", cwd=t)
        check("./ignored_dir/i.cu" not in got and "./a.cu" in got, f"walk: gitignore from cwd: {got}")
        got = [os.path.relpath(f, t) for f in listed(os.path.join(t, "gen"))]
        check(got == [], f"walk: gitignore below a subdirectory root: {got}")
        # a directory that is itself ignored is walked when named
        got = [os.path.relpath(f, t) for f in listed(os.path.join(t, "ignored_dir"))]
        check(got == ["ignored_dir/i.cu"], f"walk: an ignored directory named explicitly: {got}")
        # tracked files are not ignored even when a pattern matches
        subprocess.run(["git", "-C", t, "add", "-f", "gen/skip.gen.cu"], check=True)
        got = [os.path.relpath(f, t) for f in listed(t)]
        check("gen/skip.gen.cu" in got, f"walk: a tracked file matching .gitignore is kept: {got}")
        got = [os.path.relpath(f, t) for f in listed(t, "--no-gitignore")]
        check("ignored_dir/i.cu" in got, "walk: --no-gitignore")
    # without git on PATH: no filtering, no error
    nogit = run(["--format=json", "--print-clang-args", t], env={"PATH": "/nonexistent"})
    check(nogit.returncode == 0 and any("ignored_dir" in e["file"] for e in json.loads(nogit.stdout)),
          f"walk: without git: {nogit.returncode} {nogit.stderr}")


def corpus_args(tmp):
    return [], {"XDG_CACHE_HOME": os.path.join(tmp, "cache")}


def test_parallel(tmp):
    extra, env = corpus_args(tmp)
    for fmt in ("text", "json"):
        outs = {}
        for j in (1, 2, 4):
            p = run([f"--format={fmt}", f"-j{j}", *extra, CORPUS], env=env)
            check(p.returncode == 1, f"parallel: -j{j} {fmt} exit {p.returncode}: {p.stderr}")
            # the closing line's time differs from run to run
            outs[j] = (p.stdout, re.sub(r"; [0-9.]+ s\n", "; T s\n", p.stderr))
        check(outs[1] == outs[2] == outs[4], f"parallel: {fmt} output differs between -j1, -j2 and -j4")
        check(len(outs[1][0]) > 1000, f"parallel: {fmt} output is empty")


def test_shard(tmp):
    extra, env = corpus_args(tmp)
    serial = run(["--format=json", "-j1", *extra, CORPUS], env=env)
    whole = json.loads(serial.stdout)
    n = 3
    parts, files = [], []
    for k in range(1, n + 1):
        p = run(["--format=json", "-j2", "--shard", f"{k}/{n}", *extra, CORPUS], env=env)
        check(p.returncode in (0, 1), f"shard {k}/{n}: exit {p.returncode} {p.stderr}")
        parts.append(json.loads(p.stdout))
        files.append(listed(CORPUS, "--shard", f"{k}/{n}"))
    allf = listed(CORPUS)
    check(sorted(sum(files, [])) == sorted(allf), "shard: the shards' files partition the file list")
    check(all(files) and max(map(len, files)) - min(map(len, files)) <= 1, "shard: shares are balanced")
    key = lambda r: json.dumps(r, sort_keys=True)
    union = sorted((r for d in parts for r in d["results"]), key=key)
    check(union == sorted(whole["results"], key=key), "shard: union of the shards' findings == the serial run")
    check(len(union) > 10, "shard: no findings at all")
    for bad in ("0/3", "4/3", "1/0", "x", "1/2/3"):
        p = run(["--shard", bad, CORPUS])
        check(p.returncode == 2 and "invalid shard" in p.stderr, f"shard: '{bad}' is a usage error")


def test_cache(tmp):
    cache = os.path.join(tmp, "cache")
    env = {"XDG_CACHE_HOME": cache}
    plain = run(["--format=json", "--no-cache", "-j2", CORPUS], env=env)
    check(plain.returncode == 1, f"cache: plain run exit {plain.returncode}")
    check(not os.path.exists(os.path.join(cache, "smemlint")), "cache: --no-cache wrote a cache")
    cold = run(["--format=json", "-j2", CORPUS], env=env)
    warm = run(["--format=json", "-j2", CORPUS], env=env)
    check(cold.stdout == plain.stdout and cold.returncode == 1, "cache: cold cache gives other results")
    check(warm.stdout == plain.stdout and warm.returncode == 1, "cache: warm cache gives other results")
    d = os.path.join(cache, "smemlint")
    def pch_files():  # each PCH comes with its header list, pch-<key>.deps
        names = os.listdir(d) if os.path.isdir(d) else []
        pch = sorted(f for f in names if f.endswith(".pch"))
        check(sorted(names) == sorted(pch + [f[:-4] + ".deps" for f in pch]), f"cache: files {names}")
        return pch
    pchs = pch_files()
    toolkit = json.loads(run(["--print-clang-args", os.path.join(CORPUS, "reduce.cu")]).stdout)[0]
    has_toolkit = any(a.startswith("--cuda-path=") for a in toolkit["arguments"])
    if not has_toolkit:
        print("cache: no CUDA toolkit found: the bundled header is not cached")
        check(pchs == [], f"cache: files written without a toolkit: {pchs}")
        return
    check(len(pchs) == 1 and pchs[0].startswith("pch-") and pchs[0].endswith(".pch"), f"cache: files {pchs}")
    # another working directory shares the file (no relative include path)
    run(["--format=json", os.path.join(CORPUS, "reduce.cu")], env=env, cwd=tmp)
    check(pch_files() == pchs, f"cache: another working directory made another key: {os.listdir(d)}")
    # other flags (a -D may change what the headers mean): another key
    run(["--format=json", os.path.join(CORPUS, "reduce.cu"), "--", "-DSMEMLINT_TEST_KEY=1"], env=env)
    check(len(pch_files()) == 2, f"cache: -D flags are part of the key: {os.listdir(d)}")
    # a corrupt file falls back to a plain parse with the same results, and
    # is rebuilt (on a few files: each plain parse costs the full headers)
    few = [os.path.join(CORPUS, f) for f in ("transpose.cu", "reduce.cu", "scan.cu", "matmul.cu")]
    plain = run(["--format=json", "--no-cache", "-j2", *few], env=env)
    pch = os.path.join(d, pchs[0])
    with open(pch, "r+b") as f:
        f.seek(0)
        f.write(b"garbage!" * 64)
        f.truncate(4096)
    bad = run(["--format=json", "-j2", *few], env=env)
    check(bad.stdout == plain.stdout and bad.returncode == 1, "cache: corrupt PCH changes the results")
    check(os.path.getsize(pch) > 100000, "cache: corrupt PCH was not rebuilt")
    again = run(["--format=json", "-j1", *few], env=env)
    check(again.stdout == plain.stdout, "cache: rebuilt PCH changes the results")
    # an empty file and a truncated one
    for size in (0, 1000000):
        with open(pch, "r+b") as f:
            f.truncate(size)
        p = run(["--format=json", "-j2", *few], env=env)
        check(p.stdout == plain.stdout, f"cache: PCH truncated to {size} bytes changes the results")
    # two processes racing to create it: both correct, one whole file left
    shutil.rmtree(d)
    procs = [subprocess.Popen([SMEMLINT, "--format=json", "-j1", os.path.join(CORPUS, "transpose.cu"),
                               os.path.join(CORPUS, "reduce.cu")], stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, **env)) for _ in range(3)]
    outs = [p.communicate()[0] for p in procs]
    ref = run(["--format=json", "--no-cache", os.path.join(CORPUS, "transpose.cu"), os.path.join(CORPUS, "reduce.cu")])
    check(all(o == ref.stdout for o in outs), "cache: racing processes give other results")
    left = pch_files()
    check(len(left) == 1, f"cache: racing processes left {os.listdir(d)}")
    # eviction (issue 15): over SMEMLINT_CACHE_MAX_MIB, the least recently
    # used PCHs go after a new one is written; the one just used stays,
    # and a stale temporary of an unfinished write is deleted
    small = os.path.join(tmp, "small")
    senv = {"XDG_CACHE_HOME": small, "SMEMLINT_CACHE_MAX_MIB": "1"}
    sd = os.path.join(small, "smemlint")
    src = os.path.join(CORPUS, "reduce.cu")
    ref = run(["--format=json", "--no-cache", src])
    for i in range(3):
        p = run(["--format=json", src, "--", "-DSMEMLINT_EVICT=%d" % i], env=senv)
        check(p.stdout == ref.stdout, "cache: eviction changed the results")
        if i == 0:
            stale = os.path.join(sd, "pch-" + "0" * 32 + ".tmp.abcdef")
            open(stale, "w").write("x")
            os.utime(stale, (1, 1))
            fresh = os.path.join(sd, "pch-" + "1" * 32 + ".tmp.abcdef")
            open(fresh, "w").write("x")
            # files of the folder that are not the cache's own (issue 24):
            # never deleted, however old and whatever the cap
            for name in ("pch-notes.pch", "pch-0.pch.tmp.abcdef", "pch-" + "A" * 32 + ".pch"):
                f = os.path.join(sd, name)
                open(f, "w").write("x" * 4096)
                os.utime(f, (1, 1))
    left = sorted(os.listdir(sd))
    own = [f for f in left if re.fullmatch(r"pch-[0-9a-f]{32}\.pch", f)]
    check(len(own) == 1, f"cache: a 1 MiB cap keeps only the newest PCH: {left}")
    check(len([f for f in left if f.endswith(".deps")]) == 1, f"cache: an evicted PCH's list stays: {left}")
    check("pch-" + "0" * 32 + ".tmp.abcdef" not in left and "pch-" + "1" * 32 + ".tmp.abcdef" in left,
          f"cache: only stale temporaries are deleted: {left}")
    check(all(n in left for n in ("pch-notes.pch", "pch-0.pch.tmp.abcdef", "pch-" + "A" * 32 + ".pch")),
          f"cache: eviction deleted a file that is not its own: {left}")
    if os.environ.get("SMEMLINT_CACHE_MAX_MIB") is None:
        p = run(["--format=json", src, "--", "-DSMEMLINT_EVICT=9"], env={"XDG_CACHE_HOME": small})
        check(len([f for f in os.listdir(sd) if re.fullmatch(r"pch-[0-9a-f]{32}\.pch", f)]) == 2,
              "cache: the default cap keeps both")
    # an unwritable cache directory: no cache, same results
    ro = os.path.join(tmp, "ro")
    os.makedirs(ro)
    os.chmod(ro, 0o500)
    if os.geteuid() != 0:
        p = run(["--format=json", os.path.join(CORPUS, "reduce.cu")], env={"XDG_CACHE_HOME": ro})
        check(p.returncode == 1 and "error:" not in p.stderr, "cache: unwritable cache directory")


def slow_file(path, depth):
    lines = ["#define A0(x) x"]
    lines += [f"#define A{i}(x) A{i - 1}(x) A{i - 1}(x)" for i in range(1, depth + 1)]
    lines.append(f"A{depth}(;)")  # 2^depth empty declarations: slow to preprocess and parse
    lines.append(KERNEL)
    write(path, "\n".join(lines) + "\n")


def test_timeout(tmp):
    slow = os.path.join(tmp, "slow.cu")
    slow_file(slow, 23)
    fast = os.path.join(CORPUS, "transpose.cu")
    env = {"XDG_CACHE_HOME": os.path.join(tmp, "cache")}
    ref = run(["--format=json", fast], env=env)
    for j in ("1", "2"):
        p = run(["--format=json", "--timeout", "2", "-j", j, slow, fast], env=env)
        check(p.returncode == 2, f"timeout -j{j}: exit {p.returncode}")
        doc = json.loads(p.stdout)
        msgs = [n["message"] for n in doc["notifications"] if n.get("level") == "error" and n["id"] == "timed-out"]
        check(any(slow in m and "2 seconds" in m for m in msgs),
              f"timeout -j{j}: no error naming the file and the limit: {doc['notifications']}")
        check([r for r in doc["results"] if r["file"] == fast] == json.loads(ref.stdout)["results"],
              f"timeout -j{j}: the other file's findings differ")
        check(slow in p.stderr and "timed out" in p.stderr, f"timeout -j{j}: nothing on stderr")
    # with a generous limit the child processes give exactly the in-process result
    a = run(["--format=json", "--timeout", "300", "-j2", CORPUS], env=env)
    b = run(["--format=json", "-j2", CORPUS], env=env)
    check(a.stdout == b.stdout and a.returncode == b.returncode == 1, "timeout: results differ from in-process")
    t = run(["--timeout", "300", "-j2", CORPUS], env=env)
    u = run(["-j2", CORPUS], env=env)
    check(t.stdout == u.stdout, "timeout: text output differs from in-process")
    for bad in ("0", "-1", "x", "1s"):
        p = run(["--timeout", bad, fast])
        check(p.returncode == 2 and "invalid timeout" in p.stderr, f"timeout: '{bad}' is a usage error")


def gen_scaling(tmp, kind, n):
    f = os.path.join(tmp, f"{kind}_{n}.cu")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_scaling.py"), kind, str(n), f], check=True)
    return f


def budget_note(p):
    """(kernel, steps) of the analysis-budget-exceeded warning of a JSON
    report, or None; "" when the warning does not say them."""
    for n in json.loads(p.stdout)["notifications"]:
        if n["id"] == "analysis-budget-exceeded":
            m = re.search(r"reached in kernel '([^']*)' \(stopped after (\d+) steps\)", n["message"])
            return (m.group(1), int(m.group(2))) if m else ""
    return None


def test_budget(tmp):
    # the race search grows near-linearly in steps: N accumulations of the
    # threads' own elements form no pair, so twice the statements take no
    # more than twice the steps per statement (a quadratic search needed
    # billions for 1,600)
    for n in (800, 1600):
        f = gen_scaling(tmp, "accum", n)
        p = run(["--format=json", "--no-cuda", "--no-cache", "--analysis-budget", str(4000 * n), f])
        check(p.returncode == 0 and budget_note(p) is None, f"budget: accum {n} needs over {4000 * n} steps: {p.stderr}")
    # a small budget stops within 2x of it (steps counted, not time) and
    # names the kernel where it ran out
    for kind, n, kernel in (("accesses", 800, "k"), ("goto", 800, "k"), ("loopnest", 4, "acc"), ("accum", 1600, "acc")):
        f = gen_scaling(tmp, kind, n)
        for limit in (3000, 15000):
            p = run(["--format=json", "--no-cuda", "--no-cache", "--analysis-budget", str(limit), f])
            note = budget_note(p)
            check(note, f"budget: {kind} {n} at {limit}: no budget warning naming the kernel: {p.stderr}")
            if note:
                check(note[0] == kernel, f"budget: {kind} {n} at {limit}: kernel {note[0]!r}, not {kernel!r}")
                check(limit <= note[1] <= 2 * limit, f"budget: {kind} {n} at {limit}: stopped after {note[1]} steps")


def findings(p):
    return [(r["line"], r["rule"], r["kernel"], r["message"]) for r in json.loads(p.stdout)["results"]]


def problem_ids(p):
    return {n["id"] for n in json.loads(p.stdout)["notifications"]}


def test_stream(tmp):
    # a file's kernels are converted and analyzed one at a time, each in
    # an arena of its own (issue 24: a 16 MB file of kernels held every
    # kernel's IR at once): 2,000 kernels fit a 1 MiB arena limit, which
    # their IR together (about 11 MB) does not, with the same findings
    f = gen_scaling(tmp, "kernels", 2000)
    args = ["--format=json", "--no-cache", "-j1", f]
    whole = run(args)
    check(whole.returncode == 1 and len(findings(whole)) == 2000 and not problem_ids(whole),
          f"stream: 2,000 kernels: exit {whole.returncode}, {len(findings(whole))} findings: {whole.stderr}")
    small = dict(os.environ, SMEMLINT_TEST_ARENA_LIMIT=str(1 << 20))
    p = run(args, env=small)
    check(findings(p) == findings(whole) and not problem_ids(p),
          f"stream: under a 1 MiB arena the results differ or are partial: {problem_ids(p)}")
    # the control: one file-scope __shared__ array makes the file convert
    # whole (a later kernel may mark a shared array an earlier one's fix
    # depends on), and then the same limit cuts it short
    g = os.path.join(tmp, "filescope.cu")
    with open(f) as src, open(g, "w") as out:
        out.write("__shared__ float g_unused[32];\n" + src.read())
    p = run([*args[:-1], g], env=small)
    check("partial-results" in problem_ids(p), f"stream: the whole-file control fit 1 MiB: {problem_ids(p)}")
    # __device__ functions no kernel calls are streamed too (their first
    # pass only marks the helpers each inlines)
    d = os.path.join(tmp, "device.cu")
    with open(f) as src, open(d, "w") as out:
        out.write(src.read().split("int main()")[0].replace("__global__", "__device__"))
    whole, p = run(args[:-1] + [d]), run(args[:-1] + [d], env=small)
    check(len(findings(whole)) == 2000 and findings(p) == findings(whole) and not problem_ids(p),
          f"stream: 2,000 device functions under a 1 MiB arena: {len(findings(whole))}, {problem_ids(p)}")


def main():
    groups = {"walk": test_walk, "parallel": test_parallel, "shard": test_shard, "cache": test_cache,
              "timeout": test_timeout, "budget": test_budget, "stream": test_stream}
    names = sys.argv[1:] or list(groups)
    for name in names:
        with tempfile.TemporaryDirectory(prefix="smemlint-scale-") as tmp:
            groups[name](tmp)
    if failures:
        print(f"{len(failures)} failures")
        return 1
    print("ok:", " ".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
