"""Running many games: per-game seeds derived from the run seed, agents per seat, streaming
statistics, optional event logs, and worker processes whose merged totals equal one process's."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from unorules.agents.base import make_agents
from unorules.agents.search import use_generated_playouts
from unorules.codegen.playouts import playouts_for
from unorules.engine import Game
from unorules.engine.compiler import compile_rulebook
from .stats import Summary

use_generated_playouts(playouts_for)       # a search's playouts go on in generated code (agents/search.py)

SEED_MIX = 0x9E3779B1          # a game's seed: (run seed * SEED_MIX + index * SEED_STEP + SEED_ADD), 48 bits
SEED_STEP = 0x85EBCA6B
SEED_ADD = 0x27D4EB2F
SEED_BITS = (1 << 48) - 1


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: the same whichever worker plays it."""
    return (run_seed * SEED_MIX + index * SEED_STEP + SEED_ADD) & SEED_BITS


def game_seeds(run_seed: int, start: int, stop: int):
    """game_seed of games start..stop-1, as a numpy array (native runs: no Python call per game)."""
    return SeedBatches(run_seed, stop - start).of(start, stop)


class SeedBatches:
    """game_seeds of a run's batches of up to `size` games, written in place into one array kept
    from batch to batch: fresh arrays of hundreds of kB cost a page fault per 4 kB, about 1% of a
    native run of rlcard. A batch's seeds are valid until the next batch is asked for. In unsigned
    64-bit arithmetic, whose wrap-around leaves the low 48 bits as Python's ints do."""

    def __init__(self, run_seed: int, size: int):
        import numpy as np
        self.np, self.run_seed = np, run_seed
        self.index, self.seeds = np.arange(size, dtype=np.uint64), np.empty(size, np.uint64)

    def of(self, start: int, stop: int):
        np, n = self.np, stop - start
        if not 0 <= n <= len(self.seeds):
            raise ValueError(f"SeedBatches: a batch of {n} games, where at most {len(self.seeds)} were asked for")
        base = np.uint64((self.run_seed * SEED_MIX + SEED_ADD + start * SEED_STEP) & 0xFFFFFFFFFFFFFFFF)
        out = self.seeds[:n]
        np.multiply(self.index[:n], np.uint64(SEED_STEP), out=out)
        np.add(out, base, out=out)
        np.bitwise_and(out, np.uint64(SEED_BITS), out=out)
        return out.view(np.int64)


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play its share of a run (picklable)."""
    source: str
    include: tuple = ()
    with_: tuple = ()
    search: tuple = ()
    players: int = 4
    seed: int = 0
    agents: tuple = ("random",)
    rounds: str = "rulebook"
    options: tuple = ()
    perform_chance: float | None = None
    track: tuple = ()                 # card kinds whose players are followed (compare)
    simulator: str = "auto"           # SIMULATORS: who plays the games


def make_game(spec: RunSpec, log_events: bool = False, rulebook=None) -> Game:
    """The spec's game: its rulebook loaded (or `rulebook`, already loaded) and compiled."""
    from unorules.language.loader import load
    rb = rulebook or load(spec.source, include=spec.include, with_=spec.with_, search=spec.search)
    rules = compile_rulebook(rb, dict(spec.options))
    track = frozenset(rules.kind_by_name[k] for k in spec.track if k in rules.kind_by_name)
    return Game(rules, spec.players, rounds=spec.rounds, log_events=log_events, perform_chance=spec.perform_chance,
                track_kinds=track)


def cards_of_files(spec: RunSpec) -> list[str]:
    """Every card the run's `--with` files declare, every name of each card list."""
    from unorules.language.loader import parse_file, resolve_argument
    search = tuple(Path(s) for s in spec.search)
    cards = []
    for w in spec.with_:
        ir = parse_file(resolve_argument(str(w), search)).ir
        cards += [n for c in ir.get("cards", []) for n in c["names"]]
    return list(dict.fromkeys(cards))


def changed_cards(base: RunSpec, variant: RunSpec) -> list[str]:
    """The cards the variant's `--with` files add or change against the base: declared there, and
    new, or with rules or copies in the box other than the base's (a card only redeclared as it
    was is not one of them)."""
    import json
    from unorules.language.ir import deck_counts
    from unorules.language.loader import load
    a = load(base.source, include=base.include, with_=base.with_, search=base.search).ir
    b = load(variant.source, include=variant.include, with_=variant.with_, search=variant.search).ir
    rules_a = {c["names"][0]: json.dumps(c, sort_keys=True) for c in a.get("cards", [])}
    rules_b = {c["names"][0]: json.dumps(c, sort_keys=True) for c in b.get("cards", [])}
    counts_a, counts_b = deck_counts(a), deck_counts(b)
    return [n for n in cards_of_files(variant)
            if n in rules_b and (rules_a.get(n) != rules_b[n] or counts_a.get(n) != counts_b.get(n))]


def run_files(spec: RunSpec, game: Game | None = None) -> dict:
    """What a run is made of, for its report: the files merged (the rulebook's own includes among
    them, base first) and the cards the custom rule files declare. `game`: the spec's game, already
    made (its rulebook is not loaded again)."""
    if game is not None:
        rb = game.rules.compiler.rb
    else:
        from unorules.language.loader import load
        rb = load(spec.source, include=spec.include, with_=spec.with_, search=spec.search)
    return {"files": list(rb.parts), "custom_cards": cards_of_files(spec)}


def seat_agents(spec: RunSpec) -> list[str]:
    return [spec.agents[i % len(spec.agents)] for i in range(spec.players)]


def play_one(game: Game, spec: RunSpec, index: int, log: list | None = None):
    """Play game `index` to the end; return its final state. `log`: the list its events are
    appended to (a game of a Game made with log_events)."""
    seed = game_seed(spec.seed, index)
    agents = make_agents(seat_agents(spec), seed)
    s = game.new_state(seed)
    if log is not None and s.log is not None:
        for ev in s.log:                  # the deal, logged as the state was made
            log.append(ev)
        s.log = log
    choices = s.rng.choices
    apply = s.apply_unchecked
    seats = s.seats
    while not s.terminal:
        d = s.decision
        if d.probs is not None:
            apply(choices(d.options, d.probs)[0])
        else:
            agent = agents[seats[d.player]]
            # Agent.act, inlined: this loop is the simulator's hot path
            apply(agent.act(s, d.options) if agent.needs_state else
                  agent.choose(s.observe(d.player) if agent.needs_observation else None, d.options))
    return s


SIMULATORS = ("auto", "native", "counted", "generated", "engine")
# auto: native for runs of NATIVE_FROM games or more where numba is installed and native code covers
#       the rules (resolve_simulator); else the first of these that covers the rules and agents:
#       counted, generated, the engine
# native: counted code compiled by numba (unorules/native), on SplitMix64 streams; its Python
#         reference plays the very same games (tests/test_native.py)
# counted: generated code holding hands as counts per face: the engine's rules and distribution of
#          games, not its games (its own random stream; tests/test_codegen.py checks both)
# generated: generated code that plays the engine's games, event for event
# engine: the agenda interpreter
_PROGRAMS: dict = {}       # per process: (game, agents) -> the generated simulator, or why there is none
# auto's threshold: past a cold compile's break-even (9-151 s) for every rulebook but the fastest to play (docs/performance.md)
NATIVE_FROM = 50_000
NATIVE_CHUNK = 20_000      # native workers' chunks: a chunk's games cost microseconds each
NATIVE_BATCH = 50_000      # native games summarised at once (Python's per-batch costs; summarise plays and counts
                           # them in pieces of native.program.PIECE, whose rows stay in cache)


def native_program(game: Game, spec: RunSpec):
    """(the game's native simulator, None) or (None, why native code does not run it)."""
    from unorules.codegen.expressions import NotCovered
    from unorules.native.tables import NotNative
    names = tuple(seat_agents(spec))
    key = (id(game), names, "native")
    if key not in _PROGRAMS:
        if len(_PROGRAMS) > 16:
            _PROGRAMS.clear()
        from unorules.native.program import NativeProgram
        try:
            _PROGRAMS[key] = (NativeProgram(game, names), None, game)
        except NotCovered as e:
            _PROGRAMS[key] = (None, f"the code generator does not cover {e}", game)
        except NotNative as e:
            _PROGRAMS[key] = (None, f"native code does not cover {e}", game)
    program, why, _ = _PROGRAMS[key]
    return program, why


def resolve_simulator(spec: RunSpec, game: Game, games: int, events: bool = False) -> RunSpec:
    """`auto` made `native` for a run of NATIVE_FROM games or more, where numba is installed and
    native code covers the game; the spec unchanged otherwise, and for a run that writes an events
    file (`events`: the Python reference writes those games, so native code would buy nothing).
    The parent process resolves it (compiling the native code once, into the machine's cache)
    before any worker starts."""
    from dataclasses import replace
    if spec.simulator != "auto" or games < NATIVE_FROM or events:
        return spec
    from unorules.native.program import available
    if available() is not None:
        return spec
    program, _ = native_program(game, spec)
    return replace(spec, simulator="native") if program is not None else spec


def simulator_for(game: Game, spec: RunSpec):
    """The generated simulator that plays this run's games, or None and the reason the engine plays
    them: `--simulator engine` asked for it, or the generator does not cover some construct."""
    from unorules.codegen.expressions import NotCovered
    from unorules.errors import UnorulesError
    from unorules.codegen.generated import Program
    if spec.simulator not in SIMULATORS:
        raise UnorulesError(f"the simulator is one of {', '.join(SIMULATORS)}, not {spec.simulator!r}")
    if spec.simulator == "engine":
        return None, "asked for"
    if spec.simulator == "native":
        program, why = native_program(game, spec)
        if program is None:
            raise UnorulesError(f"`{spec.source}` cannot run as native code: {why} (use --simulator auto or counted)")
        return program, None
    names = tuple(seat_agents(spec))
    reasons = {}
    for representation in {"auto": ("counted", "cards"), "counted": ("counted",), "generated": ("cards",)}[spec.simulator]:
        key = (id(game), names, representation)
        if key not in _PROGRAMS:
            if len(_PROGRAMS) > 16:
                _PROGRAMS.clear()
            try:
                _PROGRAMS[key] = (Program(game, names, representation), None)
            except NotCovered as e:
                _PROGRAMS[key] = (None, str(e))
            _PROGRAMS[key] += (game,)           # keeps the game alive while its id is a key
        program, reasons[representation], _ = _PROGRAMS[key]
        if program is not None:             # and why it is not the faster one, where it is not
            return program, (f"hands counted per face do not cover {reasons['counted']}"
                             if representation == "cards" and "counted" in reasons else None)
    why = f"the code generator does not cover {reasons[representation]}"
    if spec.simulator != "auto":
        raise UnorulesError(f"`{spec.source}` cannot run as {spec.simulator} code: {why} (use --simulator auto or engine)")
    return None, why


_GAMES: dict = {}          # per process: a worker compiles the rulebook once, not once per chunk


def cached_game(spec: RunSpec, log_events: bool) -> Game:
    key = (spec, log_events)
    if key not in _GAMES:
        _GAMES.clear()
        _GAMES[key] = make_game(spec, log_events=log_events)
    return _GAMES[key]


def run_range(spec: RunSpec, start: int, stop: int, events_path: str | None = None, progress=None,
              game: Game | None = None, on_game=None) -> Summary:
    """Play games start..stop-1 of the run (of `game`, or of the spec's rulebook compiled once per
    process) and summarise them; `on_game(final_state)` sees each game as it ends."""
    if game is None:
        game = cached_game(spec, log_events=events_path is not None)
    names = seat_agents(spec)
    program, _ = simulator_for(game, spec)
    summary = Summary()
    out = open(events_path, "w", encoding="utf-8") if events_path else None
    if out is not None:
        out.write(json.dumps(header(spec, game, program)) + "\n")
    if program is not None and program.representation == "native" and out is None and on_game is None:
        step = max(1, min(NATIVE_BATCH, stop - start))
        seeds = SeedBatches(spec.seed, step)
        for a in range(start, stop, step):
            b = min(stop, a + step)
            program.summarise(summary, seeds.of(a, b), names)
            if progress is not None:
                progress(b - a)
        return summary
    i = start
    try:
        for i in range(start, stop):
            if program is not None:
                s = program.play(game_seed(spec.seed, i), names, log=out is not None)
            else:
                s = play_one(game, spec, i)
            summary.add_game(s, names)
            if on_game is not None:
                on_game(s)
            if out is not None:        # a game's events in one write: a cut file never ends inside a line
                out.write("".join(json.dumps({"game": i, "seq": seq, **ev}, separators=(",", ":")) + "\n"
                                  for seq, ev in enumerate(s.log)))
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        if out is not None:
            out.write(json.dumps({"interrupted": True, "games": i - start, "next_game": i}) + "\n")
        raise
    finally:
        if out is not None:
            out.close()
    return summary


EVENTS_VERSION = 2


def header(spec: RunSpec, game: Game, program=None) -> dict:
    """The first line of an events file: the run it records, so `unorules replay` can play it again
    from the file alone: the merged rulebook itself (`resolved`: no path is read back), the seats,
    seed, agents, options, and its simulator ("counted" where counted hands played it, else
    "engine", whose games generated code plays too). `rulebook`, `include` and `with` name what
    the run was made of, for people."""
    from unorules.language.loader import resolved_ir
    kind = "engine" if program is None or program.representation == "cards" else program.representation
    return {"unorules_events": EVENTS_VERSION, "simulator": kind,
            "rulebook": spec.source, "include": list(spec.include), "with": [str(w) for w in spec.with_],
            "resolved": resolved_ir(game.rules.compiler.rb), "players": spec.players,
            "seed": spec.seed, "agents": list(spec.agents), "rounds": spec.rounds, "options": dict(spec.options),
            "perform_chance": spec.perform_chance}


def _worker(args):
    spec, start, stop = args
    return run_range(spec, start, stop)


def default_workers() -> int:
    """The machine's cores this process may use: `simulate`'s default number of workers."""
    import os
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:             # not on Linux
        return max(1, os.cpu_count() or 1)


def chunks(games: int, workers: int, start: int = 0, simulator: str = "auto") -> list[tuple[int, int]]:
    """The runs of consecutive games (from game `start`) handed out to workers: small enough to
    balance, large enough that a chunk's set-up is nothing beside its games (at most 250, or
    NATIVE_CHUNK for native code, whose games cost microseconds each)."""
    most = NATIVE_CHUNK if simulator == "native" else 250
    size = max(1, min(most, games // (workers * 16)))
    return [(a, min(start + games, a + size)) for a in range(start, start + games, size)]


def simulate(spec: RunSpec, games: int, workers: int | None = None, events_path: str | Path | None = None,
             progress=None, game: Game | None = None, start: int = 0) -> Summary:
    """Play `games` games (the run's games `start` to `start + games - 1`). With workers > 1 (None:
    the machine's cores) the games are split into chunks over processes; the totals are identical
    to one process's for the same seed. `game`: the spec's game if the caller has made it;
    otherwise the rulebook is loaded now (never a copy kept from an earlier call, whose files may
    have changed since)."""
    workers = default_workers() if workers is None else workers
    if game is not None:
        spec = resolve_simulator(spec, game, games, events=events_path is not None)
    if workers <= 1 or events_path is not None or games < 2 * workers:
        log_events = events_path is not None
        if game is None or game.log_events != log_events:
            game = make_game(spec, log_events=log_events, rulebook=game.rules.compiler.rb if game else None)
        return run_range(spec, start, start + games, str(events_path) if events_path else None, progress, game=game)
    import multiprocessing as mp
    if spec.simulator == "native":     # compiled here first, so the workers load it from the cache
        simulator_for(game if game is not None else cached_game(spec, False), spec)
    jobs = [(spec, a, b) for a, b in chunks(games, workers, start, spec.simulator)]
    total = Summary()
    ctx = mp.get_context("fork") if hasattr(__import__("os"), "fork") else mp.get_context()
    with ctx.Pool(workers) as pool:
        for part in pool.imap_unordered(_worker, jobs):
            total.merge(part)
            if progress is not None:
                progress(part.games)
    return total
