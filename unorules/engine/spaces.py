"""The fixed spaces a learner sees (issue 15): every action a compiled rulebook can ask for, as an
integer id, and each player's observation as a flat list of numbers.

Both are derived from the compiled rulebook and the player count alone, in a fixed order, so the
same rulebook gives the same ids and the same layout in every process. An action's id names what
a player decides, never a physical card: a play of `red 5` is one id whichever copy is played."""
from __future__ import annotations

from itertools import product

from unorules.language.ir import all_actions, constant
from .types import NO_COLOR

HISTORY = 8                       # the public history an observation carries: the last plays
MAX_NUMBER_ACTIONS = 100          # numbers a non-constant `choose number` may offer: 0..99


class ActionSpace:
    """`keys[i]` is what id i stands for: (kind, face or value, color, call, pile).

    Compact: only what this rulebook can ever ask for. A call variant only with a call to make
    (`declare`), `respond` only with the kinds some reaction answers with, `jump_in` only with
    jump-in, `any_time` only for kinds played at any time, a pile only with several, and each
    other decision only where a rule can ask it. The plays come first, grouped by color in the
    rulebook's color order and, in each, by kind in declaration order (a wild that names its color
    as it is played under each color it names); then the other sides' and colorless faces; then
    draw. With RLCard's colors and kinds in RLCard's order, that is RLCard's own action order."""

    def __init__(self, rules, players: int):
        self.rules = rules
        all_colors = [c for side in rules.side_colors for c in side]
        piles = [None] if len(rules.piles) == 1 else list(range(len(rules.piles)))
        actions = list(all_actions(rules.ir))        # every action of the rules, walked once
        used = {a["kind"] for a in actions}
        calls = (False, True) if rules.declarations else (False,)
        in_deck = sorted({f for side in rules.deck for f in side})
        keys = [("play", f, color, call, pile) for f, color in _plays_in_order(rules, in_deck, all_colors)
                for pile, call in product(piles, calls)]
        answers = {k for r in rules.reactions for k in r.with_}
        for kind, kinds in (("respond", answers),
                            ("jump_in", {k.id for k in rules.kinds} if rules.jump_in is not None else set()),
                            ("any_time", {k.id for k in rules.kinds if k.at_any_time})):
            if not kinds:
                continue
            for f in in_deck:
                k = rules.faces[f][1]
                if k not in kinds:
                    continue
                # an answer, a jump or an out-of-turn play of a kind whose rule begins by naming a
                # color may carry the color (or name it after)
                colors = [None] + all_colors if rules.fused_color[k] else [None]
                keys += [(kind, f, color, call, None) for color, call in product(colors, calls)]
            keys.append((kind, None, None, False, None))
        if rules.turn.get("multi_play"):
            for k in range(len(rules.kinds)):
                for side, _ in enumerate(rules.side_colors):
                    same = sorted({f for f in rules.deck[side] if rules.faces[f][1] == k})
                    for n in range(2, 5):
                        for seq in product(same, repeat=n):
                            keys += [("play_many", seq, None, call, None) for call in (False, True)]
        turn = rules.turn
        keys.append(("draw", None, None, False, None))
        if turn["drawn_card"] == "may_play" or turn.get("draw_up_to"):
            keys.append(("keep", None, None, False, None))
        if turn["may_pass"] or "may_play" in used:
            keys.append(("pass", None, None, False, None))
        if any(k.challenge is not None for k in rules.kinds):
            keys += [("challenge", v, None, False, None) for v in (True, False)]
        if "perform" in used:
            keys += [("perform", v, None, False, None) for v in (True, False)]
        if rules.declarations:
            keys += [("catch", q, None, False, None) for q in range(players)] + [("catch", None, None, False, None)]
        if "choose_player" in used:
            keys += [("player", q, None, False, None) for q in range(players)]
        if _colors_chosen_apart(rules, actions, keys):
            keys += [("color", c, None, False, None) for c in all_colors]
        if used & {"give", "take", "exchange"}:
            keys += [("card", f, None, False, None) for f in in_deck]
        if "choose_kind" in used or any(a["kind"] == "choose_number" and "low" not in a for a in actions):
            keys += [("kind", k, None, False, None) for k in range(len(rules.kinds))]
        options, outcomes, numbers = [], ["exact", "missed"] if rules.cut is not None else [], set()
        for a in actions:
            if a["kind"] == "choose_option":
                options += a["options"]
            elif a["kind"] == "chance":
                outcomes += [o["name"] for o in a["outcomes"]]
            elif a["kind"] == "choose_number" and "low" in a:
                lo, hi = constant(a["low"], rules.options), constant(a["high"], rules.options)
                numbers |= set(range(int(lo), int(hi) + 1)) if lo is not None and hi is not None \
                    else set(range(MAX_NUMBER_ACTIONS))
        keys += [("option", o, None, False, None) for o in dict.fromkeys(options)]
        keys += [("number", v, None, False, None) for v in sorted(numbers)]
        self.player_actions = len(keys)           # ids below it are a player's; those from it, chance outcomes
        keys += [("chance", o, None, False, None) for o in dict.fromkeys(outcomes)]
        self.keys = keys
        self.index = {key: i for i, key in enumerate(keys)}
        self._names: dict[int, str] = {}      # id -> its name, made the first time it is asked

    def __len__(self):
        return len(self.keys)

    def kinds(self) -> dict:
        """How many ids each kind of action has (docs, bench/action_space.py)."""
        out: dict = {}
        for key in self.keys:
            out[key[0]] = out.get(key[0], 0) + 1
        return out

    def key_of(self, state, a, side=None) -> tuple:
        """The key of an action: cards by their face (on `side`, by default the side in play)."""
        v = a.value
        faces = state.card_faces[state.side if side is None else side]
        if a.kind in ("play", "respond", "jump_in", "any_time", "card") and v is not None:
            v = faces[v]
        elif a.kind == "play_many":
            v = tuple(faces[c] for c in v)
        return (a.kind, v, a.color, bool(a.call), a.pile)

    def id_of(self, state, a) -> int:
        key = self.key_of(state, a)
        try:
            return self.index[key]
        except KeyError:
            raise ValueError(f"`{state.action_name(a)}` is outside this rulebook's action space") from None

    def name(self, i: int) -> str:
        """An id's name (`play red 5`, `draw`), the same for every state: made once."""
        text = self._names.get(i)
        if text is None:
            text = self._names[i] = self._name(i)
        return text

    def _name(self, i: int) -> str:
        kind, v, color, call, pile = self.keys[i]
        rules = self.rules
        if kind in ("play", "respond", "jump_in", "any_time", "card"):
            text = f"{kind} " + ("nothing" if v is None else rules.face_names[v])
        elif kind == "play_many":
            text = "play " + " + ".join(rules.face_names[f] for f in v)
        elif kind == "color":
            text = f"color {rules.color_names[v]}"
        elif kind == "kind":
            text = f"name {rules.kinds[v].name}"
        else:
            text = kind if v is None else f"{kind} {v}"
        if color is not None:
            text += f" ({rules.color_names[color]})"
        if pile is not None:
            text += f" on {rules.piles[pile]}"
        return text + (" and call" if call else "")


def _colors_chosen_apart(rules, actions, keys) -> bool:
    """Whether a player can be asked for a color on its own: a `choose color` that is not the first
    action of a card's play (which the play carries), or an answer, a jump or an out-of-turn play
    of such a card that names it after (its "no color" variant)."""
    chosen = sum(a["kind"] == "choose_color" for a in actions)
    leading = sum(bool(f) for f in rules.fused_color)
    return chosen > leading or any(k[0] != "play" and k[1] is not None and k[2] is None
                                   and rules.fused_color[rules.faces[k[1]][1]] for k in keys)


def _plays_in_order(rules, in_deck, all_colors):
    """The (face, color) of every play: by color (the rulebook's order), each color's kinds in
    declaration order, a wild that names its color as it is played under each color it names;
    then the faces of no color that do not name one as they are played."""
    by = {(rules.faces[f][0], rules.faces[f][1]): f for f in in_deck}
    fused = [k.id for k in rules.kinds if rules.fused_color[k.id]]
    out, seen = [], set()
    for c in all_colors:
        for k in rules.kinds:
            f = by.get((c, k.id))
            if f is not None and f not in seen:
                out.append((f, None))
                seen.add(f)
            elif k.id in fused:
                f = by.get((NO_COLOR, k.id))
                if f is not None and any(c in rules.side_colors[i] for i, side in enumerate(rules.deck) if f in side):
                    out.append((f, c))
    for f in in_deck:
        if f not in seen and rules.faces[f][1] not in fused:
            out.append((f, None))
            seen.add(f)
    return out


class ObservationLayout:
    """The parts of the observation tensor, in order: (name, size). Every part is public or the
    observing player's own: hidden cards of others never appear."""

    def __init__(self, rules, players: int):
        nf, nc, ns = len(rules.faces), len(rules.color_names) + 1, len(rules.sides)
        parts = [("hand", nf), ("top", nf), ("color", nc), ("side", ns), ("hand_sizes", players),
                 ("direction", 1), ("attack", 1), ("penalty", 1), ("attacker", players), ("target", players),
                 ("uncalled", players), ("scores", players), ("seat", players), ("current", players)]
        if len(rules.piles) > 1:
            parts += [("pile_tops", nf * len(rules.piles)), ("pile_colors", nc * len(rules.piles)),
                      ("pile_in_use", len(rules.piles))]
        if rules.teams:
            parts.append(("teams", players))
        parts += [("out", players)]
        for c in rules.counters:
            parts.append((f"counter:{c['name']}", players if c["per"] == "player" else 1))
        parts += [("shown", nf * players), ("history", HISTORY * (nf + players))]
        if rules.uses_front:            # the cards in front of each player (public)
            parts.append(("fronts", nf * players))
        if rules.open_hands:            # the hands shown to everyone (`shows hand until ...`)
            parts.append(("open_hands", nf * players))
        if ns > 1:                      # double-faced cards: the other side of every hand and of the pile's top
            parts += [("backs", nf * players), ("draw_pile_back", nf)]
        self.parts = parts
        self.size = sum(n for _, n in parts)
        self.offsets = {}
        at = 0
        for name, n in parts:
            self.offsets[name] = at
            at += n


def observation_tensor(state, p, out=None):
    """Player p's observation as numbers, laid out as `ObservationLayout` says; seats are relative
    to p (index 0 is p, 1 the next seat clockwise, ...). Written into `out` when given (zeros of
    the layout's size: an adapter's numpy array, filled without a list in between), else a list."""
    game, rules = state.game, state.rules
    layout = game.observation_layout
    n, nf = state.n, len(rules.faces)
    out = [0.0] * layout.size if out is None else out
    off = layout.offsets
    faces = state.card_faces[state.side]

    def rel(q):
        return (q - p) % n

    def one(part, i, value=1.0):
        out[off[part] + i] = value
    for c in state.hands[p]:
        out[off["hand"] + faces[c]] += 1
    if state.discard:
        one("top", faces[state.discard[-1]])
    one("color", state.color + 1 if state.color != NO_COLOR else 0)
    one("side", state.side)
    for q in range(n):
        one("hand_sizes", rel(q), len(state.hands[q]))
        one("scores", rel(q), state.scores[q])
        if state.out[q]:
            one("out", rel(q))
        if q in state.exposed:
            one("uncalled", rel(q))
    one("seat", p)
    one("current", rel(state.current))
    one("direction", 0, float(state.direction))
    atk = state.attack
    if atk is not None and atk.state == "pending":
        one("attack", 0)
        one("penalty", 0, float(atk.penalty or 0))
        if atk.attacker is not None:
            one("attacker", rel(atk.attacker))
        if atk.target is not None:
            one("target", rel(atk.target))
    if len(rules.piles) > 1:
        nc = len(rules.color_names) + 1
        for i, (pile, c) in enumerate(zip(state.piles, state.pile_colors_now())):
            if pile:
                out[off["pile_tops"] + i * nf + faces[pile[-1]]] = 1.0
            out[off["pile_colors"] + i * nc + (c + 1 if c != NO_COLOR else 0)] = 1.0
        one("pile_in_use", state.pile)
    if rules.teams:
        for q in range(n):
            one("teams", rel(q), float(state.team_of[q] == state.team_of[p]))
    counters = state.public_counters(p) if state.memory else {}
    for name, v in counters.items():
        if isinstance(v, list):
            for q, x in enumerate(v):
                if x is not None:
                    one(f"counter:{name}", rel(q), float(x))
        else:
            one(f"counter:{name}", 0, float(v))
    for q, cards in (state.shown.get(p, {}) if state.shown else {}).items():
        for c in cards:
            out[off["shown"] + rel(q) * nf + faces[c]] += 1
    if rules.uses_front:
        for q, front in enumerate(state.fronts):
            for c in front:
                out[off["fronts"] + rel(q) * nf + faces[c]] += 1
    for q in (state.open_hands if rules.open_hands else ()):
        for c in state.hands[q]:
            out[off["open_hands"] + rel(q) * nf + faces[c]] += 1
    if len(state.card_faces) > 1:
        backs = state.card_faces[(state.side + 1) % len(state.card_faces)]
        for q, hand in enumerate(state.hands):
            for c in hand:
                out[off["backs"] + rel(q) * nf + backs[c]] += 1
        if state.draw_pile:
            one("draw_pile_back", backs[state.draw_pile[-1]])
    row = nf + n
    for i, (q, c) in enumerate(state.recent_plays[-HISTORY:][::-1]):
        out[off["history"] + i * row + faces[c]] = 1.0
        out[off["history"] + i * row + nf + rel(q)] = 1.0
    return out


class GameSpaces:
    """Game's side of the learning API (mixed into Game): the spaces, and states from histories."""

    @property
    def action_space(self) -> ActionSpace:
        if self._action_space is None:
            self._action_space = ActionSpace(self.rules, self.players)
        return self._action_space

    @property
    def observation_layout(self) -> ObservationLayout:
        if self._observation_layout is None:
            self._observation_layout = ObservationLayout(self.rules, self.players)
        return self._observation_layout

    def num_distinct_actions(self) -> int:
        return len(self.action_space)

    def observation_tensor_shape(self) -> list[int]:
        return [self.observation_layout.size]

    def observation_tensor_size(self) -> int:
        return self.observation_layout.size

    def new_initial_state(self, seed: int = 0):
        return self.new_state(seed)

    def state_from_history(self, seed: int, history, drawn=()) -> "object":
        """The state reached from `new_initial_state(seed)` by the action ids of `history`.
        `drawn`: the positions in it of chance outcomes that were drawn on the state's own
        generator (`state.rng.choices(options, probs)`, as `simulate` draws them), so that the
        generator, which also shuffles the cards, is drawn on alike (`state.chance_drawn()`)."""
        s = self.new_state(seed)
        drawn = set(drawn)
        for at, i in enumerate(history):
            if at in drawn:
                d = s.decision
                if d is None or d.probs is None:
                    raise ValueError(f"history position {at} is no chance outcome, yet is said to be drawn")
                if s.action_id(s.rng.choices(d.options, d.probs)[0]) != int(i):
                    raise ValueError(f"the chance outcome at history position {at} was not drawn as "
                                     "state.rng.choices(options, probs) draws it: the state cannot be replayed")
            s.apply_action(int(i))
        return s

    def deserialize_state(self, text: str):
        """The state `serialize()` wrote; ValueError for text that is not one (it comes from elsewhere)."""
        import json
        if not isinstance(text, str) or len(text) > 50_000_000:
            raise ValueError("`text` is not a serialized unorules state (a JSON string)")
        try:
            d = json.loads(text)
        except (ValueError, RecursionError):
            raise ValueError("`text` is not a serialized unorules state: not JSON") from None
        if not isinstance(d, dict) or d.get("unorules_state") != 1:
            raise ValueError("`text` is not a serialized unorules state")
        seed, history, drawn = d.get("seed"), d.get("history"), d.get("drawn", [])
        ids = lambda v: isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in v)  # noqa: E731
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
            raise ValueError(f"`text`: the state's seed is a whole number from 0 to 2^63, not {seed!r}")
        if not ids(history) or not ids(drawn):
            raise ValueError("`text`: the state's history and drawn positions are lists of whole numbers")
        if any(not 0 <= i < len(self.action_space) for i in history):
            raise ValueError("`text`: the state's history holds an id outside the action space")
        return self.state_from_history(seed, history, drawn)


def seat_argument(name: str, p, n: int) -> int:
    """A player argument of the learning API: a seat of a game of n players (never a negative
    index, which would read another seat's hidden hand)."""
    import operator
    try:
        seat = operator.index(p)               # a whole number (numpy's too), never a bool
    except TypeError:
        seat = None
    if seat is None or isinstance(p, bool) or not 0 <= seat < n:
        raise ValueError(f"`{name}` is a seat from 0 to {n - 1}, not {p!r}")
    return seat


class StateSpaces:
    """State's side of the learning API (mixed into State)."""

    def action_id(self, a) -> int:
        return self.game.action_space.id_of(self, a)

    def legal_action_ids(self) -> list[int]:
        space = self.game.action_space
        return sorted(space.id_of(self, a) for a in self.legal_actions())

    def play_chance(self):
        """Draw the chance outcomes due now on the game's own stream, as `simulate` draws them
        (state.rng.choices), up to a player's decision or the end: the same seed and the same
        player actions then give the same game, on the engine and on generated code (steps.py)."""
        while not self.terminal and self.decision.probs is not None:
            d = self.decision
            self.apply_action(self.rng.choices(d.options, d.probs)[0])

    def legal_actions_mask(self) -> list[int]:
        mask = [0] * len(self.game.action_space)
        for i in self.legal_action_ids():
            mask[i] = 1
        return mask

    def action_of_id(self, i: int):
        """The legal action that id i stands for now."""
        space = self.game.action_space
        if self.decision is not None:
            for a in self.decision.options:
                if space.id_of(self, a) == i:
                    return a
        from unorules.errors import IllegalAction
        name = space.name(i) if 0 <= i < len(space) else f"id {i}"
        raise IllegalAction(f"`{name}` is not one of the legal actions")

    def action_to_string(self, i: int) -> str:
        return self.game.action_space.name(i)

    def observation_tensor(self, p, out=None):
        """Player p's observation (a list), or written into `out`: zeros of the layout's size."""
        size = self.game.observation_layout.size
        if out is not None and len(out) != size:
            raise ValueError(f"`out` has {len(out)} places; the observation has {size}")
        return observation_tensor(self, self._seat_argument("p", p), out)

    def _seat_argument(self, name: str, p) -> int:
        return seat_argument(name, p, self.n)

    def history(self) -> list[int]:
        """The action ids applied since `new_initial_state(seed)`, chance outcomes included."""
        space = self.game.action_space
        return [space.index[space.key_of(self, a, side)] for a, side in self._history]

    def chance_drawn(self) -> list[int]:
        """The positions in history() of the chance outcomes drawn on this state's own generator
        (state.rng), which a replay must draw alike: the generator also shuffles the cards."""
        return list(self._chance_drawn)

    def serialize(self) -> str:
        import json
        if self._seed is None:
            raise ValueError("only a state made by game.new_state(seed) can be serialized (this one was set up directly)")
        d = {"unorules_state": 1, "seed": self._seed, "history": self.history()}
        if self._chance_drawn:
            d["drawn"] = self.chance_drawn()
        return json.dumps(d)

    def __reduce__(self):
        if self._seed is None:
            raise TypeError("only a state made by game.new_state(seed) can be pickled (this one was set up directly)")
        return (_state_from_history, (self.game, self._seed, self.history(), self.chance_drawn()))

    def resample_hidden(self, player: int, rng, groups=None) -> "object":
        """A copy of this state consistent with what `player` knows: the other players' hands and the
        draw pile dealt again at random among themselves (each hand keeps its size; cards `player`
        has been shown stay where they are), and a new random generator, so a search that plays
        the copy on sees no true future draw. `player`'s observation tensor is unchanged.

        `groups` (belief.py), per player, what more is known of their hand: [count, cards it
        cannot hold] for each part of it. Each part is dealt from the unseen cards it can hold,
        the most constrained first (any unseen card where none is left).

        Judged again on the dealt hands: whether another player's last play was legal, and the
        cards others chose to give at once. Others' `hidden` counters keep their values: what they
        count is the rulebook's, so there is nothing to deal them from."""
        player = self._seat_argument("player", player)
        s = self.clone()
        shown = s.shown.get(player, {}) if s.shown else {}
        known = {c for cards in shown.values() for c in cards}
        # an open hand (`shows hand until ...`) is seen by everyone: it stays as it is
        others = [q for q in range(s.n) if q != player and q not in s.open_hands]
        pool = sorted([c for q in others for c in s.hands[q] if c not in known] + s.draw_pile)
        rng.shuffle(pool)                   # sorted first: the result depends only on which cards are unknown
        # double-faced cards show their other side: each card dealt again has the back of the one it
        # replaces, and the draw pile's top keeps its back (all public)
        backs = s.card_faces[(s.side + 1) % len(s.card_faces)] if len(s.card_faces) > 1 else None
        top_back = backs[s.draw_pile[-1]] if backs is not None and s.draw_pile else None
        slots = []                          # (cards it cannot hold, player): one for each card dealt
        left_backs: dict = {}               # player -> the backs of their unseen cards still to deal
        for q in others:
            unseen_cards = [c for c in s.hands[q] if c not in known]
            unseen = len(unseen_cards)
            if backs is not None:
                left_backs[q] = [backs[c] for c in unseen_cards]
            parts = groups[q] if groups is not None and unseen == len(s.hands[q]) else ()
            if sum(count for count, _ in parts) != unseen:
                parts = [(unseen, frozenset())]
            for count, out in parts:
                slots += [(out, q)] * count
        if groups is not None:
            slots.sort(key=lambda slot: -len(slot[0]))
        for attempt in range(REDEALS if backs is not None and groups is not None else 1):
            if attempt:                     # the backs and the belief together: another order
                rng.shuffle(pool)
            dealt, rest, fits = _deal(slots, list(pool), backs, {q: list(b) for q, b in left_backs.items()})
            if fits:
                break
        pool = rest
        for q in others:
            s.hands[q] = [c for c in s.hands[q] if c in known] + dealt.get(q, [])
        if top_back is not None:
            i = next(i for i, c in enumerate(pool) if backs[c] == top_back)
            pool.append(pool.pop(i))
        s.draw_pile = pool
        choose_pending_gives_again(s, player, rng)
        judge_pending_plays_again(s, player)
        s.rng.seed(rng.random())
        s._seed = None                      # not a replay of any seed's history any more
        return s


REDEALS = 20          # orders tried for a redeal that must keep the public backs and the belief both


def _deal(slots, pool, backs, left_backs):
    """Each slot (cards it cannot hold, player) takes the first card of `pool` it can hold; with
    double-faced cards, only a card with one of the backs its hand still shows (one always
    remains: the true card, or another with the same back). Returns the cards dealt per player,
    the pool left, and whether every slot kept to what it cannot hold."""
    dealt: dict = {}
    fits = True
    for out, q in slots:
        if backs is None:
            i = next((i for i, c in enumerate(pool) if c not in out), None) if out else 0
        else:
            want = left_backs[q]
            i = next((i for i, c in enumerate(pool) if backs[c] in want and c not in out), None)
            if i is None:
                i = next(i for i, c in enumerate(pool) if backs[c] in want)
                fits = False
            want.remove(backs[pool[i]])
        if i is None:                       # no card it can hold is left: any
            i, fits = 0, False
        dealt.setdefault(q, []).append(pool.pop(i))
    return dealt, pool, fits


def judge_pending_plays_again(s, player) -> None:
    """After the other hands are dealt again: whether another player's last play was legal
    (`legal when`, which a challenge asks) was judged on their hidden hand, so it is judged again
    on their dealt hand, once, and the new judgement replaces the old wherever it is carried: the
    pending attack, its env, the agenda's frames. (Only the last play: a judgement already buried
    under a later play keeps its value.)"""
    card = s.discard[-1] if s.discard else None
    legal = s.judge_again(card, player)
    if legal is None:
        return
    atk = s.attack
    envs = [env for frame in s.agenda for env in frame[1:] if type(env) is dict]
    if atk is not None and atk.card == card:
        atk.legal = legal
        envs.append(atk.env)
    for env in envs:
        if env.get("card") == card and "@legal_play" in env:
            env["@legal_play"] = legal


def choose_pending_gives_again(s, player, rng) -> None:
    """After the other hands are dealt again: the cards others chose to give `at once` and have
    not yet moved are as hidden as the rest of their hands, so each is chosen again, at random
    among the giver's new cards (a give's `where` is not consulted: its card may not meet it)."""
    from .hands import _give_next, commit_batch
    batches = [f[1] for f in s.agenda if f[0] is commit_batch]
    if not batches:
        return
    again = {}                              # id of a giver's `picked` list -> {old card: new card}
    for batch in batches:
        chosen: dict[int, list[int]] = {}
        for i, (p, q, card) in enumerate(batch):
            if p == player:
                continue
            free = [c for c in s.hands[p] if c not in chosen.get(p, ())]
            if not free:
                continue
            new = free[int(rng.random() * len(free))]
            chosen.setdefault(p, []).append(new)
            batch[i] = (p, q, new)
            again.setdefault((id(batch), p), {})[card] = new
    for f in s.agenda:                      # a giver still choosing keeps its own list of picks
        if f[0] is _give_next:
            p, picked, batch = f[1][0], f[1][6], f[1][5]
            swap = again.get((id(batch), p)) if batch is not None else None
            if swap:
                picked[:] = [swap.get(c, c) for c in picked]


def _state_from_history(game, seed, history, drawn=()):
    return game.state_from_history(seed, history, drawn)
