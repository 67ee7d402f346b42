#!/usr/bin/env python3
"""The installed library works (issue 22 item 4): `cmake --install` of the
build into a temporary prefix (then moved, as a package would be) holds
every public header, each compiling alone, and a program embedding
smemlint (tests/install/embed.c: a session, its results as JSON through
smemlint/emit.h) builds from that tree alone, through pkg-config and
through find_package(Smemlint CONFIG), and finds the bank conflict of
tests/install/transpose.cu.

Environment: BUILD_DIR (the build tree to install), CC (the compiler the
build used: an instrumented build's archives need its runtimes)."""
import glob, json, os, shutil, subprocess, tempfile, unittest

from tooling import require

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "tests", "install")
BUILD_DIR = os.path.abspath(os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")))
CC = shutil.which(os.environ.get("CC") or "cc")
CXX = shutil.which(os.environ.get("CXX") or "c++")
CMAKE = shutil.which("cmake")
PKG_CONFIG = shutil.which("pkg-config")


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


class Installed(unittest.TestCase):
    prefix = None

    @classmethod
    def setUpClass(cls):
        if not (CC and CMAKE and PKG_CONFIG):
            return
        cls.tmp = tempfile.mkdtemp()
        staged = os.path.join(cls.tmp, "staged")
        p = run([CMAKE, "--install", BUILD_DIR, "--prefix", staged])
        assert p.returncode == 0, p.stdout + p.stderr
        # nothing may depend on where it was installed
        cls.prefix = os.path.join(cls.tmp, "prefix")
        os.rename(staged, cls.prefix)
        cls.input = os.path.join(cls.tmp, "transpose.cu")
        shutil.copy(os.path.join(HERE, "transpose.cu"), cls.input)

    @classmethod
    def tearDownClass(cls):
        if cls.prefix:
            shutil.rmtree(cls.tmp)

    def setUp(self):
        for tool, name in ((CC, "a C compiler (cc or $CC)"), (CMAKE, "cmake"), (PKG_CONFIG, "pkg-config")):
            require(self, tool, name + " is not installed")

    def project(self, name):
        """A copy of tests/install/ in its own folder, away from the tree."""
        d = os.path.join(self.tmp, name)
        shutil.copytree(HERE, d)
        return d

    def assert_finds_conflict(self, program):
        p = run([program, self.input], cwd=self.tmp)
        self.assertEqual(p.returncode, 1, "findings give exit status 1: " + p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["notifications"], [])
        got = [(r["rule"], r["kernel"], r["array"], r["access"], r["line"], r["ways"], r["block_dim"])
               for r in doc["results"]]
        self.assertEqual(got, [("bank-conflict", "transpose", "tile", "load", 8, 32, [32, 32, 1])])
        self.assertEqual(doc["results"][0]["fix"]["replacement"], "[32][33]")

    def test_public_headers_installed_and_alone(self):
        inc = os.path.join(self.prefix, "include", "smemlint")
        installed = sorted(os.listdir(inc))
        public = sorted(os.listdir(os.path.join(ROOT, "include", "smemlint")) + ["registry.def"])
        self.assertEqual(installed, public)
        self.assertIn("emit.h", installed)
        for h in (f for f in installed if f.endswith(".h")):
            with self.subTest(header=h):
                src = os.path.join(self.tmp, "alone.c")
                with open(src, "w") as f:
                    f.write(f"#include <smemlint/{h}>\nint sm_alone;\n")
                p = run([CC, "-std=c17", "-Wall", "-Wextra", "-Werror", "-c", src, "-o", os.devnull,
                         "-I", os.path.join(self.prefix, "include")])
                self.assertEqual(p.returncode, 0, p.stderr)
                if not CXX:
                    continue
                # C++ too: the extern "C" guards
                src = os.path.join(self.tmp, "alone.cc")
                with open(src, "w") as f:
                    f.write(f"#include <smemlint/{h}>\nint sm_alone;\n")
                p = run([CXX, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-c", src, "-o", os.devnull,
                         "-I", os.path.join(self.prefix, "include")])
                self.assertEqual(p.returncode, 0, p.stderr)

    def test_pkg_config(self):
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(self.prefix, "lib", "pkgconfig"))
        env.pop("PKG_CONFIG_LIBDIR", None)
        p = run([PKG_CONFIG, "--modversion", "smemlint"], env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout.strip(), r"^\d+\.\d+\.\d+$")
        p = run([PKG_CONFIG, "--cflags", "--libs", "smemlint"], env=env)  # no --static needed
        self.assertEqual(p.returncode, 0, p.stderr)
        flags = p.stdout.split()
        self.assertNotIn(ROOT, p.stdout, "only the installed tree is used")
        self.assertNotIn(BUILD_DIR, p.stdout)
        self.assertIn("-lclang", flags)
        self.assertIn("-ljansson", flags)
        self.assertIn("-lyaml", flags)
        d = self.project("pkgconfig")
        program = os.path.join(d, "embed")
        p = run([CC, os.path.join(d, "embed.c"), "-o", program] + flags)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assert_finds_conflict(program)

    def cmake_project(self, name, version=None):
        """Configure tests/install/CMakeLists.txt (asking for version if given)."""
        d = self.project(name)
        if version:
            path = os.path.join(d, "CMakeLists.txt")
            with open(path) as f:
                text = f.read()
            self.assertIn("find_package(Smemlint 0.1 CONFIG REQUIRED)", text)
            with open(path, "w") as f:
                f.write(text.replace("Smemlint 0.1", "Smemlint " + version))
        b = os.path.join(d, "build")
        p = run([CMAKE, "-S", d, "-B", b, f"-DCMAKE_PREFIX_PATH={self.prefix}", f"-DCMAKE_C_COMPILER={CC}"])
        return b, p

    def test_find_package(self):
        b, p = self.cmake_project("cmake")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = run([CMAKE, "--build", b, "--verbose"])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertNotIn(os.path.join(ROOT, "include"), p.stdout, "only the installed tree's headers are used")
        self.assertIn(os.path.join(self.prefix, "include"), p.stdout)
        self.assertIn(os.path.join(self.prefix, "lib", "libsm_emit.a"), p.stdout)
        self.assert_finds_conflict(os.path.join(b, "embed"))

    def test_find_package_version(self):
        """SmemlintConfigVersion.cmake: a version the tree is not is refused."""
        b, p = self.cmake_project("too_new", "99.0")
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn("99.0", p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
