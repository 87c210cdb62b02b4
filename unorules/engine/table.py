"""The table: seats and teams, the zones (hands, the draw pile, the discard piles) and what moves
cards between them, and which cards may be played. A mixin of State (state.py).

Nothing here knows a card: cards are ints whose faces, kinds and effects come from the rulebook."""
from __future__ import annotations

from unorules.errors import RuleRuntimeError
from .types import MAX_DRAW, MAX_NEW_DECKS, NO_COLOR, Action  # noqa: F401 (MAX_DRAW, Action: re-exported)

MATCH_ANY, MATCH_RULE = 1, 2         # play_options' match bits (Game.face_mask)


class Table:
    # -- seats ----------------------------------------------------------------------------------
    def step(self, p, direction=None):
        d = self.direction if direction is None else direction
        n = self.n
        for _ in range(n):
            p = (p + d) % n
            if not self.out[p]:
                return p
        return p

    def next_of(self, p):
        return self.step(p)

    def previous_of(self, p):
        return self.step(p, -self.direction)

    def others_in_order(self, p):
        """The other players still in, from the one after p in the direction of play, each once
        (p itself may be out: the round's winner at its end, where the round goes on for places)."""
        out, q = [], p
        for _ in range(self.n - 1):
            q = self.step(q)
            if q == p or q in out:
                break
            out.append(q)
        return tuple(out)

    def active_count(self):
        return self.n - sum(self.out)

    # -- teams ----------------------------------------------------------------------------------
    def partner_of(self, p):
        """The next player of p's team in seat order (p itself when p plays alone)."""
        team = self.team_of[p]
        for k in range(1, self.n):
            q = (p + k) % self.n
            if self.team_of[q] == team:
                return q
        return p

    def team_members(self, p) -> list[int]:
        return [q for q in range(self.n) if self.team_of[q] == self.team_of[p]]

    # -- discard piles --------------------------------------------------------------------------
    # `discard` is always the pile in use (a play goes on it, `top` is its top card) and `color` its
    # current color; each other pile keeps its own color in `pile_colors`.
    def use_pile(self, i):
        if i == self.pile:
            return
        self.pile_colors[self.pile] = self.color
        self.pile = i
        self.discard = self.piles[i]
        self.color = self.pile_colors[i]

    def empty_piles(self):
        k = len(self.rules.piles)
        self.piles = [[] for _ in range(k)]
        self.pile_colors = [NO_COLOR] * k
        self.pile = 0
        self.discard = self.piles[0]

    def pile_colors_now(self) -> list[int]:
        """The current color of each pile (the pile in use keeps its own in `color`)."""
        return [self.color if i == self.pile else c for i, c in enumerate(self.pile_colors)]

    def pile_name(self, i):
        return self.rules.piles[i]

    def tops(self) -> list[int | None]:
        """The top card of each pile (the pile in use with its current state)."""
        return [pile[-1] if pile else None for pile in self.piles]

    # -- primitives the rules use ---------------------------------------------------------------
    def draw_cards(self, p, n, why="draw", emit=True):
        n = min(int(n), MAX_DRAW)
        if n <= 0 or p is None or self.gone[p]:      # an eliminated player holds nothing
            return []
        got = []
        hand, pile = self.hands[p], self.draw_pile
        for _ in range(n):
            if not pile and not self.reshuffle():
                self.emit("draw_short", player=p, wanted=n, got=len(got))
                break
            c = pile.pop()
            hand.append(c)
            got.append(c)
        if got:
            self.counts["drawn"] += len(got)
            if p in self.exposed:
                self.exposed.remove(p)
            if emit and self.log is not None:
                self.emit("draw", player=p, count=len(got), cards=[self.card_name(c) for c in got], why=why)
        return got

    def judge_again(self, card, unless) -> bool | None:
        """Whether the last play, of `card`, was legal by its kind's `legal when`, judged again on
        its player's hand as it is now with the card back in it and the color as it was
        (resample_hidden: the first judgement read a hand that is hidden). None when the last play
        was not that card's, or was not judged, or was `unless`'s own."""
        judged = self.judged.get(card)
        if judged is None or self.discard[-1:] != [card]:
            return None
        p, color, when = judged
        if p == unless or when != (self.round, self.counts["plays"]):
            return None
        hand, now = self.hands[p], self.color
        self.discard.pop()
        hand.append(card)
        self.color = color
        try:
            return bool(self.rules.kinds[self.ckind[card]].legal(self, {"me": p, "@who": p, "card": card}))
        finally:
            self.color = now
            hand.pop()
            self.discard.append(card)

    def shuffle(self, cards):
        """Shuffle in place with the game's generator: Fisher-Yates drawing one random() per swap
        (random.shuffle's integer draws cost half again as much; a shuffle begins every game)."""
        random_ = self.rng.random
        for i in range(len(cards) - 1, 0, -1):
            j = int(random_() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]

    def reshuffle(self):
        """An empty draw pile is refilled with the discard piles' cards, each pile's top card left
        (or, with `when the draw pile runs out: new deck`, from a fresh deck when they hold none)."""
        if len(self.piles) == 1:
            if len(self.discard) <= 1:
                return self.rules.turn["new_deck"] and self.new_deck()
            top = self.discard.pop()
            self.draw_pile[:0] = self.discard
            self.discard[:] = [top]
        else:
            under = [c for pile in self.piles for c in pile[:-1]]
            if not under:
                return self.rules.turn["new_deck"] and self.new_deck()
            self.draw_pile[:0] = under
            for pile in self.piles:
                del pile[:-1]
        self.shuffle(self.draw_pile)
        self.counts["reshuffles"] += 1
        self.emit("reshuffle", size=len(self.draw_pile))
        return True

    def new_deck(self) -> bool:
        """A fresh box, shuffled, becomes the draw pile: its cards are new cards of the game (the
        card tables grow, made anew: they are no longer the game factory's shared ones), at most
        MAX_NEW_DECKS a game."""
        rules = self.rules
        if self.new_decks >= MAX_NEW_DECKS or not rules.deck[0]:
            return False
        self.new_decks += 1
        per_side = [list(d) for d in rules.deck]
        start = self.ncards
        self.card_faces = [faces + side for faces, side in zip(self.card_faces, per_side)]
        self.ncards = len(self.card_faces[0])
        self.shares_deck = False
        self._own_tables = {}
        self.set_side(self.side)
        self.draw_pile[:0] = range(start, self.ncards)
        self.shuffle(self.draw_pile)
        self.emit("new_deck", size=self.ncards - start)
        return True

    def set_color(self, c):
        if c != NO_COLOR and c not in self.rules.side_colors[self.side]:
            raise RuleRuntimeError(f"`{self.rules.color_names[c]}` is not a color of the side in play "
                                   f"(`{self.rules.sides[self.side]}`)")
        self.color = c
        self.emit("color", color=self.rules.color_names[c] if c != NO_COLOR else None)

    def playable(self, p, card):
        """May p play `card` now? The kind's own rule and matching (`matches`), widened by the
        table's `may play on anything when` and narrowed by its `play only when`."""
        if not self.game.table_play_rules:
            return self.matches(p, card)
        return self.table_allows(p, card, self.matches(p, card))

    def table_allows(self, p, card, matched: bool) -> bool:
        """The table-wide play rules on one card: one that does not match (`matched`) is let in
        by `may play on anything when`; any is then kept out by `play only when`."""
        rules = self.rules
        if rules.kinds[self.ckind[card]].at_any_time:
            return False                     # played out of turn only (turns.any_time_window)
        env = {"me": p, "@who": p, "card": card}
        wide, only = rules.play_on_anything_when, rules.play_only_when
        if not matched and not (wide is not None and wide(self, env)):
            return False
        return only is None or bool(only(self, env))

    def matches(self, p, card):
        """The kind's own rule (if it has one), then matching: a wild, the current color or the
        top card's kind. play_options inlines the matching for plain kinds."""
        k = self.rules.kinds[self.ckind[card]]
        if k.at_any_time:
            return False                     # played out of turn only (turns.any_time_window)
        if not self.rules.plain_match[k.id]:
            env = {"me": p, "@who": p, "card": card}
            if k.playable is not None and not k.playable(self, env):
                return False
            if k.legal is not None and k.challenge is None and not k.legal(self, env):
                return False
        if k.wild:
            return True
        if not self.discard:
            return True
        match = self.rules.match_kind
        return self.ccolor[card] == self.color or match[self.ckind[card]] == match[self.ckind[self.discard[-1]]]

    def play_options(self, p, cards=None):
        """The play actions of p now: one card per face (the first held), in the order of the
        faces' last copies in hand, reversed (legal_actions() sorts them for people). With several
        discard piles, a play for each pile the card matches, naming the pile."""
        if self.several_piles and not self._pile_loop:
            return self.pile_play_options(p, cards)
        hand = self.hands[p] if cards is None else cards
        faces, cmask, opts, opts_call, color_bit, kind_bit, rule_kinds, multi = self._match
        discard = self.discard
        if discard:
            target = MATCH_ANY | MATCH_RULE | color_bit[self.color + 1] | kind_bit[self.ckind[discard[-1]]]
            legal = {faces[c]: c for c in reversed(hand) if cmask[c] & target}.values()
        else:
            legal = {faces[c]: c for c in reversed(hand)}.values()
        if rule_kinds:
            legal = [c for c in legal if cmask[c] != MATCH_RULE or self.matches(p, c)]
        if self.game.table_play_rules:
            matched = set(legal)
            legal = [c for c in {faces[c]: c for c in reversed(hand)}.values()
                     if self.table_allows(p, c, c in matched)]
        table = opts_call if self.game.offers_call(len(self.hands[p]) - 1, on_turn=True) else opts
        out = [a for c in legal for a in table[c]]
        if multi and cards is None:
            out += self.multi_play_options(p, [a.value for a in out if not a.call])
        return out

    def pile_play_options(self, p, cards):
        here = self.pile
        out = []
        self._pile_loop = True
        try:
            for i in range(len(self.piles)):
                self.use_pile(i)
                out += [a._replace(pile=i) for a in self.play_options(p, cards)]
        finally:
            self._pile_loop = False
            self.use_pile(here)
        return out

    def multi_play_options(self, p, starts):
        """Several cards of one kind played together, the first of them playable: every order of
        up to four cards (the last one's color becomes current)."""
        from itertools import permutations
        faces = self.card_faces[self.side]
        out, seen = [], set()
        for c in starts:
            same = [x for x in self.hands[p] if x != c and self.ckind[x] == self.ckind[c]]
            for k in range(1, min(3, len(same)) + 1):
                for rest in permutations(same, k):
                    key = (faces[c],) + tuple(faces[x] for x in rest)
                    if key in seen:
                        continue
                    seen.add(key)
                    cards = (c,) + rest
                    out.append(Action("play_many", cards, False))
                    if self.game.offers_call(len(self.hands[p]) - len(cards), on_turn=True):
                        out.append(Action("play_many", cards, True))
        out.sort(key=lambda a: (tuple(faces[x] for x in a.value), a.call))
        return out

    def place(self, p, card, call):
        """Move a card from p's hand to the discard pile: the common part of every way to play."""
        ckind = self.ckind
        kind = ckind[card]
        game = self.game
        legal_rule = self.rules.kinds[kind].legal
        if legal_rule is None:
            legal = True
        else:
            legal = bool(legal_rule(self, {"me": p, "@who": p, "card": card}))
            # what the judgement read, and which play it was, for resample_hidden to judge again
            self.judged[card] = (p, self.color, (self.round, self.counts["plays"] + 1))
        discard = self.discard
        self.streak = self.streak + 1 if discard and ckind[discard[-1]] == kind else 1
        self.hands[p].remove(card)
        discard.append(card)
        plays = self.recent_plays
        plays.append((p, card))
        if len(plays) > 32:
            del plays[:16]
        c = self.ccolor[card]
        if c != NO_COLOR:
            self.color = c
        self.first_card = False
        self.current = p
        self.counts["plays"] += 1
        if game.track_kinds and kind in game.track_kinds:
            self.tracked_players.add(self.seats[p])
        decl = game.declaration
        if decl is not None:
            if p in self.exposed:
                self.exposed.remove(p)
            if len(self.hands[p]) == decl[1]:
                if call:
                    self.emit("uno", player=p)
                else:
                    self.exposed.append(p)
            elif call and len(self.hands[p]) > decl[1] and game.false_call is not None:
                self.emit("false_call", player=p, name=decl[0])       # its price: at the play's end (turns.end_play)
                self.false_caller = p
        return legal
