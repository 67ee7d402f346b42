#!/usr/bin/env python3
"""The integrations shipped in the repository: the pre-commit hook, the
example GitHub workflow, the CMake module, the compiler-launcher mode and
`cmake --install` (binary, man page, bundled CUDA header, CMake module).

Environment: SMEMLINT (the binary), BUILD_DIR (its build tree, for
`cmake --install`)."""
import json, os, re, shlex, shutil, stat, subprocess, sys, tempfile, textwrap, unittest

import yaml
from tooling import needs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint")))
BUILD_DIR = os.path.abspath(os.environ.get("BUILD_DIR", os.path.dirname(SMEMLINT)))
CMAKE = shutil.which("cmake")
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)

CONFLICT = """__global__ void k(float *out)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }
"""
CLEAN = CONFLICT.replace("tile[threadIdx.x][threadIdx.y]", "tile[threadIdx.y][threadIdx.x]")


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


class PreCommit(unittest.TestCase):
    def test_hook(self):
        with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as f:
            hooks = yaml.safe_load(f)
        self.assertEqual(len(hooks), 1)
        h = hooks[0]
        self.assertEqual((h["id"], h["entry"], h["language"]), ("smemlint", "smemlint", "system"))
        files = re.compile(h["files"])
        for name, want in (("a/k.cu", True), ("k.cuh", True), ("k.cpp", False), ("k.cu.bak", False),
                           ("x.cuda", False)):
            self.assertEqual(bool(files.search(name)), want, name)
        # pre-commit runs `entry FILES...`: the real binary with staged files
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "bad.cu"), CONFLICT)
            write(os.path.join(d, "good.cuh"), CLEAN)
            entry = shlex.split(h["entry"])
            env = dict(os.environ, PATH=os.path.dirname(SMEMLINT) + os.pathsep + os.environ["PATH"])
            p = subprocess.run(entry + ["good.cuh"], cwd=d, env=env, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            p = subprocess.run(entry + ["good.cuh", "bad.cu"], cwd=d, env=env, capture_output=True, text=True)
            self.assertEqual(p.returncode, 1, "findings fail the hook")
            self.assertIn("bad.cu:6:24: warning: 32-way bank conflict", p.stdout)


class Workflow(unittest.TestCase):
    def test_example_workflow(self):
        path = os.path.join(ROOT, "examples", "github", "smemlint.yml")
        with open(path) as f:
            wf = yaml.safe_load(f)
        self.assertFalse(os.path.exists(os.path.join(ROOT, ".github", "workflows", "smemlint.yml")))
        self.assertEqual(wf["permissions"]["security-events"], "write")
        job = wf["jobs"]["smemlint"]
        steps = job["steps"]
        uses = [s.get("uses", "") for s in steps]
        self.assertTrue(uses[0].startswith("actions/checkout@"))
        names = [s.get("name", "") for s in steps]
        self.assertIn("cuda-nvcc", next(s["run"] for s in steps if s.get("name") == "install the CUDA toolkit"))
        # the lint is the repository's action, at a release tag of this version
        lint = steps[names.index("run smemlint")]
        m = re.match(r"^[\w.-]+/smemlint/tools/action@v(\d+\.\d+\.\d+)$", lint["uses"])
        self.assertTrue(m, lint["uses"])
        with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
            self.assertIn(f"project(smemlint VERSION {m.group(1)} ", f.read(), "the tag is the version")
        with open(os.path.join(ROOT, "tools", "action", "action.yml")) as f:
            inputs = yaml.safe_load(f)["inputs"]
        self.assertEqual(sorted(set(lint["with"]) - set(inputs)), [], "inputs the action has")
        self.assertIn("-p build", lint["with"]["args"])
        # a matrix over the shards, each job one of them
        shards = job["strategy"]["matrix"]["shard"]
        self.assertEqual(shards, list(range(1, len(shards) + 1)))
        self.assertEqual(lint["with"]["shard-index"], "${{ matrix.shard }}")
        self.assertEqual(int(lint["with"]["shard-count"]), len(shards))
        self.assertLess(names.index("configure the project"), names.index("run smemlint"))

    def run_steps(self, project, generator, path):
        """The workflow's steps from "configure the project" on, as GitHub
        runs them (bash -e, its env), the action's steps included
        (tests/test_action.py's runner), once per job of the matrix, one
        after another in project (a job's second configure is quick, and
        each shard writes its own report); returns the jobs' action runs."""
        from test_action import Runner
        wf = yaml.safe_load(open(os.path.join(ROOT, "examples", "github", "smemlint.yml")))
        job = wf["jobs"]["smemlint"]
        steps = job["steps"]
        names = [s.get("name", "") for s in steps]
        env = dict(os.environ, PATH=path, CMAKE_GENERATOR=generator, **{k: str(v) for k, v in wf["env"].items()})
        runs = []
        for shard in job["strategy"]["matrix"]["shard"]:
            work = project
            ctx = {"env": env, "matrix": {"shard": shard}}
            def subst(v):
                return re.sub(r"\$\{\{\s*(env|matrix)\.(\w+)\s*\}\}", lambda m: str(ctx[m.group(1)][m.group(2)]), str(v))
            for s in steps[names.index("configure the project"):]:
                if "uses" in s:
                    self.assertIn("/smemlint/tools/action@", s["uses"])
                    r = Runner({k: subst(v) for k, v in s["with"].items()}, work, env).run()
                    runs.append(r)
                    continue
                p = subprocess.run(["bash", "-e", "-c", s["run"]], cwd=work, env=env, capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, s["name"] + ": " + p.stdout + p.stderr)
        return runs

    @needs(CMAKE and NVCC, "the example CMake project needs cmake and nvcc (a CUDA toolkit)")
    def test_workflow_steps_on_a_cmake_project(self):
        # issue 15: the recipe runs against a real CMake project (a library
        # with public include directories and definitions, -rdc, two
        # architectures, host code calling max) with both generators, and
        # finds exactly the two planted bugs with no input problem
        path = os.pathsep.join([os.path.dirname(SMEMLINT), os.path.dirname(NVCC), os.environ["PATH"]])
        gens = ["Unix Makefiles"] + (["Ninja"] if shutil.which("ninja") else [])
        for gen in gens:
            with tempfile.TemporaryDirectory() as d:
                project = os.path.join(d, "project")
                shutil.copytree(os.path.join(ROOT, "examples", "cmake-project"), project)
                runs = self.run_steps(project, gen, path)
                got = []
                for k, r in enumerate(runs, 1):
                    self.assertEqual(r.ran[0], "find or build smemlint")
                    self.assertEqual(r.result["exit-code"], "1", gen + ": " + r.logs["lint"].stderr)
                    self.assertTrue(r.failed, "the last step fails on findings: " + gen)
                    self.assertEqual(r.uses[0][1], {"sarif_file": f"smemlint-{k}-of-{len(runs)}.sarif",
                                                    "category": f"smemlint-{k}-of-{len(runs)}"})
                    with open(os.path.join(r.cwd, r.result["report"])) as f:
                        doc = json.load(f)
                    run_ = doc["runs"][0]
                    got += [(r_["ruleId"], r_["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                             r_["locations"][0]["physicalLocation"]["region"]["startLine"]) for r_ in run_["results"]]
                    self.assertEqual(run_["invocations"][0].get("toolExecutionNotifications", []), [], gen)
                    self.assertTrue(run_["invocations"][0]["executionSuccessful"], gen)
                self.assertEqual(sorted(got), [("bank-conflict", "src/transpose.cu", 16),
                                               ("divergent-barrier", "src/reduce.cu", 16)], gen)
                if gen != "Unix Makefiles":
                    continue
                # the same findings from the launcher in the build
                b = os.path.join(d, "launch")
                env = dict(os.environ, PATH=path)
                p = subprocess.run([CMAKE, "-S", project, "-B", b,
                                    "-DCMAKE_CUDA_COMPILER_LAUNCHER=%s;--launcher;--" % SMEMLINT],
                                   capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                p = subprocess.run([CMAKE, "--build", b, "--target", "demo_kernels"], capture_output=True, text=True,
                                   env=env)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                lines = sorted(l.split(": ")[0] + ": " + l.split(": ")[1] for l in (p.stdout + p.stderr).splitlines()
                               if re.search(r"\.cu:\d+:\d+: (warning|error):", l))
                self.assertEqual(lines, [os.path.join(project, "src/reduce.cu:16:13: error"),
                                         os.path.join(project, "src/transpose.cu:16:32: warning")])


def on_terminal(argv, cwd, env):
    """Run argv with stdout and stderr on one pseudo-terminal; what a user
    sees, colour codes stripped, each \\r-rewritten frame on its own line."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    rc = p.wait()
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.decode()).replace("\r\n", "\n")
    lines = [part for line in text.split("\n") for part in line.split("\r") if part]
    return rc, lines


def readme_recording(command):
    """The lines of doc/usage.md's fenced block that starts with `$ command`
    (the terminal recordings moved there from the README, issue 26)."""
    with open(os.path.join(ROOT, "doc", "usage.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("```\n$ " + command + "\n") + len("```\n$ " + command + "\n")
    return text[start:text.index("```", start)].rstrip("\n").split("\n")


@needs(CMAKE and NVCC, "the example CMake project needs cmake and nvcc (a CUDA toolkit)")
class TerminalRecording(unittest.TestCase):
    """The terminal recordings of doc/usage.md (issue 15) are what a run on
    examples/cmake-project prints on a terminal, but for the time."""

    def test_readme_recordings(self):
        env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(NVCC), os.environ["PATH"]]))
        env.pop("NO_COLOR", None)
        env["TERM"] = "xterm"
        mask = lambda lines: [re.sub(r"; [0-9.]+ s$", "; T s", l) for l in lines]
        with tempfile.TemporaryDirectory() as d:
            project = os.path.join(d, "project")
            shutil.copytree(os.path.join(ROOT, "examples", "cmake-project"), project)
            p = subprocess.run([CMAKE, "-S", ".", "-B", "build"], cwd=project, capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            env["XDG_CACHE_HOME"] = os.path.join(d, "cache")
            rc, lines = on_terminal([SMEMLINT, "-p", "build", "src/"], project, env)
            self.assertEqual(rc, 1)
            self.assertEqual(mask(lines), mask(readme_recording("smemlint -p build src/")))
            cmd = "smemlint -p build src/ --format=sarif -o smemlint.sarif"
            rc, lines = on_terminal([SMEMLINT] + cmd.split()[1:], project, env)
            self.assertEqual(rc, 1)
            want = mask(readme_recording(cmd))
            # the progress frames count up; the files come in the order
            # they finish
            split = lambda frames: ([f.split("] ", 1)[0] for f in frames], sorted(f.split("] ", 1)[1] for f in frames))
            self.assertEqual(split(lines[:-1]), split(want[:-1]))
            self.assertEqual(mask(lines[-1:]), want[-1:])
            self.assertTrue(os.path.exists(os.path.join(project, "smemlint.sarif")))


@needs(CMAKE and NVCC, "a CUDA CMake project needs cmake and nvcc (a CUDA toolkit)")
class CudaLanguageCpp(unittest.TestCase):
    # issue 15: a .cpp with LANGUAGE CUDA (CMake compiles it with nvcc -x cu)
    # is linted through -p with both generators and through the launcher;
    # the host .cpp beside it is not
    def test_generators_and_launcher(self):
        path = os.pathsep.join([os.path.dirname(SMEMLINT), os.path.dirname(NVCC), os.environ["PATH"]])
        env = dict(os.environ, PATH=path)
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, "src", "kernels.cpp"), CONFLICT)
            write(os.path.join(d, "src", "host.cpp"), "int host() { return 1; }\n")
            write(os.path.join(d, "CMakeLists.txt"), textwrap.dedent("""\
                cmake_minimum_required(VERSION 3.18)
                project(cpp_as_cuda LANGUAGES CXX CUDA)
                set(CMAKE_CUDA_ARCHITECTURES 80)
                add_library(k STATIC src/kernels.cpp src/host.cpp)
                set_source_files_properties(src/kernels.cpp PROPERTIES LANGUAGE CUDA)
                """))
            gens = ["Unix Makefiles"] + (["Ninja"] if shutil.which("ninja") else [])
            for gen in gens:
                b = os.path.join(d, "build-" + gen.split()[0])
                p = subprocess.run([CMAKE, "-S", d, "-B", b, "-G", gen, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                                   capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                with open(os.path.join(b, "compile_commands.json")) as f:
                    self.assertIn("-x cu", f.read(), gen)
                p = subprocess.run([SMEMLINT, "--format=json", "-p", b, "src/"], capture_output=True, text=True,
                                   cwd=d)
                self.assertEqual(p.returncode, 1, p.stderr)
                doc = json.loads(p.stdout)
                self.assertEqual(doc["notifications"], [], gen)
                self.assertEqual([(r["file"], r["line"], r["ways"]) for r in doc["results"]],
                                 [("src/kernels.cpp", 6, 32)], gen)
            b = os.path.join(d, "launch")
            p = subprocess.run([CMAKE, "-S", d, "-B", b, "-DCMAKE_CUDA_COMPILER_LAUNCHER=%s;--launcher;--" % SMEMLINT],
                               capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            p = subprocess.run([CMAKE, "--build", b], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn(os.path.join(d, "src", "kernels.cpp") + ":6:24: warning: 32-way bank conflict",
                          p.stdout + p.stderr)


@needs(CMAKE and NVCC, "the generated CMake tree needs cmake and nvcc (a CUDA toolkit with CUB)")
class GeneratedTree(unittest.TestCase):
    """Issue 15, done when: on a generated tree of 100+ files including CUB
    users and host code, configured with CMake (Makefile generator:
    response files), `smemlint -p build src/` has no input problem."""

    def test_no_input_problems(self):
        env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(NVCC), os.environ["PATH"]]))
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, "tree")
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_tree.py"), tree, "--cmake",
                            "--files", "104"], check=True, capture_output=True)
            p = subprocess.run([CMAKE, "-S", tree, "-B", os.path.join(tree, "build"), "-G", "Unix Makefiles",
                                "-DCMAKE_CUDA_ARCHITECTURES=90", "-DCMAKE_CUDA_COMPILER=" + NVCC],
                               capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(os.path.join(tree, "build", "compile_commands.json")) as f:
                db = json.load(f)
            cu = [e for e in db if e["file"].endswith(".cu")]
            self.assertGreaterEqual(len(cu), 100)
            self.assertTrue(all("--options-file" in e["command"] for e in cu), "the Makefile generator's rsp files")
            cub = []
            for e in cu:
                with open(e["file"]) as f:
                    if "cub::BlockLoad" in f.read():
                        cub.append(e)
            self.assertGreaterEqual(len(cub), 10)
            # the generated code is code nvcc accepts: a CUB user, with its own
            # compile command
            p = subprocess.run(cub[0]["command"], shell=True, cwd=cub[0]["directory"], capture_output=True,
                               text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            p = subprocess.run([SMEMLINT, "--format=json", "--all-accesses", "-p", "build", "src/"], cwd=tree,
                               capture_output=True, text=True, env=dict(env, XDG_CACHE_HOME=os.path.join(d, "cache")))
            self.assertEqual(p.returncode, 1, p.stderr)
            doc = json.loads(p.stdout)
            self.assertEqual(doc["notifications"], [])
            self.assertRegex(p.stderr, r"smemlint: \d+ findings \(\d+ warnings\) in \d+ files; "
                                       r"0 files with input problems; ")
            files = {r["file"] for r in doc["results"]}
            self.assertGreater(len(files), 50)
            self.assertTrue(all(f.startswith("src/") or f == "include/gen/tile.cuh" for f in files), files)
            # the kernel in the header: once, at the header, with the
            # includers' GEN_TILE (a PUBLIC definition) of 32
            tile = [(r["line"], r["ways"]) for r in doc["results"] if r["file"] == "include/gen/tile.cuh"]
            self.assertEqual(tile, [(17, 32)])
            # the CUB users are analyzed, not skipped: their own shared array
            accessed = {a["kernel"] for a in doc["accesses"]}
            cub_kernels = {k for k in accessed if k.startswith("cub_sum_scan_")}
            self.assertEqual(len(cub_kernels), len(cub), sorted(cub_kernels))


@needs(CMAKE, "cmake")
class CMakeIntegration(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.prefix = os.path.join(cls.tmp, "prefix")
        p = subprocess.run([CMAKE, "--install", BUILD_DIR, "--prefix", cls.prefix], capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_install_layout(self):
        binary = os.path.join(self.prefix, "bin", "smemlint")
        self.assertTrue(os.access(binary, os.X_OK))
        for f in ("share/man/man1/smemlint.1", "share/smemlint/smemlint_cuda.h",
                  "lib/cmake/Smemlint/SmemlintConfig.cmake"):
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, f)), f)
        with open(os.path.join(self.prefix, "share/smemlint/smemlint_cuda.h")) as a, \
                open(os.path.join(ROOT, "analyzer/front/cuda_stub.h")) as b:
            self.assertEqual(a.read(), b.read())
        v = subprocess.run([binary, "--version"], capture_output=True, text=True)
        self.assertEqual(v.returncode, 0)
        self.assertRegex(v.stdout, r"^smemlint \d+\.\d+\.\d+( \(git [^)]+\))?$")
        man = subprocess.run(["man", "-l", "-P", "cat", os.path.join(self.prefix, "share/man/man1/smemlint.1")],
                             capture_output=True, text=True, env=dict(os.environ, MANWIDTH="80"))
        if man.returncode == 0:  # man-db is optional; the file check above is not
            self.assertIn("smemlint - static analysis of CUDA shared-memory access patterns", man.stdout)

    def project(self, name, source, use):
        d = os.path.join(self.tmp, name)
        write(os.path.join(d, "kernels", "k.cu"), source)
        write(os.path.join(d, "CMakeLists.txt"), textwrap.dedent(f"""\
            cmake_minimum_required(VERSION 3.20)
            project(uses_smemlint LANGUAGES NONE)
            {use}
            smemlint_add_lint_target(lint-cuda SOURCES kernels OPTIONS --severity bank-conflict=error)
            """))
        b = os.path.join(d, "build")
        p = subprocess.run([CMAKE, "-S", d, "-B", b, f"-DCMAKE_PREFIX_PATH={self.prefix}"], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        return subprocess.run([CMAKE, "--build", b, "--target", "lint-cuda"], capture_output=True, text=True)

    def test_lint_target_from_installed_package(self):
        p = self.project("bad", CONFLICT, "find_package(Smemlint REQUIRED)")
        self.assertNotEqual(p.returncode, 0, "findings fail the build")
        self.assertIn("error: 32-way bank conflict", p.stdout + p.stderr)
        with open(os.path.join(self.tmp, "bad", "build", "CMakeFiles", "lint-cuda.dir", "build.make")) as f:
            self.assertIn(os.path.join(self.prefix, "bin", "smemlint"), f.read(), "the installed binary is used")
        p = self.project("good", CLEAN, "find_package(Smemlint REQUIRED)")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_lint_target_from_source_tree(self):
        use = f'set(SMEMLINT_EXECUTABLE "{SMEMLINT}")\ninclude("{ROOT}/cmake/SmemlintConfig.cmake")'
        p = self.project("src_bad", CONFLICT, use)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("32-way bank conflict", p.stdout + p.stderr)


class Launcher(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.fake = os.path.join(self.d, "fake-nvcc")
        # records its argv (one per line) and exits with $FAKE_RC
        write(self.fake, "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '%s\\n' \"$a\"; done > \"$FAKE_LOG\"\n"
                         "echo compiled\nexit \"${FAKE_RC:-0}\"\n", 0o755)
        write(os.path.join(self.d, "inc", "tile.h"), "#define TILE 32\n")
        write(os.path.join(self.d, "src", "k.cu"), '#include "tile.h"\n' +
              CONFLICT.replace("[32][32]", "[TILE][TILE]").replace("dim3(32, 32)", "dim3(TILE, WIDTH)"))

    def tearDown(self):
        shutil.rmtree(self.d)

    def launch(self, args, rc=0, pre=()):
        log = os.path.join(self.d, "argv.log")
        env = dict(os.environ, FAKE_LOG=log, FAKE_RC=str(rc))
        p = subprocess.run([SMEMLINT, *pre, "--launcher", "--", self.fake, *args], cwd=self.d, env=env,
                           capture_output=True, text=True)
        with open(log) as f:
            argv = f.read().split("\n")[:-1]
        return p, argv

    def test_lints_then_runs_the_command_unchanged(self):
        args = ["-Iinc", "-D", "WIDTH=32", "-gencode", "arch=compute_80,code=sm_80", "-x", "cu", "-c",
                "src/k.cu", "-o", "out dir/k.cu.o", "-MD", "-MF", "k.d"]
        p, argv = self.launch(args)
        self.assertEqual(argv, [self.fake] + args, "the compiler gets exactly its arguments")
        self.assertEqual(p.returncode, 0)
        self.assertEqual(p.stdout, "compiled\n", "stdout is the compiler's alone")
        self.assertIn("src/k.cu:7:24: warning: 32-way bank conflict", p.stderr)
        self.assertIn("blockDim (32,32,1)", p.stderr, "-D reached the parser")
        self.assertNotIn("k.cu.o", p.stderr, "the -o argument is not a source")

    def test_exit_status_is_the_compilers(self):
        p, argv = self.launch(["-Iinc", "-DWIDTH=32", "-c", "src/k.cu"], rc=3)
        self.assertEqual(p.returncode, 3)
        self.assertIn("bank conflict", p.stderr)
        # findings do not fail the compile, a broken source does not stop it
        write(os.path.join(self.d, "src", "broken.cu"), "\0\0")
        p, argv = self.launch(["-c", "src/broken.cu"])
        self.assertEqual(p.returncode, 0)
        self.assertIn("binary file", p.stderr)

    def test_options_before_launcher(self):
        p, _ = self.launch(["-Iinc", "-DWIDTH=32", "-c", "src/k.cu"], pre=("--severity", "bank-conflict=none"))
        self.assertNotIn("bank conflict", p.stderr)
        p, _ = self.launch(["-c", "src/k.cu", "-Iinc", "-DWIDTH=32"], pre=("--format=github",))
        self.assertIn("::warning file=src/k.cu,line=7", p.stderr)

    def test_no_sources_no_lint_and_errors(self):
        p, argv = self.launch(["--version"])
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(argv, [self.fake, "--version"])
        p = subprocess.run([SMEMLINT, "--launcher"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("missing compiler command", p.stderr)
        p = subprocess.run([SMEMLINT, "--launcher", "--", "/nonexistent/nvcc", "-c", "x.cu"], capture_output=True,
                           text=True, cwd=self.d)
        self.assertEqual(p.returncode, 127)
        self.assertIn("cannot run compiler '/nonexistent/nvcc'", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
