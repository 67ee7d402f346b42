"""Optional tools the tests use, and what a missing one means.

Models the rule of issue 15 item 8. On a fresh clone (cmake + ctest), a test
whose tool is missing is skipped and says why. tools/bootstrap.sh installs
every such tool and then runs the tests with SMEMLINT_REQUIRE_TOOLS=1: a
missing tool is then a failure, so a bootstrap run that passes ran every test
it selected (`test`: all but the long ones; `long`: those).

Not tools, and so still plain skips: privileges (a test that needs root, or
a user to drop to) and the official SARIF schema file, which only a checkout
with ../shared beside it has (the SARIF Multitool, a required tool, validates
against the same schema).
"""
import os
import subprocess
import unittest

REQUIRED = os.environ.get("SMEMLINT_REQUIRE_TOOLS") == "1"


def _missing(reason):
    return "missing, and tools/bootstrap.sh test/long run every test: " + reason


def needs(available, reason):
    """Decorator for a test method or class that needs a tool."""
    if available:
        return lambda obj: obj
    if not REQUIRED:
        return unittest.skip(reason)

    def fail(test, *args, **kwargs):
        test.fail(_missing(reason))

    def decorate(obj):
        if isinstance(obj, type):
            for name in dir(obj):
                if name.startswith("test") and callable(getattr(obj, name)):
                    setattr(obj, name, fail)
            return obj
        return fail
    return decorate


def require(test, available, reason):
    """Inside a test: skip it, or fail it under bootstrap, if a tool is missing."""
    if not available:
        if REQUIRED:
            test.fail(_missing(reason))
        test.skipTest(reason)


def cuda_toolkit():
    """The CUDA toolkit's root, or None."""
    root = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return root if os.path.exists(os.path.join(root, "include", "cuda_runtime.h")) else None


NOBODY = 65534


def _drop_to_nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def nobody_or_skip(test, binary, *paths):
    """Inside a test run as root that needs a user root is not (root reads
    every file): the preexec function that drops to nobody (uid 65534), or
    a skip with the reason when nobody cannot run `binary` or read `paths`.

    Not a tool, so never a failure under SMEMLINT_REQUIRE_TOOLS: whether
    nobody can reach the build depends on where the clone sits (one under
    `mktemp -d`, mode 0700, is private to its owner), not on what is
    installed."""
    import subprocess
    try:
        p = subprocess.run([binary, "--version"], capture_output=True, preexec_fn=_drop_to_nobody, timeout=60)
    except subprocess.SubprocessError as e:
        test.skipTest(f"cannot drop privileges to nobody (uid {NOBODY}): {e}")
    except OSError as e:
        test.skipTest(f"nobody (uid {NOBODY}) cannot run {binary} ({e.strerror}): a directory above it "
                      "is private to its owner, e.g. a clone under a 0700 directory as mktemp -d makes")
    if p.returncode != 0:
        test.skipTest(f"{binary} --version exits {p.returncode} as nobody (uid {NOBODY}): "
                      + p.stderr.decode("utf-8", "replace").strip())
    for path in paths:
        q = subprocess.run(["test", "-r", path], preexec_fn=_drop_to_nobody)
        if q.returncode != 0:
            test.skipTest(f"nobody (uid {NOBODY}) cannot read {path}: a directory above it is private "
                          "(TMPDIR under a 0700 directory?)")
    return _drop_to_nobody


def git(cwd, *args):
    """git in cwd with a fixed identity; its standard output."""
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", cwd, *args], check=True, capture_output=True, text=True, env=env).stdout


def git_repo(path, files):
    """A git repository at path holding files ({relative path: text}) in
    one commit; its commit id (a stand-in for a pinned third-party tree)."""
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(path, rel)), exist_ok=True)
        with open(os.path.join(path, rel), "w") as f:
            f.write(text)
    git(path, "init", "-q")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "s")
    return git(path, "rev-parse", "HEAD").strip()
