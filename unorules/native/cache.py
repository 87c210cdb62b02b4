"""Where native modules and their machine code are kept, and what of it is trusted.

A module is written to a folder that only this user can write (refused otherwise: another
user's folder, or one others may write, could hold a planted file), under a name made of its
source's hash. It is never imported through Python's import system, which would run a
`__pycache__/*.pyc` that matches the file's time and size whoever wrote it: the source just
written is compiled in memory and run (`load_module`). numba's cache beside it is pickles
(`.nbi` index, `.nbc` data), so each of the module's functions keeps a manifest of the hashes of
the files numba wrote for it (`record_machine_code`, after a compile); before the first call
(`check_machine_code`) a file that is not in its manifest with that hash is removed, and numba
compiles afresh. A function whose numba cache folder is not ours alone is not cached at all.

At most MAX_MODULES modules are kept; the least recently used go first, with their files."""
from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
import types
from pathlib import Path

from unorules.language.cache import read_bounded
from .tables import NotNative

MAX_MODULES = 48               # about 2 MB each with numba's files
MAX_MANIFEST = 1 << 20         # bytes: a manifest larger than this is not ours
PREFIX = "unorules_native_"


def cache_dir() -> Path:
    """UNORULES_NATIVE_CACHE, else the user's cache folder (XDG_CACHE_HOME or ~/.cache)/unorules/native."""
    env = os.environ.get("UNORULES_NATIVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "unorules" / "native"


def not_ours_alone(folder: Path) -> str | None:
    """Why this folder cannot be trusted with code (a link, another user's, writable by others), or None."""
    try:
        st = os.lstat(folder)
    except OSError as e:
        return f"it cannot be read ({e.strerror or e})"
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"others may write to it (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def ours_alone() -> Path:
    """The cache folder, made if need be (mode 700); NotNative if it is not ours alone."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        raise NotNative(f"its cache folder `{folder}` cannot be made ({e.strerror or e}; "
                        "set UNORULES_NATIVE_CACHE to a folder that can)") from None
    why = not_ours_alone(folder)
    if why:
        raise NotNative(f"its cache folder `{folder}` is not ours alone: {why}; native code is never loaded "
                        "from such a folder (set UNORULES_NATIVE_CACHE to a folder only you can write)")
    return folder


def write_module(source: str, tag: str) -> Path:
    """The module's file, named by the hash of its text and `tag` (the versions that compile it);
    written atomically (a rename), so processes racing to write it leave one whole file."""
    digest = hashlib.sha256((tag + "\n" + source).encode()).hexdigest()[:20]
    folder = ours_alone()
    path = folder / f"{PREFIX}{digest}.py"
    try:
        if _read_regular(path, len(source.encode()) + 1) != source:
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(source)
            os.replace(tmp, path)
        else:
            os.utime(path)                      # recently used
    except OSError as e:
        raise NotNative(f"its cache folder `{folder}` cannot be written ({e.strerror or e}; "
                        "set UNORULES_NATIVE_CACHE to a folder that can)") from None
    prune(folder, keep=path)
    return path


def _read_regular(path: Path, limit: int) -> str | None:
    """The text of a regular file of at most `limit` bytes (language/cache.py's bounded read: not a
    link, a FIFO or a device), or None."""
    data = read_bounded(path, limit)
    try:
        return data.decode("utf-8") if data is not None else None
    except UnicodeDecodeError:
        return None


def load_module(path: Path, source: str):
    """The module of `source`, written at `path` by write_module: compiled from that text (never
    from a file's bytecode) and run as a module named after the file, whose functions numba
    finds at `path`."""
    name = path.stem
    if name in sys.modules:
        return sys.modules[name]
    module = types.ModuleType(name)
    module.__file__ = str(path)
    code = compile(source, str(path), "exec", dont_inherit=True)
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def prune(folder: Path, keep: Path) -> None:
    """Remove the least recently used modules past MAX_MODULES, with numba's files for them."""
    try:
        modules = sorted(folder.glob(f"{PREFIX}*.py"), key=lambda p: p.stat().st_mtime_ns)
    except OSError:
        return
    old = [p for p in modules if p != keep][:max(0, len(modules) - MAX_MODULES)]
    caches = folder / "__pycache__"
    for p in old:
        for q in [p, *caches.glob(f"{p.stem}.*"), *caches.glob(f"{p.stem}-*")]:
            try:
                q.unlink()
            except OSError:
                pass


# numba's cache of each function, and the manifests that say which of its files we wrote

def _dispatchers(modules) -> list:
    """The functions numba caches, in these modules (a module's own and those it imported); none
    without numba (then there is no machine code to check)."""
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:
        return []
    seen, out = set(), []
    for m in modules:
        for v in vars(m).values():
            if isinstance(v, Dispatcher) and id(v) not in seen and getattr(v, "_cache", None) is not None:
                seen.add(id(v))
                out.append(v)
    return out


def _files_of(dispatcher) -> tuple[Path, str]:
    """(numba's cache folder for this function, the prefix of its files); NotNative when this numba
    does not say (its files then could not be checked)."""
    files = getattr(dispatcher._cache, "_cache_file", None)      # numba's IndexDataCacheFile
    folder, index = getattr(files, "_cache_path", None), getattr(files, "_index_name", None)
    if not folder or not index:
        raise NotNative("a numba whose cache files cannot be found (its layout changed): its cached "
                        "machine code cannot be checked")
    return Path(folder), index[:-len(".nbi")]


def _manifest_path(folder: Path, base: str) -> Path:
    return folder / f"{base}.unorules.json"


def _hashes(folder: Path, base: str) -> dict:
    out = {}
    try:
        names = [p for p in folder.iterdir() if p.name.startswith(base + ".") and p.suffix in (".nbi", ".nbc")]
    except OSError:
        return out
    for p in names:
        try:
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
        except OSError:
            pass
    return out


def check_machine_code(modules) -> None:
    """Before any of these modules' functions runs: a function whose numba cache folder is not
    ours alone is not cached; in one that is, every file numba would read for it that is not in
    its manifest, with the hash kept there, is removed (numba then compiles afresh)."""
    dispatchers = _dispatchers(modules)
    if not dispatchers:
        return
    from numba.core.caching import NullCache
    for d in dispatchers:
        folder, base = _files_of(d)
        if folder.exists() and not_ours_alone(folder):
            d._cache = NullCache()
            continue
        text = _read_regular(_manifest_path(folder, base), MAX_MANIFEST)
        try:
            kept = json.loads(text) if text is not None else {}
        except ValueError:
            kept = {}
        if not isinstance(kept, dict):
            kept = {}
        for name, digest in _hashes(folder, base).items():
            if kept.get(name) != digest:
                try:
                    (folder / name).unlink()
                except OSError:
                    d._cache = NullCache()      # cannot be removed: do not read it
                    break


def record_machine_code(modules) -> None:
    """After a compile: each function's manifest of the files numba has written for it."""
    for d in _dispatchers(modules):
        folder, base = _files_of(d)
        if not folder.is_dir() or not_ours_alone(folder):
            continue
        target = _manifest_path(folder, base)
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(_hashes(folder, base), f)
            os.replace(tmp, target)
        except OSError:
            pass
