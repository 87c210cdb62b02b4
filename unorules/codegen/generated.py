"""Generated simulators at run time: the source generator.py makes for a game, compiled once per
process with its tables, registered with `linecache` (a traceback inside it shows its lines), and
played game by game; what it returns is read by the statistics as a State is.

A runtime error inside generated code names the rule it came from, by the source map codegen keeps
(generated line -> rulebook file:line:col), as the engine names it."""
from __future__ import annotations

import hashlib
from bisect import bisect
from itertools import accumulate
import linecache
from operator import add, mul, sub
import random
import traceback

from unorules.engine.primitives import MAX_CHOICES
from unorules.engine.table import MATCH_ANY, MATCH_RULE, MAX_DRAW
from unorules.engine.types import MAX_TRIGGER_DEPTH, NO_COLOR, TERMINAL
from unorules.engine.types import DRAW, KEEP
from unorules.errors import MAX_VALUE, RULE_FAILURES, RuleRuntimeError, bounded
from .generator import EXTERNAL, generate, option_groups
from .options import ruled_faces

AGENT_CODES = {"random": 0, "random_play": 1, "greedy": 2}     # the seats' agents, as generated code knows them
# (an external seat, whose choices are made outside the code, has none: steps.py)
WHY = ("draw", "until_playable", "until_color")
REASONS = ("win", "stalled", "round cap")
OUTCOMES = ("win", "stalled")


class GameRecord:
    """One finished game of generated code: the fields of a final State that the statistics and the
    event log read (stats.Summary.add_game)."""
    __slots__ = ("outcome", "winner", "winners", "error", "round", "scores", "turns_per_round", "drawn_per_round",
                 "counts", "tracked_players", "log", "rules", "team_of", "seats")

    def __init__(self, game, outcome, winner, error, round_no, scores, turns_per_round, drawn_per_round, drawn, plays,
                 reshuffles, decisions, turn_decisions, challenges, challenges_won, catches, tracked, log, seats=None):
        self.outcome, self.winner, self.error, self.round = outcome, winner, error, round_no
        self.winners = [] if winner is None or outcome != "win" else [winner]
        self.scores, self.turns_per_round, self.drawn_per_round = scores, turns_per_round, drawn_per_round
        self.counts = {"drawn": drawn, "challenges": challenges, "challenges_won": challenges_won, "catches": catches,
                       "reshuffles": reshuffles,
                       "plays": plays, "decisions": decisions, "turn_decisions": turn_decisions}
        self.tracked_players, self.log = tracked, log
        self.rules, self.team_of = game.rules, game.team_of
        self.seats = seats if seats is not None else list(range(game.players))   # seat -> original player


class Program:
    """A game's generated simulator: `play(seed, agent_names)` plays the game the engine would play
    with that seed and those agents (simulation.play_one) and returns a GameRecord."""

    def __init__(self, game, agents: tuple, representation: str = "cards", rng=None, entry: bool = False):
        """`rng`: the class of each game's random streams (random.Random; native.rng.SplitMix for
        the native simulator's reference, which plays the native code's games). `entry`: the code
        is `play_from`, which goes on from a position between turns (playouts.py)."""
        self.game = game
        self.agents = tuple(agents)
        self._codes, self._names = tuple(AGENT_CODES.get(n, -1) for n in agents), None
        self.representation = representation
        src = generate(game, agents, representation, entry)
        self.source = src.text()
        self.where = src.where
        self.texts = list(src.texts)
        digest = hashlib.sha256(self.source.encode()).hexdigest()[:12]
        self.filename = f"<unorules-generated {digest}>"
        linecache.cache[self.filename] = (len(self.source), None, self.source.splitlines(True), self.filename)
        namespace = tables(game, self, counted=representation == "counted")
        if rng is not None:
            namespace["RANDOM"] = rng
        self.namespace = namespace
        exec(compile(self.source, self.filename, "exec"), namespace)
        if entry:
            self.play_from = namespace["play_from"]
        else:
            self._play, self._play_quiet = namespace["play"], namespace["play_quiet"]

    def play(self, seed: int, names, log: bool | list = False) -> GameRecord:
        """`log`: keep the event log (`play`; a list: append the events to it), else play the same
        game without it (`play_quiet`)."""
        if names != self._names:             # (the list simulate passes every game: checked once)
            if tuple(names) != self.agents:
                raise ValueError(f"this code was generated for the agents {self.agents}, not {tuple(names)}")
            self._names = list(names)
        agents = self._codes
        if isinstance(log, list):            # (an empty one too: the replay's log starts empty)
            return self._play(seed, agents, log, set())
        if log:
            return self._play(seed, agents, [], set())
        return self._play_quiet(seed, agents, None, set())

    def rule_of(self, e: Exception) -> str | None:
        """The rule (file:line:col) of the innermost generated line the error passed through."""
        where = None
        for frame, line in traceback.walk_tb(e.__traceback__):
            if frame.f_code.co_filename == self.filename and 0 < line <= len(self.where):
                where = self.where[line - 1] or where
        return where

    def rule_failed(self, e: Exception) -> RuleRuntimeError:
        """A Python error inside generated code, as the engine reports it: naming the rule."""
        return RuleRuntimeError(f"the rule failed: {e}", self.rule_of(e))

    def rule_where(self, e: RuleRuntimeError) -> RuleRuntimeError:
        """A rule's runtime error as the engine's `bind` reports it: with the rule's file:line:col."""
        where = None if e.where is not None else self.rule_of(e)
        return RuleRuntimeError(e.args[0], where) if where else e


def extreme(pairs, most: bool):
    """compiler.aggregate's most / fewest: the first player with the best value (None if none)."""
    found, best = None, None
    for q, v in pairs:
        if found is None or (v > best if most else v < best):
            found, best = q, v
    return found


class TurnStalled(Exception):
    """A turn asked more than MAX_TURN_DECISIONS decisions: generated code ends the round stalled."""


def chance_pick(texts):
    """The outcome random.choices picks with the engine's chance node: weights normalised to
    probabilities, one draw from the game's generator (primitives.act_chance, play_one)."""
    def pick(weights, rnd, name, outcomes=()):
        for i, w in enumerate(weights):
            if not 0 <= w <= MAX_VALUE:          # primitives.act_chance
                raise RuleRuntimeError(f"chance `{texts[name]}`: outcome `{texts[outcomes[i]]}` has a weight of {w!r}, "
                                       "and a weight is a number from 0 up")
        total = sum(weights)
        if total <= 0:
            raise RuleRuntimeError(f"chance `{texts[name]}` has no outcome with a positive weight")
        cum = list(accumulate([w / total for w in weights]))
        return bisect(cum, rnd() * (cum[-1] + 0.0), 0, len(cum) - 1)
    return pick


def held(counts, mask):
    """A hand counted per face, as its faces in face order, each as often as it is held."""
    out = []
    while mask:
        low = mask & -mask
        f = low.bit_length() - 1
        out += [f] * counts[f]
        mask ^= low
    return out


def hand_points(points):
    """The points of a hand counted per face: a sum of products where every card's points are
    whole (exact in any order), else card by card in face order, as its reference adds them."""
    if all(type(v) is int for v in points):
        return lambda counts, mask: sum(map(mul, points, counts))
    return lambda counts, mask: sum(points[f] for f in held(counts, mask))


def faces_in(mask):
    """The faces of a mask, in face order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tables(game, program, counted: bool = False) -> dict:
    """The names generated code reads: the deck's tables, the play actions, the event writers.
    `counted`: the code holds faces, not cards (codegen.Generator), so each card table is indexed
    by face (the cards of one face share every entry)."""
    r, n = game.rules, game.players
    st = game.new_state(0, deal=False)
    st.setup_cards(None)
    faces, cmask, opts, opts_call = st._match[0], st._match[1], st._match[2], st._match[3]
    names = [r.face_names[f] for f in st.card_faces[0]]
    colors = r.color_names
    points = [r.kinds[st.ckind[c]].points(st, {"me": 0, "@who": 0, "card": c}) for c in range(st.ncards)]
    ccolor, ckind, deck = st.ccolor, st.ckind, list(faces)
    if counted:
        nfaces = len(r.faces)
        card_of = [0] * nfaces                  # a card of each face (any: they share every entry)
        for c in reversed(range(st.ncards)):
            card_of[faces[c]] = c

        def by_face(table):
            return [table[card_of[f]] for f in range(nfaces)]
        ccolor, ckind, cmask, opts, opts_call, names, points = (
            by_face(t) for t in (ccolor, ckind, cmask, opts, opts_call, names, points))
        faces = list(range(nfaces))

    def others(direction):
        return [tuple((p + k * direction) % n for k in range(1, n)) for p in range(n)]

    def ev(log, r_, type_, **fields):
        e = {"type": type_, "round": r_}
        e.update(fields)
        log.append(e)

    def card_names(cards):
        return [names[c] for c in cards]

    def deal(log, r_, size, hands, dealer):
        order = [(dealer + 1 + i) % n for i in range(n)]
        ev(log, r_, "deal", hand=size, hands={str(q): card_names(hands[q]) for q in order})

    def seat(q):                    # compiler._seat_rule
        if not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < n:
            raise RuleRuntimeError(f"the next dealer or leader must be a player, not {'nobody' if q is None else repr(q)}")
        return q

    def divide(a, b):
        return a // b if isinstance(a, int) and isinstance(b, int) and b else (a / b if b else 0)

    ns = {
        "__builtins__": {"range": range, "len": len, "int": int, "min": min, "max": max, "sum": sum, "any": any,
                         "all": all, "next": next, "tuple": tuple, "enumerate": enumerate, "float": float, "set": set,
                         "sorted": sorted, "bool": bool, "reversed": reversed, "list": list},
        "RANDOM": random.Random, "N": n, "NCARDS": st.ncards, "CCOLOR": ccolor, "CKIND": ckind,
        "CMASK": cmask, "FACES": faces, "NOPT": [len(o) for o in opts],
        "VCOLOR": [tuple(a.color for a in o) for o in opts], "VCALL": [tuple(a.call for a in o) for o in opts],
        "NOPT_CALL": [len(o) for o in opts_call], "VCOLOR_CALL": [tuple(a.color for a in o) for o in opts_call],
        "VCALL_CALL": [tuple(a.call for a in o) for o in opts_call], "COLOR_BIT": game.color_bit, "KIND_BIT": game.kind_bit,
        "TARGET": [[MATCH_ANY | MATCH_RULE | game.color_bit[c + 1] | game.kind_bit[k] for k in range(len(r.kinds))]
                   for c in range(-1, len(colors))],
        "MATCH_ANY": MATCH_ANY, "MATCH_RULE": MATCH_RULE, "WILD": r.wild_kind, "MATCHK": r.match_kind,
        "RANK": [k.rank for k in r.kinds], "POINTS": points,
        "GREEDY": AGENT_CODES["greedy"], "RANDOM_PLAY": AGENT_CODES["random_play"],
        "ATTACKS": [k.has_attack for k in r.kinds],
        "COLOR_INDEX": [r.side_colors[0].index(c) if c in r.side_colors[0] else -1 for c in range(-1, len(colors))],
        "TRACKED": [k.id in game.track_kinds for k in r.kinds],
        "HAS_PLAY": [bool(k.effects.get("play")) for k in r.kinds],
        "HAS_TURN_UP": [bool(k.effects.get("turn_up")) for k in r.kinds],
        "OTHERS": {1: others(1), -1: others(-1)},
        "NCOLORS": len(r.side_colors[0]),
        "SIDE_COLORS": r.side_colors[0], "NO_COLOR": NO_COLOR, "DRAW": DRAW, "KEEP": KEEP, "MAX_DRAW": MAX_DRAW,
        "RuleRuntimeError": RuleRuntimeError, "RULE_FAILURES": RULE_FAILURES, "RULE_FAILED": program.rule_failed,
        "BOUNDED": lambda value, what: bounded(value, program.texts[what]),
        "TURN_STALLED": TurnStalled, "TurnStalled": TurnStalled,
        "RULE_WHERE": program.rule_where, "CHANCE_PICK": chance_pick(program.texts),
        "NOT_A_COLOR": lambda c: f"`{colors[c]}` is not a color of the side in play (`{r.sides[0]}`)",
        "NO_FIRST_CARD": "there is no card to turn up", "DIVIDE": divide, "MAX_TRIGGER_DEPTH": MAX_TRIGGER_DEPTH,
        "HOOKS_PASSED": f"an attack was passed on by `on attacked` rules more than {MAX_TRIGGER_DEPTH} times",
        "NO_NUMBER": lambda lo, hi: f"there is no number from {lo} to {hi} to choose",
        "TOO_MANY_NUMBERS": lambda n: f"a choice of {n} numbers; the limit is {MAX_CHOICES}",
        "NOTHING_TO_CHOOSE": lambda name: f"there is nothing to choose as `{program.texts[name]}`",
        "NKINDS": len(r.kinds),
        "MODULO": lambda a, b: a % b if b else 0,
        "TIMES": mul, "PLUS": add, "MINUS": sub,
        "OUTCOME_NAMES": OUTCOMES, "ERROR": "error",
        "RESULT": lambda *fields: GameRecord(game, *fields),
        "EV_ROUND_START": lambda log, r_, dealer, leader: ev(log, r_, "round_start", dealer=dealer,
                                                             **({"leader": leader} if leader is not None else {})),
        "SEAT": seat, "MOST": lambda pairs: extreme(pairs, True), "FEWEST": lambda pairs: extreme(pairs, False),
        "EV_DEAL": deal,
        "EV_TURN_UP": lambda log, r_, card: ev(log, r_, "turn_up", card=names[card]),
        "EV_TURN": lambda log, r_, p: ev(log, r_, "turn", player=p),
        "EV_SKIP": lambda log, r_, p: ev(log, r_, "skip", player=p),
        "EV_PLAY": lambda log, r_, p, card, call: ev(log, r_, "play", player=p, card=names[card],
                                                     **({"uno": True} if call else {})),
        "EV_UNO": lambda log, r_, p: ev(log, r_, "uno", player=p),
        "EV_CATCH": lambda log, r_, q, x: ev(log, r_, "catch", player=q, caught=x),
        "EV_CHALLENGE": lambda log, r_, t, a, legal, hand: ev(log, r_, "challenge", player=t, attacker=a, legal=legal,
                                                              hand=card_names(hand)),
        "EV_SHUFFLE_HANDS": lambda log, r_, p: ev(log, r_, "shuffle_hands", player=p),
        "EV_RESPOND": lambda log, r_, p, card, to: ev(log, r_, "respond", player=p, card=names[card], to=to),
        "EV_PASS_ATTACK": lambda log, r_, p, to, pen: ev(log, r_, "pass_attack", player=p, to=to, penalty=pen),
        "EV_CANCEL_ATTACK": lambda log, r_, p, att, t, pen: ev(log, r_, "cancel_attack", player=p, attacker=att,
                                                                target=t, penalty=pen),
        "EV_TAKE_BACK": lambda log, r_, p, card: ev(log, r_, "take_back", player=p, card=names[card]),
        "REACT_TO": [[k.id in x.to for k in r.kinds] for x in r.reactions],
        "REACT_WITH": [[k.id in x.with_ for k in r.kinds] for x in r.reactions],
        "EV_JUMP_IN": lambda log, r_, q, card: ev(log, r_, "jump_in", player=q, card=names[card]),
        "EV_ANY_TIME": lambda log, r_, q, card, p: ev(log, r_, "any_time", player=q, card=names[card], turn_player=p),
        "ANY_TIME": [k.at_any_time for k in r.kinds],
        "CLOCKWISE": [tuple((p + k) % n for k in range(1, n)) for p in range(n)],
        "FUSED": r.fused_color, "NO_COLORS": (None,),
        "EV_COUNTER": lambda log, r_, name, v, p: ev(log, r_, "counter", name=program.texts[name], value=v,
                                                     **({"player": p} if p is not None else {})),
        "EV_SWAP_HANDS": lambda log, r_, p, q: ev(log, r_, "swap_hands", player=p, other=q),
        "EV_SWAP_SEATS": lambda log, r_, p, q: ev(log, r_, "swap_seats", player=p, other=q),
        "EV_PASS_HANDS": lambda log, r_, d: ev(log, r_, "pass_hands",
                                               direction="clockwise" if d == 1 else "counterclockwise"),
        "EV_NO_CHOICE": lambda log, r_, p: ev(log, r_, "no_choice", player=p),
        "EV_CHOOSE": lambda log, r_, q: ev(log, r_, "choose", player=q),
        "EV_CHOOSE_NUMBER": lambda log, r_, p, name, v: ev(log, r_, "choose", player=p, name=program.texts[name], value=v),
        "EV_CHOOSE_KIND": lambda log, r_, p, name, k: ev(log, r_, "choose", player=p, name=program.texts[name],
                                                         value=r.kinds[k].name),
        "EV_GIVE_HAND": lambda log, r_, p, q: ev(log, r_, "give_hand", player=p, to=q),
        "EV_EXCHANGE": lambda log, r_, p, q, a, b: ev(log, r_, "exchange", player=p, other=q,
                                                      gave=names[a] if a is not None else None,
                                                      got=names[b] if b is not None else None),
        "EV_GIVE": lambda log, r_, p, q, card: ev(log, r_, "give", player=p, to=q, card=names[card]),
        "EV_CUT": lambda log, r_, dealer, exact: ev(log, r_, "cut", dealer=dealer, exact=bool(exact)),
        "EV_LOOK_AT": lambda log, r_, p, q, cards: ev(log, r_, "look_at", player=p, other=q, cards=card_names(cards)),
        "EV_TAKE": lambda log, r_, p, q, card: ev(log, r_, "take", **{"player": p, "from": q, "card": names[card]}),
        "EV_CHOOSE_OPTION": lambda log, r_, p, name, v: ev(log, r_, "choose", player=p, name=program.texts[name],
                                                           value=program.texts[v]),
        "EV_PERFORM": lambda log, r_, p, name, done: ev(log, r_, "perform", player=p, name=program.texts[name],
                                                        success=bool(done)),
        "EV_CHANCE": lambda log, r_, name, outcome: ev(log, r_, "chance", name=program.texts[name],
                                                       outcome=program.texts[outcome]),
        "EV_DRAW": lambda log, r_, p, cards, why: ev(log, r_, "draw", player=p, count=len(cards),
                                                     cards=card_names(cards), why=WHY[why]),
        "EV_DRAW_SHORT": lambda log, r_, p, wanted, got: ev(log, r_, "draw_short", player=p, wanted=wanted, got=got),
        "EV_REVERSE": lambda log, r_, d: ev(log, r_, "reverse", direction="clockwise" if d == 1 else "counterclockwise"),
        "EV_PLAY_AGAIN": lambda log, r_, p: ev(log, r_, "play_again", player=p),
        "EV_COLOR": lambda log, r_, c: ev(log, r_, "color", color=colors[c] if c != NO_COLOR else None),
        "EV_ATTACK": lambda log, r_, a, t, pen: ev(log, r_, "attack", attacker=a, target=t, penalty=pen),
        "EV_REDRAW": lambda log, r_, card: ev(log, r_, "redraw", card=names[card]),
        "EV_REVEAL": lambda log, r_, card: ev(log, r_, "reveal", card=names[card]),
        "EV_DISCARD": lambda log, r_, p, gone: ev(log, r_, "discard", player=p, count=len(gone), cards=card_names(gone)),
        "EV_RESHUFFLE": lambda log, r_, size: ev(log, r_, "reshuffle", size=size),
        "EV_KEEP": lambda log, r_, p: ev(log, r_, "keep", player=p),
        "EV_ROUND_END": lambda log, r_, w, reason: ev(log, r_, "round_end", winner=w, reason=REASONS[reason]),
        "EV_SCORE": lambda log, r_, p, g, total: ev(log, r_, "score", player=p, points=g, total=total),
        "EV_GAME_END": lambda log, r_, w, outcome: ev(log, r_, "game_end", winner=w, outcome=OUTCOMES[outcome]),
        "EV_ERROR": lambda log, r_, e: ev(log, r_, "error", message=str(e)),
    }
    if EXTERNAL in program.agents:           # code stopped at each decision: the engine's action ids
        space = game.action_space
        ns.update({
            "PID": [[space.id_of(st, a) for a in o] for o in opts],
            "PID_CALL": [[space.id_of(st, a) for a in o] for o in opts_call] if game.declaration else None,
            "DRAW_ID": space.index[("draw", None, None, False, None)], "TERMINAL": TERMINAL,
            "KEEP_ID": space.index.get(("keep", None, None, False, None), -1),
            "COLOR_ASK_IDS": [space.index.get(("color", c, None, False, None), -1) for c in r.side_colors[0]],
            "CHALLENGE_IDS": [space.index.get(("challenge", v, None, False, None), -1) for v in (True, False)],
            "CATCH_IDS": [space.index.get(("catch", q, None, False, None), -1) for q in range(n)],
            "CATCH_NONE_ID": space.index.get(("catch", None, None, False, None), -1),
            "RESPOND_IDS": [[space.index.get(("respond", f, None, call, None), -1) for f in range(len(r.faces))]
                            for call in (False, True)],
            "RESPOND_NONE_ID": space.index.get(("respond", None, None, False, None), -1),
            "PLAYER_IDS": [space.index.get(("player", q, None, False, None), -1) for q in range(n)],
            # out of turn: (face, color, call) -> id, and none's id
            "JUMP_IDS": {(k[1], k[2], k[3]): i for k, i in space.index.items() if k[0] == "jump_in" and k[1] is not None},
            "JUMP_NONE_ID": space.index.get(("jump_in", None, None, False, None), -1),
            "ANY_TIME_IDS": {(k[1], k[2], k[3]): i for k, i in space.index.items()
                             if k[0] == "any_time" and k[1] is not None},
            "ANY_TIME_NONE_ID": space.index.get(("any_time", None, None, False, None), -1),
            # a rule's choice: of a named option (by its index in TEXTS), a number, a kind
            "OPTION_IDS": [space.index.get(("option", text, None, False, None), -1) for text in program.texts],
            "NUMBER_IDS": {k[1]: i for k, i in space.index.items() if k[0] == "number"},
            "KIND_IDS": [space.index.get(("kind", k, None, False, None), -1) for k in range(len(r.kinds))],
            "CARD_IDS": [space.index.get(("card", f, None, False, None), -1) for f in range(len(r.faces))],
        })
    if counted:
        ns.update({
            "DECK": deck, "NFACES": len(faces), "BIT": [1 << f for f in faces], "HELD": held,
            "NO_FACES": [0] * len(faces), "FACES_IN": faces_in, "COLOR_IDS": range(-1, len(colors)),
            "HAND_POINTS": hand_points(points), "NCOLOR_SLOTS": len(colors) + 1,
            "SUM_MASK": lambda faces_: sum(1 << f for f in faces_),
            # per kind whose faces a rule of its own judges (PlayOptions.ruled_faces): those faces
            "RULED_MASKS": [sum(1 << f for f in fs) for _, fs in ruled_faces(game)],
            # per group j of faces with as many play actions each: the faces, without and with the call
            "NOPT_MASKS": [m for _, m in option_groups(opts)], "NOPT_MASKS_CALL": [m for _, m in option_groups(opts_call)],
            # by current color and top kind: the faces whose match mask shares a bit with the target
            # (play_options' candidates)
            "FACES_TO": [[sum(1 << f for f in faces if cmask[f] & t) for t in row] for row in ns["TARGET"]],
        })
    return ns
