"""The front end's cache trusts nothing it did not seal (language/cache.py): an entry replaced by
other JSON, by an IR kept for another text, by a FIFO or a link to a device, is ignored and the
file read afresh; Lark's pickled tables are loaded only under their seal; the fingerprint of the
front end follows its content."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading

import pytest

from helpers import ROOT, run_cli, write
from unorules.language import cache, loader


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("UNORULES_NO_CACHE", raising=False)
    return tmp_path / "cache" / "unorules"


CARD = "module hit \"h\"\ncard hit { wild  points 50  on play: choose color; next draw {n} }\ndeck { 4 × hit }\n"


def kept_entry(path, file) -> "os.PathLike":
    text = path.read_text()
    fresh = loader.parse_file(path, file)
    cache.keep(file, text, fresh.ir, fresh.spans)
    entry = cache._entry(cache.folder(), file, text)
    assert entry.exists() and cache.recall(file, text) is not None
    return entry


def draws(ir) -> list:
    return [n.get("count") for n in _walk(ir) if isinstance(n, dict) and n.get("kind") == "draw"]


def _walk(node):
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for c in children:
        if isinstance(c, (dict, list)):
            yield from _walk(c)


@pytest.mark.parametrize("payload", [
    "[]",
    '{"ir": {"name": "x"}, "spans": []}',
    "[" * 100_000 + "]" * 100_000,
    '{"ir": ' + "[" * 100_000 + "]" * 100_000 + ', "spans": []}',
])
def test_an_entry_replaced_by_other_json_is_ignored(home, tmp_path, payload):
    path = write(tmp_path, "hit.uno", CARD.replace("{n}", "1"))
    entry = kept_entry(path, "hit.uno")
    entry.write_text(payload)
    assert cache.recall("hit.uno", path.read_text()) is None
    assert loader.parse_file(path, "hit.uno", recall=True).ir == loader.parse_file(path, "hit.uno").ir


def test_an_entry_kept_for_another_text_does_not_stand_for_this_one(home, tmp_path):
    """The entry of a file that says `next draw 3`, copied over the entry of one that says 1:
    the file says 1, and 1 is what is validated and explained (it was 3)."""
    one = write(tmp_path, "hit.uno", CARD.replace("{n}", "1"))
    entry_one = kept_entry(one, "hit.uno")
    (tmp_path / "other").mkdir()
    three = write(tmp_path / "other", "hit.uno", CARD.replace("{n}", "3"))
    entry_three = kept_entry(three, "hit.uno")
    assert entry_one != entry_three
    entry_one.write_bytes(entry_three.read_bytes())
    assert cache.recall("hit.uno", one.read_text()) is None
    code, out, err = run_cli("explain", "classic", "--with", one)
    assert code == 0 and "draws 1" in out and "draws 3" not in out


def test_an_entry_that_is_a_fifo_or_a_link_to_a_device_is_not_read(home, tmp_path):
    path = write(tmp_path, "hit.uno", CARD.replace("{n}", "1"))
    entry = kept_entry(path, "hit.uno")
    entry.unlink()
    os.mkfifo(entry)
    result = []
    reader = threading.Thread(target=lambda: result.append(cache.recall("hit.uno", path.read_text())), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive() and result == [None]          # no hang on the FIFO
    entry.unlink()
    entry.symlink_to("/dev/zero")
    assert cache.recall("hit.uno", path.read_text()) is None    # not 3.7 GB of zeros
    code, out, err = run_cli("validate", "classic", "--with", path)
    assert code == 0, err


def test_a_cli_run_over_a_broken_entry_reads_the_file(home, tmp_path):
    path = write(tmp_path, "hit.uno", CARD.replace("{n}", "1"))
    env = dict(os.environ, XDG_CACHE_HOME=str(home.parent))
    first = subprocess.run([sys.executable, "-m", "unorules", "validate", "classic", "--with", str(path)],
                           env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert first.returncode == 0, first.stderr
    for entry in home.glob("ir-*.json"):
        entry.write_text(json.dumps({"ir": [], "spans": 3}))
    again = subprocess.run([sys.executable, "-m", "unorules", "validate", "classic", "--with", str(path)],
                           env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr


class _Plant:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_lark_tables_not_sealed_by_us_are_never_unpickled(home, tmp_path):
    """A pickle in place of the grammar's tables is removed before Lark could load it."""
    env = dict(os.environ, XDG_CACHE_HOME=str(home.parent))
    probe = [sys.executable, "-c", "from unorules.language.parser import lark_parser; lark_parser(); print('ok')"]
    assert subprocess.run(probe, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT).returncode == 0
    (tables,) = home.glob("grammar-*.lark-tables")
    assert (home / (tables.name + ".seal")).exists()
    marker = tmp_path / "pickle-ran"
    tables.write_bytes(pickle.dumps(_Plant(str(marker))))
    done = subprocess.run(probe, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr
    assert not marker.exists()
    assert cache.check_sealed_file(tables, 1 << 24)                # written afresh, and sealed


def test_the_front_ends_fingerprint_follows_content_not_size_and_time(tmp_path, monkeypatch):
    package = tmp_path / "language"
    package.mkdir()
    module = package / "a.py"
    module.write_text("X = 1\n")
    monkeypatch.setattr(cache, "_PACKAGE", package)
    cache._front_end.cache_clear()
    try:
        before = cache._front_end()
        st = module.stat()
        module.write_text("X = 2\n")                               # the same size
        os.utime(module, ns=(st.st_atime_ns, st.st_mtime_ns))       # and the same time
        cache._front_end.cache_clear()
        assert cache._front_end() != before
    finally:
        cache._front_end.cache_clear()
