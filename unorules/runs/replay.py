"""`unorules replay`: play every game of an events file (`simulate --events`) again and check that
each event, the deal and every draw included, comes out the same.

An events file comes from elsewhere, so it is read as hostile: its first line (the header) is
bounded in size and nesting and checked field by field before use; the rulebook is the header's
own merged rulebook (`resolved`), validated like any file, so no path in the file is ever read;
every later line must be an event of a numbered game, in order, or the file does not replay.

Each event is compared as the replay makes it, so a replay stops at the first difference. A rule
error's place is the rule's file:line:col in the run and the header's merged rulebook's in the
replay: such events are compared by their words, both with a place. A run whose search agents
had a time budget (`ismcts:0.02s`) depends on the machine's load, and is refused."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from unorules.errors import Diagnostic, RulebookError, UnorulesError

MAX_HEADER = 2_000_000        # bytes of the first line (a merged rulebook is a few kilobytes)
MAX_EVENT_LINE = 1_000_000    # bytes of one event
MAX_SEED = 2 ** 63


@dataclass
class Replay:
    games: int = 0                    # games replayed, every event equal
    events: int = 0
    mismatch: str | None = None       # the first difference, in words
    cut: bool = False                 # the file ends with an interruption mark


def _json(line: str, what: str):
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        raise UnorulesError(f"{what} is not JSON") from None


def _field(head: dict, key: str, ok, what: str):
    if key not in head:
        raise UnorulesError(f"the events file's header has no `{key}`")
    value = head[key]
    if not ok(value):
        raise UnorulesError(f"the events file's header has `{key}`: {json.dumps(value)[:80]}; it must be {what}")
    return value


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _names(v) -> bool:
    return isinstance(v, list) and len(v) <= 100 and all(isinstance(x, str) and len(x) <= 1000 for x in v)


def read_header(first: str, path: str):
    """(RunSpec, Game, simulator) of an events file's first line, every field checked."""
    from unorules.agents.base import AGENTS
    from unorules.language.loader import load_resolved
    from unorules.agents.search import search_budget
    from .simulation import RunSpec, make_game
    if len(first) >= MAX_HEADER:
        raise UnorulesError(f"`{path}`: the first line is over {MAX_HEADER:,} bytes: not an events file's header")
    head = _json(first, f"`{path}`'s first line")
    if not isinstance(head, dict) or head.get("unorules_events") != 2:
        raise UnorulesError(f"`{path}` is not an events file of this version (its first line names the run; "
                            "files of earlier versions are played again by running `simulate --events` anew)")

    def agent_ok(a):
        if not isinstance(a, str):
            return False
        if a in AGENTS:
            return True
        try:
            return a.startswith("ismcts") and bool(search_budget(a))
        except ValueError:
            return False

    def timed(a):
        try:
            return isinstance(a, str) and a.startswith("ismcts") and "seconds" in search_budget(a)
        except ValueError:
            return False

    simulator = _field(head, "simulator", lambda v: v in ("engine", "counted", "native"),
                       '"engine", "counted" or "native"')
    players = _field(head, "players", lambda v: _is_int(v) and 1 <= v <= 100, "a whole number of players")
    seed = _field(head, "seed", lambda v: _is_int(v) and 0 <= v < MAX_SEED, "a whole number from 0 to 2^63")
    agents = _field(head, "agents", lambda v: _names(v) and v and all(agent_ok(a) for a in v), "a list of agents")
    if any(timed(a) for a in agents):
        raise UnorulesError(f"`{path}` was played by a search with a time budget ({', '.join(a for a in agents if timed(a))}): "
                            "its moves depend on how busy the machine was, so its games cannot be played again; "
                            "run with a number of determinizations (ismcts:200) for a run that replays")
    rounds = _field(head, "rounds", lambda v: v in ("rulebook", "single", "match"), '"rulebook", "single" or "match"')
    options = _field(head, "options", lambda v: isinstance(v, dict) and len(v) <= 1000 and all(
        isinstance(k, str) and (isinstance(x, (int, float, str, bool))) for k, x in v.items()),
        "a mapping of option names to values")
    perform = _field(head, "perform_chance", lambda v: v is None or (isinstance(v, (int, float))
                                                                     and not isinstance(v, bool) and 0 <= v <= 1),
                     "null or a chance from 0 to 1")
    labels = [_field(head, k, lambda v: isinstance(v, str) and len(v) <= 1000, "text") for k in ("rulebook",)]
    for k in ("include", "with"):
        _field(head, k, _names, "a list of names")
    resolved = _field(head, "resolved", lambda v: isinstance(v, dict), "the merged rulebook")
    rulebook = load_resolved(json.dumps(resolved), f"{path}: resolved")
    spec = RunSpec(labels[0], tuple(head["include"]), tuple(head["with"]), (), players, seed, tuple(agents), rounds,
                   tuple(options.items()), perform)
    game = make_game(spec, log_events=True, rulebook=rulebook)
    return spec, game, simulator


class _Differs(Exception):
    """The replay made an event that is not the file's: the first difference, in words."""


_PLACE = re.compile(r"^.*?:\d+:\d+: ")


def _same_event(want: dict, got: dict, replayed_from: str) -> bool:
    if want == got:
        return True
    if want.get("type") != "error" or got.get("type") != "error" or set(want) != set(got):
        return False
    if any(want[k] != got[k] for k in want if k != "message"):
        return False
    mine, theirs = str(got.get("message")), want.get("message")
    prefix = re.match(re.escape(replayed_from) + r":\d+:\d+: ", mine)
    if not prefix or not isinstance(theirs, str):
        return False
    place = _PLACE.match(theirs)
    return bool(place) and theirs[place.end():] == mine[prefix.end():]


class _Against(list):
    """An event log that compares each event with the file's as it is made, and raises _Differs
    at the first difference (the rest of the game is not played)."""

    def __init__(self, index: int, want: list, replayed_from: str):
        super().__init__()
        self.index, self.want, self.replayed_from = index, want, replayed_from

    def append(self, ev):
        seq = len(self)
        got = json.loads(json.dumps({"game": self.index, "seq": seq, **ev}))
        if seq >= len(self.want):
            raise _Differs(f"game {self.index}: the file has {len(self.want)} events, the replay more "
                           f"(its next: {json.dumps(got)[:300]})")
        if not _same_event(self.want[seq], got, self.replayed_from):
            raise _Differs(f"game {self.index}, event {seq}: the file has {json.dumps(self.want[seq])[:300]}, "
                           f"the replay {json.dumps(got)[:300]}")
        super().append(ev)


def replay(path: str | Path) -> Replay:
    """Play every game of an events file again from its header and check each event."""
    from .simulation import game_seed, play_one, seat_agents, simulator_for
    report = Replay()
    path = str(path)
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise UnorulesError(f"cannot read `{path[:200]}`: {e.strerror or e}") from None
    with f:
        try:
            spec, game, simulator = read_header(f.readline(MAX_HEADER), path)
        except RulebookError as e:
            raise RulebookError(e.diagnostics + [Diagnostic("U0001", "the events file's rulebook is not valid",
                                                            path)], e.texts) from None
        program = None
        if simulator == "counted":
            program, _ = simulator_for(game, replace(spec, simulator="counted"))
        elif simulator == "native":          # its games are its Python reference's: no numba needed here
            from unorules.codegen.expressions import NotCovered
            from unorules.codegen.generated import Program
            from unorules.native.rng import SplitMix
            try:
                program = Program(game, tuple(seat_agents(spec)), "counted", rng=SplitMix)
            except NotCovered as e:
                raise UnorulesError(f"`{path}` names native code, which does not run its rulebook ({e}): "
                                    "its games cannot have come from native code") from None
        replayed_from = f"{path}: resolved"

        def check(index, want):
            log = _Against(index, want, replayed_from)
            try:
                if program is not None:
                    program.play(game_seed(spec.seed, index), seat_agents(spec), log=log)
                else:
                    play_one(game, spec, index, log=log)
            except _Differs as e:
                return str(e)
            if len(want) != len(log):
                return f"game {index}: the file has {len(want)} events, the replay {len(log)}"
            return None

        current, expected, n = None, [], 1
        while True:
            line = f.readline(MAX_EVENT_LINE)
            n += 1
            if not line:
                break
            if len(line) >= MAX_EVENT_LINE - 1 and not line.endswith("\n"):
                report.mismatch = f"line {n} is over {MAX_EVENT_LINE:,} bytes"
                return report
            try:
                ev = json.loads(line)
            except (ValueError, RecursionError):
                report.mismatch = f"line {n} is not JSON"
                return report
            if isinstance(ev, dict) and ev.get("interrupted") is True:
                report.cut = True
                break
            game_no = ev.get("game") if isinstance(ev, dict) else None
            if not _is_int(game_no) or game_no < 0 or (current is not None and game_no < current):
                report.mismatch = f"line {n} is not an event of a game in order (every event names its `game`)"
                return report
            if game_no != current:
                if current is not None:
                    report.mismatch = check(current, expected)
                    if report.mismatch:
                        return report
                    report.games += 1
                current, expected = game_no, []
            expected.append(ev)
            report.events += 1
        if current is None:
            report.mismatch = "the file holds no game"
            return report
        report.mismatch = check(current, expected)
        if not report.mismatch:
            report.games += 1
    return report
