"""The native cache runs only what unorules wrote and checked: a planted bytecode file or numba
pickle is never loaded, a folder another user could write is refused, and the cache is bounded."""
from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from unorules.native import cache
from unorules.native.tables import NotNative

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = bool(os.environ.get("UNORULES_REQUIRE_EXTRAS"))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    place = tmp_path / "native"
    monkeypatch.setenv("UNORULES_NATIVE_CACHE", str(place))
    return place


SOURCE = '"""a module"""\nVALUE = 41 + 1\n'


def test_a_planted_pyc_matching_the_module_is_never_run(folder, tmp_path):
    marker = tmp_path / "planted-ran"
    path = cache.write_module(SOURCE, "tag")
    st = path.stat()
    evil = compile(f"open({str(marker)!r}, 'w').close()\nVALUE = 0\n", str(path), "exec")
    pyc = Path(bootstrap.cache_from_source(str(path)))
    pyc.parent.mkdir(exist_ok=True)
    pyc.write_bytes(bootstrap._code_to_timestamp_pyc(evil, int(st.st_mtime), st.st_size))
    from unorules.native.program import import_module
    module = import_module(path)
    assert not marker.exists()
    assert module.VALUE == 42


def test_a_folder_others_may_write_is_refused(folder):
    folder.mkdir(mode=0o700)
    os.chmod(folder, 0o777)
    with pytest.raises(NotNative, match="not ours alone: others may write to it"):
        cache.write_module(SOURCE, "tag")
    os.chmod(folder, 0o700)
    assert cache.write_module(SOURCE, "tag").exists()


def test_a_linked_folder_is_refused(folder, tmp_path):
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    folder.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(NotNative, match="symbolic link"):
        cache.write_module(SOURCE, "tag")


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to make another user's folder")
def test_another_users_folder_is_refused(folder):
    folder.mkdir(mode=0o700)
    os.chown(folder, 12345, 12345)
    with pytest.raises(NotNative, match="belongs to another user"):
        cache.write_module(SOURCE, "tag")


def test_a_module_file_that_is_a_fifo_is_replaced(folder):
    path = cache.write_module(SOURCE, "tag")
    path.unlink()
    os.mkfifo(path)
    assert cache.write_module(SOURCE, "tag") == path        # no hang on reading it
    assert path.read_text() == SOURCE


def test_the_cache_keeps_at_most_its_bound(folder, monkeypatch):
    monkeypatch.setattr(cache, "MAX_MODULES", 3)
    paths = []
    for i in range(6):
        paths.append(cache.write_module(SOURCE + f"# {i}\n", "tag"))
        os.utime(paths[-1], ns=(i * 10**9, i * 10**9))            # the order they were used in
        pycache = folder / "__pycache__"
        pycache.mkdir(exist_ok=True)
        (pycache / f"{paths[-1].stem}.f-1.py311.nbi").write_bytes(b"x")
    left = sorted(p.name for p in folder.glob("unorules_native_*.py"))
    assert left == sorted(p.name for p in paths[-3:])
    assert sorted(p.name.split(".")[0] for p in (folder / "__pycache__").iterdir()) == sorted(p.stem for p in paths[-3:])


PLANT = """import os, pickle, sys
sys.path.insert(0, {root!r})
from unorules.runs.simulation import RunSpec, make_game, seat_agents
from unorules.native.program import NativeProgram
spec = RunSpec('rlcard', players=4, agents=('random',), rounds='single')
p = NativeProgram(make_game(spec), tuple(seat_agents(spec)))
p.play_rows([1, 2])
print(sum(p.module.play_batch.stats.cache_hits.values()))
"""


class _Plant:
    """Unpickled, it makes a file: proof that a pickle ran."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.mark.skipif(not REQUIRED and __import__("importlib").util.find_spec("numba") is None,
                    reason="numba is not installed (pip install 'unorules[native]')")
def test_a_planted_numba_index_is_never_unpickled(tmp_path):
    """A first process compiles and keeps rlcard's machine code; a pickle planted in place of the
    game's index is removed before numba could read it, and a second process compiles afresh;
    the files it keeps then are read back by a third."""
    place = tmp_path / "native"
    env = dict(os.environ, UNORULES_NATIVE_CACHE=str(place))
    script = PLANT.format(root=str(ROOT))

    def run():
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        return int(done.stdout.split()[-1])

    run()
    indexes = list((place / "__pycache__").glob("unorules_native_*.play_batch-*.nbi"))
    assert len(indexes) == 1
    marker = tmp_path / "pickle-ran"
    indexes[0].write_bytes(pickle.dumps(_Plant(str(marker))))
    assert run() == 0                    # not read: compiled afresh
    assert not marker.exists()
    assert run() == 1                    # what it wrote is in the manifest: read back
