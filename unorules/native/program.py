"""A game's native simulator at run time. Its module is written once to the cache folder under
a name made of the source's hash, and imported (not exec'd), so numba's `cache=True` keeps the
machine code beside it and a second run, in any process of this machine, starts warm.

Games run in batches inside compiled code; each writes a row of ints and its rounds to arrays,
and the statistics are gathered from those with numpy (`summarise`), never game by game in
Python. A game that ends in a rule error is played again by the Python reference (the counted
program on the same SplitMix streams), which names the rule as the engine does."""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from unorules.codegen.generated import Program
from .rng import SplitMix
from .source import ROW, module_source
from .tables import NotNative

OUTCOMES = ("win", "stalled", "error")
# what compiled code raises: a rule error or a stall (NativeStop), an index out of range (numba's
# bounds checks), a division by zero, a number too large for a machine word
RAISED = (ArithmeticError, LookupError, ValueError)
ROUNDS_PER_GAME = 8            # the rounds buffer's first size per game (it grows when a batch needs more)


def available() -> str | None:
    """None when numba can be imported; else why not."""
    try:
        importlib.import_module("numba")
    except ImportError:
        return "numba is not installed (pip install 'unorules[native]')"
    return None


def cache_dir() -> Path:
    """UNORULES_NATIVE_CACHE, else the user's cache folder (XDG_CACHE_HOME or ~/.cache)/unorules/native."""
    env = os.environ.get("UNORULES_NATIVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "unorules" / "native"


def _version_tag() -> str:
    """What else the machine code depends on: the helpers it inlines (runtime.py, whose text is
    hashed: numba's cache would not see them change), numba, numpy and Python."""
    import numba
    import numpy
    helpers = hashlib.sha256(Path(__file__).with_name("runtime.py").read_bytes()).hexdigest()[:16]
    return f"{helpers}/{numba.__version__}/{numpy.__version__}/{sys.version_info[:2]}"


def write_module(source: str) -> Path:
    """The module's file, named by the hash of its text and the versions that compile it; written
    atomically (a rename), so processes racing to write it leave one whole file."""
    digest = hashlib.sha256((_version_tag() + "\n" + source).encode()).hexdigest()[:20]
    folder = cache_dir()
    path = folder / f"unorules_native_{digest}.py"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != source:
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(source)
            os.replace(tmp, path)
    except OSError as e:
        raise NotNative(f"its cache folder `{folder}` cannot be written ({e.strerror or e}; "
                        "set UNORULES_NATIVE_CACHE to a folder that can)") from None
    return path


def import_module(path: Path):
    name = path.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def row_of(record, players: int):
    """A GameRecord as native code writes it: (its row, its rounds as (turns, drawn) pairs)."""
    c = record.counts
    tracked = 0
    for q in record.tracked_players:
        tracked |= 1 << q
    row = [OUTCOMES.index(record.outcome), -1 if record.winner is None else record.winner, record.round,
           c["drawn"], c["plays"], c["reshuffles"], c["decisions"], c["turn_decisions"], c["challenges"],
           c["challenges_won"], c["catches"], tracked, len(record.turns_per_round)]
    row += list(record.scores) + list(record.seats)
    return row, list(zip(record.turns_per_round, record.drawn_per_round))


class NativeProgram:
    """A game's native simulator, for these seats' agents. Raises NotCovered (the counted
    generator does not cover the game) or NotNative (the lowering does not)."""
    representation = "native"

    def __init__(self, game, agents: tuple):
        why = available()
        if why:
            raise NotNative(why)
        import numpy as np
        self.np = np
        self.game, self.agents = game, tuple(agents)
        self.reference = Program(game, agents, "counted", rng=SplitMix)
        self.source = module_source(self.reference, game.players)
        self.path = write_module(self.source)
        self.module = import_module(self.path)
        self.codes = np.array(self.reference._codes, dtype=np.int64)
        self.replayed = 0          # games that raised in compiled code and were played by the reference
        self._compile()

    def _compile(self):
        """Compile now (or load from the cache), for the argument types every batch passes: code
        numba refuses is a reason to play counted Python, given here, not a failure mid-run."""
        from numba.core.errors import NumbaError
        np = self.np
        n = self.game.players
        try:
            self.module.play_batch(np.zeros(0, np.int64), self.codes, np.zeros((0, ROW + 2 * n), np.int64),
                                   np.zeros((1, 2), np.int64), np.zeros(0, np.int64), 0, np.zeros(2, np.int64))
        except NumbaError as e:
            said = [line.strip() for line in str(e).splitlines() if line.strip() and not line.startswith(
                ("Failed in", "During", "File ", "    ", "<source"))]
            raise NotNative(f"code numba does not compile ({said[0] if said else type(e).__name__})") from None

    def play_rows(self, seeds):
        """The rows and rounds of the games of these seeds: (out[games, ROW + 2N], rounds[*, 2],
        starts[games]) where game g's rounds are rounds[starts[g]:starts[g] + out[g, 12]]. A game
        that raises inside compiled code (a rule error, a stall) is played by the reference."""
        return self._play(seeds)[:3]

    def _buffers(self, n: int):
        """out, starts and rounds for n games, kept from chunk to chunk (summarise): memory the
        kernel has already handed over, where fresh arrays of megabytes cost a page fault per 4 kB
        (about a fifth of rlcard's time at 10,000 games a chunk). Compiled code writes every cell
        of a game's row and of its rounds before they are read."""
        np = self.np
        kept = getattr(self, "_kept", None)
        if kept is None or kept[0].shape[0] < n:
            players = self.game.players
            kept = self._kept = (np.zeros((n, ROW + 2 * players), np.int64), np.zeros(n, np.int64),
                                 np.zeros((max(16, n * ROUNDS_PER_GAME), 2), np.int64))
        return kept[0][:n], kept[1][:n], kept[2]

    def _play(self, seeds, reuse: bool = False):
        """play_rows, and the errors of the games the reference played ({game: error}); with
        `reuse`, in the arrays of the chunk before (they are read before the next chunk)."""
        np = self.np
        n, players = len(seeds), self.game.players
        seeds = np.asarray(seeds, dtype=np.int64)
        if reuse:
            out, starts, rounds = self._buffers(n)
        else:
            out = np.zeros((n, ROW + 2 * players), np.int64)
            starts = np.zeros(n, np.int64)
            rounds = np.zeros((max(16, n * ROUNDS_PER_GAME), 2), np.int64)
        now = np.zeros(2, np.int64)           # the game being played, where its rounds begin
        errors = {}
        done, at = 0, 0
        while done < n:
            try:
                now[0], now[1] = 0, at
                k, at = self.module.play_batch(seeds[done:], self.codes, out[done:], rounds, starts[done:], at, now)
                done += k
            except (self.module.NativeStop,) + RAISED:     # as the reference will: it names the rule
                g, at = done + int(now[0]), int(now[1])     # the games before it in the batch are written
                self.replayed += 1
                record = self.reference.play(int(seeds[g]), self.reference.agents)
                if record.error is not None:
                    errors[g] = str(record.error)
                row, turns = row_of(record, players)
                if at + len(turns) > rounds.shape[0]:
                    rounds = np.concatenate([rounds, np.zeros((len(turns) + rounds.shape[0], 2), np.int64)])
                out[g] = row
                starts[g] = at
                if turns:
                    rounds[at:at + len(turns)] = turns
                at += len(turns)
                done = g + 1
                continue
            if done < n:                        # the rounds buffer is full: grow it, go on
                rounds = np.concatenate([rounds, np.zeros_like(rounds)])
        if reuse and rounds is not self._kept[2]:   # grown: the larger one is kept
            self._kept = self._kept[:2] + (rounds,)
        return out, rounds, starts, errors

    def differing(self, seeds) -> tuple:
        """Native rows against the reference's records, game for game: (the rows, [(game, its
        record)] for each game whose row or rounds differ: none, when all is well)."""
        out, rounds, starts = self.play_rows(seeds)
        wrong = []
        for g, s in enumerate(seeds):
            record = self.reference.play(int(s), list(self.agents))
            row, turns = row_of(record, self.game.players)
            got = ([int(x) for x in out[g]], [(int(a), int(b)) for a, b in rounds[starts[g]:starts[g] + out[g, 12]]])
            if got != (row, [tuple(x) for x in turns]):
                wrong.append((g, record))
        return out, wrong

    def play(self, seed: int, names, log: bool = False):
        """One game as a GameRecord (the Python reference plays it: the very game native code plays)."""
        return self.reference.play(seed, names, log=log)

    def _columns(self, n: int):
        """A C-contiguous (fields, n) array and the fields' sums, in memory kept from chunk to
        chunk as _buffers keeps its own."""
        np = self.np
        fields = ROW + 2 * self.game.players
        kept = getattr(self, "_kept_columns", None)
        if kept is None or kept[0].shape[0] < fields * n:
            kept = self._kept_columns = (np.zeros(fields * n, np.int64), np.zeros(fields, np.int64))
        return kept[0][:fields * n].reshape(fields, n), kept[1]

    def summarise(self, summary, seeds, names: list[str]):
        """Add the games of these seeds to a stats.Summary, as Summary.add_game would one by one:
        the rows turned into columns and summed in one compiled pass (columns.py: compiled code
        writes a row per game, which is faster there; numpy reads a field fastest with its games
        side by side), and the histograms counted by np.bincount (_counts)."""
        np = self.np
        from .columns import columns_of
        out, rounds, starts, errors = self._play(seeds, reuse=True)
        players = self.game.players
        n = len(seeds)
        columns, sums = self._columns(n)            # each field's games side by side, and its sum
        columns_of(out, columns, sums)
        totals = [int(v) for v in sums[:ROW]]
        outcome, winner, nrounds = columns[0], columns[1], columns[12]
        scores, seats = columns[ROW:ROW + players].T, columns[ROW + players:ROW + 2 * players].T
        summary.games += n
        summary.outcomes.update({OUTCOMES[code]: count for code, count in _counts(outcome).items()})
        for name in names:
            summary.seats_by_agent[name] += n
        won = (outcome == 0) & (winner >= 0)
        w = winner[won]
        summary.wins_by_seat.update(_counts(w))
        original = seats[won, w] if len(w) else w
        for p, count in _counts(original).items():          # seats of one agent add up
            summary.wins_by_agent[names[p]] += count
        if (nrounds == 1).all():                             # a round a game: its round is at its start
            index = starts
        else:
            index = np.repeat(starts, nrounds) + (np.arange(totals[12]) - np.repeat(np.cumsum(nrounds) - nrounds,
                                                                                   nrounds))
        summary.round_turns.update(_counts(rounds[index, 0]))
        summary.round_drawn.update(_counts(rounds[index, 1]))
        summary.game_rounds.update(_counts(nrounds))
        scored = (columns[2] > 1) | scores.any(axis=1)
        if scored.any():
            summary.score_spread.update(_counts((scores.max(axis=1) - scores.min(axis=1))[scored]))
            if (scored & won).any():
                summary.winning_score.update(_counts(scores[scored & won, winner[scored & won]]))
        summary.rounds += totals[12]
        summary.decisions += totals[6]
        for k, column in (("drawn", 3), ("plays", 4), ("reshuffles", 5), ("challenges", 8), ("challenges_won", 9),
                          ("catches", 10)):
            summary.counts[k] += totals[column]
        tracked = columns[11]
        if totals[11]:                                       # someone played a tracked card
            summary.tracked_players += int(sum(((tracked >> q) & 1).sum() for q in range(players)))
            if won.any():
                hit = (tracked[won] >> original) & 1
                summary.tracked_wins += int(hit.sum())
        summary.errors.update(Counter(errors.values()))     # the reference played those games in _play
        return summary


def _counts(values) -> dict:
    """A histogram of an int array, as {value: count} of Python ints (what a Counter is updated
    with): np.bincount when the values are small and not negative (turns, cards, seats: a pass
    over them, where np.unique sorts), np.unique otherwise (scores may be large or negative)."""
    import numpy as np
    if len(values) == 0:
        return {}
    low, high = int(values.min()), int(values.max())
    if low >= 0 and high < 4 * len(values) + 1024:
        counts = np.bincount(values)
        found = np.flatnonzero(counts)
        return dict(zip(found.tolist(), counts[found].tolist()))
    found, counts = np.unique(values, return_counts=True)
    return dict(zip(found.tolist(), counts.tolist()))
