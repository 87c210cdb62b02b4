"""Scenario files (docs/scenarios.md): a given state, scripted decisions, expectations.

`load_scenarios(path)` reads and validates a file (unknown keys, unknown cards, cards placed more
often than the deck holds them, seats out of range: each reported with file, key path and a hint);
`run(scenario)` sets up the state exactly, answers the engine's decisions from the script (with
the `defaults` rule), fixes chance outcomes, stops as the format says and compares `expect`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from unorules.engine import State
from unorules.engine.types import PAUSED
from unorules.errors import Diagnostic, RulebookError, UnorulesError
from .answers import _Reject, _answer, _choose, _default_answer, _describe, _entry_text
from .expect import compare
from .format import DECISION_KEYS, Scenario, ScenarioError, load_scenarios  # noqa: F401 (re-exported)
from .given import build, rulebook_of  # noqa: F401 (rulebook_of re-exported)

# engine decision kind -> the script keys that answer it
ANSWERS = {"turn": ("play", "draw"), "drawn": ("play", "keep", "draw"), "any_time": ("play",), "play_more": ("play",), "color": ("choose",), "player": ("choose",),
           "card": ("choose",), "challenge": ("challenge",), "respond": ("respond",), "jump_in": ("jump_in",),
           "catch": ("catch",), "perform": ("perform",), "chance": ("chance",), "option": ("choose",),
           "number": ("choose",), "kind": ("choose",), "take": ("choose",)}


@dataclass
class Result:
    scenario: Scenario
    ok: bool
    message: str = ""
    trace: list[str] = field(default_factory=list)
    state: State | None = None
    generated: str = ""          # with `follow`: how far generated code went along, or why not

    def as_dict(self):
        out = {"name": self.scenario.name, "file": self.scenario.file, "ok": self.ok, "message": self.message,
               "trace": self.trace}
        if self.generated:
            out["generated"] = self.generated
        return out


# ---------------------------------------------------------------------------------------------
# running

def run(sc: Scenario, follow=None) -> Result:
    """`follow(state)`: (a follower, None) or (None, why): code that goes on from the given position
    beside the engine, sent the same answers and held to the engine's State at every decision, every
    checkpoint and the end (codegen/steps.py's Follower: the scenario in generated code)."""
    trace: list[str] = []
    fol = _Following(follow)
    try:
        s, game = build(sc, fol.enter if follow is not None else None)
    except ScenarioError as e:
        return Result(sc, False, e.render(), trace)
    d_ = sc.data
    script = list(d_.get("script") or [])
    defaults = dict(d_.get("defaults") or {})
    pending: dict = {}          # color/target of the last entry, for the same player's follow-up choice
    i = 0
    rejected = None

    def check(expect, where):
        problems = compare(s, expect, rejected)
        if problems:
            raise _Fail(f"{where}: {problems[0]}")
        fol.check(s, where)

    try:
        guard = 0
        while True:
            guard += 1
            if guard > 100000:
                raise _Fail("the scenario ran 100000 decisions without stopping")
            if s.decision is PAUSED:     # a dealt start, between its first two turns: the follower enters
                fol.enter_paused(s)
                continue
            while i < len(script) and "expect" in script[i]:
                check(script[i]["expect"] or {}, f"checkpoint script[{i}]")
                trace.append(f"checkpoint script[{i}] holds")
                i += 1
            if s.terminal:
                if i < len(script):
                    raise _Fail(f"the game ended ({s.outcome}) before script[{i}] {_entry_text(script[i])}")
                break
            d = s.decision
            answer = None
            # a follow-up choice named with the previous entry (`color:`, `target:`)
            if pending.get("player") == d.player and d.kind == "color" and "color" in pending:
                answer = _choose(s, d, pending.pop("color"))
            elif pending.get("player") == d.player and d.kind == "player" and "target" in pending:
                answer = _choose(s, d, pending.pop("target"))
            if answer is not None:
                trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (from the entry before)")
                fol.apply(s, answer)
                continue
            entry = script[i] if i < len(script) else None
            keys = ANSWERS.get(d.kind, ())
            ekey = next((k for k in DECISION_KEYS if entry is not None and k in entry), None)
            matches = entry is not None and ekey in keys and (d.kind == "chance" or entry.get("player") == d.player)
            if matches:
                if "color" in pending or "target" in pending:     # the entry before gave an answer nothing asked for
                    _unasked(sc, pending, d_)
                pending = {}
                consumed = 1
                nxt = script[i + 1] if i + 1 < len(script) else None
                if ekey in ("play", "jump_in") and "color" not in entry and isinstance(nxt, dict) \
                        and nxt.get("player") == d.player and nxt.get("choose") in s.rules.color_names \
                        and any(a.color is not None for a in d.options):
                    # `play: wild` then `choose: yellow`: the engine takes both as one play
                    entry = {**entry, "color": nxt["choose"]}
                    consumed = 2
                if ekey == "choose" and isinstance(entry["choose"], list) and d.kind in ("card", "take"):
                    # `choose: [CARD, CARD]`: one card decision after another, by the same player
                    first, rest = entry["choose"][0] if entry["choose"] else None, entry["choose"][1:]
                    if rest:
                        script[i] = {**entry, "choose": rest}
                        consumed = 0
                    entry = {**entry, "choose": first}
                try:
                    answer = _answer(s, d, ekey, entry)
                except _Reject as r:
                    rejected = str(r)
                    trace.append(f"asked {_describe(s, d)} -> script[{i}] {_entry_text(entry)} REJECTED: {r}")
                    if i == len(script) - 1 and "error" in (d_.get("expect") or {}):
                        i += 1
                        break
                    raise _Fail(f"script[{i}] {_entry_text(entry)} was rejected: {r}")
                trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (script[{i}]"
                             + (f" and [{i + 1}])" if consumed == 2 else ")"))
                for m in ("color", "target"):
                    if m in entry and not (m == "color" and entry.pop("_color_used", False)):
                        pending[m] = entry[m]
                        pending["player"] = d.player
                        pending["entry"] = i
                i += consumed
                if d.probs is not None:
                    fol.stop("the script fixes a chance outcome, which generated code draws itself")
                fol.apply(s, answer)
                continue
            dkey = keys[0] if keys else None
            if d.kind in ("perform", "any_time", "play_more") and d.kind in defaults:
                dkey = d.kind               # these defaults are named by their decision's kind
            if dkey in defaults and d.kind not in ("turn",):
                answer = _default_answer(s, d, defaults[dkey])
                if answer is not None:
                    trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (default)")
                    fol.apply(s, answer)
                    continue
            if d.probs is not None and (entry is None or ekey not in ("chance", "perform")):
                if i >= len(script):
                    break
                # randomness the script does not fix: the scenario's seed decides
                answer = s.rng.choices(d.options, d.probs)[0]
                trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (seed)")
                fol.apply(s, answer)
                continue
            if entry is None:
                break
            raise _Fail(f"the engine asked {_describe(s, d)}, but script[{i}] holds {_entry_text(entry)}")
        if ("color" in pending or "target" in pending) and not s.terminal:
            _unasked(sc, pending, d_)
        want_error = (d_.get("expect") or {}).get("error")
        if want_error is not None and rejected is None and s.outcome == "error":
            # the rules failed at run time (a loop cap, a value out of range): the message is expected
            if str(want_error) not in str(s.error):
                raise _Fail(f"expected an error containing \"{want_error}\", got the runtime rule error: {s.error}")
            problems = compare(s, d_.get("expect") or {}, rejected)
            if problems:
                raise _Fail(problems[0])
            fol.check(s, "at the end")
            return Result(sc, True, "", trace, s, fol.note())
        problems = compare(s, d_.get("expect") or {}, rejected)
        if problems:
            raise _Fail(problems[0])
        fol.check(s, "at the end")
        if want_error is not None and rejected is None:
            raise _Fail(f"expected the last decision to be rejected with \"{want_error}\", but it was accepted")
    except _Fail as f:
        return Result(sc, False, str(f), trace, s, fol.note())
    except ScenarioError as e:
        return Result(sc, False, e.render(), trace, s, fol.note())
    except UnorulesError as e:
        return Result(sc, False, f"error: {e}", trace, s, fol.note())
    if s.outcome == "error":
        return Result(sc, False, f"runtime rule error: {s.error}", trace, s, fol.note())
    return Result(sc, True, "", trace, s, fol.note())


class _Fail(Exception):
    pass


def _unasked(sc: Scenario, pending: dict, data: dict):
    """A `color:` or `target:` given with a decision that asks none (a play of a card that names no
    color, a rule that chooses no player): refused where it is written, as an unknown key is,
    rather than dropped."""
    i = pending["entry"]
    key = next(k for k in ("color", "target") if k in pending)
    node = (data.get("script") or [])[i]
    what = {"color": "a color", "target": "a player"}[key]
    raise ScenarioError([Diagnostic("U0801", f"`script[{i}].{key}`: {_entry_text(node)} asks for no {what[2:]}: nothing answers it",
                                    sc.file, sc.spans.at(node, key) if isinstance(node, dict) else None,
                                    "nothing asks this",
                                    f"remove `{key}:`, or give it with the play or choice that asks for {what}")], {sc.file: sc.text})


class _Following:
    """A scenario's run followed by other code (`run(follow=...)`), or by nothing."""

    def __init__(self, follow):
        self.follow, self.follower, self.why, self.steps, self.stopped = follow, None, None, 0, False

    def enter(self, state, start):
        """The given position: entered now at a turn's start; a dealt or turned-up start is entered
        at the engine's first pause between two turns (enter_paused)."""
        if start == "turn":
            self.follower, self.why = self.follow(state)
        else:
            state.pause_before_turn = True
            self.why = "the round ended before its first turn was over"

    def enter_paused(self, s):
        self.follower, self.why = self.follow(s)
        s.pause_before_turn = False                 # once: the engine plays on as before
        s.decision = None
        s.game.flow.advance(s)
        s.run()

    def stop(self, why):
        if self.follower is not None:
            self.follower, self.stopped = None, True
            self.why = f"equal to the engine for {self.steps} decision{'' if self.steps == 1 else 's'}, then {why}"

    def apply(self, s, answer):
        """The engine's answer `answer` to its decision, played by the follower too. A chance the
        script leaves to the seed the follower draws itself, on the same stream."""
        if self.follower is not None and s.decision.probs is None:
            self.check(s, f"before `{s.action_name(answer)}`")
            self.follower.apply_action(s.game.action_space.id_of(s, answer))
            self.steps += 1
        s.apply_action(answer)

    def check(self, s, where):
        if self.follower is None or (not s.terminal and s.decision.probs is not None):
            return                  # (at a chance the engine has yet to draw, the follower has drawn it)
        diff = self.follower.differences(s)
        if diff:
            raise _Fail(f"generated code differs from the engine {where}: {diff}")

    def note(self) -> str:
        if self.follow is None:
            return ""
        if self.follower is None:
            return f"{'followed' if self.stopped else 'not followed'} in generated code: {self.why}"
        return (f"followed in generated code: {self.steps} decision{'' if self.steps == 1 else 's'}, "
                "equal to the engine's")


def run_file(path, follow=None) -> list[Result]:
    try:
        scenarios = load_scenarios(path)
    except RulebookError as e:
        sc = Scenario(Path(path).name, str(path), {}, None, "")
        return [Result(sc, False, e.render())]
    return [run(sc, follow) for sc in scenarios]


def scenario_files(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
        else:
            out.append(p)
    return out
