#!/usr/bin/env python3
"""The user's door (issue 26): the README is short, links every page of
doc/, and every relative link of the documentation resolves; each generated
table sits between its markers exactly once, where its tool writes it; the
top level of the repository holds only the project's folders and files.

Models GitHub's rendering of Markdown as far as links go: a link
`[text](path#anchor)` outside code resolves when `path` (relative to the
page) exists and, for a Markdown page, `anchor` is one of its headings'
slugs (lowercased, punctuation but `-` and `_` dropped, spaces made `-`,
`-1`, `-2`... for repeats) or an explicit `<a id>`/`<a name>`.

    python3 tests/test_docs.py [-v] [Links|Readme|Generated|TopLevel]
"""
import glob, importlib.machinery, importlib.util, os, re, shutil, subprocess, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
README_MAX_BYTES = 15000          # issue 26: a README one reads in minutes
# the generated tables: marker name -> the tool that writes it
GENERATED = {
    "accuracy": "tools/compare.py --readme README.md",
    "differences": "tools/compare.py --readme README.md",
    "bench": "tools/bench --update-readme",
    "scaling": "tools/bench --scaling --update-readme",
    "cache-cold": "tools/bench --cache-cold --update-readme",
    "memory": "tools/bench --memory --update-readme",
}
# what the top level may hold besides dotfiles (issue 26: no stray files)
TOP_LEVEL = {"CMakeLists.txt", "README.md", "analyzer", "rules", "include", "tests", "corpus",
             "tools", "doc", "examples", "cmake"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def pages():
    """README.md, doc/*.md and every other tracked Markdown file."""
    found = {README} | set(glob.glob(os.path.join(ROOT, "doc", "*.md")))
    found |= set(glob.glob(os.path.join(ROOT, "**", "README.md"), recursive=True))
    return sorted(p for p in found if not os.path.relpath(p, ROOT).startswith(("build", ".")))


def prose(text, inline=True):
    """The text with fenced code blocks and (inline) inline code blanked
    out (kept as line breaks, so that line numbers stay right)."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
            continue
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"(`+)(?:(?!\1).)+?\1", "", line) if inline else line)
    return "\n".join(out)


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown page: its headings' slugs (a heading keeps
    its inline code's text in the slug) and explicit <a id|name>."""
    seen, out = {}, set()
    for line in prose(read(path), inline=False).split("\n"):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    out |= set(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", read(path)))
    return out


def links(path):
    """(line, target) of every link of the page outside code."""
    text = prose(read(path))
    out = []
    for no, line in enumerate(text.split("\n"), 1):
        for m in re.finditer(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            out.append((no, m.group(1)))
        m = re.match(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", line)
        if m:
            out.append((no, m.group(1)))
    return out


def broken(path):
    """Every relative link of the page that does not resolve, as messages."""
    bad = []
    for no, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):   # http:, https:, mailto:
            continue
        where = f"{os.path.relpath(path, ROOT)}:{no}: '{target}'"
        file, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if not os.path.exists(dest):
            bad.append(f"{where}: no such file {os.path.relpath(dest, ROOT)}")
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            bad.append(f"{where}: no heading with the anchor #{anchor} in {os.path.relpath(dest, ROOT)}")
    return bad


class Links(unittest.TestCase):
    def test_every_relative_link_resolves(self):
        bad = [b for p in pages() for b in broken(p)]
        self.assertEqual(bad, [], "broken relative links:\n" + "\n".join(bad))

    def test_the_checker_sees_a_broken_link(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "doc"))
            with open(os.path.join(d, "doc", "a.md"), "w") as f:
                f.write("# A page\n\n## One `--x` thing\n\n[ok](#one---x-thing) [self](a.md#a-page)\n"
                        "[gone](b.md) [bad anchor](#nope)\n`[code](c.md)`\n```\n[fenced](d.md)\n```\n"
                        "[web](https://example.com/x.md)\n")
            bad = broken(os.path.join(d, "doc", "a.md"))
        self.assertEqual(len(bad), 2, bad)
        self.assertIn("'b.md': no such file", bad[0])
        self.assertIn("'#nope': no heading with the anchor #nope", bad[1])


class Readme(unittest.TestCase):
    def test_short(self):
        size = os.path.getsize(README)
        self.assertLess(size, README_MAX_BYTES,
                        f"README.md is {size} bytes; keep it under {README_MAX_BYTES}: reference text goes to doc/")

    def test_links_every_doc_page(self):
        targets = {os.path.normpath(os.path.join(ROOT, t.partition("#")[0])) for _, t in links(README)}
        docs = sorted(p for p in glob.glob(os.path.join(ROOT, "doc", "*")) if os.path.isfile(p))
        self.assertTrue(docs)
        missing = [os.path.relpath(p, ROOT) for p in docs if p not in targets]
        self.assertEqual(missing, [], "doc/ pages the README does not link")

    def test_fresh_machine_commands(self):
        text = read(README)
        for cmd in ("tools/bootstrap.sh lint", "tools/bootstrap.sh test", "tools/bootstrap.sh long"):
            self.assertIn(cmd, text)
        # issue 26 item 3: the test command leaves the long tests out; CI
        # runs it, then the long stages
        boot = read(os.path.join(ROOT, "tools", "bootstrap.sh"))
        self.assertIn("sel=(-LE long)", boot)
        ci = [l for l in read(os.path.join(ROOT, ".ci", "run")).splitlines() if l and not l.startswith("#")]
        self.assertEqual([l for l in ci if "bootstrap.sh" in l],
                         ["tools/bootstrap.sh test", "exec tools/bootstrap.sh long"])


def load_bench():
    loader = importlib.machinery.SourceFileLoader("bench", os.path.join(ROOT, "tools", "bench"))
    spec = importlib.util.spec_from_loader("bench", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Generated(unittest.TestCase):
    def test_each_block_once(self):
        docs = [README] + sorted(glob.glob(os.path.join(ROOT, "doc", "*.md")))
        for name, tool in GENERATED.items():
            b, e = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
            # a marker is a line of its own; a page may name one in prose
            line = lambda m, text: len(re.findall(f"^{re.escape(m)}$", text, re.M))
            where = [p for p in docs if line(b, read(p)) or line(e, read(p))]
            self.assertEqual(len(where), 1, f"the {name} table ({tool}) must sit in exactly one page: {where}")
            text = read(where[0])
            self.assertEqual((line(b, text), line(e, text)), (1, 1), f"{name} markers in {where[0]}")
            self.assertLess(text.index(b + "\n"), text.index("\n" + e))
            if name == "accuracy":   # readme.accuracy checks it there
                self.assertEqual(where[0], README)

    def test_bench_writes_where_the_markers_are(self):
        """tools/bench --update-readme finds each block's page and replaces
        the block alone."""
        bench = load_bench()
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(README, d)
            shutil.copytree(os.path.join(ROOT, "doc"), os.path.join(d, "doc"))
            before = {p: read(p) for p in [os.path.join(d, "README.md")] + glob.glob(os.path.join(d, "doc", "*"))}
            for name in ("bench", "scaling", "cache-cold", "memory"):
                path = bench.update_readme(f"NEW {name} TABLE", name, root=d)
                text = read(path)
                b, e = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
                self.assertIn(f"{b}\nNEW {name} TABLE\n{e}", text)
                old = before[path]
                self.assertEqual(text[:text.index(b)], old[:old.index(b)])
                self.assertEqual(text[text.index(e):], old[old.index(e):])
                before[path] = text
            os.remove(os.path.join(d, "README.md"))
            for p in glob.glob(os.path.join(d, "doc", "*.md")):
                with open(p, "w") as f:
                    f.write(re.sub(r"<!-- bench:(begin|end) -->", "", read(os.path.join(ROOT, "doc", os.path.basename(p)))))
            with self.assertRaises(SystemExit) as cm:
                bench.update_readme("x", "bench", root=d)
            self.assertIn("no page has the bench markers", str(cm.exception))


class TopLevel(unittest.TestCase):
    def test_no_stray_files(self):
        p = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True)
        if p.returncode != 0:
            self.skipTest("not a git checkout: " + p.stderr.strip())
        top = {f.split("/", 1)[0] for f in p.stdout.splitlines()}
        stray = sorted(t for t in top if t not in TOP_LEVEL and not t.startswith("."))
        self.assertEqual(stray, [], "tracked entries at the top level that are no part of the layout")


if __name__ == "__main__":
    unittest.main(verbosity=2)
