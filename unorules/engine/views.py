"""What a state shows: to a player (their observation, never another player's hidden cards), to a
person (action names, why a card may not be played), and to the tests (invariant violations)."""
from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

from .types import NO_COLOR


class CardView(NamedTuple):
    card: int
    name: str
    color: int
    kind: int
    wild: bool
    points: float
    attacks: bool = False       # its rules make an attack (public knowledge of the rulebook)


class Observation(NamedTuple):
    player: int
    decision: str | None
    hand: list
    top: CardView | None
    color: int
    hand_sizes: list
    scores: list
    direction: int
    side: int
    draw_pile_size: int
    current: int
    next: int
    attacker: int | None
    colors: list
    color_names: list
    counters: dict = {}        # name -> value, or (per player) a list by seat; hidden values of others: None
    shown: dict = {}           # seat -> [CardView]: what this player was shown of that player's hand
    teams: tuple = ()          # seat -> team, where the rulebook plays in teams (partners share a team)
    tops: tuple = ()           # the top CardView of each discard pile, where the rulebook has several
    places: tuple = ()         # the seats that went out this round, in order
    fronts: tuple = ()         # seat -> [CardView]: the cards in front of each player (public), where the rules use them
    open_hands: dict = {}      # seat -> [CardView]: the hands shown to every player (`shows hand until ...`)
    call_at: int | None = None  # the call's count (`declare uno at 1 card`), where the rulebook has one
    backs: tuple = ()          # double-faced cards: seat -> [CardView] of the other side of each card in that hand
    worth: tuple | None = None  # a named option's or a number's worth to this player, by option (language/worth.py)
    draw_pile_back: CardView | None = None    # and the other side of the draw pile's top card (both public)


_EMPTY = MappingProxyType({})      # an observation's counters and shown hands when there are none

_KIND_ORDER = {"play": 0, "play_many": 1, "respond": 0, "jump_in": 0, "any_time": 0, "draw": 5, "keep": 5, "pass": 6}


class StateViews:
    """The State's methods that only read it (mixed into State)."""

    def legal_actions(self):
        """The legal actions, deterministic and sorted (plays by card face, then the rest)."""
        if self.terminal:
            return []
        if self.decision.kind not in ("turn", "drawn", "respond", "jump_in", "card", "take", "any_time", "play_more"):
            return list(self.decision.options)          # already in the engine's fixed order
        faces = self.card_faces[self.side]

        def key(a):
            v = a.value
            if isinstance(v, tuple):
                v = (1, tuple(faces[c] for c in v))
            elif a.kind in ("play", "respond", "jump_in", "card", "any_time") and v is not None:
                v = (0, faces[v], -1 if a.pile is None else a.pile)
            else:
                v = (2, -1 if v is None else v if isinstance(v, int) else str(v))
            return (_KIND_ORDER.get(a.kind, 9), v, a.call, -1 if a.color is None else a.color)
        return sorted(self.decision.options, key=key)

    def action_name(self, a) -> str:
        k, v = a.kind, a.value
        if k == "play_many":
            return "play " + " + ".join(self.card_name(c) for c in v) + (
                " and call " + self.game.declaration[0].upper() if a.call else "")
        if k in ("play", "respond", "jump_in", "any_time"):
            if v is None:
                return {"respond": "accept", "jump_in": "don't jump in", "any_time": "don't play"}.get(k, k)
            verb = {"play": "play", "respond": "answer with", "jump_in": "jump in with", "any_time": "play out of turn"}[k]
            color = f" ({self.rules.color_names[a.color]})" if a.color is not None else ""
            pile = f" on {self.rules.piles[a.pile]}" if a.pile is not None else ""
            return f"{verb} {self.card_name(v)}{color}{pile}" + (
                " and call " + self.game.declaration[0].upper() if a.call else "")
        if k == "pass":
            return "pass" if self.decision is not None and self.decision.kind == "turn" else "play no more"
        if k == "color":
            return f"color {self.rules.color_names[v]}"
        if k == "player":
            return f"choose seat {v}"
        if k == "card":
            taking = self.decision is not None and self.decision.kind == "take"
            return f"{'take' if taking else 'give'} {self.card_name(v)}"
        if k == "option":
            return f"choose {v}"
        if k == "number":
            return f"choose {v}"
        if k == "kind":
            return f"name {self.rules.kinds[v].name}"
        if k == "challenge":
            return "challenge" if v else "don't challenge"
        if k == "catch":
            return f"catch seat {v}" if v is not None else "don't catch"
        if k == "perform":
            return "succeed" if v else "fail"
        if k == "chance":
            return f"outcome {v}"
        return k

    def invariant_violations(self) -> list[str]:
        """What is wrong with this state, if anything: the engine's invariants, checked by the
        tests after every action and by bench/soak.py over many games."""
        out = []
        zones = self.draw_pile + [c for pile in self.piles for c in pile] + self.aside + [c for h in self.hands for c in h] \
            + [c for f in self.fronts for c in f]
        if sorted(zones) != list(range(self.ncards)):
            out.append("cards are not conserved: some card is in no zone or in two")
        if self.color != NO_COLOR and self.color not in self.rules.side_colors[self.side]:
            out.append(f"the current color `{self.rules.color_names[self.color]}` is not of the side in play")
        if not self.terminal:
            d = self.decision
            if d is None:
                out.append("the game is not over and nobody is asked anything")
            else:
                if d.player is not None and not (0 <= d.player < self.n and not self.out[d.player]):
                    out.append(f"seat {d.player} is asked but is not seated")
                if not d.options:
                    out.append("a decision without options")
        if len(self.piles) != len(self.rules.piles) or self.discard is not self.piles[self.pile]:
            out.append("the discard pile in use is not one of the piles")
        if not self.terminal and self.decision is not None and self.decision.kind in ("turn", "drawn") \
                and any(not pile for pile in self.piles):       # (before the first card is turned up, they are)
            out.append("a discard pile is empty at a turn: a pile's last card is never taken")
        if any(g and (h or f) for g, h, f in zip(self.gone, self.hands, self.fronts)):
            out.append("an eliminated player holds cards")
        if any(e and not g for e, g in zip(self.eliminated, self.gone)):
            out.append("a player out of the game is back in a round")
        if any(k < 0 for k in self.skips) or any(sc is None for sc in self.scores):
            out.append("a negative count")
        return out

    # -- observation (what one player may see) --------------------------------------------------
    def observe(self, p) -> "Observation":
        """What player p may see: their own hand, the table, everyone's hand sizes. Never other hands."""
        d = self.decision
        attacker = getattr(d.env, "attacker", None) if d is not None else None    # the env of an attack window
        if attacker is not None and d.kind == "challenge":
            attacker = d.env.player                  # the challenged card's player: whose bluff it would be
        top = self.discard[-1] if self.discard else None
        kinds = self.rules.kinds
        views = self._views
        return Observation(
            player=p, decision=d.kind if d else None,
            hand=[views[c] or self.card_view(p, c) for c in self.hands[p]],
            top=None if top is None else CardView(top, self.card_name(top), self.ccolor[top], self.ckind[top],
                                                  kinds[self.ckind[top]].wild, 0),
            color=self.color, hand_sizes=[len(h) for h in self.hands], scores=list(self.scores),
            direction=self.direction, side=self.side, draw_pile_size=len(self.draw_pile),
            current=self.current, next=self.next_of(p), attacker=attacker,
            colors=list(self.rules.side_colors[self.side]),
            color_names=self.rules.color_names,
            counters=self.public_counters(p) if self.memory else _EMPTY,
            shown={q: [views[c] or self.card_view(q, c) for c in cards] for q, cards in self.shown[p].items()}
            if self.shown and p in self.shown else _EMPTY,
            teams=self.game.teams_view,
            tops=self.tops_view() if self.several_piles else (),
            places=tuple(self.places) if self.places else (),
            fronts=tuple([views[c] or self.card_view(q, c) for c in f] for q, f in enumerate(self.fronts))
            if self.rules.uses_front else (),
            open_hands={q: [views[c] or self.card_view(q, c) for c in self.hands[q]] for q in sorted(self.open_hands)}
            if self.open_hands else _EMPTY,
            call_at=self.game.declaration[1] if self.game.declaration else None,
            backs=tuple([self.back_view(c) for c in h] for h in self.hands) if len(self.card_faces) > 1 else (),
            draw_pile_back=self.back_view(self.draw_pile[-1]) if len(self.card_faces) > 1 and self.draw_pile else None,
            worth=d.worth if d is not None and d.player == p else None)

    def back_view(self, c) -> CardView:
        """The other side of card c (double-faced cards show it: it is public), as the side after
        the one in play shows it; points are not judged for a side not in play (0)."""
        other = (self.side + 1) % len(self.card_faces)
        color, kind = self.rules.faces[self.card_faces[other][c]]
        return CardView(c, self.rules.face_names[self.card_faces[other][c]], color, kind,
                        self.rules.kinds[kind].wild, 0)

    def tops_view(self) -> tuple:
        kinds = self.rules.kinds
        return tuple(None if c is None else CardView(c, self.card_name(c), self.ccolor[c], self.ckind[c],
                                                     kinds[self.ckind[c]].wild, 0) for c in self.tops())

    def public_counters(self, p) -> dict:
        """The counters and flags as player p may see them: a hidden one's other values are None."""
        out = {}
        for c in self.rules.counters:
            v = self.memory[c["name"]]
            if c["per"] == "player":
                v = [x if (q == p or not c.get("hidden")) else None for q, x in enumerate(v)]
            out[c["name"]] = v
        return out

    def card_view(self, p, c) -> CardView:
        """Card c as its holder p sees it; kept for the side when its points are the card's alone."""
        k = self.rules.kinds[self.ckind[c]]
        view = CardView(c, self.card_name(c), self.ccolor[c], k.id, k.wild, self.points(p, c), k.has_attack)
        if k.points_of_card:
            self._views[c] = view
        return view

    def why_unplayable(self, p, card, how="play") -> str:
        """Why `card` may not be played by p now, in words (for scripts, the API and people)."""
        d = self.decision
        name = self.card_name(card)
        if d is None:
            return "the game is over"
        if d.player != p:
            return f"it is seat {d.player}'s decision, not seat {p}'s"
        if d.kind == "drawn":
            return f"only the card just drawn may be played now, not `{name}`"
        if d.kind == "respond":
            return f"`{name}` cannot answer this attack"
        if d.kind == "jump_in":
            return f"`{name}` is not identical to the top card"
        if d.kind == "play_more":
            return f"`{name}` is not one of the cards this further play allows"
        k = self.rules.kinds[self.ckind[card]]
        if k.at_any_time:
            return f"`{name}` is played out of turn only, before another player's turn"
        env = {"me": p, "@who": p, "card": card}
        if k.playable is not None and not k.playable(self, env):
            return f"`{name}` may not be played now (its `playable when` rule is false)"
        if k.legal is not None and k.challenge is None and not k.legal(self, env):
            return f"`{name}` may not be played now (its `legal when` rule is false)"
        if self.rules.play_only_when is not None and not self.rules.play_only_when(self, env):
            return f"`{name}` may not be played now (the table's `play only when` rule is false)"
        if self.several_piles:
            colors = self.pile_colors_now()
            tops = ", ".join(f"{self.rules.piles[i]}: {self.card_name(pile[-1]) if pile else 'empty'} (color "
                             f"{self.rules.color_names[c] if c != NO_COLOR else 'none'})"
                             for i, (pile, c) in enumerate(zip(self.piles, colors)))
            return f"`{name}` matches the top of no pile ({tops})"
        top = self.discard[-1] if self.discard else None
        color = self.rules.color_names[self.color] if self.color != NO_COLOR else "none"
        return f"`{name}` does not match the top card `{self.card_name(top)}` (color {color})"
