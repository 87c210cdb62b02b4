"""Every scenario file under tests/scenarios/ runs as its own test case."""
from unorules.testing import pytest_collect_file  # noqa: F401
