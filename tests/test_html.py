#!/usr/bin/env python3
"""--html: a self-contained report rendered in headless Chromium. Checks the
page renders (a non-trivial PNG), its script ran without errors (the DOM
after load carries data-ready and the count it fills in, and Chromium logs
no console error), every bank conflict has an SVG bank map with one row per
active lane, nothing is fetched from outside, and input text is escaped."""
import html.parser, json, os, re, shutil, struct, subprocess, sys, tempfile, unittest, zlib
from tooling import needs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint")))
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = "chromium not found: the rendering checks are skipped (install Debian's chromium; tools/bootstrap.sh does)"

EVIL = """// <script>alert(1)</script> & "quotes"
template <int N>
__global__ void k_lt_gt(float *out)
{
    __shared__ float tile[N][N];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] /* <b>&amp; */;
}
void launch(float *o) { k_lt_gt<32><<<1, dim3(32, 32)>>>(o); }
"""


def chromium(*args, cwd):
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-extensions", "--enable-logging=stderr", "--v=0",
            f"--user-data-dir={os.path.join(cwd, 'profile')}"]
    return subprocess.run(base + list(args), capture_output=True, text=True, cwd=cwd, timeout=120)


def png_size(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    w, h = struct.unpack(">II", data[16:24])
    return w, h, data


class Collect(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


class Html(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        with open(os.path.join(cls.tmp, "evil.cu"), "w") as f:
            f.write(EVIL)
        cls.report = os.path.join(cls.tmp, "report.html")
        p = subprocess.run([SMEMLINT, "--format=json", "--html", cls.report, os.path.join(ROOT, "corpus/transpose.cu"),
                            os.path.join(ROOT, "corpus/races.cu"), os.path.join(ROOT, "corpus/types_double.cu"),
                            "evil.cu"], capture_output=True, text=True, cwd=cls.tmp)
        assert p.returncode == 1, p.stderr
        cls.results = json.loads(p.stdout)["results"]
        with open(cls.report, encoding="utf-8") as f:
            cls.html = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_static_structure(self):
        c = Collect()
        c.feed(self.html)
        tags = c.tags
        # self-contained: no external resources at all
        for tag, attrs in tags:
            for k in ("src", "href"):
                self.assertNotIn(k, attrs, (tag, attrs))
        self.assertNotIn("<link", self.html)
        self.assertNotRegex(self.html, r"url\(")
        conflicts = [r for r in self.results if r["rule"] == "bank-conflict"]
        svgs = [a for t, a in tags if t == "svg"]
        self.assertEqual(len(svgs), len(conflicts))
        articles = [a for t, a in tags if t == "article"]
        self.assertEqual(len(articles), len(self.results))
        self.assertEqual(sorted(a["data-rule"] for a in articles), sorted(r["rule"] for r in self.results))
        # escaping: the comment and the template arguments come through as text
        self.assertNotIn("<b>&amp;", self.html)
        self.assertIn("/* &lt;b&gt;&amp;amp; */", self.html)
        self.assertNotIn("<script>alert", self.html)
        self.assertEqual(self.html.count("<script>"), 1)

    @needs(CHROMIUM, NO_CHROMIUM)
    def test_renders_in_chromium(self):
        png = os.path.join(self.tmp, "shot.png")
        p = chromium(f"--screenshot={png}", "--window-size=1200,1600", "file://" + self.report, cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        w, h, data = png_size(png)
        self.assertEqual((w, h), (1200, 1600))
        self.assertGreater(len(data), 20000, "a screenshot of a real page, not a blank one")
        self.assertNotRegex(p.stderr, r"CONSOLE[(:]\d+|Uncaught|SyntaxError")

    @needs(CHROMIUM, NO_CHROMIUM)
    def test_dom_after_script(self):
        p = chromium("--dump-dom", "file://" + self.report, cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        dom = p.stdout
        self.assertNotRegex(p.stderr, r"CONSOLE[(:]\d+|Uncaught|SyntaxError")
        self.assertIn('data-ready="1"', dom, "the script ran to its end")
        m = re.search(r'<span id="shown">(\d+)</span>', dom)
        self.assertTrue(m, "the script filled in the count")
        self.assertEqual(int(m.group(1)), len(self.results))
        c = Collect()
        c.feed(dom)
        svgs = [a for t, a in c.tags if t == "svg"]
        self.assertEqual(len(svgs), sum(r["rule"] == "bank-conflict" for r in self.results))
        # the transpose conflict: 32 lanes, every one in bank 0, 32 words
        first = dom[dom.index("<svg"):dom.index("</svg>")]
        self.assertEqual(len(re.findall(r'class="word"', first)), 32)
        self.assertEqual(len(re.findall(r">lane \d+</text>", first)), 32)
        self.assertIn('class="axis hotlabel" text-anchor="middle">32<', first)
        # 8-byte elements: two words per lane
        dbl = [m.start() for m in re.finditer("<svg", dom)]
        words = [len(re.findall(r'class="word"', dom[s:dom.index("</svg>", s)])) for s in dbl]
        lanes = [len(re.findall(r">lane \d+</text>", dom[s:dom.index("</svg>", s)])) for s in dbl]
        self.assertTrue(any(wd == 2 * ln for wd, ln in zip(words, lanes)), (words, lanes))


if __name__ == "__main__":
    unittest.main(verbosity=2)
