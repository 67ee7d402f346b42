#!/usr/bin/env python3
"""What a CI lint step needs (issue 6): SARIF 2.1.0 against the official
schema, GitHub workflow commands, severity overrides, .smemlint.yaml,
inline suppressions, baselines, and the self-description (--explain,
--list-rules, --help, --version, the man page).

Environment: SMEMLINT (the binary), SARIF_SCHEMA (default
../shared/schemas/sarif-schema-2.1.0.json from the repository root). A
fresh clone has no ../shared: the schema checks are then skipped, with the
reason, and everything else still runs (issue 15). SARIF_MULTITOOL:
Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool-linux, which
tools/bootstrap.sh installs into BUILD_DIR/sarif-multitool); default that
path beside the binary, then sarif-multitool on PATH. Without it the
Multitool check is skipped, with the reason."""
import json, os, re, shutil, subprocess, sys, tempfile, unittest

try:
    import jsonschema
except ImportError:  # Debian's python3-jsonschema (tools/bootstrap.sh installs it)
    jsonschema = None
import yaml
from tooling import needs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint")))
SCHEMA = os.environ.get("SARIF_SCHEMA", os.path.join(ROOT, "..", "shared", "schemas", "sarif-schema-2.1.0.json"))

CONFLICT = """__global__ void k(float *out)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }
"""


def run(*args, cwd=None, check_rc=(0, 1)):
    p = subprocess.run([SMEMLINT, *args], capture_output=True, text=True, cwd=cwd)
    if check_rc is not None:
        assert p.returncode in check_rc, f"{args}: exit {p.returncode}\n{p.stderr}"
    return p


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


SCHEMA_MISSING = (None if jsonschema and os.path.exists(SCHEMA) else
                  "SARIF schema validation skipped: %s" % (
                      "python3-jsonschema is not installed" if not jsonschema else
                      "no schema at %s (set SARIF_SCHEMA, or -DSMEMLINT_SARIF_SCHEMA=FILE)" % SCHEMA))


def multitool():
    """Microsoft's SARIF Multitool, or None."""
    for t in (os.environ.get("SARIF_MULTITOOL"),
              os.path.join(os.path.dirname(SMEMLINT), "sarif-multitool", "node_modules", "@microsoft",
                           "sarif-multitool-linux", "Sarif.Multitool"),
              shutil.which("sarif-multitool")):
        if t and os.access(t, os.X_OK):
            return t
    return None


MULTITOOL = multitool()


def sarif_validator():
    if SCHEMA_MISSING:
        print(SCHEMA_MISSING, file=sys.stderr)
        return None
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


class Sarif(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.validator = sarif_validator()
        cls.tmp = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    @unittest.skipIf(SCHEMA_MISSING, SCHEMA_MISSING or "")
    def test_schema_available(self):
        self.assertIsNotNone(self.validator)

    def valid(self, doc):
        if self.validator is None:
            return  # SCHEMA_MISSING: the structure is still checked by each test
        errors = sorted(self.validator.iter_errors(doc), key=lambda e: list(e.path))
        self.assertEqual([], [f"{list(e.path)}: {e.message}" for e in errors[:5]])

    def corpus(self):
        out = os.path.join(self.tmp, "corpus.sarif")
        p = run("--format=sarif", "-o", out, "corpus", cwd=ROOT)
        self.assertEqual(p.returncode, 1)
        with open(out, encoding="utf-8") as f:
            return json.load(f)

    @needs(MULTITOOL, "SARIF Multitool not found (tools/bootstrap.sh installs it from npm into "
                                    "BUILD_DIR/sarif-multitool; or set SARIF_MULTITOOL)")
    def test_multitool_github_rules(self):
        # issue 15: Microsoft's validator with the SARIF and GitHub rule sets
        # (what code scanning requires of an upload) finds nothing, on the
        # corpus and on a run with every kind of input problem, merged
        # template instantiations and fixes
        d = os.path.join(self.tmp, "multitool")
        os.makedirs(d)
        write(os.path.join(d, "src", "k.cu"), CONFLICT)
        write(os.path.join(d, "src", "broken.cu"), "__global__ void k() { undeclared_thing; }\nvoid h() { nope; }\n")
        write(os.path.join(d, "src", "notes.txt"), "not CUDA\n")
        runs = {"corpus.sarif": ["corpus", os.path.join("tests", "rules", "bank-conflict", "template_instantiations.cu")],
                "problems.sarif": [os.path.join(d, "src"), os.path.join(d, "src", "notes.txt"),
                                   os.path.join(d, "missing.cu"), os.path.join(d, "empty")]}
        os.makedirs(os.path.join(d, "empty"))
        for name, paths in runs.items():
            log, out = os.path.join(d, name), os.path.join(d, name + ".validation.sarif")
            run("-q", "--format=sarif", "-o", log, *paths, cwd=ROOT, check_rc=(1, 2))
            p = subprocess.run([MULTITOOL, "validate", "--rule-kind", "Gh;Sarif", "-o", out, log],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(out, encoding="utf-8") as f:
                v = json.load(f)["runs"][0]
            self.assertTrue(v["invocations"][0]["executionSuccessful"], p.stdout)
            found = ["%s %s: %s" % (r.get("level", "warning"), r["ruleId"], json.dumps(r["message"])[:300])
                     for r in v.get("results", []) if r.get("level", "warning") in ("error", "warning")]
            self.assertEqual(found, [], name)

    def test_corpus_is_valid_and_complete(self):
        doc = self.corpus()
        self.valid(doc)
        # the schema, also with the command-line validator Debian ships
        jsc = shutil.which("jsonschema", path="/usr/bin") or shutil.which("jsonschema")
        if jsc and not SCHEMA_MISSING:
            p = subprocess.run([jsc, "-i", os.path.join(self.tmp, "corpus.sarif"), SCHEMA], capture_output=True,
                               text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        run_ = doc["runs"][0]
        self.assertEqual(doc["version"], "2.1.0")
        self.assertEqual(run_["columnKind"], "utf16CodeUnits")
        drv = run_["tool"]["driver"]
        ver = run("--version").stdout.split()[1]
        self.assertEqual((drv["name"], drv["version"], drv["semanticVersion"]), ("smemlint", ver, ver))
        listed = [l.split()[0] for l in run("--list-rules").stdout.splitlines()]
        self.assertEqual([r["id"] for r in drv["rules"]], listed)
        for r in drv["rules"]:
            for k in ("name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"):
                self.assertIn(k, r)
            self.assertIn("markdown", r["help"])
            self.assertIn("```cuda", r["help"]["markdown"])
            self.assertIn(r["defaultConfiguration"]["level"], ("error", "warning", "note"))
        # the same findings as --format=json, in the same order
        js = json.loads(run("--format=json", "corpus", cwd=ROOT).stdout)["results"]
        res = run_["results"]
        self.assertEqual(len(res), len(js))
        for s, j in zip(res, js):
            self.assertEqual(s["ruleId"], j["rule"])
            self.assertEqual(drv["rules"][s["ruleIndex"]]["id"], s["ruleId"])
            self.assertEqual(s["level"], j["level"])
            loc = s["locations"][0]["physicalLocation"]
            self.assertEqual(loc["artifactLocation"], {"uri": j["file"], "uriBaseId": "%SRCROOT%"})
            self.assertEqual(loc["region"]["startLine"], j["line"])
            self.assertEqual(loc["region"]["startColumn"], j["column"])  # ASCII corpus
            self.assertEqual(len(s.get("relatedLocations", [])), len(j["related"]))
            self.assertTrue(s["message"]["text"].startswith(j["message"]))
            self.assertRegex(s["partialFingerprints"]["smemlint/v1"], r"^[0-9a-f]{16}$")
            if j["rule"] == "shared-out-of-bounds":
                # the witness, the same in both: a thread and the bytes past the extent
                w = j["witness"]
                self.assertEqual(s["properties"]["witness"], w)
                self.assertTrue(w["bytes"][0] < 0 or w["bytes"][1] >= w["extent"], w)
            if j["rule"] == "bank-conflict":
                self.assertEqual(s["properties"]["ways"], j["ways"])
                self.assertEqual(s["properties"]["kernel"], j["kernel"])
                self.assertEqual(s["properties"]["blockDim"], j["block_dim"])
            # the launch context, the same in both, its provenance in the text
            if j["rule"] == "unused-suppression":
                self.assertNotIn("launch", j)
            else:
                jl, sl = j["launch"], s["properties"]["launch"]
                self.assertEqual(sl["block"], jl["block"])
                self.assertEqual(sl["source"], jl["source"])
                self.assertEqual(sl.get("dynSmem"), jl.get("dyn_smem"))
                if j["block_dim"] != [0, 0, 0]:
                    self.assertEqual(jl["block"], j["block_dim"])
                    self.assertEqual(j["block_dim_assumed"], jl["source"]["kind"] == "assumed")
                src = jl["source"]
                if src["kind"] == "launch":
                    self.assertEqual(src["file"], j["file"])
                    self.assertRegex(j["message"], r"(from|at) the launch on line %d\b" % src["line"])
                elif src["kind"] == "launch_bounds":
                    self.assertIn("from __launch_bounds__(%d)" % src["bound"], j["message"])
            if "fix" in j:
                rep = s["fixes"][0]["artifactChanges"][0]["replacements"][0]
                self.assertEqual(rep["insertedContent"]["text"], j["fix"]["replacement"])
                self.assertEqual(rep["deletedRegion"]["startLine"], j["fix"]["line"])
        fps = [s["partialFingerprints"]["smemlint/v1"] for s in res]
        self.assertEqual(len(fps), len(set(fps)), "fingerprints are unique")
        self.assertTrue(any("fixes" in s for s in res))
        self.assertTrue(any(s["ruleId"] == "missing-barrier" and s["relatedLocations"] for s in res))
        inv = run_["invocations"][0]
        self.assertTrue(inv["executionSuccessful"])
        self.assertEqual(run_["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file://" + ROOT + "/")

    def test_error_cases(self):
        d = os.path.join(self.tmp, "errs")
        write(os.path.join(d, "ok.cu"), CONFLICT)
        write(os.path.join(d, "bin.cu"), "__global__ void k() {}\n\0\0binary")
        write(os.path.join(d, "notcuda.txt"), "hello")
        os.makedirs(os.path.join(d, "empty"), exist_ok=True)
        out = os.path.join(d, "o.sarif")
        p = run("--format=sarif", "-o", out, "ok.cu", "bin.cu", "missing.cu", "notcuda.txt", "empty", cwd=d,
                check_rc=(2,))
        doc = json.load(open(out, encoding="utf-8"))
        self.valid(doc)
        inv = doc["runs"][0]["invocations"][0]
        self.assertFalse(inv["executionSuccessful"])
        errs = [n for n in inv["toolExecutionNotifications"] if n["level"] == "error"]
        text = "\n".join(n["message"]["text"] for n in errs)
        for needle in ("bin.cu", "missing.cu", "notcuda.txt", "empty"):
            self.assertIn(needle, text)
        # each notification names its input problem (smemlint/problems.def),
        # listed among the driver's notification descriptors
        descs = doc["runs"][0]["tool"]["driver"]["notifications"]
        for n in inv["toolExecutionNotifications"]:
            ref = n["descriptor"]
            self.assertEqual(descs[ref["index"]]["id"], ref["id"])
        ids = {}
        for n in errs:
            loc = n.get("locations", [{}])[0].get("physicalLocation", {}).get("artifactLocation", {}).get("uri")
            ids[loc] = n["descriptor"]["id"]
        self.assertEqual(ids, {"bin.cu": "binary-file", "missing.cu": "cannot-read",
                               "notcuda.txt": "not-cuda-source", None: "no-cuda-files"})
        uris = {n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in errs if "locations" in n}
        self.assertTrue({"bin.cu", "missing.cu", "notcuda.txt"} <= uris)
        self.assertEqual(len(doc["runs"][0]["results"]), 1, "the good file is still reported")
        self.assertIn("missing.cu", p.stderr)

    def test_utf16_columns(self):
        d = os.path.join(self.tmp, "u16")
        prefix = '/* é日本😀 */ const char *s = "ß"; '
        src = CONFLICT.replace("    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];",
                               "    " + prefix + "out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];")
        write(os.path.join(d, "ü dir", "u.cu"), src)
        js = json.loads(run("--format=json", "ü dir/u.cu", cwd=d).stdout)["results"]
        doc = json.loads(run("--format=sarif", "ü dir/u.cu", cwd=d).stdout)
        self.valid(doc)
        res = doc["runs"][0]["results"]
        self.assertEqual(len(res), 1)
        line = src.splitlines()[5]
        start = line.index("tile[threadIdx.x]")
        end = line.index(";", start)
        # libclang columns are bytes; SARIF's are UTF-16 code units
        self.assertEqual(js[0]["column"], len(line[:start].encode("utf-8")) + 1)
        reg = res[0]["locations"][0]["physicalLocation"]["region"]
        self.assertEqual(reg["startColumn"], len(line[:start].encode("utf-16-le")) // 2 + 1)
        self.assertEqual(reg["endColumn"], len(line[:end].encode("utf-16-le")) // 2 + 1)
        self.assertNotEqual(reg["startColumn"], js[0]["column"])
        # the URI is percent-encoded
        self.assertEqual(res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "%C3%BC%20dir/u.cu")
        gh = run("--format=github", "ü dir/u.cu", cwd=d).stdout
        self.assertIn(f",col={reg['startColumn']},", gh)

    def test_fingerprints_stable_across_moves(self):
        d = os.path.join(self.tmp, "move")
        write(os.path.join(d, "m.cu"), CONFLICT)
        a = json.loads(run("--format=sarif", "m.cu", cwd=d).stdout)["runs"][0]["results"]
        write(os.path.join(d, "m.cu"), "// moved\n\n\n" + CONFLICT.replace("{\n", "{\n\n  ", 1))
        b = json.loads(run("--format=sarif", "m.cu", cwd=d).stdout)["runs"][0]["results"]
        self.assertNotEqual(a[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
                            b[0]["locations"][0]["physicalLocation"]["region"]["startLine"])
        self.assertEqual(a[0]["partialFingerprints"], b[0]["partialFingerprints"])
        # another rule on the same line, or another file, differs
        c = json.loads(run("--format=sarif", "--severity", "bank-conflict=error", "m.cu", cwd=d).stdout)
        self.assertEqual(c["runs"][0]["results"][0]["level"], "error")
        shutil.copy(os.path.join(d, "m.cu"), os.path.join(d, "n.cu"))
        e = json.loads(run("--format=sarif", "n.cu", cwd=d).stdout)["runs"][0]["results"]
        self.assertNotEqual(a[0]["partialFingerprints"], e[0]["partialFingerprints"])


class Github(unittest.TestCase):
    def test_commands_and_escaping(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "a,b:c%.cu"), CONFLICT)
            p = run("--format=github", "--severity", "bank-conflict=error", "a,b:c%.cu", cwd=d)
            self.assertEqual(p.returncode, 1)
            lines = [l for l in p.stdout.splitlines() if l.startswith("::error")]
            self.assertEqual(len(lines), 1, p.stdout)
            m = re.match(r"^::error (?P<props>[^:]*)::(?P<msg>.*)$", lines[0])
            self.assertTrue(m, lines[0])
            props = dict(kv.split("=", 1) for kv in m.group("props").split(","))
            self.assertEqual(props["file"], "a%2Cb%3Ac%25.cu")
            self.assertEqual((props["line"], props["col"], props["endLine"], props["endColumn"]), ("6", "24", "6", "54"))
            self.assertEqual(props["title"], "smemlint bank-conflict")
            # one line per finding: the note joined with an escaped newline
            self.assertIn("%0Adeclare 'tile' as", m.group("msg"))
            self.assertNotIn("\n", m.group("msg"))
            w = run("--format=github", "a,b:c%.cu", cwd=d).stdout
            self.assertTrue(any(l.startswith("::warning file=") for l in w.splitlines()))

    def test_escaping_of_percent_in_message(self):
        with tempfile.TemporaryDirectory() as d:
            # the file name shows up in the message of an input error
            p = run("--format=github", "no%such\nfile.cu", cwd=d, check_rc=(2,))
            self.assertIn("::error file=no%25such%0Afile.cu", p.stdout)
            self.assertEqual(len([l for l in p.stdout.splitlines() if l.startswith("::error")]), 1)
            self.assertFalse([l for l in p.stdout.splitlines() if not l.startswith("::")])


class Choosing(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        write(os.path.join(self.d, "proj", "src", "k.cu"), CONFLICT)

    def tearDown(self):
        shutil.rmtree(self.d)

    def results(self, *args, cwd=None, rc=(0, 1)):
        p = run("--format=json", *args, cwd=cwd or os.path.join(self.d, "proj"), check_rc=rc)
        return json.loads(p.stdout)["results"], p

    def test_severity(self):
        r, p = self.results("src")
        self.assertEqual([x["level"] for x in r], ["warning"])
        r, _ = self.results("--severity", "bank-conflict=note", "src")
        self.assertEqual([x["level"] for x in r], ["note"])
        r, p = self.results("--severity", "bank-conflict=none", "src")
        self.assertEqual((r, p.returncode), ([], 0))
        r, _ = self.results("--disable", "bank-conflict", "--severity", "bank-conflict=error", "src")
        self.assertEqual([x["level"] for x in r], ["error"], "the later option wins")
        for bad in ("bank-conflict", "bank-conflict=loud", "nosuch=error"):
            p = run("--severity", bad, "src", cwd=os.path.join(self.d, "proj"), check_rc=(2,))
            self.assertRegex(p.stderr, r"^smemlint: (invalid|unknown)")

    def test_config_walk_up_and_precedence(self):
        proj = os.path.join(self.d, "proj")
        write(os.path.join(proj, ".smemlint.yaml"), "rules:\n  bank-conflict: error\n")
        r, _ = self.results("src")
        self.assertEqual([x["level"] for x in r], ["error"])
        # from another directory too: found from the file, not the cwd
        r, _ = self.results(os.path.join(proj, "src", "k.cu"), cwd=self.d)
        self.assertEqual([x["level"] for x in r], ["error"])
        # the command line wins
        r, _ = self.results("--severity", "bank-conflict=warning", "src")
        self.assertEqual([x["level"] for x in r], ["warning"])
        # a nearer config wins over the outer one
        write(os.path.join(proj, "src", ".smemlint.yaml"), "disable: [bank-conflict]\n")
        r, p = self.results("src")
        self.assertEqual((r, p.returncode), ([], 0))
        r, _ = self.results("--enable", "bank-conflict", "src")
        self.assertEqual(len(r), 1)
        # --config replaces the search
        write(os.path.join(self.d, "other.yaml"), "rules: {bank-conflict: note}\n")
        r, _ = self.results("--config", os.path.join(self.d, "other.yaml"), "src")
        self.assertEqual([x["level"] for x in r], ["note"])

    def test_config_block_arch_flags_exclude(self):
        proj = os.path.join(self.d, "proj")
        write(os.path.join(proj, "inc", "tile.h"), "#define TILE 32\n")
        write(os.path.join(proj, "src", "t.cu"), '#include "tile.h"\n' + CONFLICT.replace("[32][32]", "[TILE][TILE]")
              .replace("void launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }\n", ""))
        write(os.path.join(proj, "src", "gen", "skip.cu"), CONFLICT)
        write(os.path.join(proj, ".smemlint.yaml"),
              "block-dim: [32, 16]\narch: sm_80\nflags: [-Iinc, -DUNUSED=1]\nexclude: [gen, 'k.cu']\n")
        r, p = self.results("src")
        self.assertEqual([os.path.basename(x["file"]) for x in r], ["t.cu"], p.stderr)
        self.assertEqual(r[0]["block_dim"], [32, 16, 1])
        self.assertFalse(r[0]["block_dim_assumed"])
        # the finding says the shape came from the config, and which
        self.assertEqual(r[0]["launch"]["source"], {"kind": "config", "file": os.path.join(proj, ".smemlint.yaml")})
        self.assertIn("with blockDim (32,16,1) from block-dim in .smemlint.yaml", r[0]["message"])
        r, _ = self.results("--block-dim", "32,4", "src")
        self.assertEqual(r[0]["block_dim"], [32, 4, 1])
        # the command line's wins over the config's, and says so
        self.assertEqual(r[0]["launch"]["source"], {"kind": "option"})
        self.assertIn("with blockDim (32,4,1) from --block-dim", r[0]["message"])
        dump = run("--dump-config", "src/t.cu", cwd=proj).stdout
        cfg = yaml.safe_load(dump)
        self.assertEqual(cfg["block-dim"], [32, 16, 1])
        self.assertEqual(cfg["arch"], "sm_80")
        self.assertEqual(cfg["exclude"], ["gen", "k.cu"])
        self.assertEqual(cfg["flags"], ["-I" + os.path.realpath(os.path.join(proj, "inc")), "-DUNUSED=1"])
        self.assertEqual(cfg["rules"]["bank-conflict"], "warning")
        self.assertIn(".smemlint.yaml", dump.splitlines()[0])

    def test_dump_config_round_trips(self):
        proj = os.path.join(self.d, "proj")
        p = run("--dump-config", "--severity", "warp-sync=none,bank-conflict=error", "--block-dim", "64",
                "--report-unused-suppressions", cwd=proj)
        cfg = yaml.safe_load(p.stdout)
        self.assertEqual(cfg["rules"]["warp-sync"], "none")
        self.assertEqual(cfg["rules"]["bank-conflict"], "error")
        self.assertEqual(cfg["rules"]["missing-barrier"], "error")
        self.assertIs(cfg["report-unused-suppressions"], True)
        self.assertIn("no config file", p.stdout.splitlines()[0])
        # what it prints is a config smemlint reads back to the same effect
        write(os.path.join(self.d, "dumped.yaml"), p.stdout)
        q = run("--dump-config", "--config", os.path.join(self.d, "dumped.yaml"), cwd=proj)
        self.assertEqual(yaml.safe_load(q.stdout), cfg)

    def test_config_header_filter(self):
        # header-filter: the key of --header-filter, for the files the
        # config covers; the option wins over it
        proj = os.path.join(self.d, "proj")
        os.remove(os.path.join(proj, "src", "k.cu"))
        write(os.path.join(proj, "inc", "t.cuh"), CONFLICT.replace("void launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }\n", ""))
        write(os.path.join(proj, "src", "a.cu"), '#include "../inc/t.cuh"\nvoid launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }\n')
        files = lambda r: [x["file"] for x in r]
        r, _ = self.results("--no-cache", "src")
        self.assertEqual(files(r), ["inc/t.cuh"], "the default: headers under the current directory")
        write(os.path.join(proj, ".smemlint.yaml"), "header-filter: ''\n")
        r, p = self.results("--no-cache", "src")
        self.assertEqual((r, p.returncode), ([], 0))
        r, _ = self.results("--no-cache", "--header-filter", "/inc/", "src")
        self.assertEqual(files(r), ["inc/t.cuh"], "the option wins")
        write(os.path.join(proj, ".smemlint.yaml"), "header-filter: '/inc/t[.]cuh$'\n")
        r, _ = self.results("--no-cache", "src")
        self.assertEqual(files(r), ["inc/t.cuh"])
        r, p = self.results("--no-cache", "--header-filter=", "src")
        self.assertEqual((r, p.returncode), ([], 0))
        write(os.path.join(proj, ".smemlint.yaml"), "header-filter: /nothing/\n")
        r, p = self.results("--no-cache", "src")
        self.assertEqual((r, p.returncode), ([], 0))
        cfg = yaml.safe_load(run("--dump-config", "src/a.cu", cwd=proj).stdout)
        self.assertEqual(cfg["header-filter"], "/nothing/")
        os.remove(os.path.join(proj, ".smemlint.yaml"))
        cfg = yaml.safe_load(run("--dump-config", "src/a.cu", cwd=proj).stdout)
        escaped = "".join("\\" + c if c in "\\^$.|?*+()[]{}" else c for c in os.path.realpath(proj))
        self.assertEqual(cfg["header-filter"], "^" + escaped + "/")
        cfg = yaml.safe_load(run("--dump-config", "--header-filter=", "src/a.cu", cwd=proj).stdout)
        self.assertEqual(cfg["header-filter"], "")

    def test_config_analysis_budget(self):
        # analysis-budget: the key of --analysis-budget; 0 is no limit and
        # the option wins over it
        proj = os.path.join(self.d, "proj")
        shutil.copy(os.path.join(ROOT, "tests", "rules", "missing-barrier", "analysis_budget.cu"),
                    os.path.join(proj, "src", "k.cu"))

        def budget_warnings(*args):
            p = run("--format=json", "--no-cuda", *args, "src", cwd=proj)
            return [n["message"] for n in json.loads(p.stdout)["notifications"]
                    if n["id"] == "analysis-budget-exceeded"]
        self.assertEqual(budget_warnings(), [])
        write(os.path.join(proj, ".smemlint.yaml"), "analysis-budget: 9000\n")
        msgs = budget_warnings()
        self.assertEqual(len(msgs), 1)
        self.assertIn("more than 9000 evaluation steps", msgs[0])
        self.assertEqual(budget_warnings("--analysis-budget", "0"), [], "the option wins")
        self.assertIn("more than 8000 ", budget_warnings("--analysis-budget", "8000")[0])
        self.assertEqual(yaml.safe_load(run("--dump-config", "src/k.cu", cwd=proj).stdout)["analysis-budget"], 9000)
        write(os.path.join(proj, ".smemlint.yaml"), "analysis-budget: 0\n")
        self.assertEqual(budget_warnings(), [])
        self.assertEqual(yaml.safe_load(run("--dump-config", "src/k.cu", cwd=proj).stdout)["analysis-budget"], 0)
        os.remove(os.path.join(proj, ".smemlint.yaml"))
        self.assertEqual(yaml.safe_load(run("--dump-config", "src/k.cu", cwd=proj).stdout)["analysis-budget"],
                         1000000000, "the default, SM_ANALYSIS_BUDGET")

    def test_config_errors(self):
        proj = os.path.join(self.d, "proj")
        for text, needle in (("rules: {nosuch: error}\n", "unknown rule 'nosuch'"),
                             ("colour: red\n", "unknown key 'colour'"),
                             ("rules: {bank-conflict: loud}\n", "invalid level 'loud'"),
                             ("block-dim: [2000]\n", "invalid block-dim"),
                             ("rules: [\n", "invalid config"),
                             ("\n\narch: 80\n", "line 3: invalid arch '80'"),
                             ("header-filter: '('\n", "line 1: invalid header-filter '(': "),
                             ("header-filter: [a]\n", "'header-filter' must be a string"),
                             ("analysis-budget: lots\n", "invalid analysis-budget 'lots'"),
                             ("analysis-budget: -5\n", "invalid analysis-budget '-5'"),
                             ("analysis-budget: 1e9\n", "invalid analysis-budget '1e9'"),
                             ("analysis-budget: 99999999999999999999999\n", "invalid analysis-budget")):
            write(os.path.join(proj, ".smemlint.yaml"), text)
            p = run("src", cwd=proj, check_rc=(2,))
            self.assertIn(needle, p.stderr)
            self.assertIn(".smemlint.yaml", p.stderr)
            self.assertTrue(p.stderr.startswith("smemlint: invalid config") or
                            p.stderr.startswith("smemlint: cannot"), p.stderr)
        p = run("--config", os.path.join(self.d, "nope.yaml"), "src", cwd=proj, check_rc=(2,))
        self.assertIn("cannot read config", p.stderr)


SUPPRESS = """__global__ void k(float *out)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // smemlint: ignore[bank-conflict]
    // smemlint: ignore[bank-conflict]
    out[threadIdx.x + 1] = tile[threadIdx.x][threadIdx.y];
    out[threadIdx.x + 2] = tile[threadIdx.x][threadIdx.y]; // NOLINT(smemlint-bank-conflict)
    // NOLINTNEXTLINE(bugprone-foo, smemlint-bank-conflict)
    out[threadIdx.x + 3] = tile[threadIdx.x][threadIdx.y];
    out[threadIdx.x + 4] = tile[threadIdx.x][threadIdx.y]; // NOLINT(bugprone-foo)
    out[threadIdx.x + 5] = tile[threadIdx.x][threadIdx.y]; // smemlint: ignore[warp-sync]
    out[threadIdx.x + 6] = tile[threadIdx.y][threadIdx.x]; // smemlint: ignore
    const char *s = "// smemlint: ignore"; out[threadIdx.x + 7] = tile[threadIdx.x][threadIdx.y];
    out[threadIdx.x + 8] = tile[threadIdx.x][threadIdx.y]; /* smemlint: ignore[bank-conflict, warp-sync] */
    out[threadIdx.x + 9] = tile[threadIdx.x][threadIdx.y]; // NOLINT
    out[threadIdx.x + 10] = tile[threadIdx.x][threadIdx.y]; // smemlint: ignore[nosuch]
}
void launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }
"""


class Suppressions(unittest.TestCase):
    def test_inline(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "s.cu"), SUPPRESS)
            # which lines each form covers, what is reported unused, and a
            # suppression of a disabled rule: the rule tests
            # tests/rules/unused-suppression/inline*.cu (the same source, 2
            # lines down). Here: the JSON notification, SARIF, the config.
            doc = json.loads(run("--format=json", "s.cu", cwd=d).stdout)
            self.assertTrue(any(n["id"] == "unknown-suppression-rule" and "'nosuch'" in n["message"] and
                                n.get("line") == 18 for n in doc["notifications"]), doc["notifications"])
            sarif = json.loads(run("--format=sarif", "--report-unused-suppressions", "s.cu", cwd=d).stdout)
            self.assertIn("unused-suppression", {r["ruleId"] for r in sarif["runs"][0]["results"]})
            # configurable like any rule
            write(os.path.join(d, ".smemlint.yaml"), "report-unused-suppressions: true\n")
            doc = json.loads(run("--format=json", "s.cu", cwd=d).stdout)
            self.assertEqual(sum(r["rule"] == "unused-suppression" for r in doc["results"]), 2)
            doc = json.loads(run("--format=json", "--disable", "unused-suppression", "s.cu", cwd=d).stdout)
            self.assertEqual(sum(r["rule"] == "unused-suppression" for r in doc["results"]), 0)


class Baseline(unittest.TestCase):
    def test_baseline_survives_moves(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "b.cu"), CONFLICT)
            bl = os.path.join(d, "baseline.json")
            p = run("--write-baseline", bl, "b.cu", cwd=d)
            self.assertEqual(p.returncode, 0, "writing a baseline accepts the findings")
            data = json.load(open(bl))
            self.assertEqual(data["version"], 1)
            self.assertEqual(len(data["findings"]), 1)
            self.assertEqual(sorted(f for f in os.listdir(d)), ["b.cu", "baseline.json"], "no temporary left")
            p = run("--baseline", bl, "b.cu", cwd=d)
            self.assertEqual((p.returncode, p.stdout), (0, ""))
            # move the code down: still suppressed (fingerprints, not lines)
            moved = "// a comment\n#define UNUSED 1\n\n\n" + CONFLICT
            write(os.path.join(d, "b.cu"), moved)
            p = run("--format=json", "--baseline", bl, "b.cu", cwd=d)
            self.assertEqual((p.returncode, json.loads(p.stdout)["results"]), (0, []))
            # a new finding is reported, the baselined one still is not
            write(os.path.join(d, "b.cu"), moved.replace(
                "    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n",
                "    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
                "    out[threadIdx.x + 1] = tile[threadIdx.x][threadIdx.y] * 2;\n"))
            p = run("--format=json", "--baseline", bl, "b.cu", cwd=d)
            r = json.loads(p.stdout)["results"]
            self.assertEqual((p.returncode, [x["line"] for x in r]), (1, [11]))
            # without the baseline both are there
            self.assertEqual(len(json.loads(run("--format=json", "b.cu", cwd=d).stdout)["results"]), 2)

    def test_bad_baseline(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "b.cu"), CONFLICT)
            write(os.path.join(d, "bad.json"), '{"version": 1, "findings": [{"fingerprint": "xyz"}]}')
            p = run("--baseline", "bad.json", "b.cu", cwd=d, check_rc=(2,))
            self.assertIn("invalid baseline 'bad.json'", p.stderr)
            p = run("--baseline", "missing.json", "b.cu", cwd=d, check_rc=(2,))
            self.assertIn("cannot read baseline 'missing.json'", p.stderr)
            # a failed write leaves nothing behind
            env = dict(os.environ, SMEMLINT_TEST_FAIL_WRITE="1")
            p = subprocess.run([SMEMLINT, "--write-baseline", "out.json", "b.cu"], cwd=d, env=env,
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(sorted(os.listdir(d)), ["b.cu", "bad.json"])


class AssumedShape(unittest.TestCase):
    def test_runtime_launch_is_said(self):
        # a kernel launched with a block shape computed at run time and a
        # __launch_bounds__ that gives no shape (the body reads threadIdx.y):
        # the assumed shape's source says both, and the
        # message does not claim there is no launch site
        src = ("__global__ void __launch_bounds__(32) k(float *o)\n{\n    __shared__ float s[64];\n"
               "    s[threadIdx.x + threadIdx.y] = o[threadIdx.x];\n"
               "    o[threadIdx.x] = s[(threadIdx.x + 1) % 32 + threadIdx.y];\n}\n"
               "void go(float *o, int n) { k<<<1, dim3(32, n)>>>(o); }\n")
        other = src.replace("void go(float *o, int n) { k<<<1, dim3(32, n)>>>(o); }\n", "")
        with tempfile.TemporaryDirectory() as d:
            for text, runtime in ((src, True), (other, False)):
                write(os.path.join(d, "k.cu"), text)
                r = json.loads(run("--format=json", "k.cu", cwd=d).stdout)["results"]
                srcs = [x["launch"]["source"] for x in r if x.get("launch")]
                self.assertTrue(srcs, r)
                for s in srcs:
                    self.assertEqual((s["kind"], s.get("bound"), s.get("runtime_launch", False)), ("assumed", 32, runtime))
                msg = " ".join(x["message"] for x in r)
                self.assertEqual("the launch computes it at run time" in msg, runtime, msg)
                self.assertEqual("no launch site" in msg, not runtime, msg)

    def test_fitted_shape_is_said(self):
        # a 16x16 tile indexed [threadIdx.y][threadIdx.x] and no launch: the
        # assumption is a shape that fits the tile, and the JSON source says
        # that shapes were left out (goldens: missing-barrier/assumed_tile_fit.cu);
        # where only a guard no launch decides bounds the index, no shape is
        # left out and the first assumption stays
        src = ("__global__ void k(float *o, unsigned n)\n{\n    __shared__ float t[16][16];\n"
               "    t[threadIdx.y][threadIdx.x] = 1.0f;\n    __syncthreads();\n"
               "    o[threadIdx.x] = t[threadIdx.x][threadIdx.y];\n}\n")
        guarded = src.replace("    t[threadIdx.y]", "    if (threadIdx.x < n) t[threadIdx.y]").replace(
            "    o[threadIdx.x] =", "    if (threadIdx.x < n) o[threadIdx.x] =")
        with tempfile.TemporaryDirectory() as d:
            for text, block, fitted in ((src, [16, 16, 1], True), (guarded, [32, 8, 1], False)):
                write(os.path.join(d, "k.cu"), text)
                r = json.loads(run("--format=json", "--no-cuda", "k.cu", cwd=d).stdout)["results"]
                launches = [x["launch"] for x in r if x.get("launch")]
                self.assertTrue(launches, r)
                for l in launches:
                    self.assertEqual((l["block"], l["source"]["kind"], l["source"].get("fitted", False)),
                                     (block, "assumed", fitted))


class Folding(unittest.TestCase):
    """Past SM_MAX_CAUSE_FINDINGS (50) findings of one cause in one file, the
    rest are folded into the last one shown; counts, exit status and a
    written baseline keep them all."""

    def test_fold_one_cause(self):
        # 60 fall-through cases, each store racing with the next: 59 findings
        # of one cause (missing-barrier, kernel k, array s, store); a bank
        # conflict on another array is another cause and stays whole
        cases = "".join("    case %d: s[t + %d] = %d.0f;\n" % (i, i, i) for i in range(60))
        src = ("__global__ void k(float *out, int m)\n{\n    __shared__ float s[256];\n"
               "    __shared__ float b[32 * 32];\n    int t = threadIdx.x;\n"
               "    switch (m) {\n" + cases + "    }\n"
               "    b[t * 32] = 1.0f;\n    __syncthreads();\n    out[t] = s[t] + b[t * 32];\n}\n"
               "void go(float *o) { k<<<1, 64>>>(o, 0); }\n")
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "f.cu"), src)
            whole = json.loads(run("--format=json", "--all-findings", "f.cu", cwd=d).stdout)["results"]
            races = [x for x in whole if x["rule"] == "missing-barrier"]
            self.assertEqual(len(races), 59)
            self.assertTrue(any(x["rule"] == "bank-conflict" for x in whole))
            p = run("--format=json", "f.cu", cwd=d)
            self.assertEqual(p.returncode, 1)
            folded = json.loads(p.stdout)["results"]
            kept = [x for x in folded if x["rule"] == "missing-barrier"]
            self.assertEqual(len(kept), 50)
            self.assertEqual([x["line"] for x in kept], [x["line"] for x in races[:50]], "the first 50, in order")
            lines = [x["line"] for x in races[50:]]
            self.assertIn("(and 9 more like it in kernel 'k' on 's', lines %d-%d; --all-findings lists them)"
                          % (min(lines), max(lines)), kept[-1]["message"])
            self.assertEqual([x for x in folded if x["rule"] != "missing-barrier"],
                             [x for x in whole if x["rule"] != "missing-barrier"])
            # the closing count is every finding
            self.assertIn("%d findings" % len(whole), run("f.cu", cwd=d).stderr)
            # a written baseline holds all 59, and then suppresses them all
            bl = os.path.join(d, "bl.json")
            run("--write-baseline", bl, "f.cu", cwd=d, check_rc=(0,))
            with open(bl) as f:
                self.assertEqual(len(json.load(f)["findings"]), len(whole))
            self.assertEqual(run("--baseline", bl, "f.cu", cwd=d).returncode, 0)


class SelfDescription(unittest.TestCase):
    def test_explain_every_rule(self):
        rules = [l.split()[0] for l in run("--list-rules").stdout.splitlines()]
        self.assertIn("bank-conflict", rules)
        self.assertIn("unused-suppression", rules)
        with open(os.path.join(ROOT, "rules", "registry.def")) as f:
            self.assertEqual(rules, re.findall(r'^SM_RULE\(\w+, "([^"]+)"', f.read(), re.M))
        for r in rules:
            t = run("--explain", r).stdout
            self.assertTrue(t.startswith(r + " (default: "), t)
            self.assertIn("Example:", t)
            self.assertIn("Fix: ", t)
            self.assertGreater(len(t), 200, r)
        p = run("--explain", "nosuch", check_rc=(2,))
        self.assertIn("unknown rule 'nosuch'", p.stderr)

    @needs(shutil.which("cmake") and shutil.which("git"), "cmake and git")
    def test_git_describe(self):
        # cmake/git_describe.cmake: the tree's git describe in a checkout,
        # "" in a copy outside git and in a folder of another repository
        script = os.path.join(ROOT, "cmake", "git_describe.cmake")
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        def describe(src):
            out = os.path.join(tmp, "git.h")
            p = subprocess.run(["cmake", f"-DSOURCE_DIR={src}", f"-DOUTPUT={out}", "-P", script],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                return re.search(r'#define SMEMLINT_GIT_DESCRIBE "(.*)"', f.read()).group(1)
        top = subprocess.run(["git", "-C", ROOT, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
        if top.returncode == 0 and os.path.realpath(top.stdout.strip()) == os.path.realpath(ROOT):
            want = subprocess.run(["git", "-C", ROOT, "describe", "--tags", "--match", "v[0-9]*", "--always",
                                   "--dirty"], capture_output=True, text=True).stdout.strip()
            self.assertTrue(want)
            self.assertEqual(describe(ROOT), want)
        plain = os.path.join(tmp, "tarball")
        os.makedirs(plain, exist_ok=True)
        self.assertEqual(describe(plain), "")
        inner = os.path.join(tmp, "repo", "smemlint-0.1.0")
        os.makedirs(inner, exist_ok=True)
        subprocess.run(["git", "init", "-q", os.path.join(tmp, "repo")], check=True)
        self.assertEqual(describe(inner), "", "another repository lends no history")

    def test_help_version_and_man_page(self):
        v = run("--version").stdout
        # the version project() sets, then the checkout's git describe
        # when built from one (doc/install.md, Versions)
        m = re.match(r"^smemlint (\d+\.\d+\.\d+)(?: \(git ([0-9A-Za-z.+-]+)\))?\n$", v)
        self.assertTrue(m, v)
        tag = re.match(r"^v(\d+\.\d+\.\d+)(-dirty)?$", m.group(2) or "")
        if tag:
            self.assertEqual(tag.group(1), m.group(1), "a release tag names the version project() sets")
        h = run("--help").stdout
        with open(os.path.join(ROOT, "doc", "smemlint.1"), encoding="utf-8") as f:
            man = f.read()
        self.assertTrue(man.startswith(".TH SMEMLINT 1"))
        self.assertIn(v.split()[1], man.splitlines()[0], "man page version matches")
        opts = set(re.findall(r"(--[a-z][a-z-]+)", h))
        self.assertGreater(len(opts), 20)
        man_opts = {"--" + o.replace("\\-", "-") for o in re.findall(r"\\-\\-([a-z]+(?:\\-[a-z]+)*)", man)}
        self.assertEqual(sorted(opts - man_opts), [], "every --help option is in the man page")
        for r in (l.split()[0] for l in run("--list-rules").stdout.splitlines()):
            self.assertIn(".B " + r, man)
        # the user guide (doc/usage.md, moved from the README in issue 26)
        # documents them
        with open(os.path.join(ROOT, "doc", "usage.md"), encoding="utf-8") as f:
            guide = f.read()
        for o in ("--format=sarif", "--severity", "--baseline", "--write-baseline", "--dump-config", "--explain",
                  "--html", "--launcher", "--report-unused-suppressions", "--config"):
            self.assertIn(o, guide)


if __name__ == "__main__":
    unittest.main(verbosity=2)
