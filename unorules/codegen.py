"""Code generation: a compiled rulebook as the Python source of one function that plays a whole
game, the way Jinja2 compiles a template once and runs that. The agenda engine stays the
reference; this is its fast path for `simulate`, and it plays the engine's games (the same random
streams, the same event logs: tests/test_codegen.py holds the two equal).

The source holds only identifiers made here and literals written with `repr` of validated ints,
floats and booleans (codegen_expr.literal). Tables (faces, masks, the play actions, points,
names for the event log) are objects given to the code when it is loaded (generated.py), never
text in it. Each line that comes from a rule is mapped to the rule's file:line:col (`where`), so a
runtime error in generated code names the rulebook as the engine would.

What the generator does not translate (counters, triggers, reactions and challenges, several
piles or sides, teams, any agent that reads observations, ...) raises NotCovered: `coverage()`
gives the reason and simulation falls back to the engine, saying so."""
from __future__ import annotations

from contextlib import contextmanager

from .codegen_expr import ExprGen, NotCovered, literal
from .rounds import MAX_ROUNDS as MAX_ROUNDS_

# the event-log writers the generated code calls (generated.py makes them): their argument codes
WHY_DRAW, WHY_UNTIL_PLAYABLE = 0, 1
REASON_WIN, REASON_STALLED, REASON_ROUND_CAP = 0, 1, 2
OUTCOME_WIN, OUTCOME_STALLED = 0, 1

COVERED_ACTIONS = {"lose_turn", "reverse", "play_again", "draw", "choose_color", "set_color", "redraw", "attack",
                   "if", "group", "shuffle_hands", "resolve_attack", "cancel_attack"}
COVERED_AGENTS = ("random", "random_play", "greedy")    # agents whose choices the code makes inline (agents.py)
HAS_TABLE = {"play": "HAS_PLAY", "turn_up": "HAS_TURN_UP"}   # kind -> it has rules for the event
# the tables read on every turn, bound as the function's locals (default arguments) when it is loaded
HOT_TABLES = ("CCOLOR", "CKIND", "CMASK", "FACES", "NOPT", "VCOLOR", "COLOR_BIT", "KIND_BIT", "WILD", "MATCHK",
              "OTHERS", "MATCH_ANY", "MATCH_RULE", "NO_COLOR", "N", "TARGET", "HAS_PLAY", "POINTS", "ATTACKS", "GREEDY",
              "RANDOM_PLAY")     # agents whose choice the code makes inline, with their generator


class Source:
    """Lines of Python with their indentation, and the rule each line comes from."""

    def __init__(self):
        self.lines: list[str] = []
        self.where: list[str | None] = []        # per line: the rule's file:line:col, or None
        self.depth = 0
        self.rule: str | None = None

    def __call__(self, text: str):
        self.lines.append("    " * self.depth + text)
        self.where.append(self.rule)

    @contextmanager
    def block(self, header: str):
        self(header)
        self.depth += 1
        start = len(self.lines)
        yield
        if len(self.lines) == start:
            self("pass")
        self.depth -= 1

    @contextmanager
    def from_rule(self, where: str | None):
        saved, self.rule = self.rule, where or self.rule
        yield
        self.rule = saved

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def coverage(game, agents: tuple = ("random",)) -> str | None:
    """Why this game cannot run as generated code, or None when it can."""
    try:
        generate(game, agents)
    except NotCovered as e:
        return str(e)
    return None


def check_covered(game):
    r = game.rules
    for what, present in (("triggers (`on EVENT`)", r.triggers), ("reactions (stacking)", r.reactions),
                          ("more than one declaration", len(r.declarations) > 1),
                          ("jumping in", r.jump_in is not None), ("teams", r.teams),
                          ("several discard piles", len(r.piles) > 1), ("double-faced cards", len(r.sides) > 1),
                          ("counters and flags", r.counters), ("a cut at the deal", r.cut is not None),
                          ("named rules (`rule NAME`)", r.rules),
                          ("several cards at once", r.turn["multi_play"]),
                          ("`draw with`", r.turn.get("draw_with")), ("`draw up to N cards`", r.turn.get("draw_up_to")),
                          ("cards playable at any time", game.any_time_kinds),
                          ("points that depend on the game", not all(k.points_of_card for k in r.kinds))):
        if present:
            raise NotCovered(what)
    sc = r.scoring
    for key in ("eliminate_above", "places", "rank_rest_by", "next_dealer", "next_leader"):
        if sc[key] is not None:
            raise NotCovered(f"the scoring's `{key.replace('_', ' ')}`")
    if sc["to_the_last"]:
        raise NotCovered("`play to the last`")
    if sc["method"] not in ("winner_scores_others", "each_scores_own_hand"):
        raise NotCovered(f"the scoring method `{sc['method']}`")
    if game.stop_after_round:
        raise NotCovered("stopping after a round (scenarios)")


def check_agents(agents):
    bad = [a for a in agents if a not in COVERED_AGENTS]
    if bad:
        raise NotCovered(f"the agent `{bad[0]}` (generated code makes the choices of "
                         f"{', '.join(COVERED_AGENTS)} only)")


class Generator:
    def __init__(self, game, agents):
        from .compiler import Compiler
        from .loader import Rulebook
        from .spans import Spans
        self.game = game
        self.rules = game.rules
        rb = game.rules.rulebook
        if rb is None:                     # a game rebuilt from its IR (a pickle): checked again, no spans
            from .checker import check
            rb = Rulebook(game.rules.name, game.rules.ir, {}, Spans())
            check(rb)
        self.compiler = Compiler(rb, dict(game.rules.options))      # its name tables and `where`
        self.compiler.compile()
        self.x = ExprGen(self.compiler)
        self.src = Source()
        self.agents = agents
        self.kind_now = None                 # the kind whose rules are being generated (an attack's kind)
        decl = game.declaration
        self.decl = decl is not None         # `declare NAME at N cards`: calls, exposure and catching
        self.decl_at = decl[1] if decl else None
        self.challenges = any(k.challenge is not None for k in game.rules.kinds)
        self.having: dict = {}               # event -> the kinds with rules for it (tables HAS_PLAY, ...)
        self.names_read = {e["name"] for e in _walk_names(game.rules.ir)}
        hand = game.rules.ir.get("setup", {}).get("hand", {"kind": "number", "value": 7})
        # can a hand other than the player's be empty when a play ends? (a rule moving cards out of
        # hands, or a deal of no cards)
        self.moves_hands = (any(a.get("kind") == "shuffle_hands" for a in _walk_nodes(game.rules.ir))
                            or not (hand["kind"] == "number" and hand["value"] >= 1))

    def reads(self, name: str) -> bool:
        """Does any expression of the rulebook read this built-in name?"""
        return name in self.names_read

    def where(self, node):
        return self.compiler.where(node)

    # ---- actions ---------------------------------------------------------------------------
    def actions(self, actions, scope):
        for a in actions:
            with self.src.from_rule(self.where(a)):
                self.action(a, scope)

    def action(self, a, scope):
        k = a["kind"]
        if k not in COVERED_ACTIONS:
            raise NotCovered(f"the action `{k.replace('_', ' ')}`")
        subj = a.get("subject")
        if subj is None:
            self.act(a, scope, scope["_who"])
            return
        if subj["kind"] in ("each_other", "each_player"):
            me = scope["me"]
            q = self.x.name_var("q")
            players = f"OTHERS[direction][{me}]" if subj["kind"] == "each_other" else f"(({me},) + OTHERS[direction][{me}])"
            if "where" in subj:
                cond = self.x.expr(subj["where"], dict(scope, **({subj["as"]: q} if subj.get("as") else {})))
                players = f"tuple({q} for {q} in {players} if {cond})"
            with self.src.block(f"for {q} in {players}:"):
                inner = dict(scope)
                if subj.get("as"):
                    inner[subj["as"]] = q
                if subj.get("as") or k in ("if", "group"):
                    inner["_who"] = q
                    inner["_given"] = None
                self.act(a, inner, q)
            return
        p = self.x.name_var("p")
        self.src(f"{p} = {self.x.expr(subj, scope)}")
        if k in ("if", "group"):
            scope = dict(scope, _who=p, _given=None)
        self.act(a, scope, p)

    def act(self, a, scope, p):
        src, x = self.src, self.x
        k = a["kind"]
        if k == "lose_turn":
            with src.block(f"if {p} is not None:"):
                src(f"skips[{p}] = 1")
        elif k == "reverse":
            src("direction = -direction")
            src("if log is not None: EV_REVERSE(log, round_no, direction)")
        elif k == "play_again":
            src(f"override = {p}")
            src(f"if log is not None: EV_PLAY_AGAIN(log, round_no, {p})")
        elif k == "draw":
            self.draw(p, x.expr(a["count"], scope), WHY_DRAW)
        elif k == "choose_color":
            given = scope.get("_given")
            if given is not None:
                g = x.name_var("g")
                src(f"{g} = {given}")
                src(f"{given} = None")
                with src.block(f"if {g} is not None and {p} == {scope['me']}:"):
                    self.set_color(g)
                with src.block("else:"):
                    self.ask_color(p)
            else:
                self.ask_color(p)
        elif k == "set_color":
            c = x.name_var("col")
            src(f"{c} = {x.expr(a['color'], scope)}")
            with src.block(f"if {c} != NO_COLOR and {c} not in SIDE_COLORS:"):
                src(f"raise RuleRuntimeError(NOT_A_COLOR({c}))")
            self.set_color(c)
        elif k == "redraw":
            src("c = discard.pop()")
            src("pile.append(c)")
            src("shuffle(pile, rnd)")
            src("redraw = True")
            src("if log is not None: EV_REDRAW(log, round_no, c)")
        elif k == "attack":
            self.attack(a, scope)
        elif k == "if":
            for i, b in enumerate(a["branches"]):
                with src.block(f"{'if' if i == 0 else 'elif'} {x.expr(b['when'], scope)}:"):
                    self.actions(b["then"], scope)
            if a.get("otherwise"):
                with src.block("else:"):
                    self.actions(a["otherwise"], scope)
        elif k == "group":
            self.actions(a["actions"], scope)
        elif k in ("resolve_attack", "cancel_attack"):
            if "_attack" not in scope:
                raise NotCovered(f"`{k.replace('_', ' ')}` outside a challenge")
            src(f"{scope['_attack']} = {1 if k == 'resolve_attack' else 2}")
        elif k == "shuffle_hands":
            src("cards = []")
            with src.block("for h in hands:"):
                src("cards += h")
                src("h.clear()")
            src("shuffle(cards, rnd)")
            src(f"order = OTHERS[direction][{p}] + ({p},)")
            with src.block("for i, c in enumerate(cards):"):
                src("hands[order[i % N]].append(c)")
            if self.decl:
                src("exposed = []")
            src(f"if log is not None: EV_SHUFFLE_HANDS(log, round_no, {p})")

    def attack(self, a, scope):
        """An attack no reaction answers and no challenge follows resolves at once: its body runs
        for the target (attack windows with answers are not generated: check_covered)."""
        src, x = self.src, self.x
        t, pen = x.name_var("t"), x.name_var("pen")
        src(f"{t} = {x.expr(a['target'], scope)}")
        src(f"{pen} = {x.expr(a['penalty'], scope) if 'penalty' in a else '0'}")
        if self.kind_now is None:
            raise NotCovered("an attack outside a card's rules")
        kind = self.rules.kinds[self.kind_now]
        if any(self.kind_now in r.to for r in self.rules.reactions):
            raise NotCovered("an attack a reaction answers")
        body = dict(scope, _who=t, target=t, attacker=scope["me"], penalty=pen, _given=None)
        if kind.challenge is None:
            src(f"if log is not None: EV_ATTACK(log, round_no, {scope['me']}, {t}, {pen})")
            self.actions(a["actions"], body)
            return
        # the target may challenge (attacks.challenge_offer): [challenge, no challenge]
        st = x.name_var("st")
        src(f"{st} = 0")
        src("decisions += 1")
        with src.block(f"if AG[{t}] == GREEDY:"):         # challenge when a bluff is likely (agents.py)
            src(f"ch = 1.0 - (0.75 ** len(hands[{scope['me']}])) > 0.6")
        with src.block("else:"):
            src("ch = int(arnd() * 2) == 0")
        with src.block("if ch:"):
            legal = scope.get("legal_play", "True")
            src("challenges += 1")
            with src.block(f"if not {legal}:"):
                src("challenges_won += 1")
            src(f"if log is not None: EV_CHALLENGE(log, round_no, {t}, {scope['me']}, {legal}, hands[{scope['me']}])")
            inner = dict(scope, _who=t, target=t, attacker=scope["me"], penalty=pen, legal=legal, challenger=t,
                         _given=None, _attack=st)
            self.actions(self.rules.ir["cards"][self.kind_now]["challenge"], inner)
        with src.block(f"if {st} != 2:"):
            src(f"if log is not None: EV_ATTACK(log, round_no, {scope['me']}, {t}, {pen})")
            self.actions(a["actions"], body)

    def set_color(self, c):
        self.src(f"color = {c}")
        self.src(f"if log is not None: EV_COLOR(log, round_no, {c})")

    def ask_color(self, p):
        src = self.src
        src("decisions += 1")
        with src.block(f"if AG[{p}] == GREEDY:"):        # the color it holds most, the first of a tie
            src("held = [0] * NCOLORS")
            with src.block(f"for c in hands[{p}]:"):
                src("j = COLOR_INDEX[CCOLOR[c] + 1]")
                with src.block("if j >= 0:"):
                    src("held[j] += 1")
            src("j = 0")
            with src.block("for m in range(1, NCOLORS):"):
                with src.block("if held[m] > held[j]:"):
                    src("j = m")
            src("a = COLOR_OPTS[j]")
        with src.block("else:"):
            src("a = COLOR_OPTS[int(arnd() * NCOLORS)]")
        self.set_color("a.value")

    def greedy_play(self):
        """GreedyAgent._play over the play actions of `legal`: the flat index `i` of the best (rather
        attack when the next player is close to going out, keep wilds, call, shed points, play the
        color held most, name the color held most; the first of equals, as max() takes)."""
        src = self.src
        src("held = {}")
        with src.block("for c in hand:"):
            src("cc = CCOLOR[c]")
            src("held[cc] = held.get(cc, 0) + 1")
        src("urgent = len(hands[(p + direction) % N]) <= 2")
        src("best = None")
        src("at = 0")
        vc, vk = ("VC", "VK") if self.decl else ("VCOLOR", "VCALL")
        with src.block("for c in legal:"):
            src("kc = CKIND[c]")
            src("cc = CCOLOR[c]")
            src(f"colors = {vc}[c]")
            src(f"calls = {vk}[c]")
            with src.block(f"for j in range({self.no}[c]):"):
                src("g = colors[j]")
                src("key = (urgent and ATTACKS[kc], not WILD[kc], calls[j], POINTS[c], held.get(cc, 0), "
                    "held.get(g, 0) - (cc == g) if g is not None else 0, -c, -(g or 0))")
                with src.block("if best is None or key > best:"):
                    src("best = key")
                    src("i = at + j")
            src(f"at += {self.no}[c]")

    def refill(self):
        """An empty draw pile is refilled from under the discard pile's top card (table.reshuffle):
        emits the test, leaving the body to run when there is nothing to refill it with."""
        src = self.src
        src("if not pile and reshuffle(pile, discard, rnd):")
        src("    reshuffles += 1")
        src("    if log is not None: EV_RESHUFFLE(log, round_no, len(pile))")
        return src.block("if not pile:")

    def draw(self, p, count, why):
        """`draw N` for player p: table.draw_cards, with the reshuffle of an empty draw pile."""
        src = self.src
        q, k, got = self.x.name_var("q"), self.x.name_var("k"), self.x.name_var("got")
        src(f"{q} = {p}")
        src(f"{k} = min(int({count}), MAX_DRAW)")
        with src.block(f"if {k} > 0 and {q} is not None:"):
            src(f"h = hands[{q}]")
            src(f"{got} = 0")
            with src.block(f"for _ in range({k}):"):
                with self.refill():
                    src(f"if log is not None: EV_DRAW_SHORT(log, round_no, {q}, {k}, {got})")
                    src("break")
                src("h.append(pile.pop())")
                src(f"{got} += 1")
            with src.block(f"if {got}:"):
                src(f"drawn += {got}")
                if self.decl:
                    src(f"if {q} in exposed: exposed.remove({q})")
                src(f"if log is not None: EV_DRAW(log, round_no, {q}, h[-{got}:], {literal(why)})")
        return got

    def effects(self, event, scope):
        """The if-chain on the card's kind: each kind's rules for `event`, inlined."""
        src = self.src
        having = [kind.id for kind in self.rules.kinds
                  if any(e["event"] == event and e["actions"] for e in self.rules.ir["cards"][kind.id].get("effects", []))]
        if not having:
            return
        if len(having) < len(self.rules.kinds):
            src(f"if {HAS_TABLE[event]}[k]:")
            self.src.depth += 1
            self.having[event] = having
        first = True
        for kind in self.rules.kinds:
            ir_card = self.rules.ir["cards"][kind.id]
            eff = next((e for e in ir_card.get("effects", []) if e["event"] == event), None)
            if eff is None or not eff["actions"]:
                continue
            with src.block(f"{'if' if first else 'elif'} k == {literal(kind.id)}:"):
                self.kind_now = kind.id
                self.actions(eff["actions"], scope)
                self.kind_now = None
            first = False
        if event in self.having:
            self.src.depth -= 1

    # ---- the turn's options ------------------------------------------------------------------
    def options(self, cards: str, single: bool = False):
        """play_options(p, cards): one card per face, the faces' last copies in reverse hand order,
        the kinds with a rule of their own judged by it. Leaves the cards in `legal` and the number
        of their play actions (a card whose play names a color has one per color) in `total`: the
        agent's pick is index arithmetic over them, as over the engine's list of actions."""
        src, r = self.src, self.rules
        if self.decl:                        # with the call where playing leaves the declared count
            with src.block(f"if len(hands[p]) - 1 == {literal(self.decl_at)}:"):
                src("NO, VC, VK = NOPT_CALL, VCOLOR_CALL, VCALL_CALL")
            with src.block("else:"):
                src("NO, VC, VK = NOPT, VCOLOR, VCALL")
        src("target = TARGET[color + 1][CKIND[discard[-1]]]")      # what a card's match mask must share
        if single:
            src(f"legal = [{cards}] if CMASK[{cards}] & target else []")
        else:
            src("seen = {}")
            with src.block(f"for c in reversed({cards}):"):
                with src.block("if CMASK[c] & target:"):
                    src("seen[FACES[c]] = c")
            src("legal = seen.values()")
        ruled = [k for k in r.kinds if not r.plain_match[k.id]]
        src("total = 0")
        if ruled:                      # judged, and counted, in one pass
            src("keep = []")
            with src.block("for c in legal:"):
                with src.block("if CMASK[c] == MATCH_RULE:"):
                    src("k = CKIND[c]")
                    scope = {"me": "p", "_who": "p", "card": "c"}
                    first = True
                    for kind in ruled:
                        ir_card = r.ir["cards"][kind.id]
                        tests = []
                        if kind.playable is not None:
                            tests.append(ir_card["playable_when"])
                        if kind.legal is not None and kind.challenge is None:
                            tests.append(ir_card["legal_when"])
                        if not tests:
                            continue
                        with src.block(f"{'if' if first else 'elif'} k == {literal(kind.id)}:"):
                            first = False
                            for e in tests:
                                with src.from_rule(self.where(e)):
                                    with src.block(f"if not {self.x.expr(e, scope)}:"):
                                        src("continue")
                    with src.block("if not WILD[k] and not (CCOLOR[c] == color or "
                                   "MATCHK[k] == MATCHK[CKIND[discard[-1]]]):"):
                        src("continue")
                src("keep.append(c)")
                src(f"total += {self.no}[c]")
            src("legal = keep")
        else:
            with src.block("for c in legal:"):
                src(f"total += {self.no}[c]")

    @property
    def no(self):
        return "NO" if self.decl else "NOPT"

    def pick_play(self):
        """The play of index i among legal's play actions: its card, and the color it names."""
        src = self.src
        with src.block("for card in legal:"):
            src(f"m = {self.no}[card]")
            with src.block("if i < m:"):
                src("break")
            src("i -= m")
        self.chosen()

    def chosen(self):
        """The color (and the call) the chosen play action of `card` carries."""
        self.src(f"given = {'VC' if self.decl else 'VCOLOR'}[card][i]")
        if self.decl:
            self.src("call = VK[card][i]")

    # ---- the game ----------------------------------------------------------------------------
    def generate(self) -> Source:
        r, g, src = self.rules, self.game, self.src
        turn, sc = r.turn, r.scoring
        single = g.rounds == "single" or (g.rounds == "rulebook" and sc["single_round"]) or (
            sc["target"] is None and sc["rounds"] is None)
        with src.block("def shuffle(cards, rnd):"):
            with src.block("for i in range(len(cards) - 1, 0, -1):"):
                src("j = int(rnd() * (i + 1))")
                src("cards[i], cards[j] = cards[j], cards[i]")
        with src.block("def reshuffle(pile, discard, rnd):"):
            with src.block("if len(discard) <= 1:"):
                src("return False")
            src("t = discard.pop()")
            src("pile[:0] = discard")
            src("discard[:] = [t]")
            src("shuffle(pile, rnd)")
            src("return True")
        hot = ", ".join(f"{t}={t}" for t in HOT_TABLES)
        with src.block(f"def play(seed, AG, log, tracked, {hot}):"):
            src("rnd = RANDOM(seed).random")
            src("arnd = RANDOM(seed + 1).random")
            src("hands = [[] for _ in range(N)]")
            src("pile = list(range(NCARDS))")
            src("discard = []")
            src("scores = [0] * N")
            src("dealer = N - 1")
            src("round_no = 0")
            src("drawn = plays = reshuffles = decisions = turn_decisions = challenges = challenges_won = catches = 0")
            src("exposed = []")
            src("turns_per_round = []")
            src("drawn_per_round = []")
            src("winner = None")
            src("outcome = OUTCOME_NAMES[0]")
            src("error = None")
            with src.block("try:"):
                with src.block("while True:"):
                    self.round(turn, sc, single)
            with src.block("except RuleRuntimeError as e:"):
                src("outcome, error, winner = ERROR, e, None")
                src("if log is not None: EV_ERROR(log, round_no, e)")
            with src.block("except RULE_FAILURES as e:"):
                src("error = RULE_FAILED(e)")
                src("outcome, winner = ERROR, None")
                src("if log is not None: EV_ERROR(log, round_no, error)")
            src("return RESULT(outcome, winner, error, round_no, scores, turns_per_round, drawn_per_round, "
                "drawn, plays, reshuffles, decisions, turn_decisions, challenges, challenges_won, catches, tracked, log)")
        return src

    def round(self, turn, sc, single):
        src, r, x = self.src, self.rules, self.x
        src("round_no += 1")
        src("turns = 0")
        with src.block("if round_no > 1:"):
            src("cards = pile + discard")
            with src.block("for h in hands:"):
                src("cards += h")
                src("h.clear()")
            src("discard.clear()")
            src("cards.sort()")
            src("pile = cards")
            src("dealer = next_dealer")
        src("shuffle(pile, rnd)")
        src("direction = 1")
        src("color = NO_COLOR")
        src("skips = [0] * N")
        src("streak = 0")
        src("override = -1")
        src("if log is not None: EV_ROUND_START(log, round_no, dealer)")
        # the deal
        hand = r.ir.get("setup", {}).get("hand")
        with src.from_rule(self.where(hand) if hand else None):
            src(f"size = int({x.expr(hand, {'me': 'dealer', '_who': 'dealer'}) if hand else literal(7)})")
        src("k = N")
        src("dealt = max(0, min(size * k, len(pile)))")
        src("top = pile[len(pile) - dealt:][::-1]")
        src("del pile[len(pile) - dealt:]")
        with src.block("for i in range(k):"):
            src("hands[(dealer + 1 + i) % N] += top[i::k]")
        src("if log is not None: EV_DEAL(log, round_no, size, hands, dealer)")
        # the first card
        with src.block("while True:"):
            with self.refill():
                src("raise RuleRuntimeError(NO_FIRST_CARD)")
            src("card = pile.pop()")
            src("discard.append(card)")
            src("color = CCOLOR[card]")
            src("first_card = True")
            src("streak = 1")
            src("current = first = dealer")
            src("redraw = False")
            src("if log is not None: EV_TURN_UP(log, round_no, card)")
            src("k = CKIND[card]")
            self.effects("turn_up", {"me": "first", "_who": "first", "card": "card", "_given": None})
            with src.block("if not redraw:"):
                src("break")
        # the turns
        src("stalled = False")
        with src.block("while True:"):
            with src.block("if override >= 0:"):
                src("p = override")
                src("override = -1")
            with src.block("else:"):
                src("p = (current + direction) % N")
                with src.block("if skips[p]:"):
                    src("guard = 0")
                    with src.block("while skips[p] > 0 and guard < 4 * N:"):
                        src("skips[p] -= 1")
                        src("if log is not None: EV_SKIP(log, round_no, p)")
                        src("p = (p + direction) % N")
                        src("guard += 1")
            src("current = p")
            src("turns += 1")
            with src.block(f"if turns > {literal(self.game.turn_cap)}:"):
                src(f"turns = {literal(self.game.turn_cap)}")
                src("stalled = True")
                src("break")
            if self.decl:
                with src.block("if exposed:"):
                    src("exposed = []")
            src("if log is not None: EV_TURN(log, round_no, p)")
            src("hand = hands[p]")
            self.options("hand")
            # the options: the plays, then drawing (always, or only when stuck); the agent picks
            # one by its index, as it would from the engine's list
            src("size = total + 1" if not turn["draw_only_when_stuck"] else "size = total if total else 1")
            src("decisions += 1")
            src("turn_decisions += 1")
            src("ag = AG[p]")
            with src.block("if ag == GREEDY:"):                # a play whenever it can play
                with src.block("if total:"):
                    self.greedy_play()
                with src.block("else:"):
                    src("i = 0")
            with src.block("elif ag == RANDOM_PLAY and total and size > total:"):
                src("i = int(arnd() * (size - 1))")
            with src.block("else:"):
                src("i = int(arnd() * size)")
            with src.block("if i >= total:"):
                self.turn_draw(turn)
            with src.block("else:"):
                self.pick_play()
                src("just_drawn = False")
            # play_card: place it, run its rules, then end_play
            src("k = CKIND[card]")
            scope = {"me": "p", "_who": "p", "card": "card", "just_drawn": "just_drawn", "_given": "given"}
            if self.challenges:              # judged as the card is placed, before it leaves the hand
                self.legal_play(scope)
                scope["legal_play"] = "legal_play"
            if self.reads("streak"):
                src("streak = streak + 1 if CKIND[discard[-1]] == k else 1")
            src("hand.remove(card)")
            src("discard.append(card)")
            src("c = CCOLOR[card]")
            with src.block("if c != NO_COLOR:"):
                src("color = c")
            if self.reads("first_card"):
                src("first_card = False")
            src("plays += 1")
            if self.game.track_kinds:
                with src.block("if TRACKED[k]:"):
                    src("tracked.add(p)")
            if self.decl:
                src("if p in exposed: exposed.remove(p)")
                with src.block(f"if len(hand) == {literal(self.decl_at)}:"):
                    with src.block("if call:"):
                        src("if log is not None: EV_UNO(log, round_no, p)")
                    with src.block("else:"):
                        src("exposed.append(p)")
                src("if log is not None: EV_PLAY(log, round_no, p, card, call)")
            else:
                src("if log is not None: EV_PLAY(log, round_no, p, card, False)")
            self.effects("play", scope)
            if self.moves_hands:
                with src.block("if not (hands[p] and all(hands)):"):
                    src("winner = next(q for q in ((p,) + OTHERS[direction][p]) if not hands[q])")
                    src("break")
            else:                            # no rule takes cards from a hand but a play: only p can be out
                with src.block("if not hand:"):
                    src("winner = p")
                    src("break")
            if self.decl:
                with src.block("if exposed:"):
                    self.catch_window()
        self.end_round(sc, single)

    def legal_play(self, scope):
        """Was the play legal by its kind's `legal when`? (what a challenge of it finds out)"""
        src = self.src
        src("legal_play = True")
        first = True
        for kind in self.rules.kinds:
            if kind.legal is None:
                continue
            e = self.rules.ir["cards"][kind.id]["legal_when"]
            with src.from_rule(self.where(e)):
                with src.block(f"{'if' if first else 'elif'} k == {literal(kind.id)}:"):
                    src(f"legal_play = {self.x.truth(e, self.x.expr(e, scope))}")
            first = False

    def catch_window(self):
        """turns.catch_window: each exposed player, while still exposed with the declared count, may
        be caught by the others in order ([catch, pass]); the caught one suffers the declaration's
        rule before the window goes on."""
        src = self.src
        name, at, actions = self.game.declaration
        src("pending = list(exposed)")
        src("i = 0")
        with src.block("while pending:"):
            src("x = pending[0]")
            with src.block(f"if x not in exposed or len(hands[x]) != {literal(at)}:"):
                src("pending.pop(0)")
                src("i = 0")
                src("continue")
            src("others = OTHERS[direction][x]")
            with src.block("if i < len(others):"):
                src("q = others[i]")
                src("decisions += 1")
                with src.block("if AG[q] != GREEDY and int(arnd() * 2):"):    # greedy always catches
                    src("i += 1")
                    src("continue")
                src("catches += 1")
                src("if log is not None: EV_CATCH(log, round_no, q, x)")
                src("if x in exposed: exposed.remove(x)")
                src("pending.pop(0)")
                src("i = 0")
                self.actions(self.rules.ir["declarations"][0]["actions"], {"me": "x", "_who": "x", "_given": None})
                src("continue")
            src("pending.pop(0)")
            src("i = 0")
        src("exposed = []")

    def turn_draw(self, turn):
        src, r = self.src, self.rules
        if turn["draw_until_playable"]:
            src("got = 0")
            with src.block("for _ in range(MAX_DRAW):"):
                with self.refill():
                    src("if log is not None: EV_DRAW_SHORT(log, round_no, p, 1, 0)")
                    src("break")
                src("card = pile.pop()")
                src("hand.append(card)")
                src("got += 1")
                src("drawn += 1")
                self.options("card", single=True)
                with src.block("if total:"):
                    src("break")
            with src.block("if got:"):
                src(f"if log is not None: EV_DRAW(log, round_no, p, hand[-got:], {literal(WHY_UNTIL_PLAYABLE)})")
            src("card = hand[-1] if got else None")
        else:
            got = self.draw("p", literal(1), WHY_DRAW)
            src(f"card = hand[-1] if {got} else None")
        mode = turn["drawn_card"]
        with src.block("if card is None:"):
            src("continue")
        if mode == "is_kept":
            src("continue")
            return
        self.options("card", single=True)
        when = r.ir.get("turn", {}).get("drawn_card")
        if isinstance(when, dict):
            with src.from_rule(self.where(when["must_play_when"])):
                cond = self.x.expr(when["must_play_when"], {"me": "p", "_who": "p", "card": "card"})
                with src.block(f"if total and not {cond}:"):
                    src("total = 0")
        with src.block("if not total:"):
            src("continue")
        src("decisions += 1")
        with src.block("if AG[p] == GREEDY:"):
            self.greedy_play()
        if mode == "must_play":
            with src.block("else:"):
                src("i = int(arnd() * total)")
        else:                                   # the plays, then keeping it
            with src.block("elif AG[p] == RANDOM_PLAY:"):
                src("i = int(arnd() * total)")
            with src.block("else:"):
                src("i = int(arnd() * (total + 1))")
            with src.block("if i == total:"):
                src("if log is not None: EV_KEEP(log, round_no, p)")
                src("continue")
        self.chosen()
        src("just_drawn = True")

    def end_round(self, sc, single):
        src, x = self.src, self.x
        src("turns_per_round.append(turns)")
        src("drawn_per_round.append(drawn - sum(drawn_per_round))")
        with src.block("if stalled:"):
            src(f"if log is not None: EV_ROUND_END(log, round_no, None, {literal(REASON_STALLED)})")
            src("winner = None")
            src("outcome = OUTCOME_NAMES[1]")
            src(f"if log is not None: EV_GAME_END(log, round_no, None, {literal(OUTCOME_STALLED)})")
            src("break")
        if sc["method"] == "each_scores_own_hand":
            src("gained = [(q, sum(POINTS[c] for c in hands[q])) for q in range(N)]")
        else:
            src("gained = [(winner, sum(POINTS[c] for q in range(N) if q != winner for c in hands[q]))]")
        with src.block("for q, g in gained:"):
            src("scores[q] += g")
        src("next_dealer = (dealer + 1) % N")
        src(f"if log is not None: EV_ROUND_END(log, round_no, winner, {literal(REASON_WIN)})")
        with src.block("if log is not None:"):
            with src.block("for q, g in gained:"):
                src("EV_SCORE(log, round_no, q, g, scores[q])")
        if single:
            self.finish()
            return
        lowest = sc["method"] == "each_scores_own_hand"
        best = ("min(range(N), key=lambda q: (scores[q], q))" if lowest
                else "max(range(N), key=lambda q: (scores[q], -q))")
        env = {"me": "0", "_who": "0"}
        tests = []
        if sc["target"] is not None:
            tests.append(f"any(scores[q] >= {x.expr(self.rules.ir['scoring']['target'], env)} for q in range(N))")
        if sc["rounds"] is not None:
            tests.append(f"round_no >= {x.expr(self.rules.ir['scoring']['rounds'], env)}")
        for test in tests:
            with src.block(f"if {test}:"):
                src(f"winner = {best}")
                self.finish()
        with src.block(f"if round_no >= {literal(MAX_ROUNDS_)}:"):
            src(f"if log is not None: EV_ROUND_END(log, round_no, None, {literal(REASON_ROUND_CAP)})")
            src("winner = None")
            src("outcome = OUTCOME_NAMES[1]")
            src(f"if log is not None: EV_GAME_END(log, round_no, None, {literal(OUTCOME_STALLED)})")
            src("break")

    def finish(self):
        self.src(f"if log is not None: EV_GAME_END(log, round_no, winner, {literal(OUTCOME_WIN)})")
        self.src("break")



def _walk_nodes(node):
    """Every dict of an IR tree."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk_nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk_nodes(v)


def _walk_names(node):
    """Every name node of an IR tree."""
    if isinstance(node, dict):
        if node.get("kind") == "name" and isinstance(node.get("name"), str):
            yield node
        for v in node.values():
            yield from _walk_names(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk_names(v)


def generate(game, agents: tuple = ("random",)) -> Source:
    """The source of `play(seed, RP, log, tracked)` for this game and these seats' agents; raises
    NotCovered with the reason when some construct has no translation."""
    check_covered(game)
    src = Generator(game, agents).generate()
    check_agents(agents)                 # after the rules: a reason about the rules comes first
    return src
