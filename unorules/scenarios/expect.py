"""A scenario's expectations (`expect`, and `expect` checkpoints in a script) compared with a
state: each difference said as `expect.KEY: expected X, got Y`."""
from __future__ import annotations

from unorules.engine.state import State
from unorules.engine.types import NO_COLOR


def _names(s, cards, full):
    return sorted((s.full_name(c) if full else s.card_name(c)) for c in cards)


def _norm(name):
    if not isinstance(name, str):
        return str(name)
    if "/" in name:
        return " / ".join(" ".join(p.split()) for p in name.split("/"))
    return " ".join(name.split())


def compare(s: State, expect: dict, rejected: str | None) -> list[str]:
    out = []
    rules = s.rules

    def diff(key, want, got):
        out.append(f"expect.{key}: expected {want}, got {got}")

    for key, want in expect.items():
        if key == "hands":
            for seat, cards in want.items():
                cards = [_norm(c) for c in cards]
                full = any("/" in c for c in cards)
                got = _names(s, s.hands[seat], full)
                if sorted(cards) != got:
                    diff(f"hands.{seat}", sorted(cards), got)
        elif key == "front":
            for seat, cards in want.items():
                cards = [_norm(c) for c in cards]
                got = _names(s, s.fronts[seat], any("/" in c for c in cards))
                if sorted(cards) != got:
                    diff(f"front.{seat}", sorted(cards), got)
        elif key == "open_hands":
            got = sorted(s.open_hands)
            if sorted(want) != got:
                diff("open_hands", sorted(want), got)
            elif any(len(s.observe(q).open_hands) != len(got) for q in range(s.n)):
                out.append("expect.open_hands: not every player's observation shows the open hands")
        elif key == "team_scores":
            for team, n in want.items():
                got = sum(s.scores[q] for q in range(s.n) if s.team_of[q] == team)
                if team not in s.team_of:
                    out.append(f"expect.team_scores: there is no team {team} (teams: "
                               f"{', '.join(map(str, sorted(set(s.team_of))))})")
                elif got != n:
                    diff(f"team_scores.{team}", n, got)
        elif key == "hand_sizes":
            for seat, n in want.items():
                if len(s.hands[seat]) != n:
                    diff(f"hand_sizes.{seat}", n, f"{len(s.hands[seat])} ({', '.join(s.card_name(c) for c in s.hands[seat])})")
        elif key == "top":
            got = s.full_name(s.discard[-1]) if "/" in str(want) else s.card_name(s.discard[-1]) if s.discard else None
            if _norm(want) != got:
                diff("top", want, got)
        elif key == "color":
            got = rules.color_names[s.color] if s.color != NO_COLOR else None
            if want != got:
                diff("color", want, got)
        elif key == "turn":
            got = None if s.terminal else s.decision.player
            if want != got:
                diff("turn", want, f"{got} (asked: {s.decision.kind if s.decision else 'nothing, the game is over'})")
        elif key == "direction":
            got = "clockwise" if s.direction == 1 else "counterclockwise"
            if want != got:
                diff("direction", want, got)
        elif key == "side":
            if want != rules.sides[s.side]:
                diff("side", want, rules.sides[s.side])
        elif key == "draw_pile_size":
            if want != len(s.draw_pile):
                diff("draw_pile_size", want, len(s.draw_pile))
        elif key == "discard_size":
            if want != len(s.discard):
                diff("discard_size", want, len(s.discard))
        elif key == "draw_pile_top":
            full = any("/" in str(c) for c in want)
            got = [(s.full_name(c) if full else s.card_name(c)) for c in reversed(s.draw_pile[-len(want):])] if want else []
            if [_norm(c) for c in want] != got:
                diff("draw_pile_top", want, got)
        elif key == "scores":
            for seat, n in want.items():
                if s.scores[seat] != n:
                    diff(f"scores.{seat}", n, s.scores[seat])
        elif key == "round_winner":
            if want != s.round_winner:
                diff("round_winner", want, s.round_winner)
        elif key == "seats":
            for seat, player in want.items():
                if s.seats[seat] != player:
                    diff(f"seats.{seat}", player, s.seats[seat])
        elif key == "eliminated":
            got = [p for p in range(s.n) if s.eliminated[p]]
            if sorted(want) != got:
                diff("eliminated", sorted(want), got)
        elif key == "eliminated_from_round":      # out of this round only (`eliminate from round`)
            got = [p for p in range(s.n) if s.gone[p] and not s.eliminated[p]]
            if sorted(want) != got:
                diff(key, sorted(want), got)
        elif key in ("places", "round_winners"):
            got = list(s.places if key == "places" else s.round_winners)
            if list(want) != got:
                diff(key, list(want), got)
        elif key in ("next_dealer", "next_leader"):
            got = getattr(s, key)
            if want != got:
                diff(key, want, got if got is not None else "nothing: no round has ended")
        elif key == "tops":
            for name, card in want.items():
                if name not in rules.piles:
                    out.append(f"expect.tops: the rulebook has no pile `{name}` (piles: {', '.join(rules.piles)})")
                    continue
                pile = s.piles[rules.piles.index(name)]
                got = (s.full_name(pile[-1]) if "/" in str(card) else s.card_name(pile[-1])) if pile else None
                if _norm(card) != got:
                    diff(f"tops.{name}", card, got)
        elif key == "events":
            problem = _match_events(s.log or [], want)
            if problem:
                out.append(problem)
        elif key == "counters":
            for name, value in (want or {}).items():
                if name not in s.memory:
                    out.append(f"expect.counters: the rulebook has no counter or flag `{name}`")
                    continue
                got = s.memory[name]
                if isinstance(value, dict):
                    if not isinstance(got, list):
                        out.append(f"expect.counters.{name}: `{name}` is kept for the table, not per player")
                        continue
                    for seat, v in value.items():
                        if not (isinstance(seat, int) and 0 <= seat < len(got)):
                            out.append(f"expect.counters.{name}: there is no seat {seat}")
                        elif got[seat] != v or type(got[seat]) is not type(v):
                            diff(f"counters.{name}.{seat}", v, got[seat])
                elif got != value or isinstance(got, list):
                    diff(f"counters.{name}", value, got)
        elif key == "error":
            if rejected is None:
                pass            # reported by the runner
            elif str(want) not in rejected:
                diff("error", f"a message containing \"{want}\"", f"\"{rejected}\"")
    return out


def _match_events(log, want) -> str | None:
    j = 0
    for k, w in enumerate(want):
        while j < len(log) and not all(_ev_eq(log[j].get(f), v) for f, v in w.items()):
            j += 1
        if j == len(log):
            seen = [e for e in log if e.get("type") == w.get("type")]
            return (f"expect.events[{k}]: no event {w} after the events matched before it; events of type "
                    f"`{w.get('type')}`: {seen[:6] if seen else 'none'}")
        j += 1
    return None


def _ev_eq(got, want):
    if isinstance(want, str) and isinstance(got, str):
        return _norm(want) == _norm(got)
    return got == want
