#!/usr/bin/env python3
"""The command as a user drives it: block shapes from every source, the
JSON contract, exit codes, compiler flags and compile_commands.json, the
bundled header without a toolkit, and partial results on parse errors."""
import json, os, shutil, subprocess, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
CLI = os.path.join(ROOT, "tests", "cli")


def run(*args, cwd=ROOT):
    return subprocess.run([SMEMLINT, *args], capture_output=True, text=True, cwd=cwd)


def results(*args, cwd=ROOT):
    p = run("--format=json", *args, cwd=cwd)
    assert p.returncode in (0, 1), (p.returncode, p.stderr)
    return json.loads(p.stdout)


def bank(doc):
    return [r for r in doc["results"] if r["rule"] == "bank-conflict"]


class BlockShapes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.by_kernel = {}
        for r in bank(results(os.path.join(CLI, "blockdims.cu"))):
            cls.by_kernel.setdefault(r["kernel"], []).append(r)

    def test_dim3_variable(self):
        rs = sorted(self.by_kernel["from_dim3"], key=lambda r: r["line"])
        self.assertEqual([(r["line"], r["ways"], r["access"]) for r in rs], [(8, 16, "store"), (9, 2, "load")])
        self.assertEqual(rs[0]["block_dim"], [16, 16, 1])
        self.assertFalse(rs[0]["block_dim_assumed"])

    def test_integer_macro(self):
        (r,) = self.by_kernel["from_int"]
        self.assertEqual((r["ways"], r["block_dim"]), (4, [128, 1, 1]))

    def test_launch_site_wins_over_launch_bounds(self):
        (r,) = self.by_kernel["from_bounds"]
        self.assertEqual(r["block_dim"], [64, 1, 1])

    def test_assumed_is_said(self):
        (r,) = self.by_kernel["assumed"]
        self.assertTrue(r["block_dim_assumed"])
        self.assertIn("(assumed: no launch site", r["message"])
        self.assertEqual(r["ways"], 32)

    def test_uniform_loop_worst_value(self):
        (r,) = self.by_kernel["uniform_loop"]
        self.assertEqual(r["ways"], 32)
        self.assertIn("worst when s = 16", r["message"])

    def test_block_dim_flag_overrides(self):
        rs = bank(results("--block-dim", "32,8", os.path.join(CLI, "blockdims.cu")))
        self.assertTrue(all(r["block_dim"] == [32, 8, 1] for r in rs))
        (r,) = [x for x in rs if x["kernel"] == "assumed"]
        self.assertFalse(r["block_dim_assumed"])

    def test_launch_bounds_used_without_launch(self):
        with tempfile.TemporaryDirectory() as d:
            src = open(os.path.join(CLI, "blockdims.cu")).read()
            src = src.replace("from_bounds<<<1, 64>>>(0);", "")
            p = os.path.join(d, "b.cu")
            open(p, "w").write(src)
            (r,) = [x for x in bank(results(p)) if x["kernel"] == "from_bounds"]
            self.assertEqual(r["block_dim"], [128, 1, 1])
            self.assertFalse(r["block_dim_assumed"])


class Contract(unittest.TestCase):
    def test_json_fields(self):
        doc = results(os.path.join(ROOT, "corpus", "transpose.cu"))
        (r,) = bank(doc)
        for k in ("rule", "file", "line", "column", "end_line", "end_column", "kernel", "array", "access",
                  "ways", "message"):
            self.assertIn(k, r)
        self.assertEqual((r["line"], r["column"], r["end_line"], r["end_column"]), (40, 38, 40, 72))
        self.assertEqual((r["kernel"], r["array"], r["access"], r["ways"]), ("transpose_naive", "tile", "load", 32))
        self.assertTrue(r["message"].startswith("32-way bank conflict on load of 'tile' (float[32][32])"))

    def test_text_format(self):
        p = run(os.path.join("corpus", "transpose.cu"))
        self.assertEqual(p.returncode, 1)
        lines = p.stdout.splitlines()
        i = next(i for i, l in enumerate(lines) if "[bank-conflict]" in l)
        self.assertRegex(lines[i], r"^corpus/transpose\.cu:40:38: warning: 32-way bank conflict .*\[bank-conflict\]$")
        self.assertEqual(lines[i + 1].strip(), "odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];")
        self.assertEqual(lines[i + 2], "  " + " " * 37 + "^" + "~" * 33)

    def test_exit_codes(self):
        self.assertEqual(run(os.path.join("corpus", "transpose.cu")).returncode, 1)
        with tempfile.TemporaryDirectory() as d:
            clean = os.path.join(d, "clean.cu")
            open(clean, "w").write("__global__ void k(float *o) { __shared__ float s[64]; s[threadIdx.x] = 1; __syncthreads(); o[0] = s[0]; }\n")
            self.assertEqual(run(clean).returncode, 0)
            self.assertEqual(run("--no-such-flag", clean).returncode, 2)
            self.assertEqual(run("--block-dim", "2000", clean).returncode, 2)
            txt = os.path.join(d, "notes.txt")
            open(txt, "w").write("hello\n")
            p = run(txt, os.path.join(ROOT, "corpus", "transpose.cu"))
            self.assertEqual(p.returncode, 2)
            self.assertIn("not a CUDA source file: '%s'" % txt, p.stdout + p.stderr)
            self.assertIn("transpose.cu:40:38: warning: 32-way", p.stdout)

    def test_parse_error_partial_results(self):
        p = run("--format=json", os.path.join("tests", "cli", "broken.cu"))
        self.assertEqual(p.returncode, 2, "a file that does not parse fails the lint step")
        doc = json.loads(p.stdout)
        self.assertEqual([(r["kernel"], r["ways"]) for r in bank(doc)], [("fine", 32)])
        notes = doc["notifications"]
        self.assertTrue(any(n["id"] == "parse-error" and "undeclared_thing" in n["message"] for n in notes), notes)
        t = run(os.path.join("tests", "cli", "broken.cu"))
        self.assertIn("broken.cu:12:22: error: use of undeclared identifier 'undeclared_thing'", t.stdout)


class Flags(unittest.TestCase):
    def test_flags_after_dashdash(self):
        f = os.path.join("tests", "cli", "flags.cu")
        (r,) = bank(results(f, "--", "-DSTRIDE=16", "-Itests/cli/inc"))
        self.assertEqual(r["ways"], 32)
        (r,) = bank(results(f, "--", "-DSTRIDE=2", "-Itests/cli/inc"))
        self.assertEqual(r["ways"], 4)

    def test_compile_commands_from_nvcc(self):
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(CLI, "flags.cu"), d)
            os.makedirs(os.path.join(d, "include"))
            shutil.copy(os.path.join(CLI, "inc", "flags_inc.cuh"), os.path.join(d, "include"))
            build = os.path.join(d, "build")
            os.makedirs(build)
            cmd = ("/usr/local/cuda/bin/nvcc -DSTRIDE=8 -I../include --expt-relaxed-constexpr -Xcompiler -fPIC "
                   "-gencode arch=compute_80,code=sm_80 -O3 -lineinfo -c ../flags.cu -o flags.o")
            json.dump([{"directory": build, "command": cmd, "file": "../flags.cu"}],
                      open(os.path.join(build, "compile_commands.json"), "w"))
            (r,) = bank(results("-p", build, os.path.join(d, "flags.cu")))
            self.assertEqual(r["ways"], 16)
            json.dump([{"directory": build, "file": "../flags.cu",
                        "arguments": ["nvcc", "-DSTRIDE=1", "-I", "../include", "-arch=sm_75", "-c", "../flags.cu"]}],
                      open(os.path.join(build, "compile_commands.json"), "w"))
            (r,) = bank(results("-p", build, os.path.join(d, "flags.cu")))
            self.assertEqual(r["ways"], 2)

    def test_bad_compile_commands(self):
        with tempfile.TemporaryDirectory() as d:
            open(os.path.join(d, "compile_commands.json"), "w").write("{not json")
            p = run("-p", d, os.path.join("corpus", "transpose.cu"))
            self.assertEqual(p.returncode, 2)
            self.assertIn("compile_commands.json", p.stderr)


class Toolkit(unittest.TestCase):
    def test_bundled_header_gives_the_same_findings(self):
        corpus = os.path.join(ROOT, "corpus")
        key = lambda doc: sorted((r["file"], r["line"], r["column"], r["rule"], r.get("ways")) for r in doc["results"])
        with_tk = results(corpus)
        without = results("--no-cuda", corpus)
        self.assertEqual(without["notifications"], [], "the corpus parses with the bundled header")
        self.assertEqual(key(with_tk), key(without))

    def test_bad_cuda_path(self):
        p = run("--cuda-path", "/nonexistent", os.path.join("corpus", "transpose.cu"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no CUDA toolkit at '/nonexistent'", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
