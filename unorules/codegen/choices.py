"""Code generation, what a rule asks a player or leaves to chance: a color, a player, one of named
options (the agents' answers written inline, as agents/base.py makes them), and the chance nodes
(`perform`, `chance`), with the engine's semantics (primitives.py): the same random draws, the
same events. Texts (an option's name, a chance's outcome) are held as indices of the table TEXTS,
never written into the source."""
from __future__ import annotations

from unorules.engine.primitives import MAX_CHOICES
from unorules.language.worth import greedy_options
from .expressions import literal


class RuleChoices:
    def choose_player(self, a, scope, p):
        """primitives.act_choose_player: the candidates in seat order; none binds nothing (None), one
        is chosen without asking; else the agent picks (greedy: the fewest cards, the lowest seat)."""
        src, x = self.src, self.x
        var = x.name_var("chosen")
        src("cands = []")
        with src.block("for q in range(N):"):
            if a["other"]:
                with src.block(f"if q == {p}:"):
                    src("continue")
            if "where" in a:
                cond = x.expr(a["where"], dict(scope, candidate="q"))
                with src.block(f"if not {cond}:"):
                    src("continue")
            src("cands.append(q)")
        with src.block("if not cands:"):
            src(f"{var} = None")
            src(f"if log is not None: EV_NO_CHOICE(log, round_no, {p})")
        with src.block("elif len(cands) == 1:"):
            src(f"{var} = cands[0]")
        with src.block("else:"):
            self.count_decision()
            if self.stepping:                # the candidates, in seat order
                self.yield_choice("j", p, "[PLAYER_IDS[q] for q in cands]", scope.get("@atk"))
                src(f"{var} = cands[j]")
            else:
                with src.block(f"if {self.is_agent(p, 'greedy')}:"):
                    src(f"{var} = cands[0]")
                    with src.block("for q in cands:"):
                        with src.block(f"if {self.hand_len('q')} < {self.hand_len(var)}:"):
                            src(f"{var} = q")
                with src.block("else:"):
                    src(f"{var} = cands[int(arnd() * len(cands))]")
            src(f"if log is not None: EV_CHOOSE(log, round_no, {var})")
        scope[a.get("as", "chosen")] = var           # bound for the rest of these actions, as in the env

    def perform(self, a, scope, p):
        """A chance node (primitives.act_perform): success with the chance, drawn from the game's
        generator as random.choices draws it over [chance, 1 - chance]."""
        src, x = self.src, self.x
        if self.game.perform_chance is not None:
            src(f"ch = {literal(float(self.game.perform_chance))}")
        elif "chance" in a:
            src(f"ch = float({x.expr(a['chance'], scope)})")
        else:
            src(f"ch = {literal(0.5)}")
        src("ch = min(1.0, max(0.0, ch))")
        src("done = rnd() * (ch + (1.0 - ch)) < ch")
        src(f"if log is not None: EV_PERFORM(log, round_no, {p}, {self.text(a['name'])}, done)")
        inner = {**scope, "@who": p}
        with src.block("if done:"):
            self.actions(a["actions"], dict(inner))
        if a.get("otherwise"):
            with src.block("else:"):
                self.actions(a["otherwise"], dict(inner))

    def chance(self, a, scope):
        """A chance node of named outcomes (primitives.act_chance), drawn as random.choices draws."""
        src, x = self.src, self.x
        weights = ", ".join(f"float({x.expr(o['weight'], scope)})" if "weight" in o else "1.0"
                            for o in a["outcomes"])
        outcomes = ", ".join(self.text(o["name"]) for o in a["outcomes"])
        src(f"j = CHANCE_PICK([{weights}], rnd, {self.text(a['name'])}, ({outcomes},))")
        for i, o in enumerate(a["outcomes"]):
            with src.block(f"{'if' if i == 0 else 'elif'} j == {literal(i)}:"):
                src(f"if log is not None: EV_CHANCE(log, round_no, {self.text(a['name'])}, {self.text(o['name'])})")
                self.actions(o["actions"], scope)

    def text(self, words: str) -> str:
        """A rulebook text the event log needs (a perform's or an outcome's name), as the index of
        the table TEXTS: the text itself never enters the source."""
        texts = self.src.texts
        if words not in texts:
            texts.append(words)
        return literal(texts.index(words))

    def ask_color(self, p, atk: dict | None = None):
        """p chooses a color (`atk`: the attack the choice is made inside, if any)."""
        src = self.src
        self.count_decision()
        if self.stepping:                    # the colors of the side, in its order (the engine's options)
            self.yield_choice("j", p, "COLOR_ASK_IDS", atk)
            src("a = SIDE_COLORS[j]")
            self.set_color("a")
            return
        with src.block(f"if {self.is_agent(p, 'greedy')}:"):        # the color it holds most, the first of a tie
            if self.color_counts:
                src(f"held = [hk[{p}][c + 1] for c in SIDE_COLORS]")
            else:
                src("held = [0] * NCOLORS")
                with src.block(f"for c in {self.hand(p)}:"):
                    src("j = COLOR_INDEX[CCOLOR[c] + 1]")
                    with src.block("if j >= 0:"):
                        src("held[j] += 1")
            src("j = 0")
            with src.block("for m in range(1, NCOLORS):"):
                with src.block("if held[m] > held[j]:"):
                    src("j = m")
            src("a = SIDE_COLORS[j]")
        with src.block("else:"):
            src("a = SIDE_COLORS[int(arnd() * NCOLORS)]")
        self.set_color("a")

    def choose_option(self, a, scope, p):
        """primitives.act_choose_option: one of the named options, held as its index in TEXTS (so
        `how == "flex"` compares indices); one option is taken without asking; else greedy takes the
        one worth most to it (language/worth.py; among equals one at random, as GreedyAgent.worthiest),
        the others one at random."""
        src = self.src
        var = self.x.name_var("option")
        opts = [self.text(o) for o in a["options"]]
        if len(opts) == 1:
            src(f"{var} = {opts[0]}")
        elif self.stepping:                  # the options in the rule's order, by their ids
            self.count_decision()
            self.yield_choice("j", p, f"[OPTION_IDS[o] for o in ({', '.join(opts)},)]", scope.get("@atk"))
            src(f"{var} = ({', '.join(opts)},)[j]")
        else:
            self.count_decision()
            best = [opts[i] for i in greedy_options(self.rules.choice_worth[id(a)])]
            with src.block(f"if {self.is_agent(p, 'greedy')}:"):
                if len(best) == 1:
                    src(f"{var} = {best[0]}")
                else:
                    src(f"{var} = ({', '.join(best)},)[int(arnd() * {literal(len(best))})]")
            with src.block("else:"):
                src(f"{var} = ({', '.join(opts)},)[int(arnd() * {literal(len(opts))})]")
        src(f"if log is not None: EV_CHOOSE_OPTION(log, round_no, {scope['@who']}, {self.text(a['as'])}, {var})")
        scope[a["as"]] = var                         # bound for the rest of these actions, as in the env

    def choose_value(self, a, scope, p):
        """primitives.act_choose_number / act_choose_kind: a number from low to high, or a card
        kind of the deck (a number kind, or one for which `where` holds of the candidate); one is
        taken without asking, none is an error; else greedy names the highest number or the kind
        it holds most of (the first of a tie), the others one at random."""
        src, x = self.src, self.x
        var, name = x.name_var("named"), self.text(a["as"])
        numbers = a["kind"] == "choose_number" and "low" in a
        if numbers:
            src(f"lo, hi = int({x.expr(a['low'], scope)}), int({x.expr(a['high'], scope)})")
            with src.block("if hi < lo:"):
                src("raise RuleRuntimeError(NO_NUMBER(lo, hi))")
            with src.block(f"if hi - lo >= {literal(MAX_CHOICES)}:"):
                src("raise RuleRuntimeError(TOO_MANY_NUMBERS(hi - lo + 1))")
            src("vals = range(lo, hi + 1)")
        else:
            in_play = sorted({self.rules.faces[f][1] for f in self.rules.deck[0]})     # State.kinds_in_play
            if a["kind"] == "choose_number":
                in_play = [k for k in in_play if self.rules.kinds[k].category == "number"]
            src(f"vals = ({''.join(literal(k) + ', ' for k in in_play)})")
            if a.get("where") is not None:
                cond = x.expr(a["where"], dict(scope, candidate="kk"))
                src(f"vals = [kk for kk in vals if {cond}]")
            with src.block("if not vals:"):
                src(f"raise RuleRuntimeError(NOTHING_TO_CHOOSE({name}))")
        with src.block("if len(vals) == 1:"):
            src(f"{var} = vals[0]")
        with src.block("else:"):
            self.count_decision()
            if self.stepping:                # the numbers or kinds in order, by their ids
                self.yield_choice("j", p, "[NUMBER_IDS.get(v, -1) for v in vals]" if numbers
                                  else "[KIND_IDS[kk] for kk in vals]", scope.get("@atk"))
                src(f"{var} = vals[j]")
            else:
                fewest = numbers and self.rules.choice_worth[id(a)][0] < 0     # worth.py: more costs
                self.agent_value(var, numbers, p, fewest)
        writer = "EV_CHOOSE_NUMBER" if numbers else "EV_CHOOSE_KIND"
        src(f"if log is not None: {writer}(log, round_no, {scope['@who']}, {name}, {var})")
        scope[a["as"]] = var                         # bound for the rest of these actions, as in the env

    def agent_value(self, var, numbers: bool, p, lowest: bool = False):
        """`var` = p's agent's pick of `vals`: greedy names the highest number (the lowest where the
        rules make more cost it) or the kind it holds most of (the first of a tie), the others one
        at random."""
        src = self.src
        with src.block(f"if {self.is_agent(p, 'greedy')}:"):
            if numbers:
                src(f"{var} = vals[0]" if lowest else f"{var} = vals[-1]")
            else:
                src("held = [0] * NKINDS")
                with src.block(f"for c in {self.hand(p)}:"):
                    src("held[CKIND[c]] += 1")
                src(f"{var} = vals[0]")
                with src.block("for kk in vals:"):
                    with src.block(f"if held[kk] > held[{var}]:"):
                        src(f"{var} = kk")
        with src.block("else:"):
            src(f"{var} = vals[int(arnd() * len(vals))]")

    def move_cards(self, a, scope, p):
        """hands.act_give / act_take: one card at a time, `count` times, from the giver's
        hand to the other's, the giver (or the taker) choosing among the card options for which
        `where` holds. A give with one option moves it without asking; a take always asks."""
        src, x = self.src, self.x
        give = a["kind"] == "give"
        at_once = give and a.get("at_once")      # chosen now, moved by commit_batch once every giver has chosen
        self.not_counted("giving, taking or exchanging chosen cards")    # which copy moves is the hands' order
        q = x.name_var("q")
        src(f"{q} = {x.expr(a['to' if give else 'from'], scope)}")
        src(f"n = int({x.expr(a['count'], scope)})")
        owner, other = (p, q) if give else (q, p)
        with src.block(f"if {q} is not None and {q} != {p}:"):
            if at_once:
                src("picked = []")
            if not give:
                self.look(p, q)
            with src.block("for _ in range(n):"):
                self.card_options(owner, a.get("where"), scope, exclude="picked" if at_once else None)
                with src.block("if not opts:"):
                    src("break")
                if give:
                    with src.block("if len(opts) == 1:"):
                        src("c = opts[0]")
                    with src.block("else:"):
                        self.card_choice(p, keep=True, atk=scope.get("@atk"))
                else:
                    self.card_choice(p, keep=False, atk=scope.get("@atk"))
                if at_once:
                    src("picked.append(c)")
                    src(f"batch.append(({p}, {q}, c))")
                else:
                    self.move_card(owner, other, p, q)
                    src(f"if log is not None: EV_{'GIVE' if give else 'TAKE'}(log, round_no, {p}, {q}, c)")
                    if not give:
                        self.look(p, q)

    def look(self, p: str, q: str):
        """hands._look: p sees q's hand as it is now (what stopped code shows p: `shown`)."""
        if self.keeps_shown:
            self.src(f"shown.setdefault({p}, {{}})[{q}] = list(hands[{q}])")

    def commit_batch(self):
        """hands.commit_batch: the cards of a `give ... at once` move, in the order chosen."""
        src = self.src
        with src.block("for gp, gq, c in batch:"):
            self.move_card("gp", "gq", "gp", "gq")
            src("if log is not None: EV_GIVE(log, round_no, gp, gq, c)")

    def exchange(self, a, scope, p):
        """hands.act_exchange: p, then the other, each chooses a card of their own hand
        (asked even with one; none from an empty hand); then the two cards change hands."""
        src, x = self.src, self.x
        self.not_counted("giving, taking or exchanging chosen cards")
        q = x.name_var("q")
        src(f"{q} = {x.expr(a['with'], scope)}")
        with src.block(f"if {q} is not None and {q} != {p}:"):
            src("picked = []")
            with src.block(f"for who in ({p}, {q}):"):
                with src.block("if not hands[who]:"):
                    src("picked.append(None)")
                    src("continue")
                self.card_options("who", None, scope)
                self.card_choice("who", keep=True, atk=scope.get("@atk"))
                src("picked.append(c)")
            src("gave, got = picked")
            with src.block("if gave is not None:"):
                src("c = gave")
                self.move_card(p, q, p, q)
            with src.block("if got is not None:"):
                src("c = got")
                self.move_card(q, p, p, q)
            src(f"if log is not None: EV_EXCHANGE(log, round_no, {p}, {q}, gave, got)")

    def card_options(self, owner: str, where, scope, exclude: str | None = None):
        """hands._card_options: `opts`, one card per face of owner's hand (the last copy
        held, leaving out those in `exclude`) for which `where` holds, in face order."""
        src, x = self.src, self.x
        src("by_face = {}")
        with src.block(f"for c in hands[{owner}]:"):
            if exclude is not None:
                with src.block(f"if c in {exclude}:"):
                    src("continue")
            if where is not None:
                with src.block(f"if not {x.expr(where, dict(scope, card='c'))}:"):
                    src("continue")
            src("by_face[FACES[c]] = c")
        src("opts = [by_face[f] for f in sorted(by_face)]")

    def card_choice(self, who: str, keep: bool, atk: dict | None = None):
        """`c`, who's agent's pick of `opts`: greedy gives away what it would not keep (not a
        wild, the most points) or takes the best card (a wild, then points), the first of a tie;
        the others one at random."""
        src = self.src
        self.count_decision()
        if self.stepping:                # the cards, one per face in face order: the engine's "card" actions
            self.yield_choice("j", who, "[CARD_IDS[FACES[o]] for o in opts]", atk)
            src("c = opts[j]")
            return
        with src.block(f"if {self.is_agent(who, 'greedy')}:"):
            key = "(not WILD[CKIND[{0}]], POINTS[{0}], -{0})" if keep else "(WILD[CKIND[{0}]], POINTS[{0}], -{0})"
            src("c = opts[0]")
            with src.block("for o in opts:"):
                with src.block(f"if {key.format('o')} > {key.format('c')}:"):
                    src("c = o")
        with src.block("else:"):
            src("c = opts[int(arnd() * len(opts))]")

    def move_card(self, src_p: str, dst: str, p: str, q: str):
        """hands._move: the card `c` from one hand to the other; neither p nor q has
        called on this hand any more."""
        src = self.src
        src(f"hands[{src_p}].remove(c)")
        src(f"hands[{dst}].append(c)")
        if self.decl:
            src(f"if {p} in exposed: exposed.remove({p})")
            src(f"if {q} in exposed: exposed.remove({q})")
