"""Every scenario file under tests/scenarios/ runs as its own test case.

The suite keeps what the front end caches (language/cache.py) in a folder of its own, made empty
for each run: nothing a run of the suite finds there was left by another run or by the user's own
commands, and the first load of each file parses it."""
import atexit
import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="unorules-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
os.environ.pop("UNORULES_NO_CACHE", None)
os.environ.pop("UNORULES_NATIVE_CACHE", None)     # native code's cache: in that folder too, for the session
atexit.register(shutil.rmtree, _CACHE, True)

from unorules.testing import pytest_collect_file  # noqa: E402,F401


def pytest_addoption(parser):
    """pyproject.toml sets pytest-asyncio's loop scope (the language server's tests); where the
    extra that brings it is not installed, the setting is declared here so pytest does not warn."""
    try:
        import pytest_asyncio  # noqa: F401
    except ImportError:
        parser.addini("asyncio_default_fixture_loop_scope", "pytest-asyncio's setting (not installed)")
