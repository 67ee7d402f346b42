"""Optional tools the tests use, and what a missing one means.

Models the rule of issue 15 item 8. On a fresh clone (cmake + ctest), a test
whose tool is missing is skipped and says why. tools/bootstrap.sh installs
every such tool and then runs the tests with SMEMLINT_REQUIRE_TOOLS=1: a
missing tool is then a failure, so a bootstrap run that passes ran every test.

Not tools, and so still plain skips: privileges (a test that needs root, or
a user to drop to) and the official SARIF schema file, which only a checkout
with ../shared beside it has (the SARIF Multitool, a required tool, validates
against the same schema).
"""
import os
import unittest

REQUIRED = os.environ.get("SMEMLINT_REQUIRE_TOOLS") == "1"


def _missing(reason):
    return "missing, and tools/bootstrap.sh test runs every test: " + reason


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
