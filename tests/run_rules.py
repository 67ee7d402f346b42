#!/usr/bin/env python3
r"""Rule tests in one dialect (as sparse's validation/ tests): every test file
(tests/rules/<rule-id>/*.cu, corpus/*.cu, corpus/*.cuh) ends with a comment
block that holds smemlint's exact text output for that file:

    /*
     * check-args: --block-dim 64 -- -DSTRIDE=2
     * check-env: SMEMLINT_TEST_ARENA_LIMIT=65536
     * check-exit: 2
     * check-output-start
     * tests/rules/bank-conflict/x.cu:12:5: warning: 2-way bank conflict ... [bank-conflict]
     *     s[2 * threadIdx.x] = 1.0f;
     *     ^~~~~~~~~~~~~~~~~~
     *
     * check-output-end
     */

The block is the last thing in the file: a line `/*`, header lines, the
line ` * check-output-start`, one line per line of standard output, the line
` * check-output-end`, and the line ` */` (only white space may follow).

Header lines (each optional, each at most once, in any order):
  check-args: ARGS   extra arguments, split as a POSIX shell would (shlex);
                     those after `--` (compiler flags) go after the file
  check-env: K=V ... environment variables for the run (shlex-split)
  check-exit: N      the expected exit status; without it, 0 when the
                     expected output is empty and 1 otherwise

Output lines: an output line TEXT is written ` * TEXT`, an empty one ` *`.
Three sequences cannot stand verbatim in the block, because smemlint would
read them as live inline suppressions in its own expectations, or because
they would end the comment; they are written with a backslash, and the
runner takes it out again before comparing:
  `smemlint\:` for `smemlint:` (only where `ignore` follows, as a directive),
  `NO\LINT` for `NOLINT`, and `*\/` for `*/`.

The runner runs, from the repository root (so paths print relative),

    smemlint --no-cache ARGS-BEFORE-- FILE [-- FLAGS]

with the environment less every SMEMLINT_* variable plus check-env, and
compares standard output exactly and the exit status; on a mismatch it
prints a unified diff (and standard error). Standard error is not compared.

    tests/run_rules.py [--smemlint PATH] [--update] [PATH...]

PATH is a test file or a folder (its *.cu and *.cuh files, not recursive);
default: every folder under tests/rules, and corpus. A folder directly under
tests/rules must be named after a rule of `smemlint --list-rules`.
--update rewrites each block from the current output (keeping check-args
and check-env, writing check-exit only where the status differs from the
default) and appends one to a file that has none; it is for people
reviewing a change of output with `git diff`, never for ctest.
"""
import argparse, difflib, os, re, shlex, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES_DIR = os.path.join("tests", "rules")
DEFAULT_SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
HEADER_KEYS = ("check-args", "check-env", "check-exit")
START, END = " * check-output-start", " * check-output-end"

# (raw output text, how it is written in the block)
_ESCAPES = [
    (re.compile(r"(?<![A-Za-z0-9_])smemlint:(?=[ \t]*ignore(?![A-Za-z0-9_]))"), "smemlint:", "smemlint\\:"),
    (re.compile(r"NOLINT"), "NOLINT", "NO\\LINT"),
    (re.compile(r"\*/"), "*/", "*\\/"),
]


class BadTest(Exception):
    pass


def escape(line):
    for _, _, esc in _ESCAPES:
        if esc in line:
            raise BadTest(f"the output contains {esc!r}, which the block cannot hold unambiguously")
    for rx, raw, esc in _ESCAPES:
        line = rx.sub(lambda m: esc, line)
    return line


def unescape(line):
    for _, raw, esc in _ESCAPES:
        line = line.replace(esc, raw)
    return line


def find_block(text):
    """(lines, begin, end) where lines[begin] is the block's '/*' line and
    lines[end - 1] its ' */' line; None for a file without a check block."""
    lines = text.split("\n")
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    if not end or lines[end - 1] != " */":
        if START in text:
            raise BadTest("the check block is not the last thing in the file (or does not end with ' */')")
        return None
    begin = end - 2
    while begin >= 0 and lines[begin] != "/*":
        begin -= 1
    body = lines[begin + 1:end - 1] if begin >= 0 else []
    if START not in body or END not in body:
        if START in body:
            raise BadTest("the check block has no ' * check-output-end' line")
        if START in text:
            raise BadTest("the last comment block is not a check block")
        return None
    return lines, begin, end


def code_part(text):
    """The file up to its check block: what a compiler sees of it, less a
    trailing comment (tests/test_fixed_measured.sh hashes this)."""
    found = find_block(text)
    if found is None:
        return text
    lines, begin, _ = found
    return "\n".join(lines[:begin]) + "\n"


class Test:
    """One test file: its text before the block, and the block's fields."""

    def __init__(self, path):
        self.path = path
        with open(os.path.join(ROOT, path), encoding="utf-8", newline="") as f:
            self.text = f.read()
        self.args, self.env, self.exit = [], {}, None
        self.raw = {}            # header key -> value as written
        self.expected = None     # list of output lines, or None: no block
        self.code = self.text    # the file up to the block
        self.parse()

    def parse(self):
        found = find_block(self.text)
        if found is None:
            return
        lines, begin, end = found
        body = lines[begin + 1:end - 1]
        i, j = body.index(START), body.index(END)
        if j < i or j != len(body) - 1:
            raise BadTest("' * check-output-end' must be the last line before ' */'")
        for h in body[:i]:
            if h == " *":
                continue
            m = re.match(r"^ \* (check-[a-z-]+):[ \t]*(.*)$", h)
            if not m or m.group(1) not in HEADER_KEYS:
                raise BadTest(f"bad header line {h!r} (expected one of {', '.join(HEADER_KEYS)})")
            key, val = m.group(1), m.group(2).rstrip()
            if key in self.raw:
                raise BadTest(f"{key} given twice")
            self.raw[key] = val
        try:
            self.args = shlex.split(self.raw.get("check-args", ""))
            for kv in shlex.split(self.raw.get("check-env", "")):
                k, sep, v = kv.partition("=")
                if not sep or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k):
                    raise BadTest(f"check-env: {kv!r} is not NAME=VALUE")
                self.env[k] = v
        except ValueError as e:
            raise BadTest(f"cannot split a header line: {e}")
        if "check-exit" in self.raw:
            if not re.match(r"^\d+$", self.raw["check-exit"]):
                raise BadTest(f"check-exit: {self.raw['check-exit']!r} is not a number")
            self.exit = int(self.raw["check-exit"])
        out = []
        for l in body[i + 1:j]:
            if l == " *":
                out.append("")
            elif l.startswith(" * "):
                out.append(unescape(l[3:]))
            else:
                raise BadTest(f"output line {l!r} does not start with ' * '")
        self.expected = out
        self.code = "\n".join(lines[:begin])

    def expected_exit(self):
        if self.exit is not None:
            return self.exit
        return 1 if self.expected else 0

    def run(self, smemlint):
        if "--" in self.args:
            k = self.args.index("--")
            before, after = self.args[:k], self.args[k:]
        else:
            before, after = self.args, []
        env = {k: v for k, v in os.environ.items() if not k.startswith("SMEMLINT_")}
        env.update(self.env)
        cmd = [smemlint, "--no-cache", *before, self.path, *after]
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=600)
        out = p.stdout.decode("utf-8", "surrogateescape")
        lines = out.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cmd, p.returncode, lines, p.stderr.decode("utf-8", "replace")

    def block(self, lines, code):
        head = ["/*"]
        for k in HEADER_KEYS:
            if k == "check-exit":
                if code != (1 if lines else 0):
                    head.append(f" * check-exit: {code}")
            elif k in self.raw:
                head.append(f" * {k}: {self.raw[k]}")
        body = [(" * " + escape(l)) if l else " *" for l in lines]
        return "\n".join(head + [START] + body + [END, " */"]) + "\n"

    def rewrite(self, lines, code):
        if self.expected is not None:   # replace the block, keep every line above it
            new = self.code + "\n" + self.block(lines, code)
        else:                           # append one after a blank line
            new = self.text.rstrip("\n") + "\n\n" + self.block(lines, code)
        with open(os.path.join(ROOT, self.path), "w", encoding="utf-8", newline="") as f:
            f.write(new)


def collect(paths):
    files = []
    for p in paths:
        full = p if os.path.isabs(p) else os.path.join(ROOT, p)
        rel = os.path.relpath(full, ROOT)
        if os.path.isdir(full):
            files += sorted(os.path.join(rel, f) for f in os.listdir(full)
                            if f.endswith((".cu", ".cuh")) and os.path.isfile(os.path.join(full, f)))
        elif os.path.isfile(full):
            files.append(rel)
        else:
            raise SystemExit(f"run_rules: no such file or folder: {p}")
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smemlint", default=DEFAULT_SMEMLINT)
    ap.add_argument("--update", action="store_true", help="rewrite the blocks from the current output")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    smemlint = os.path.abspath(a.smemlint)
    paths = a.paths or [os.path.join(RULES_DIR, d) for d in sorted(os.listdir(os.path.join(ROOT, RULES_DIR)))
                        if os.path.isdir(os.path.join(ROOT, RULES_DIR, d))] + ["corpus"]

    rules = subprocess.run([smemlint, "--list-rules"], capture_output=True, text=True).stdout.split("\n")
    rules = {l.split()[0] for l in rules if l.strip()}
    failed, passed, updated = [], 0, 0
    for p in paths:
        full = os.path.abspath(p if os.path.isabs(p) else os.path.join(ROOT, p))
        if os.path.isdir(full) and os.path.dirname(full) == os.path.join(ROOT, RULES_DIR) \
                and os.path.basename(full) not in rules:
            print(f"FAIL {os.path.relpath(full, ROOT)}: not a rule id (see smemlint --list-rules)")
            failed.append(p)
    files = collect(paths)
    if not files:
        print("run_rules: no test files")
        return 1
    for path in files:
        try:
            t = Test(path)
            if t.expected is None and not a.update:
                raise BadTest("no check-output block (write one with tests/run_rules.py --update)")
            cmd, code, lines, err = t.run(smemlint)
            if a.update:
                if t.expected != lines or t.expected_exit() != code:
                    t.rewrite(lines, code)
                    updated += 1
                    print(f"updated {path}")
                # the block must not change what smemlint says about the file
                t2 = Test(path)
                _, code2, lines2, _ = t2.run(smemlint)
                if t2.expected != lines2 or t2.expected_exit() != code2:
                    raise BadTest("the output changes when the block is in the file: check the escapes")
                passed += 1
                continue
            if t.expected == lines and t.expected_exit() == code:
                passed += 1
                continue
            failed.append(path)
            print(f"FAIL {path}")
            print("  command: " + shlex.join(os.path.relpath(c, ROOT) if c == smemlint else c for c in cmd)
                  + "".join(f"  [{k}={v}]" for k, v in t.env.items()))
            if t.expected_exit() != code:
                print(f"  exit status: expected {t.expected_exit()}, got {code}")
            if t.expected != lines:
                sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                    t.expected, lines, f"{path} (expected)", f"{path} (actual)", lineterm=""))
            if err.strip():
                print("  stderr:\n" + "".join("    " + l + "\n" for l in err.rstrip("\n").split("\n")))
        except (BadTest, subprocess.TimeoutExpired, OSError) as e:
            failed.append(path)
            print(f"FAIL {path}: {e}")
    if a.update:
        print(f"run_rules: {updated} updated")
    print(f"rules: {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
