"""A game's native simulator at run time. Its module is written once to the cache folder under
a name made of the source's hash and run from that text (cache.py: never from bytecode it did
not write, and numba's cached machine code only as its manifest says), so numba's `cache=True`
keeps the machine code beside it and a second run, in any process of this machine, starts warm.

Games run in batches inside compiled code; each writes a row of ints and its rounds to arrays,
and the statistics are counted from those in compiled code too (`summarise`, tally.py), never
game by game in Python. A game that ends in a rule error is played again by the Python reference
(the counted program on the same SplitMix streams), which names the rule as the engine does."""
from __future__ import annotations

import hashlib
import importlib
import sys
from collections import Counter
from pathlib import Path

from unorules.codegen.generated import Program
from . import cache
from .rng import SplitMix
from .source import ROW, module_source
from .tables import NotNative

OUTCOMES = ("win", "stalled", "error")
# what compiled code raises: a rule error or a stall (NativeStop), an index out of range (numba's
# bounds checks), a division by zero, a number too large for a machine word
RAISED = (ArithmeticError, LookupError, ValueError)
ROUNDS_PER_GAME = 8            # the rounds buffer's first size per game (it grows when a batch needs more)
PIECE = 4096                   # games played and counted at once by summarise (their rows stay in cache)


def available() -> str | None:
    """None when numba can be imported and checks bounds; else why not. Native code relies on
    numba's bounds checks (JIT's boundscheck): a wrong index raises, and the game is played again
    by the Python reference. NUMBA_BOUNDSCHECK=0 turns them off for every function, so a wrong
    index (or a negative one: indexes.py reads them unsigned) would read memory instead."""
    try:
        importlib.import_module("numba")
    except ImportError:
        return "numba is not installed (pip install 'unorules[native]')"
    from numba.core import config
    if config.BOUNDSCHECK == 0:
        return "a run with NUMBA_BOUNDSCHECK=0: native code relies on numba's bounds checks (unset it)"
    return None


def _version_tag() -> str:
    """What else the machine code depends on: the helpers it inlines (runtime.py and arithmetic.py,
    whose text is hashed: numba's cache would not see them change), numba, numpy and Python."""
    import numba
    import numpy
    here = Path(__file__).parent
    helpers = hashlib.sha256(b"".join((here / f).read_bytes() for f in ("runtime.py", "arithmetic.py"))).hexdigest()[:16]
    return f"{helpers}/{numba.__version__}/{numpy.__version__}/{sys.version_info[:2]}"


def write_module(source: str) -> Path:
    """The module's file in the cache folder (cache.py: a folder only this user can write)."""
    return cache.write_module(source, _version_tag())


def import_module(path: Path, source: str | None = None):
    """The module written at `path`, run from `source` (the text just written; read back from
    the file when not given), its numba cache checked against its manifests."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    module = cache.load_module(path, source)
    cache.check_machine_code(_compiled_with(module))
    return module


def _compiled_with(module) -> list:
    """The modules whose numba functions a native module runs: its own, the runtime's, the checked
    arithmetic's and tally's."""
    try:
        from . import arithmetic, runtime, tally
    except ImportError:                  # no numba: no machine code of theirs to check
        return [module]
    return [module, runtime, arithmetic, tally]


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
        self.module = import_module(self.path, self.source)
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
        cache.record_machine_code(_compiled_with(self.module))

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

    def _tally_arrays(self, n: int, rounds: int):
        """tally.py's arrays (totals, bins, values, used, tracked), with room in `values` for the
        values outside the bins of n games of `rounds` rounds at most. Kept from chunk to chunk as
        _buffers keeps its own (summarise zeroes the counts); `values` is written only where there
        is such a value (np.empty: its memory is not touched otherwise)."""
        from .tally import BINS, HISTOGRAMS
        np = self.np
        h = len(HISTOGRAMS)
        kept = getattr(self, "_kept_tally", None)
        if kept is None:
            kept = self._kept_tally = [np.zeros(ROW, np.int64), np.zeros((h, BINS), np.int64),
                                       np.empty((h, 0), np.int64), np.zeros(h, np.int64), np.zeros(2, np.int64)]
        if kept[2].shape[1] < max(n, rounds):
            kept[2] = np.empty((h, max(n, rounds)), np.int64)
        return kept

    def summarise(self, summary, seeds, names: list[str]):
        """Add the games of these seeds to a stats.Summary, as Summary.add_game would one by one.
        They are played and counted (tally.py, compiled) PIECE games at a time, into counts kept
        across the pieces: a piece's rows and rounds stay in the core's cache between the game that
        writes them and the count that reads them (at 50,000 games a batch, about 9 MB for rlcard,
        they went out to memory and back; in pieces, rlcard's run_range went from 0.830 to 0.847 of
        the sketch's hand-written numba game)."""
        from .tally import histograms, tally, values_outside
        players, n = self.game.players, len(seeds)
        errors, outside = {}, {}
        totals, bins, values, used, tracked = self._tally_arrays(0, 0)
        for counts in (totals, bins, used, tracked):
            counts.fill(0)
        for a in range(0, n, PIECE):
            out, rounds, starts, more = self._play(seeds[a:a + PIECE], reuse=True)
            errors.update({a + g: e for g, e in more.items()})
            values = self._tally_arrays(out.shape[0], rounds.shape[0])[2]
            tally(out, rounds, starts, players, ROW, totals, bins, values, used, tracked)
            if used.any():                      # rare: a negative or huge score, a stalled round
                values_outside(values, used, outside)
        counted = histograms(bins, values, used, outside)
        summary.games += n
        summary.outcomes.update({OUTCOMES[code]: count for code, count in counted["outcomes"].items()})
        for name in names:
            summary.seats_by_agent[name] += n
        summary.wins_by_seat.update(counted["wins_by_seat"])
        for p, count in counted["original_wins"].items():    # seats of one agent add up
            summary.wins_by_agent[names[p]] += count
        for name in ("round_turns", "round_drawn", "game_rounds", "score_spread", "winning_score"):
            getattr(summary, name).update(counted[name])
        totals = totals.tolist()
        summary.rounds += totals[12]
        summary.decisions += totals[6]
        for k, column in (("drawn", 3), ("plays", 4), ("reshuffles", 5), ("challenges", 8), ("challenges_won", 9),
                          ("catches", 10)):
            summary.counts[k] += totals[column]
        summary.tracked_players += int(tracked[0])
        summary.tracked_wins += int(tracked[1])
        summary.errors.update(Counter(errors.values()))     # the reference played those games in _play
        return summary
