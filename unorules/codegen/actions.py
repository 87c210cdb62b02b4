"""Code generation, rule actions: each action of a card's rules (IR) as Python statements over the
generated game's locals (generator.py's Generator mixes this in), with the engine's primitives'
semantics (primitives.py, attacks.py, turns.catch_window): the same random draws, the same events
in the same order."""
from __future__ import annotations

from unorules.engine.expressions import RELATIVE_TO
from .expressions import NotCovered, literal

# the event-log writers the generated code calls (generated.py makes them): their argument codes
WHY_DRAW, WHY_UNTIL_PLAYABLE, WHY_UNTIL_COLOR = 0, 1, 2
COVERED_ACTIONS = {"lose_turn", "reverse", "play_again", "draw", "choose_color", "set_color", "redraw", "attack",
                   "if", "group", "shuffle_hands", "resolve_attack", "cancel_attack", "add_penalty", "double_penalty", "pass_attack",
                   "take_back", "do", "set_counter", "add_counter", "clear_counter", "choose_player", "swap_hands",
                   "pass_hands", "cycle_color", "draw_until_color", "perform", "chance", "choose_option",
                   "swap_seats", "score", "reveal", "discard_all", "choose_number", "choose_kind",
                   "give_hand", "give", "take", "exchange", "repeat", "set_score", "let", "look_at"}
MOVES_HANDS = {"shuffle_hands", "swap_hands", "pass_hands", "swap_seats", "discard_all", "give_hand",
               "give", "take", "exchange"}      # actions after which any hand may be empty
HAS_TABLE = {"play": "HAS_PLAY", "turn_up": "HAS_TURN_UP"}   # kind -> it has rules for the event


MAX_INLINED = 2000          # actions a named rule may expand to, its `do`s inlined (rules that do the next twice)


class RuleActions:
    def expanded_size(self, name: str, memo: dict | None = None) -> int:
        """How many actions named rule `name` becomes with every `do` in it inlined (capped)."""
        memo = self.__dict__.setdefault("_expanded", {}) if memo is None else memo
        if name not in memo:
            memo[name] = MAX_INLINED + 1            # a cycle (refused by the checker) counts as too large
            from unorules.language.ir import walk
            body = next(r["actions"] for r in self.rules.ir.get("rules", []) if r["name"] == name)
            size = 0
            for a in walk(body):
                size += 1 + (self.expanded_size(a["rule"], memo) if a["kind"] == "do" else 0)
                if size > MAX_INLINED:
                    break
            memo[name] = size
        return memo[name]

    def actions(self, actions, scope):
        """A list of actions: a scope of its own, so that a name a block binds (`chosen`,
        `revealed`, `choose ... as`) is not seen after the block, as in the engine."""
        scope = dict(scope)
        for a in actions:
            with self.src.from_rule(self.where(a)):
                self.action(a, scope)

    def action(self, a, scope):
        k = a["kind"]
        if k not in COVERED_ACTIONS:
            raise NotCovered(f"the action `{k.replace('_', ' ')}`")
        if k == "give" and a.get("at_once"):     # primitives.compile_action: every subject chooses, then all move
            self.src("batch = []")
            self.for_subjects(a, scope)
            self.commit_batch()
            return
        self.for_subjects(a, scope)

    def for_subjects(self, a, scope):
        """The action for its subject: the one who performs the rule, a player, or each player."""
        k = a["kind"]
        subj = a.get("subject")
        if subj is None:
            self.act(a, scope, scope["@who"])
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
                inner[RELATIVE_TO] = q          # `next` and `previous` are the loop's player's own
                if subj.get("as"):
                    inner[subj["as"]] = q
                if subj.get("as") or k in ("if", "group", "do", "perform", "chance", "repeat"):
                    inner["@who"] = q
                    inner["@given"] = None
                self.act(a, inner, q)
            return
        p = self.x.name_var("p")
        self.src(f"{p} = {self.x.expr(subj, scope)}")
        if k in ("if", "group", "do", "perform", "chance", "repeat"):       # compiler.BLOCK_KINDS: the subject performs them
            scope = {**scope, "@who": p, "@given": None}
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
            given = scope.get("@given")
            if given is not None:
                g = x.name_var("g")
                src(f"{g} = {given}")
                src(f"{given} = None")
                with src.block(f"if {g} is not None and {p} == {scope['me']}:"):
                    self.set_color(g)
                with src.block("else:"):
                    self.ask_color(p, scope.get("@atk"))
            else:
                self.ask_color(p, scope.get("@atk"))
        elif k == "set_color":
            c = x.name_var("col")
            src(f"{c} = {x.expr(a['color'], scope)}")
            with src.block(f"if {c} != NO_COLOR and {c} not in SIDE_COLORS:"):
                src(f"raise RuleRuntimeError(NOT_A_COLOR({c}))")
            self.set_color(c)
        elif k == "reveal":
            self.reveal(scope)
        elif k == "discard_all":
            self.discard_all(a, scope, p)
        elif k == "redraw":
            src("c = discard.pop()")
            src("pile.append(c)")
            if not self.face_order:          # an unshuffled pile draws at random
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
        elif k == "repeat":                  # primitives.act_repeat: the body, then `until`, `most` passes at most
            r = x.name_var("r")
            with src.block(f"for {r} in range({literal(a['most'])}):"):
                self.actions(a["actions"], scope)
                with src.block(f"if {x.truth(a['until'], x.expr(a['until'], scope))}:"):
                    src("break")
        elif k in ("resolve_attack", "cancel_attack", "add_penalty", "double_penalty", "pass_attack", "take_back"):
            self.attack_action(k, a, scope, p)
        elif k == "do":                      # a named rule, inlined (its env is the doer's)
            name = a["rule"]
            if name in self.doing:
                raise NotCovered("a named rule that does itself")
            if self.expanded_size(name) > MAX_INLINED:
                raise NotCovered(f"a named rule that expands to more than {MAX_INLINED:,} actions when inlined")
            body = next(r["actions"] for r in self.rules.ir.get("rules", []) if r["name"] == name)
            self.doing.append(name)
            self.actions(body, scope)
            self.doing.pop()
        elif k in ("set_counter", "add_counter", "clear_counter"):
            self.store(k, a, scope, p)
        elif k == "choose_player":
            self.choose_player(a, scope, p)
        elif k == "choose_option":
            self.choose_option(a, scope, p)
        elif k in ("choose_number", "choose_kind"):
            self.choose_value(a, scope, p)
        elif k in ("give", "take"):
            self.move_cards(a, scope, p)
        elif k == "exchange":
            self.exchange(a, scope, p)
        elif k == "look_at":                  # hands.act_look_at: p sees the other's hand as it is now
            q = x.name_var("q")
            src(f"{q} = {x.expr(a['hand']['of'], scope)}")
            with src.block(f"if {q} is not None and {q} != {p}:"):
                self.look(p, q)
                src(f"if log is not None: EV_LOOK_AT(log, round_no, {p}, {q}, {self.hand(q)})")
        elif k == "give_hand":
            self.give_hand(x.expr(a["to"], scope), p)
        elif k in ("swap_hands", "swap_seats"):
            self.swap(k, x.expr(a["with"], scope), p)
        elif k == "set_score":                # primitives.act_set_score
            q, v = x.name_var("q"), x.name_var("v")
            src(f"{q} = {x.expr(a['target'], scope)}")
            with src.block(f"if {q} is not None:"):
                src(f"{v} = {x.expr(a['value'], scope)}")
                src(f"if log is not None: EV_SCORE(log, round_no, {q}, {v} - scores[{q}], {v})")
                src(f"scores[{q}] = {v}")
        elif k == "let":                      # primitives.act_let: bound for the rest of the block
            v = x.name_var("let")
            src(f"{v} = {x.expr(a['value'], scope)}")
            scope[a["as"]] = v
        elif k == "score":
            g = x.name_var("g")
            src(f"{g} = {x.expr(a['amount'], scope)}")
            src(f"scores[{p}] += {g}")
            src(f"if log is not None: EV_SCORE(log, round_no, {p}, {g}, scores[{p}])")
        elif k == "pass_hands":
            d = {"clockwise": "1", "counterclockwise": "-1"}.get(a.get("direction"), "direction")
            src(f"d = {d}")
            for held in self.held_lists():      # in place: seat q's hand goes to seat q + d
                src(f"{held}[:] = [{held}[(q - d) % N] for q in range(N)]")
            if self.decl:
                src("exposed = []")
            src("if log is not None: EV_PASS_HANDS(log, round_no, d)")
        elif k == "cycle_color":
            src("j = COLOR_INDEX[color + 1]")
            with src.block("if j < 0:"):
                src("j = -direction")
            self.set_color("SIDE_COLORS[(j + direction) % NCOLORS]")
        elif k == "draw_until_color":
            want = x.name_var("want")
            src(f"{want} = {x.expr(a['color'], scope)}")
            self.draw_until(p, f"CCOLOR[{'f' if self.counted else 'h[-1]'}] == {want}", WHY_UNTIL_COLOR)
        elif k == "perform":
            self.perform(a, scope, p)
        elif k == "chance":
            self.chance(a, scope)
        elif k == "shuffle_hands":
            src("cards = []")
            with src.block("for qq in range(N):"):
                src(f"cards += {self.hand('qq')}")
            if self.counted:                 # emptied in place: `hand` still holds the player's counts
                with src.block("for h in hc:"):
                    src("h[:] = NO_FACES")
                src("hm = [0] * N")
                src("hn = [0] * N")
                if self.color_counts:
                    src("hk = [[0] * NCOLOR_SLOTS for _ in range(N)]")
            else:
                with src.block("for h in hands:"):
                    src("h.clear()")
            src("shuffle(cards, rnd)")
            src(f"order = OTHERS[direction][{p}] + ({p},)")
            q = x.name_var("q")
            with src.block("for i, c in enumerate(cards):"):
                src(f"{q} = order[i % N]")
                self.gain(q, "c")
            if self.decl:
                src("exposed = []")
            src(f"if log is not None: EV_SHUFFLE_HANDS(log, round_no, {p})")

    def discard_all(self, a, scope, p):
        """hands.act_discard_all: p's cards of a color (or of a kind), in the hand's
        order, go under the discard pile's top card."""
        src, x = self.src, self.x
        v = x.name_var("v")
        src(f"{v} = {x.expr(a['what'], scope)}")
        of = "CKIND" if id(a) in self.compiler.rb.kind_actions else "CCOLOR"
        src(f"gone = [c for c in {self.hand(p)} if {of}[c] == {v}]")
        with src.block("if gone:"):
            with src.block("for c in gone:"):
                self.lose(p, "c")
            src("discard[-1:-1] = gone")
            src(f"if log is not None: EV_DISCARD(log, round_no, {p}, gone)")

    def reveal(self, scope):
        """primitives.act_reveal: the draw pile's top card (refilled if empty) turned onto the
        discard pile, its color the current one unless it is a wild (no event for the color, as in
        the engine); `revealed` binds it, or the discard pile's top when there is nothing to turn."""
        src = self.src
        var = self.x.name_var("revealed")
        with self.refill():
            src(f"{var} = discard[-1]")
        with src.block("else:"):
            self.take(var)
            src(f"discard.append({var})")
            with src.block(f"if CCOLOR[{var}] != NO_COLOR:"):
                src(f"color = CCOLOR[{var}]")
            src(f"if log is not None: EV_REVEAL(log, round_no, {var})")
        scope["revealed"] = var                      # bound for the rest of these actions, as in the env

    def give_hand(self, other: str, p):
        """hands.act_give_hand: p's whole hand joins the other player's, p's is empty
        (emptied in place: a local holding it holds the empty hand)."""
        src = self.src
        q = self.x.name_var("q")
        src(f"{q} = {other}")
        with src.block(f"if {q} is not None and {q} != {p}:"):
            if self.counted:
                with src.block(f"for f in FACES_IN(hm[{p}]):"):
                    src(f"hc[{q}][f] += hc[{p}][f]")
                    src(f"hc[{p}][f] = 0")
                src(f"hm[{q}] |= hm[{p}]")
                src(f"hn[{q}] += hn[{p}]")
                src(f"hm[{p}] = hn[{p}] = 0")
                if self.color_counts:
                    with src.block("for j in range(NCOLOR_SLOTS):"):
                        src(f"hk[{q}][j] += hk[{p}][j]")
                        src(f"hk[{p}][j] = 0")
            else:
                src(f"hands[{q}] += hands[{p}]")
                src(f"hands[{p}].clear()")
            if self.decl:
                src(f"if {p} in exposed: exposed.remove({p})")
                src(f"if {q} in exposed: exposed.remove({q})")
            src(f"if log is not None: EV_GIVE_HAND(log, round_no, {p}, {q})")

    def swap(self, k, other: str, p):
        """primitives.act_swap_hands / act_swap_seats: p and the other player swap their hands, or
        their seats (hands, scores, and who sits there: the seat's agent and its original player)."""
        src = self.src
        q = self.x.name_var("q")
        src(f"{q} = {other}")
        with src.block(f"if {q} is not None and {q} != {p}:"):
            moved = ("scores", "seats") + (() if self.stepping else ("AG",))      # (stepped seats have no agents)
            for held in self.held_lists() + (moved if k == "swap_seats" else ()):
                src(f"{held}[{p}], {held}[{q}] = {held}[{q}], {held}[{p}]")
            if self.decl:
                src(f"if {p} in exposed: exposed.remove({p})")
                src(f"if {q} in exposed: exposed.remove({q})")
            src(f"if log is not None: EV_{k.upper()}(log, round_no, {p}, {q})")

    def store(self, k, a, scope, p):
        """primitives._store: a counter's or flag's new value (for the performer where it is kept
        per player, with the turn it was set in), and its event."""
        src, x = self.src, self.x
        c = self.compiler.counters[a["counter"]]
        var, per_player = x.memory[c["name"]], c["per"] == "player"
        slot = f"{var}[{p}]" if per_player else var
        if k == "set_counter":
            value = x.expr(a["value"], scope) if "value" in a else "True"
        elif k == "add_counter":
            value = f"{slot} + {x.expr(a['amount'], scope)}"
        else:
            value = "False" if c["kind"] == "flag" else "0"
        src(f"v = BOUNDED({value}, {self.text('`' + c['name'] + '`')})" if k != "clear_counter" else f"v = {value}")
        src(f"{slot} = v")
        if per_player:
            src(f"set{var}[{p}] = tserial")
        name = self.text(c["name"])
        src(f"if log is not None: EV_COUNTER(log, round_no, {name}, v, {p if per_player else 'None'})")

    def reset_memory(self, when: tuple):
        """State.reset_counter for the counters kept until `when` (turn, round, next_turn)."""
        for c in self.rules.counters:
            if c.get("reset") in when:
                self.reset_counter(c)

    def reset_counter(self, c):
        var = self.x.memory[c["name"]]
        empty = "False" if c["kind"] == "flag" else "0"
        if c["per"] == "player":
            self.src(f"{var} = [{empty}] * N")
            self.src(f"set{var} = [-1] * N")
        else:
            self.src(f"{var} = {empty}")

    def expire_memory(self):
        """turns.expire_memory: p's turn begins; values kept for a turn are cleared, and so is a
        value kept until a player's next turn once that turn (begun after it was set) is over."""
        src = self.src
        src("tserial += 1")
        self.reset_memory(("turn",))
        for c in self.rules.counters:
            if c.get("reset") == "at_next_turn":
                raise NotCovered("a value kept until a player's next turn begins (`reset at next turn`)")
            if c.get("reset") == "next_turn":
                var = self.x.memory[c["name"]]
                empty = "False" if c["kind"] == "flag" else "0"
                if c["per"] != "player":
                    raise NotCovered("a counter kept for the game until a next turn")
                with src.block("for q in range(N):"):
                    with src.block(f"if {var}[q] != {empty} and lastturn[q] > set{var}[q]:"):
                        src(f"{var}[q] = {empty}")
        src("lastturn[p] = tserial")

    def triggers(self, event: str, scope, card: str | None = None):
        """State.fire: the rulebook's `on EVENT` rules in order, each with its face filter (judged as
        the event fires) and its condition (judged when it runs, after those before it)."""
        src, x = self.src, self.x
        for t in self.rules.ir.get("triggers", []):
            if t["event"] != event:
                continue
            with src.from_rule(self.where(t)):
                tests = []
                pat = t.get("of", {})
                if card is not None and "face" in pat:
                    tests.append(f"CKIND[{card}] == {literal(self.compiler.kind_id[pat['face']])}")
                if card is not None and "color" in pat:
                    tests.append(f"CCOLOR[{card}] == {literal(self.compiler.color_id[pat['color']])}")
                inner = {**scope, "@given": None}
                if "if" in t:
                    tests.append(x.expr(t["if"], inner))
                if tests:
                    with src.block(f"if {' and '.join(f'({c})' for c in tests)}:"):
                        self.actions(t["actions"], inner)
                else:
                    self.actions(t["actions"], inner)

    def set_color(self, c):
        self.src(f"color = {c}")
        self.src(f"if log is not None: EV_COLOR(log, round_no, {c})")

    def greedy_play(self, legal: str = "legal", mask: bool = False):
        """GreedyAgent._play over the play actions of `legal`: the flat index `i` of the best (rather
        attack when the next player is close to going out, keep wilds, call, shed points, play the
        color held most, name the color held most; the first of equals, as max() takes)."""
        src = self.src
        if self.color_counts:                 # by_color: the seat's cards by color + 1 (a row of hk)
            src("by_color = hk[p]")
            count, named = "by_color[cc + 1]", "by_color[g + 1] - (cc == g)"
        else:
            src("by_color = {}")
            with src.block(f"for c in {self.hand('p') if self.counted else 'hand'}:"):
                src("cc = CCOLOR[c]")
                src("by_color[cc] = by_color.get(cc, 0) + 1")
            count, named = "by_color.get(cc, 0)", "by_color.get(g, 0) - (cc == g)"
        src(f"urgent = {self.hand_len('(p + direction) % N')} <= 2")
        src("best = None")
        src("at = 0")
        vc, vk = ("VC", "VK") if self.decl else ("VCOLOR", "VCALL")
        if mask:                              # `legal`: a mask of faces, walked in face order
            src(f"gm = {legal}")
            src("while gm:")
            src.depth += 1
            src("low = gm & -gm")
            src("gm ^= low")
            src("c = low.bit_length() - 1")
        else:
            src(f"for c in {legal}:")
            src.depth += 1
        src("kc = CKIND[c]")
        src("cc = CCOLOR[c]")
        src(f"colors = {vc}[c]")
        src(f"calls = {vk}[c]")
        with src.block(f"for j in range({self.no}[c]):"):
            src("g = colors[j]")
            src(f"key = (urgent and ATTACKS[kc], not WILD[kc], calls[j], POINTS[c], {count}, "
                f"{named} if g is not None else 0, {'-FACES[c]' if self.face_order else '-c'}, -(g or 0))")
            with src.block("if best is None or key > best:"):
                src("best = key")
                src("i = at + j")
        src(f"at += {self.no}[c]")
        src.depth -= 1                        # the end of the loop over the options

    def effects(self, event, scope, kinds=None):
        """The if-chain on the card's kind: each kind's rules for `event`, inlined (`kinds`: only
        these kinds', where no other can be played)."""
        src = self.src
        having = [kind.id for kind in self.rules.kinds if (kinds is None or kind.id in kinds)
                  and any(e["event"] == event and e["actions"] for e in self.rules.ir["cards"][kind.id].get("effects", []))]
        if not having:
            return
        guarded = len(having) < len(self.rules.kinds)
        if guarded:
            src(f"if {HAS_TABLE[event]}[k]:")
            self.src.depth += 1
        first = True
        for kind_id in having:
            eff = next(e for e in self.rules.ir["cards"][kind_id].get("effects", []) if e["event"] == event)
            with src.block(f"{'if' if first else 'elif'} k == {literal(kind_id)}:"):
                self.kind_now = kind_id
                self.actions(eff["actions"], scope)
                self.kind_now = None
            first = False
        if guarded:
            self.src.depth -= 1

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
            with src.block(f"if x not in exposed or {self.hand_len('x')} != {literal(at)}:"):
                src("pending.pop(0)")
                src("i = 0")
                src("continue")
            src("others = OTHERS[direction][x]")
            with src.block("if i < len(others):"):
                src("q = others[i]")
                self.count_decision()
                if self.stepping:                # [catch x, no catch]
                    self.yield_choice("j", "q", "[CATCH_IDS[x], CATCH_NONE_ID]")
                    test = "j"
                else:
                    test = f"not {self.is_agent('q', 'greedy')} and int(arnd() * 2)"    # greedy always catches
                with src.block(f"if {test}:"):
                    src("i += 1")
                    src("continue")
                src("catches += 1")
                src("if log is not None: EV_CATCH(log, round_no, q, x)")
                src("if x in exposed: exposed.remove(x)")
                src("pending.pop(0)")
                src("i = 0")
                self.actions(self.rules.ir["declarations"][0]["actions"], {"me": "x", "@who": "x", "@given": None})
                src("continue")
            src("pending.pop(0)")
            src("i = 0")
        src("exposed = []")
