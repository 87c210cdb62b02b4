"""Stage 4: compile a checked rulebook into tables and closures, once per load.

Cards become small integers: a *face* is (color, kind) on one side; a physical card has one face
per side. Expressions and actions become closures `fn(state, env)` that call the engine's general
primitives (draw, skip, reverse, swap hands, ...). Nothing here knows a card by name: every card's
behaviour comes from the rulebook.
"""
from __future__ import annotations


from unorules.errors import RuleRuntimeError
from unorules.language.checker import DEFAULT_HAND, DEFAULT_PLAYERS, option_problem
from unorules.language.ir import kind_names, mentions, probability_options, sides_of
from unorules.language.vocab import FRONT_ACTIONS, SCOPED_NAMES
from unorules.language.worth import choice_worths
from .compiled import Compiled, Kind, Reaction, Trigger
from .expressions import (_CONST_RIGHT, _NOT_CONSTANT, ATTRIBUTE_IMPL, BINARY_IMPL, GLOBAL_NAME_IMPL, METHOD_IMPL,
                          _constant, _fast_attr)
from .types import NO_COLOR


class Compiler:
    def __init__(self, rulebook, options: dict | None = None):
        self.rb = rulebook
        self.ir = rulebook.ir
        self.counters = {c["name"]: c for c in self.ir.get("counters", [])}
        self.kind_literals = rulebook.kind_literals          # the checker's: numbers that name a number kind
        self.option_values = {o["name"]: o["value"]["value"] for o in self.ir.get("options", [])}
        chances = probability_options(self.ir)
        for k, v in (options or {}).items():
            if k not in self.option_values:
                raise RuleRuntimeError(f"the rulebook has no option `{k}`" +
                                       (f" (its options: {', '.join(self.option_values)})" if self.option_values else ""))
            problem = option_problem(k, v, self.option_values[k], k in chances)
            if problem:
                raise RuleRuntimeError(problem)
            self.option_values[k] = v

    def where(self, node) -> str:
        file, span = self.rb.where(node)
        return f"{file}:{span.line}:{span.column}" if span else (file or self.rb.name)

    # -----------------------------------------------------------------------------------------
    def compile(self) -> Compiled:
        ir = self.ir
        sides = sides_of(ir)
        self.side_index = {s["name"]: i for i, s in enumerate(sides)}
        self.color_names, side_colors = [], []
        for s in sides:
            ids = []
            for c in s["colors"]:
                ids.append(len(self.color_names))
                self.color_names.append(c)
            side_colors.append(ids)
        self.color_id = {c: i for i, c in enumerate(self.color_names)}
        self.kind_id = {c["names"][0]: i for i, c in enumerate(ir.get("cards", []))}
        kinds = []
        for i, c in enumerate(ir.get("cards", [])):
            name = c["names"][0]
            category = c.get("category") or ("number" if name.isdigit() else "action")
            kinds.append(Kind(i, name, category, category == "wild", int(name) if name.isdigit() else 0,
                              self.side_index.get(c["side"]) if "side" in c else None))
        self.kinds = kinds
        self.rule_bodies = {r["name"]: [] for r in ir.get("rules", [])}   # filled below: rules may do each other
        self.choice_worth = choice_worths(ir)
        for k, c in zip(kinds, ir.get("cards", [])):
            k.at_any_time = bool(c.get("at_any_time"))
            k.points = self.expr(c["points"]) if "points" in c else (lambda s, e: 0)
            k.points_of_card = "points" not in c or self.of_faces(c["points"])
            k.playable = self.expr(c["playable_when"]) if "playable_when" in c else None
            k.legal = self.expr(c["legal_when"]) if "legal_when" in c else None
            for eff in c.get("effects", []):
                k.effects[eff["event"]] = self.actions(eff["actions"])
                k.has_attack = k.has_attack or any(a["kind"] == "attack" for a in _walk(eff["actions"]))
            if "challenge" in c:
                k.challenge = self.actions(c["challenge"])
        # faces and the deck
        faces, face_names, face_by_name = [], [], {}

        def face(color, kind):
            key = (color, kind)
            name = kinds[kind].name if color == NO_COLOR else f"{self.color_names[color]} {kinds[kind].name}"
            if name not in face_by_name:
                face_by_name[name] = len(faces)
                faces.append(key)
                face_names.append(name)
            return face_by_name[name]

        deck = [[] for _ in sides]
        for d in ir.get("deck", []):
            si = self.side_index.get(d.get("side"), 0) if d.get("side") else 0
            for entry in d["entries"]:
                if entry["kind"] == "per_color":
                    for color in side_colors[si]:
                        for cp in entry["copies"]:
                            for f in cp["faces"]:
                                deck[si] += [face(color, self.kind_id[f])] * cp["count"]
                else:
                    for f in entry["faces"]:
                        deck[si] += [face(NO_COLOR, self.kind_id[f])] * entry["count"]
        # every face any side could show, so scenarios may name any (color, kind) pair of a side
        for si, cols in enumerate(side_colors):
            for k in kinds:
                if k.side is not None and k.side != si:
                    continue
                if k.wild:
                    face(NO_COLOR, k.id)
                else:
                    for c in cols:
                        face(c, k.id)
        setup = ir.get("setup", {})
        turn = {"draw_until_playable": False, "draw_only_when_stuck": False, "drawn_card": "may_play",
                "multi_play": False, "turn_cap": 10000, "may_pass": False, "new_deck": False, **ir.get("turn", {})}
        if isinstance(turn["drawn_card"], dict):
            turn["drawn_card_when"] = self.expr(turn["drawn_card"]["must_play_when"])
            turn["drawn_card"] = "must_play"
        if "draw_with" in turn:
            turn["draw_with"] = self.actions(turn["draw_with"])
        for r in ir.get("rules", []):
            self.rule_bodies[r["name"]].append(self.actions(r["actions"]))
        scoring = {"method": "winner_scores_others", "target": None, "eliminate_above": None,
                   "rounds": None, "to_the_last": False, "single_round": False, "places": None,
                   "rank_rest_by": None, "next_dealer": None, "next_leader": None}
        for key, value in ir.get("scoring", {}).items():
            if key == "method" and isinstance(value, dict):       # `winner scores EXPR`
                scoring["method"], scoring["winner_scores"] = "winner_scores", self.expr(value["winner_scores"])
                continue
            scoring[key] = self.expr(value) if isinstance(value, dict) else value
            if key in ("next_dealer", "next_leader"):
                scoring[key] = _seat_rule(scoring[key], self.where(value))
        triggers: dict[str, list[Trigger]] = {}
        for t in ir.get("triggers", []):
            pat = t.get("of", {})
            triggers.setdefault(t["event"], []).append(Trigger(
                t["event"], self.color_id.get(pat["color"]) if "color" in pat else None,
                self.kind_id.get(pat["face"]) if "face" in pat else None,
                self.expr(t["if"]) if "if" in t else None, self.actions(t["actions"]), self.where(t),
                self.expr(t["count"]) if "count" in t else None))
        cards = ir.get("cards", [])
        reactions = [Reaction(frozenset(self.kind_id[n] for n in kind_names(r["to"], cards)),
                              frozenset(self.kind_id[n] for n in kind_names(r["with"], cards)),
                              self.expr(r["if"]) if "if" in r else None, self.actions(r["actions"]))
                     for r in ir.get("reactions", [])]
        jump = ir.get("jump_in")
        players = ir.get("players", {})
        return Compiled(
            name=ir["name"], title=ir.get("title", ir["name"]),
            min_players=players.get("min", DEFAULT_PLAYERS[0]), max_players=players.get("max", DEFAULT_PLAYERS[1]),
            sides=[s["name"] for s in sides], side_colors=side_colors, color_names=self.color_names,
            kinds=kinds, kind_by_name=self.kind_id, faces=faces, face_names=face_names,
            face_by_name=face_by_name, deck=deck, pair_sides_shuffled=bool(ir.get("pair_sides")),
            hand_size=self.expr(setup["hand"]) if "hand" in setup else (lambda s, e: DEFAULT_HAND),
            cut=(self.expr(setup["cut"]["chance"]), self.actions(setup["cut"]["actions"])) if "cut" in setup else None,
            turn=turn, scoring=scoring, reactions=reactions, triggers=triggers,
            declarations=[(d["name"], d["at"], self.actions(d["actions"])) for d in ir.get("declarations", [])],
            jump_in=None if jump is None else (self.expr(jump["when"]) if "when" in jump else _identical_to_top),
            jump_in_of_faces=jump is not None and ("when" not in jump or self.of_faces(jump["when"], ("card", "top"))),
            jump_in_by_anyone=jump is not None and jump.get("by") == "anyone",
            options=dict(self.option_values), ir=ir,
            deck_where=self.where(ir["deck"][0]) if ir.get("deck") else self.rb.name,
            fused_color=[_starts_with_own_color_choice(c) for c in ir.get("cards", [])],
            plain_match=[k.playable is None and (k.legal is None or k.challenge is not None) for k in kinds],
            wild_kind=[k.wild for k in kinds], counters=list(ir.get("counters", [])),
            uses_front=mentions(ir, FRONT_ACTIONS, {"front"}),
            open_hands=mentions(ir, {"show_hand"}),
            false_calls={f["name"]: self.actions(f["actions"]) for f in ir.get("false_calls", [])},
            play_only_when=self.play_rule(ir, "play_only_when", all),
            play_on_anything_when=self.play_rule(ir, "play_on_anything_when", any),
            teams=ir.get("teams"), piles=list(ir.get("piles", ["discard"])), out_of_turn=ir.get("out_of_turn", "nearest"),
            rules={name: body[0] for name, body in self.rule_bodies.items()}, choice_worth=self.choice_worth,
            match_kind=[self.kind_id.get(c.get("matches_as"), i) for i, c in enumerate(ir.get("cards", []))])

    # -----------------------------------------------------------------------------------------
    # expressions: fn(state, env) -> value. players are seats, colors and kinds ids, cards card ids.
    def play_rule(self, ir, kind, combine):
        """The table-wide play rules of one kind as one condition (None without any)."""
        conds = [self.expr(r["when"]) for r in ir.get("play_rules", []) if r["kind"] == kind]
        return _all_of(conds, combine) if conds else None

    def expr(self, e):
        k = e["kind"]
        if k in ("number", "bool", "string"):
            v = _constant(e, self)                  # a number may name a number kind
            return lambda s, env: v
        if k == "name":
            return self.name(e)
        if k == "attr":
            of = self.expr(e["of"])
            c = self.counters.get(e["name"])
            if c is not None and c["per"] == "player":
                n = e["name"]
                return lambda s, env: s.memory[n][of(s, env)]
            fast = _fast_attr(e)
            return fast if fast is not None else ATTRIBUTE_IMPL[e["name"]](of)
        if k == "conditional":
            cond, then, else_ = self.expr(e["if"]), self.expr(e["then"]), self.expr(e["else"])
            return lambda s, env: then(s, env) if cond(s, env) else else_(s, env)
        if k == "aggregate":
            return self.aggregate(e)
        if k == "call":
            of = self.expr(e["of"])
            arg = self.expr(e["arg"])
            return METHOD_IMPL[e["name"]](of, arg, e.get("as", "card"))
        if k == "not":
            of = self.expr(e["of"])
            return lambda s, env: not of(s, env)
        if k == "is":
            of, category = self.expr(e["of"]), e["category"]
            return lambda s, env: s.game.rules.kinds[s.kind_of(of(s, env))].category == category
        if k == "neg":
            of = self.expr(e["of"])
            return lambda s, env: -of(s, env)
        if k == "binary":
            left, right = self.expr(e["left"]), self.expr(e["right"])
            const = _constant(e["right"], self)
            if const is not _NOT_CONSTANT and e["op"] in _CONST_RIGHT:
                return _CONST_RIGHT[e["op"]](left, const)
            return BINARY_IMPL[e["op"]](left, right)
        raise RuleRuntimeError(f"cannot compile expression kind {k!r}", self.where(e))

    def of_faces(self, e, cards=("card",)) -> bool:
        """Does the expression's value depend on nothing but the faces of the named cards (their
        color, kind, rank, wildness) and constants? Then it may be computed once per face."""
        k = e["kind"]
        if k in ("number", "bool", "string"):
            return True
        if k == "name":
            n = e["name"]
            return n in cards or (n not in GLOBAL_NAME_IMPL and n not in SCOPED_NAMES
                                  and n in (self.color_id.keys() | self.kind_id.keys() | self.option_values.keys()))
        if k == "attr":
            return e["name"] in ("color", "kind", "rank", "wild") and self.of_faces(e["of"], cards)
        if k in ("not", "neg", "is"):
            return self.of_faces(e["of"], cards)
        if k == "binary":
            return self.of_faces(e["left"], cards) and self.of_faces(e["right"], cards)
        return False

    def aggregate(self, e):
        """sum / max / min / count over a loop of players, or the player with the most / fewest."""
        over, op = e["over"], e["op"]
        players = _each_other if over["kind"] == "each_other" else _each_player
        name = over["as"]
        if "where" in over:
            players = _players_where(players, name, self.expr(over["where"]))
        of = self.expr(e["of"]) if "of" in e else None

        def values(s, env):
            e2 = dict(env)
            for q in players(s, env):
                e2[name] = q
                yield q, (of(s, e2) if of is not None else 1)
        if op == "count":
            return lambda s, env: sum(1 for _ in values(s, env))
        if op == "sum":
            return lambda s, env: sum(v for _, v in values(s, env))
        if op in ("max", "min"):
            pick = max if op == "max" else min
            return lambda s, env: pick((v for _, v in values(s, env)), default=0)
        better = (lambda v, best: v > best) if op == "most" else (lambda v, best: v < best)

        def extreme(s, env):                # ties: the first in the loop's order
            found, best = None, None
            for q, v in values(s, env):
                if found is None or better(v, best):
                    found, best = q, v
            return found
        return extreme

    def name(self, e):
        n = e["name"]
        if n in GLOBAL_NAME_IMPL:
            return GLOBAL_NAME_IMPL[n]
        c = self.counters.get(n)
        if c is not None and c["per"] == "game":
            return lambda s, env: s.memory[n]
        if n in SCOPED_NAMES or n not in (self.color_id.keys() | self.kind_id.keys() | self.option_values.keys()):
            # a scoped name, or a name bound by `choose player ... as NAME` (the checker made sure)
            where = self.where(e)

            def scoped(s, env, n=n):
                try:
                    return env[n]
                except KeyError:
                    raise RuleRuntimeError(f"`{n}` has no value here", where) from None
            return scoped
        if n in self.color_id:
            v = self.color_id[n]
            return lambda s, env: v
        if n in self.kind_id:
            v = self.kind_id[n]
            return lambda s, env: v
        if n in self.option_values:
            v = self.option_values[n]
            return lambda s, env: v
        raise RuleRuntimeError(f"unknown name `{n}`", self.where(e))

    # -----------------------------------------------------------------------------------------
    # actions: fn(state, env) -> None
    def actions(self, actions) -> tuple:
        return tuple(self.action(a) for a in actions)

    def action(self, a):
        import unorules.engine.primitives as E
        k = a["kind"]
        where = self.where(a)
        subj = a.get("subject")
        loop_name = subj.get("as") if subj else None
        if subj is None:
            who = _default_subject
        elif subj["kind"] in ("each_other", "each_player"):
            who = _each_other if subj["kind"] == "each_other" else _each_player
            if "where" in subj:
                who = _players_where(who, loop_name, self.expr(subj["where"]))
        else:
            one = self.expr(subj)
            who = lambda s, env: (one(s, env),)     # noqa: E731
        # a block with a subject runs once per subject, for that subject (its default performer),
        # and a loop's name is bound to the player of each round of the loop
        per_subject = subj is not None and (loop_name is not None or k in BLOCK_KINDS)
        ex = {key: self.expr(a[key]) for key in ("count", "color", "with", "to", "amount", "target", "penalty", "where",
                                                 "what", "value", "from", "hand", "low", "high")
              if isinstance(a.get(key), dict)}
        impl = getattr(E, "act_" + k)
        kw = {}
        if k == "attack":
            kw = dict(body=self.actions(a["actions"]))
        elif k == "if":
            kw = dict(branches=tuple((self.expr(b["when"]), self.actions(b["then"])) for b in a["branches"]),
                      otherwise=self.actions(a.get("otherwise", [])))
        elif k == "chance":
            kw = dict(name=a["name"], outcomes=tuple(
                (o["name"], self.expr(o["weight"]) if "weight" in o else (lambda s, env: 1), self.actions(o["actions"]))
                for o in a["outcomes"]))
        elif k == "perform":
            kw = dict(name=a["name"], chance=self.expr(a["chance"]) if "chance" in a else (lambda s, env: 0.5),
                      success=self.actions(a["actions"]), failure=self.actions(a.get("otherwise", [])))
        elif k == "choose_player":
            kw = dict(other=a["other"], name=a.get("as", "chosen"))
        elif k == "group":
            kw = dict(body=self.actions(a["actions"]))
        elif k == "repeat":
            kw = dict(until=self.expr(a["until"]), most=a["most"], body=self.actions(a["actions"]))
        elif k == "let":
            kw = dict(name=a["as"])
        elif k in ("set_counter", "add_counter", "clear_counter"):
            c = self.counters[a["counter"]]
            kw = dict(name=c["name"], per_player=c["per"] == "player", flag=c["kind"] == "flag",
                      # a value for the table that lasts until its setter's next turn: who set it, when
                      by_setter=c["per"] != "player" and c.get("reset") in ("next_turn", "at_next_turn"))
        elif k in ("choose_option", "choose_number", "choose_kind"):
            kw = dict(name=a["as"], options=tuple(a.get("options", ())), worth=self.choice_worth.get(id(a)))
        elif k == "give":
            kw = dict(at_once=bool(a.get("at_once")))
        elif k == "pass_hands":
            kw = dict(direction={"clockwise": 1, "counterclockwise": -1}.get(a.get("direction")))
        elif k == "look_at":
            ex["owner"] = self.expr(a["hand"]["of"])
        elif k == "discard_all":
            kw = dict(by_kind=id(a) in self.rb.kind_actions)
        elif k == "show_hand":
            kw = dict(until=a["until"])
        elif k == "put_in_front":
            ex["card"] = self.expr(a["card"])
        elif k in ("discard_from_front", "move_to_hand"):
            ex["owner"] = self.expr(a["from"]["of"])
            kw = dict(by_kind=id(a) in self.rb.kind_actions)
        elif k == "do":
            kw = dict(rule=a["rule"], body=self.rule_bodies[a["rule"]])
        elif k == "may_play":
            kw = dict(any=bool(a.get("any")))
        elif k == "eliminate":
            kw = {"from": a.get("from", "game")}
        elif k == "flip":
            mode = self.option_values.get(a.get("pile", "whole"), a.get("pile", "whole"))
            if mode not in ("whole", "top"):
                raise RuleRuntimeError(f"option `{a['pile']}` says how the pile turns: \"whole\" or \"top\", not {mode!r}")
            kw = dict(top_only=mode == "top")
        loop = subj is not None and subj["kind"] in ("each_other", "each_player")
        return E.bind(impl, who, where, ex, per_subject=per_subject, loop_name=loop_name, loop=loop, **kw)


def _all_of(conds, combine):
    if len(conds) == 1:
        return conds[0]
    return lambda s, env: combine(c(s, env) for c in conds)


def _seat_rule(fn, where):
    """The scoring's `next dealer` / `next leader`: a player, or a runtime error at the rule."""
    def seat(s, env):
        p = fn(s, env)
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < s.n:
            raise RuleRuntimeError(f"the next dealer or leader must be a player, not {'nobody' if p is None else repr(p)}",
                                   where)
        return p
    return seat


def _starts_with_own_color_choice(card: dict) -> bool:
    """Does the card's `on play` begin with its player naming a color? Then a play of it carries
    that color (one decision, as OpenSpiel and RLCard encode a wild)."""
    for eff in card.get("effects", []):
        if eff["event"] == "play" and eff["actions"]:
            first = eff["actions"][0]
            return first["kind"] == "choose_color" and "subject" not in first
    return False


def _identical_to_top(s, env):
    """The default jump-in condition: the card is identical (color and kind) to the top card."""
    c, top = env["card"], s.discard[-1]
    return s.ccolor[c] == s.ccolor[top] and s.ckind[c] == s.ckind[top]


def _default_subject(s, env):
    return (env["@who"],)


def _each_other(s, env):
    return s.others_in_order(env["me"])


def _each_player(s, env):
    return (env["me"],) + s.others_in_order(env["me"])


def _players_where(players, name, cond):
    """The players of a loop for whom `cond` holds, with `name` bound to each in turn (judged
    once, when the action starts)."""
    def who(s, env):
        out = []
        for q in players(s, env):
            e = dict(env)
            e[name] = q
            if cond(s, e):
                out.append(q)
        return tuple(out)
    return who


BLOCK_KINDS = frozenset({"if", "chance", "perform", "group", "do", "repeat"})     # actions that hold actions of their own


def _walk(actions):
    from unorules.language.ir import walk
    return walk(actions)


def compile_rulebook(rulebook, options: dict | None = None) -> Compiled:
    compiler = Compiler(rulebook, options)
    compiled = compiler.compile()
    compiled.compiler = compiler         # its name tables and the rules' places (spans): the code generator's
    return compiled
