#!/usr/bin/env python3
"""The composite GitHub Action (issue 26 item 5, tools/action/action.yml),
its steps run here as a runner runs them: each `run:` step with
`bash --noprofile --norc -eo pipefail`, its `env:` with the `${{ }}`
expressions evaluated, $GITHUB_OUTPUT read back into the step's outputs,
a step's `if:` deciding whether it runs (success() unless it says
always()); a `uses:` step (the SARIF upload) is recorded with its `with:`
instead of run.

Checks that every input reaches smemlint (a recording stand-in shows its
argv) or the step it is for, that every option the action passes exists in
`smemlint --help`, that with no smemlint at hand it builds one from its own
checkout, and runs it on examples/ (the two planted bugs, failing
on findings or not) and over corpus/ as a 3-job matrix: each shard its own
report and category, the shards' files disjoint, and the union of their
findings the unsharded run's.

Environment: SMEMLINT (the binary)."""
import json, os, re, shutil, stat, subprocess, tempfile, unittest

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACTION_DIR = os.path.join(ROOT, "tools", "action")
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint")))
EXAMPLE_FLAGS = "-- -Iexamples/cmake-project/include -DDEMO_TILE=32 -DDEMO_ROWS=8"


def load():
    with open(os.path.join(ACTION_DIR, "action.yml")) as f:
        return yaml.safe_load(f)


class Runner:
    """One run of the action with the given inputs, in cwd."""

    def __init__(self, inputs, cwd, env=None):
        self.action = load()
        self.inputs = {k: str(v.get("default", "")) for k, v in self.action["inputs"].items()}
        unknown = set(inputs) - set(self.inputs)
        assert not unknown, f"not inputs of the action: {unknown}"
        self.inputs.update({k: str(v) for k, v in inputs.items()})
        self.cwd, self.env = cwd, dict(os.environ, **(env or {}))
        self.outputs, self.uses, self.ran, self.logs = {}, [], [], {}
        self.failed = False

    def lookup(self, scope, name):
        if scope == "inputs":
            return self.inputs[name]
        if scope == "github":
            return {"action_path": ACTION_DIR, "workspace": self.cwd}[name]
        step = scope.split(".")[1]
        return self.outputs.get(step, {}).get(name, "")

    def expr(self, text):
        """A GitHub expression of the forms the action uses: inputs.X,
        steps.ID.outputs.X, github.X, 'strings', ==, !=, &&, ||,
        always(), success(), failure()."""
        e = text.strip()
        if e.startswith("${{"):
            e = e[3:-2].strip()
        e = re.sub(r"\b(inputs|github|steps\.[\w-]+\.outputs)\.([\w-]+)",
                   lambda m: repr(self.lookup(m.group(1), m.group(2))), e)
        e = e.replace("always()", "True").replace("success()", repr(not self.failed))
        e = e.replace("failure()", repr(self.failed)).replace("&&", " and ").replace("||", " or ")
        return eval(e, {"__builtins__": {}}, {})

    def subst(self, s):
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(self.expr(m.group(1))), str(s))

    def run(self):
        for i, step in enumerate(self.action["runs"]["steps"]):
            sid = step.get("id", str(i))
            if not self.expr(step.get("if", "success()")):
                continue
            self.ran.append(step["name"])
            if "uses" in step:
                self.uses.append((step["uses"], {k: self.subst(v) for k, v in step.get("with", {}).items()}))
                continue
            assert step["shell"] == "bash", step["name"]
            out = os.path.join(self.cwd, f".github_output_{i}")
            open(out, "w").close()
            env = dict(self.env, GITHUB_OUTPUT=out, RUNNER_TEMP=self.cwd,
                       **{k: self.subst(v) for k, v in step.get("env", {}).items()})
            p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                               cwd=self.cwd, env=env, capture_output=True, text=True)
            with open(out) as f:
                self.outputs[sid] = dict(l.split("=", 1) for l in f.read().splitlines() if l)
            os.unlink(out)
            self.logs[sid] = p
            if p.returncode != 0:
                self.failed = True
        # the action's own outputs
        self.result = {k: self.subst(v["value"]) for k, v in self.action["outputs"].items()}
        return self


def results(path):
    """The SARIF file's findings as (rule, uri, line, column, message), and its files."""
    with open(path) as f:
        run_ = json.load(f)["runs"][0]
    out = []
    for r in run_["results"]:
        loc = r["locations"][0]["physicalLocation"]
        out.append((r["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"],
                    loc["region"].get("startColumn"), r["message"]["text"]))
    return sorted(out), run_


class Action(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        # the header cache where the test's files are
        self.env = {"XDG_CACHE_HOME": os.path.join(self.tmp, "cache")}

    def workdir(self, name):
        d = os.path.join(self.tmp, name)
        os.makedirs(d)
        return d

    def test_shape(self):
        a = load()
        self.assertEqual(a["runs"]["using"], "composite")
        for want in ("paths", "format", "fail-on", "args", "shard-index", "shard-count"):
            self.assertIn(want, a["inputs"])
        for name, spec in a["inputs"].items():
            self.assertTrue(spec.get("description"), name)
        steps = a["runs"]["steps"]
        up = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
        self.assertEqual(len(up), 1)
        self.assertIn("always()", up[0]["if"], "findings (a failed step) still upload")
        # inputs reach the scripts through env only, never spliced into them
        for s in steps:
            self.assertNotIn("${{", s.get("run", ""), s["name"])
        # every input is used: in a step's env, with or if
        text = json.dumps(steps)
        for name in a["inputs"]:
            self.assertIn(f"inputs.{name}", text, f"input {name} is not used")
        # each env variable bound to an input is read by its script
        for s in steps:
            for var, value in s.get("env", {}).items():
                if "inputs." in str(value):
                    self.assertRegex(s["run"], r"\$\{?" + var + r"\b", f"{s['name']}: {var} is not read")

    def test_options_exist(self):
        help_text = subprocess.run([SMEMLINT, "--help"], capture_output=True, text=True).stdout
        lint = next(s for s in load()["runs"]["steps"] if s.get("id") == "lint")["run"]
        # the options in what becomes smemlint's argv: the args array and
        # the command line itself (the rest of the script is shell)
        argv = re.findall(r"\bargs\+?=\((.*)\)", lint) + re.findall(r'^\s*"\$SMEMLINT"(.*)$', lint, re.M)
        self.assertGreaterEqual(len(argv), 3)
        used = set(re.findall(r"(?<![\w$-])(--[a-z][a-z-]*|-[a-z])\b", "\n".join(argv)))
        self.assertGreaterEqual(used, {"--format", "--fail-on", "--shard", "-o"})
        for opt in sorted(used):
            self.assertRegex(help_text, r"(^|[\s,])" + re.escape(opt) + r"[\s=]", f"{opt} is not in smemlint --help")
        setup = next(s for s in load()["runs"]["steps"] if s.get("id") == "setup")["run"]
        self.assertIn('"$bin" --version', setup)
        # building smemlint: the build dependencies tools/bootstrap.sh installs
        pkgs = set(re.search(r"pkgs=\(([^)]*)\)", setup).group(1).split())
        with open(os.path.join(ROOT, "tools", "bootstrap.sh")) as f:
            boot = set(re.search(r"PKGS=\(([^)]*)\)", f.read()).group(1).split())
        build_deps = {"cmake", "make", "gcc", "pkg-config", "libclang-22-dev", "check", "libjansson-dev",
                      "libyaml-dev", "libcsv-dev"}
        self.assertEqual(sorted(build_deps - pkgs), [])
        self.assertEqual(sorted(pkgs - boot), [], "the action installs only what bootstrap does")

    def test_every_input_reaches_smemlint(self):
        # a stand-in that records its argv, one argument a line
        fake = os.path.join(self.tmp, "fake-smemlint")
        log = os.path.join(self.tmp, "argv")
        with open(fake, "w") as f:
            f.write('#!/bin/bash\n[ "$1" = --version ] && { echo "smemlint 0.0.0"; exit 0; }\n'
                    f'printf "%s\\n" "$@" > {log}\nexit 0\n')
        os.chmod(fake, stat.S_IRWXU)
        # (paths as a YAML block: one a line; a glob is not expanded)
        inputs = {"smemlint": fake, "paths": "src/a.cu  lib/\n*.cu\n", "format": "json", "fail-on": "error",
                  "args": "-p build -j 3", "shard-index": "2", "shard-count": "5", "output": "out.json",
                  "category": "cuda"}
        w = self.workdir("w")
        open(os.path.join(w, "k.cu"), "w").close()   # what *.cu would match
        r = Runner(inputs, w).run()
        self.assertFalse(r.failed, {k: p.stderr for k, p in r.logs.items()})
        with open(log) as f:
            argv = f.read().splitlines()
        self.assertEqual(argv, ["--format=json", "--fail-on", "error", "--shard", "2/5", "-o", "out.json",
                                "src/a.cu", "lib/", "*.cu", "-p", "build", "-j", "3"])
        self.assertEqual(r.result["category"], "cuda-2-of-5")
        self.assertEqual(r.uses, [], "json is not uploaded")
        # the setup step: the input, else smemlint on PATH
        self.assertEqual(r.outputs["setup"]["smemlint"], fake)
        bindir = self.workdir("bin")
        os.symlink(fake, os.path.join(bindir, "smemlint"))
        r = Runner({"paths": "x.cu"}, self.workdir("w2"),
                   env={"PATH": bindir + os.pathsep + os.environ["PATH"]}).run()
        self.assertEqual(r.outputs["setup"]["smemlint"], os.path.join(bindir, "smemlint"))
        self.assertEqual(r.result["report"], "", "the stand-in wrote no report")

    def test_builds_smemlint_from_its_checkout(self):
        # no smemlint input and none on PATH: the setup step builds one
        # from the action's own tree (this checkout) in $RUNNER_TEMP; a
        # dpkg-query that finds every package keeps apt out of the test
        stubs = self.workdir("stubs")
        with open(os.path.join(stubs, "dpkg-query"), "w") as f:
            f.write("#!/bin/sh\nprintf 'install ok installed'\n")
        os.chmod(os.path.join(stubs, "dpkg-query"), stat.S_IRWXU)
        path = [stubs] + [d for d in os.environ["PATH"].split(os.pathsep)
                          if d and not os.path.exists(os.path.join(d, "smemlint"))]
        work = self.workdir("w")
        r = Runner({"paths": os.path.join(ROOT, "corpus", "transpose.cu"), "fail-on": "never"}, work,
                   dict(self.env, PATH=os.pathsep.join(path))).run()
        self.assertFalse(r.failed, r.logs["setup"].stdout[-2000:] + r.logs["setup"].stderr[-2000:])
        built = r.outputs["setup"]["smemlint"]
        self.assertEqual(built, os.path.join(work, "smemlint-build", "smemlint"))
        want = subprocess.run([SMEMLINT, "--version"], capture_output=True, text=True).stdout
        self.assertEqual(subprocess.run([built, "--version"], capture_output=True, text=True).stdout.split()[:2],
                         want.split()[:2])
        self.assertEqual(r.result["exit-code"], "0")
        got, _ = results(os.path.join(work, "smemlint.sarif"))
        self.assertIn("bank-conflict", {g[0] for g in got})

    def test_examples(self):
        # the planted bugs of examples/cmake-project, with the flags its
        # CMake build gives (-I, -D)
        work = self.workdir("repo")
        shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(work, "examples"))
        r = Runner({"smemlint": SMEMLINT, "paths": "examples/", "fail-on": "warning",
                    "args": "-j2 " + EXAMPLE_FLAGS}, work, self.env).run()
        self.assertEqual(r.result["exit-code"], "1", r.logs["lint"].stderr)
        self.assertEqual(r.result["report"], "smemlint.sarif")
        self.assertEqual(r.ran, ["find or build smemlint", "run smemlint", "upload SARIF to code scanning",
                                 "fail on findings"])
        self.assertTrue(r.failed, "findings fail the job")
        self.assertEqual(len(r.uses), 1)
        uses, with_ = r.uses[0]
        self.assertTrue(uses.startswith("github/codeql-action/upload-sarif@"))
        self.assertEqual(with_, {"sarif_file": "smemlint.sarif", "category": "smemlint"})
        got, run_ = results(os.path.join(work, "smemlint.sarif"))
        self.assertEqual([g[:3] for g in got], [("bank-conflict", "examples/cmake-project/src/transpose.cu", 16),
                                                ("divergent-barrier", "examples/cmake-project/src/reduce.cu", 16)])
        self.assertEqual(run_["invocations"][0].get("toolExecutionNotifications", []), [])
        # fail-on never: uploaded, the job passes
        os.unlink(os.path.join(work, "smemlint.sarif"))
        r = Runner({"smemlint": SMEMLINT, "paths": "examples/", "fail-on": "never",
                    "args": "-j2 " + EXAMPLE_FLAGS}, work, self.env).run()
        self.assertEqual((r.result["exit-code"], r.failed), ("0", False))
        self.assertEqual(len(r.uses), 1)
        # no flags: the header is not found; by default a warning, the
        # kernel that needs it is named and the other finding still fails
        os.unlink(os.path.join(work, "smemlint.sarif"))
        r = Runner({"smemlint": SMEMLINT, "paths": "examples/"}, work, self.env).run()
        self.assertEqual(r.result["exit-code"], "1")
        got, run_ = results(os.path.join(work, "smemlint.sarif"))
        self.assertEqual([g[:3] for g in got], [("divergent-barrier", "examples/cmake-project/src/reduce.cu", 16)])
        notes = run_["invocations"][0].get("toolExecutionNotifications", [])
        self.assertTrue(any("'transpose'" in n["message"]["text"] for n in notes), notes)
        # asked to, the missing header is an input problem: it fails the
        # lint step, and the report, which names it, is still uploaded
        r = Runner({"smemlint": SMEMLINT, "paths": "examples/", "args": "--fail-on-missing-headers"},
                   work, self.env).run()
        self.assertEqual(r.result["exit-code"], "2")
        self.assertTrue(r.failed)
        self.assertEqual(r.ran, ["find or build smemlint", "run smemlint", "upload SARIF to code scanning"])
        _, run_ = results(os.path.join(work, "smemlint.sarif"))
        self.assertFalse(run_["invocations"][0]["executionSuccessful"])

    def test_format_github_annotates(self):
        work = self.workdir("repo")
        shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(work, "examples"))
        r = Runner({"smemlint": SMEMLINT, "paths": "examples/", "format": "github",
                    "args": EXAMPLE_FLAGS}, work, self.env).run()
        self.assertEqual(r.result["exit-code"], "1")
        self.assertEqual((r.result["report"], r.uses), ("", []), "annotations go to the log, nothing to upload")
        self.assertIn("::warning file=examples/cmake-project/src/transpose.cu,line=16", r.logs["lint"].stdout)

    def test_bad_shard(self):
        for index, count in (("0", "3"), ("4", "3"), ("1", "0"), ("x", "2")):
            r = Runner({"smemlint": SMEMLINT, "paths": os.path.join(ROOT, "corpus"), "shard-index": index,
                        "shard-count": count}, self.workdir(f"bad{index}{count}"), self.env).run()
            self.assertEqual(r.result["exit-code"], "2", (index, count))
            self.assertIn("invalid shard", r.logs["lint"].stderr)
            self.assertEqual((r.result["report"], r.uses), ("", []))
            self.assertTrue(r.failed)

    def test_matrix_over_corpus(self):
        # shard-index 1..3 of 3 as a job matrix runs them, each job in its
        # own checkout, against the unsharded run
        corpus = os.path.join(ROOT, "corpus")
        whole = Runner({"smemlint": SMEMLINT, "paths": corpus, "args": "-j2"}, self.workdir("whole"), self.env).run()
        self.assertEqual(whole.result["exit-code"], "1", whole.logs["lint"].stderr)
        want, _ = results(os.path.join(whole.cwd, "smemlint.sarif"))
        self.assertGreater(len(want), 50)
        union, files, categories = [], [], set()
        for k in (1, 2, 3):
            r = Runner({"smemlint": SMEMLINT, "paths": corpus, "args": "-j2", "shard-index": k, "shard-count": 3},
                       self.workdir(f"shard{k}"), self.env).run()
            self.assertEqual(r.result["report"], f"smemlint-{k}-of-3.sarif")
            self.assertEqual(r.uses[0][1], {"sarif_file": f"smemlint-{k}-of-3.sarif", "category": f"smemlint-{k}-of-3"})
            categories.add(r.result["category"])
            got, run_ = results(os.path.join(r.cwd, r.result["report"]))
            union += got
            files.append({g[1] for g in got})
        self.assertEqual(len(categories), 3, "each shard uploads its own category")
        for a in range(3):
            self.assertTrue(files[a], f"shard {a + 1} has findings")
            for b in range(a + 1, 3):
                self.assertEqual(files[a] & files[b], set(), f"shards {a + 1} and {b + 1} share files")
        self.assertEqual(sorted(union), want, "the shards' findings together are the unsharded run's")


if __name__ == "__main__":
    unittest.main()
