"""The fixed cost of a command: this tree against an older one, in one run, alternating.

    python bench/startup.py                      # against the tree before the stage packages (44b4e76)
    python bench/startup.py --base main~3 --runs 30

Each command runs as a whole process (`python -c "from unorules.cli import main; main()" ...`) with
one tree or the other first on PYTHONPATH, the two trees taking turns run by run so that the
machine's drift falls on both alike. Before timing, each tree runs each command twice (its .pyc
files and the grammar's cached tables are made then, as after an install). Prints the median and
the quartiles of each, and the ratio of the medians; `python -c pass` is the floor no command can
go below.

"now" is this tree as it runs a command a second time: the files it read are kept (by their text,
language/cache.py) and are not parsed again. "now, nothing kept" is this tree with every kept file
removed before each run (the grammar's tables stay), as on the first run after an install or
with every file just edited: the parser, the schema and their imports are paid in full.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "44b4e76"           # the last commit of the flat layout (issue 28's "before")
COMMANDS = [("validate", ["validate", "official"]),
            ("explain", ["explain", "official"]),
            ("simulate --games 1", ["simulate", "official", "--games", "1"])]
CACHE = Path(tempfile.mkdtemp(prefix="unorules-startup-"))     # the runs' own cache folder
RUN_CLI = "import sys; from unorules.cli import main; sys.argv[0] = 'unorules'; main()"


def export(ref: str, into: Path) -> Path:
    """The tree of a commit, written out (git archive), for PYTHONPATH."""
    archive = into / "tree.tar"
    with open(archive, "wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref], stdout=f, check=True)
    tree = into / "tree"
    with tarfile.open(archive) as t:
        t.extractall(tree, filter="data")
    return tree


def timed(tree: Path | None, args: list[str], cwd: Path, forget: bool = False) -> float:
    if forget:
        for kept in (CACHE / "unorules").glob("ir-*.json"):
            kept.unlink()
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(CACHE)
    env.pop("UNORULES_NO_CACHE", None)
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)      # as installed: modules run from their .pyc
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    code = RUN_CLI if args else "pass"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"`{' '.join(args)}` failed with {tree}: {done.stderr.decode()[-500:]}")
    return took


def spread(xs: list[float]) -> str:
    q = statistics.quantiles(xs, n=4)
    return f"{statistics.median(xs) * 1000:4.0f} ms ({q[0] * 1000:.0f}-{q[2] * 1000:.0f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default=BASE, help="the older tree's commit (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=20, help="timed runs of each command in each tree")
    a = ap.parse_args()
    try:
        run(a)
    finally:
        shutil.rmtree(CACHE, ignore_errors=True)


def run(a):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old = export(a.base, tmp)
        new = ROOT
        cwd = tmp                                  # neither tree's folder: each is found by PYTHONPATH only
        for _, args in COMMANDS:
            for tree in (old, new, old, new):
                timed(tree, args, cwd)
        floor = [timed(None, [], cwd) for _ in range(a.runs)]
        print(f"{a.runs} runs of each, alternating; Python {sys.version.split()[0]}; "
              f"base {a.base}, this tree {subprocess.run(['git', '-C', str(ROOT), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}"
              + (" (with changes)" if subprocess.run(['git', '-C', str(ROOT), 'diff', '--quiet', 'HEAD']).returncode else ""))
        print(f"{'python -c pass (the floor)':28} {spread(floor)}")
        print(f"{'command':22} {'before':>20} {'now':>20} {'now, nothing kept':>20}   now/before  nothing kept/before")
        for label, args in COMMANDS:
            before, now, cold = [], [], []
            for _ in range(a.runs):
                before.append(timed(old, args, cwd))
                now.append(timed(new, args, cwd))
                cold.append(timed(new, args, cwd, forget=True))
                timed(new, args, cwd)              # keep the files again for the next "now"
            m = statistics.median(before)
            print(f"{label:22} {spread(before):>20} {spread(now):>20} {spread(cold):>20}   "
                  f"{statistics.median(now) / m:10.2f}  {statistics.median(cold) / m:19.2f}")


if __name__ == "__main__":
    main()
