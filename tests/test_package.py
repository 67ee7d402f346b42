#!/usr/bin/env python3
"""The packages (issue 26 item 5): `cpack -G TGZ` and `cpack -G DEB` of the
build tree, each into a temporary folder. The archive holds what `cmake
--install` installs (the binary, every public header, the pkg-config file,
the man page); the .deb says the project's version and depends on the
Debian package of every shared library the binary links, found with dpkg
on this machine. Both are unpacked into a temporary prefix, away from the
build, where the binary says the build's --version and lints corpus/ as
the build's binary does.

Environment: BUILD_DIR (the build tree), SMEMLINT (its binary)."""
import glob, json, os, re, shutil, subprocess, tarfile, tempfile, unittest

from tooling import needs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_DIR = os.path.abspath(os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")))
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(BUILD_DIR, "smemlint")))
CPACK = shutil.which("cpack")
DPKG_DEB = shutil.which("dpkg-deb")
DPKG = shutil.which("dpkg")
READELF = shutil.which("readelf")


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(smemlint VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


def instrumented():
    """Whether the build is a sanitizer or fuzzing build (CMakeCache.txt)."""
    with open(os.path.join(BUILD_DIR, "CMakeCache.txt")) as f:
        return re.search(r"^SMEMLINT_(SANITIZE|FUZZ):BOOL=ON$", f.read(), re.M) is not None


def corpus_report(binary, cache):
    """binary's JSON report of corpus/ (findings as comparable strings),
    with its header cache under cache."""
    p = run([binary, "--format=json", "-j2", "corpus/"], cwd=ROOT, env=dict(os.environ, XDG_CACHE_HOME=cache))
    assert p.returncode == 1, f"{binary}: exit {p.returncode}: {p.stderr}"
    doc = json.loads(p.stdout)
    # nvcc-accepts is a note, not a problem: code clang rejects and nvcc
    # compiles (async_libcu.cu's __shared__ cuda::barrier), analyzed as nvcc
    # compiles it
    notes = [n for n in doc.get("notifications", []) if n.get("id") != "nvcc-accepts"]
    return sorted(json.dumps(r, sort_keys=True) for r in doc["results"]), notes


@needs(CPACK, "cpack (CMake's packager)")
class Packages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.want_report = None

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def cpack(self, generator):
        """Runs cpack -G generator into a fresh folder; the package's path."""
        out = os.path.join(self.tmp, generator)
        p = run([CPACK, "--config", os.path.join(BUILD_DIR, "CPackConfig.cmake"), "-G", generator, "-B", out])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        ext = {"TGZ": "*.tar.gz", "DEB": "*.deb"}[generator]
        found = glob.glob(os.path.join(out, ext))
        self.assertEqual(len(found), 1, found)
        return found[0]

    def check_unpacked(self, prefix):
        """The unpacked binary says the build's --version and lints corpus/
        as the build's binary does, with no input problem."""
        binary = os.path.join(prefix, "bin", "smemlint")
        self.assertTrue(os.access(binary, os.X_OK), binary)
        # (read now: cpack builds what is out of date first, such as the git
        # describe of a tree changed since the build)
        self.assertEqual(run([binary, "--version"]).stdout, run([SMEMLINT, "--version"]).stdout)
        if Packages.want_report is None:
            Packages.want_report = corpus_report(SMEMLINT, os.path.join(self.tmp, "cache"))
        got, problems = corpus_report(binary, os.path.join(self.tmp, "cache"))
        self.assertEqual(problems, [], "the unpacked binary parses the corpus")
        self.assertGreater(len(got), 10)
        self.assertEqual(got, Packages.want_report[0], "the unpacked binary's findings are the build's")

    def check_members(self, names, prefix):
        """names (paths inside a package) hold the binary, every public
        header, the pkg-config file, the CMake package and the man page."""
        want = ["bin/smemlint", "lib/pkgconfig/smemlint.pc", "share/man/man1/smemlint.1",
                "lib/cmake/Smemlint/SmemlintConfig.cmake", "include/smemlint/registry.def"]
        want += ["include/smemlint/" + os.path.basename(h)
                 for h in glob.glob(os.path.join(ROOT, "include", "smemlint", "*.h"))]
        have = {n[len(prefix):] for n in names if n.startswith(prefix)}
        self.assertEqual(sorted(w for w in want if w not in have), [], "missing from the package")

    def test_tgz(self):
        path = self.cpack("TGZ")
        with tarfile.open(path) as t:
            names = t.getnames()
            top = names[0].split("/")[0]
            self.assertTrue(all(n.split("/")[0] == top for n in names), "one top folder")
            self.assertEqual(top, f"smemlint-{project_version()}-Linux")
            self.check_members(names, top + "/")
            t.extractall(os.path.join(self.tmp, "tgz-x"), filter="tar")
        # moved after unpacking: nothing depends on where it lies
        prefix = os.path.join(self.tmp, "elsewhere")
        os.rename(os.path.join(self.tmp, "tgz-x", top), prefix)
        self.check_unpacked(prefix)

    @needs(DPKG_DEB and DPKG, "dpkg-deb and dpkg (Debian)")
    def test_deb(self):
        path = self.cpack("DEB")
        info = run([DPKG_DEB, "-I", path])
        self.assertEqual(info.returncode, 0, info.stderr)
        fields = dict(re.findall(r"^ ([A-Z][A-Za-z-]+): (.*)$", info.stdout, re.M))
        self.assertEqual(fields["Package"], "smemlint")
        self.assertEqual(fields["Version"], project_version())
        depends = {d.strip().split()[0] for d in fields["Depends"].split(",")}
        # every shared library the binary names (DT_NEEDED), as ldd resolves
        # it, belongs to a package the .deb depends on; a sanitizer build
        # (not one to ship) also links its runtime's (libgcc_s, libresolv),
        # so there only the project's own libraries are checked
        if READELF:
            needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", run([READELF, "-d", SMEMLINT]).stdout)
            self.assertIn("libjansson.so.4", needed)
            if instrumented():
                needed = [l for l in needed if re.match(r"lib(clang|jansson|yaml|csv|c\.)", l)]
                self.assertEqual(len(needed), 5, needed)
            where = dict(re.findall(r"^\s*(\S+) => (/\S+)", run(["ldd", SMEMLINT]).stdout, re.M))
            for lib in needed:
                owner = run([DPKG, "-S", os.path.realpath(where[lib])])
                if owner.returncode != 0:
                    owner = run([DPKG, "-S", where[lib]])
                self.assertEqual(owner.returncode, 0, f"{lib}: no package owns {where[lib]}")
                pkg = owner.stdout.split(":")[0]
                self.assertIn(pkg, depends, f"{lib} is {pkg}'s: the .deb must depend on it")
        # libclang's resource headers (stddef.h, cuda_wrappers)
        self.assertIn("libclang-common-22-dev", depends)
        listing = run([DPKG_DEB, "-c", path])
        self.assertEqual(listing.returncode, 0, listing.stderr)
        names = [l.split()[-1].lstrip(".") for l in listing.stdout.splitlines()]
        self.check_members(names, "/usr/")
        root = os.path.join(self.tmp, "deb-root")
        p = run([DPKG_DEB, "-x", path, root])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_unpacked(os.path.join(root, "usr"))


if __name__ == "__main__":
    unittest.main()
