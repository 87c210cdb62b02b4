"""Code generation, attack windows (attacks.py): an attack waits for its target's answer (a
reaction that stacks, reflects or redirects it, played from the hand), then a challenge where the
attacking card has one, then resolves: its body runs for whoever is the target then. The attack's
state lives in locals named in `atk`; generator.py's Generator mixes this in."""
from __future__ import annotations

from .expressions import NotCovered, literal

PENDING, RESOLVE, CANCELLED = 0, 1, 2      # Attack.state


class AttackWindows:
    def attack(self, a, scope):
        src, x = self.src, self.x
        if self.kind_now is None and scope.get("card") is None:
            raise NotCovered("an attack where no card is played")
        atk = {k: x.name_var(k) for k in ("t", "pen", "st", "kind", "card", "legal", "attacker", "player")}
        src(f"{atk['t']} = {x.expr(a['target'], scope)}")
        with src.block(f"if {atk['t']} is not None:"):      # primitives.act_attack: on nobody, nothing
            self.attack_on(a, scope, atk)

    def attack_on(self, a, scope, atk):
        src, x = self.src, self.x
        src(f"{atk['pen']} = {x.expr(a['penalty'], scope) if 'penalty' in a else '0'}")
        src(f"{atk['st']} = {literal(PENDING)}")
        # a card's own attack is of its kind; one a trigger makes (`on play of 7: ... attack`) is of
        # the kind of the card that fired it, as the engine takes it (primitives.act_attack)
        src(f"{atk['kind']} = {literal(self.kind_now) if self.kind_now is not None else 'CKIND[' + scope['card'] + ']'}")
        src(f"{atk['card']} = {scope.get('card', 'None')}")
        src(f"{atk['legal']} = {scope.get('@legal_play', 'True')}")
        src(f"{atk['attacker']} = {atk['player']} = {scope['me']}")
        env = {**scope, "@given": None}         # atk.env: the attack's own env, for its body
        answerable = {k for r in self.rules.reactions for k in r.to}
        answers = bool(self.rules.reactions) and not (self.kind_now is not None
                                                      and not (answerable & self.reachable_kinds()))
        hooked = "attacked" in self.rules.triggers
        if not answers and not hooked:
            self.challenge_offer(a, env, atk)
            return
        if hooked:
            atk["hooked"], atk["hooks"] = x.name_var("hooked"), x.name_var("hooks")
            src(f"{atk['hooked']} = None")
            src(f"{atk['hooks']} = 0")
        with src.block("while True:"):               # attack_window, again while the target changes
            with src.block(f"if {atk['st']} == {literal(CANCELLED)}:"):
                src("break")
            with src.block(f"if {atk['st']} == {literal(RESOLVE)}:"):
                self.resolve(a, env, atk)
                src("break")
            if hooked:
                self.hooks_asked(atk)
            if answers:
                self.respond_options(atk)
                with src.block("if ropts:"):
                    self.pick_response(atk)
                    with src.block("if j < len(ropts):"):
                        self.respond(atk)
                        with src.block(f"if {atk['st']} == {literal(CANCELLED)}:"):
                            src("break")
                        with src.block(f"if {atk['t']} == old and {atk['st']} == {literal(PENDING)}:"):
                            self.resolve(a, env, atk)
                            src("break")
                        src("continue")
            self.challenge_offer(a, env, atk)
            src("break")

    def hooks_asked(self, atk):
        """attacks.hooks_asked: before a new target may answer, the rulebook's `on attacked` rules
        run (as its target; the attacker and the penalty as they stand), each of which may cancel
        the attack, change its penalty or pass it on (whose new target is asked in turn); an attack
        passed on more than MAX_TRIGGER_DEPTH times is the rule's error."""
        src, x = self.src, self.x
        with src.block(f"if {atk['hooked']} != {atk['t']}:"):
            src(f"{atk['hooked']} = {atk['t']}")
            src(f"{atk['hooks']} += 1")
            first = next(t for t in self.rules.ir["triggers"] if t["event"] == "attacked")
            with src.from_rule(self.where(first)):
                with src.block(f"if {atk['hooks']} > MAX_TRIGGER_DEPTH:"):
                    src("raise RuleRuntimeError(HOOKS_PASSED)")
            me, att, pen = x.name_var("hme"), x.name_var("hatt"), x.name_var("hpen")
            src(f"{me}, {att}, {pen} = {atk['t']}, {atk['attacker']}, {atk['pen']}")
            self.triggers("attacked", {"me": me, "@who": me, "target": me, "attacker": att, "penalty": pen,
                                       "@atk": atk})
            src("continue")

    def reachable_kinds(self) -> set:
        """The kinds an attack can be made or answered with: those with an attack in their rules,
        and those that react."""
        kinds = {k.id for k in self.rules.kinds if k.has_attack}
        for r in self.rules.reactions:
            kinds |= set(r.with_)
        return kinds

    def respond_options(self, atk):
        """The target's answers: per reaction to the attack's kind, one per face held that reacts
        and passes its condition (with the call where playing leaves the declared count), sorted
        by face and call. Leaves them in `ropts` as (face, call, card)."""
        src, x = self.src, self.x
        t = atk["t"]
        src("ropts = []")
        src("rseen = set()")
        for i, r in enumerate(self.rules.reactions):
            ir_r = self.rules.ir["reactions"][i]
            with src.from_rule(self.where(ir_r)):
                with src.block(f"if REACT_TO[{literal(i)}][{atk['kind']}]:"):
                    with src.block(f"for c in {self.faces_held(t)}:"):
                        with src.block(f"if REACT_WITH[{literal(i)}][CKIND[c]] and FACES[c] not in rseen:"):
                            if "if" in ir_r:
                                scope = {"me": t, "@who": t, "card": "c", "target": t, "attacker": atk["attacker"],
                                         "penalty": atk["pen"]}
                                with src.block(f"if not {x.expr(ir_r['if'], scope)}:"):
                                    src("continue")
                            src("rseen.add(FACES[c])")
                            src("ropts.append((FACES[c], False, c))")
                            if self.decl:
                                with src.block(f"if {self.hand_len(t)} - 1 == {literal(self.decl_at)}:"):
                                    src("ropts.append((FACES[c], True, c))")
        src("ropts.sort()")

    def pick_response(self, atk):
        """The target picks an answer, or none (the last option): greedy answers, with the call
        where it can (agents/base.py)."""
        src = self.src
        self.count_decision()
        if self.stepping:                    # the answers (by face, then the call), then none; the attack pending
            src("ids = [RESPOND_IDS[1 if call else 0][f] for f, call, _ in ropts]")
            src("ids.append(RESPOND_NONE_ID)")
            self.yield_choice("j", atk["t"], "ids", atk)
            return
        with src.block(f"if {self.is_agent(atk['t'], 'greedy')}:"):
            self.first_call("ropts", 1, "j")
        with src.block("else:"):
            src("j = int(arnd() * (len(ropts) + 1))")

    def respond(self, atk):
        """attacks._respond_answer: the answer is played (placed, not its card's own rules) and the
        reaction's rules run; the attack takes the answering card's kind."""
        src = self.src
        t = atk["t"]
        src("c = ropts[j][2]")
        src("call = ropts[j][1]")
        rk = self.x.name_var("rk")
        src(f"{rk} = CKIND[c]")
        rx = self.x.name_var("rx")
        # the reaction: the first whose kinds fit (judged before the attack takes the new kind)
        src(f"{rx} = -1")
        for i in range(len(self.rules.reactions)):
            with src.block(f"{'if' if i == 0 else 'elif'} REACT_TO[{literal(i)}][{atk['kind']}] and "
                           f"REACT_WITH[{literal(i)}][{rk}]:"):
                src(f"{rx} = {literal(i)}")
        card, legal = self.x.name_var("rc"), self.x.name_var("rlegal")
        src(f"{card} = c")
        self.place(t, card, legal)
        src(f"if log is not None: EV_RESPOND(log, round_no, {t}, {card}, {atk['attacker']})")
        src(f"old = {t}")
        src(f"{atk['kind']}, {atk['card']}, {atk['legal']}, {atk['player']} = CKIND[{card}], {card}, {legal}, {t}")
        me, att, pen = self.x.name_var("rme"), self.x.name_var("ratt"), self.x.name_var("rpen")
        src(f"{me}, {att}, {pen} = {t}, {atk['attacker']}, {atk['pen']}")
        scope = {"me": me, "@who": me, "card": card, "target": me, "attacker": att, "penalty": pen,
                 "@legal_play": legal, "@given": None, "@atk": atk}
        for i in range(len(self.rules.reactions)):
            ir_r = self.rules.ir["reactions"][i]
            with src.block(f"{'if' if i == 0 else 'elif'} {rx} == {literal(i)}:"):
                self.actions(ir_r["actions"], dict(scope))

    def place(self, p: str, card: str, legal: str | None, *, hand: str | None = None, kind: str | None = None,
              current: bool = True):
        """table.place: the card leaves p's hand (`hand`: a local holding it) for the pile, with the
        streak, the color, the counts and the declaration's exposure or call; `legal` (where given)
        is whether its kind's `legal when` allowed it, judged before it leaves the hand. The turn's
        play, a card jumped in with and an answer to an attack all go through here."""
        src = self.src
        kind = kind or f"CKIND[{card}]"
        if legal is not None:
            self.legal_of(card, p, legal)
        if self.reads("streak"):
            src(f"streak = streak + 1 if CKIND[discard[-1]] == {kind} else 1")
        self.lose(p, card, hand)
        src(f"discard.append({card})")
        if self.stepping:                    # State.recent_plays, which an observation reads
            src(f"recent.append(({p}, {card}))")
            with src.block("if len(recent) > 32:"):
                src("del recent[:16]")
        src(f"c = CCOLOR[{card}]")
        with src.block("if c != NO_COLOR:"):
            src("color = c")
        if self.reads("first_card"):
            src("first_card = False")
        if current:
            src(f"current = {p}")
        src("plays += 1")
        if self.game.track_kinds:
            with src.block(f"if TRACKED[{kind}]:"):
                src(f"tracked.add({'seats[' + p + ']' if self.moves_seats else p})")   # the original player
        if self.decl:
            src(f"if {p} in exposed: exposed.remove({p})")
            size = self.hand_len(p) if self.counted or hand is None else f"len({hand})"
            with src.block(f"if {size} == {literal(self.decl_at)}:"):
                with src.block("if call:"):
                    src(f"if log is not None: EV_UNO(log, round_no, {p})")
                with src.block("else:"):
                    src(f"exposed.append({p})")

    def legal_of(self, card: str, p: str, out: str):
        """`out` = was playing `card` legal by its kind's `legal when` (judged before it is placed)."""
        src = self.src
        src(f"{out} = True")
        first = True
        for kind in self.rules.kinds:
            if kind.legal is None:
                continue
            e = self.rules.ir["cards"][kind.id]["legal_when"]
            with src.from_rule(self.where(e)):
                with src.block(f"{'if' if first else 'elif'} CKIND[{card}] == {literal(kind.id)}:"):
                    src(f"{out} = {self.x.truth(e, self.x.expr(e, {'me': p, '@who': p, 'card': card}))}")
            first = False

    def challenge_offer(self, a, env, atk):
        """attacks.challenge_offer: where the attack's kind has a challenge, its target may make it
        ([challenge, no challenge]); then the attack resolves unless the challenge cancelled it."""
        src, x = self.src, self.x
        kinds = [k for k in self.rules.kinds if k.challenge is not None]
        if not kinds:
            self.resolve(a, env, atk)
            return
        t, att = atk["t"], atk["player"]        # the card's player: never their own challenger, and who pays
        first = True
        for kind in kinds:
            with src.block(f"{'if' if first else 'elif'} {atk['kind']} == {literal(kind.id)} and {t} != {att}:"):
                first = False
                self.count_decision()
                if self.stepping:                # [challenge, no challenge], the attack pending
                    self.yield_choice("j", t, "CHALLENGE_IDS", atk)
                    src("ch = j == 0")
                else:
                    with src.block(f"if {self.is_agent(t, 'greedy')}:"):   # when a bluff is likely (agents/base.py)
                        src(f"ch = 1.0 - (0.75 ** {self.hand_len(att)}) > 0.6")
                    with src.block("else:"):
                        src("ch = int(arnd() * 2) == 0")
                with src.block("if ch:"):
                    src("challenges += 1")
                    with src.block(f"if not {atk['legal']}:"):
                        src("challenges_won += 1")
                    src(f"if log is not None: EV_CHALLENGE(log, round_no, {t}, {att}, {atk['legal']}, {self.hand(att)})")
                    me, tt, pen, card, legal = (x.name_var(v) for v in ("cme", "ct", "cpen", "ccard", "clegal"))
                    src(f"{me}, {tt}, {pen}, {card}, {legal} = {att}, {t}, {atk['pen']}, {atk['card']}, {atk['legal']}")
                    inner = {"me": me, "@who": tt, "card": card, "target": tt, "attacker": me, "penalty": pen,
                             "legal": legal, "challenger": tt, "@given": None, "@atk": atk}
                    self.actions(self.rules.ir["cards"][kind.id]["challenge"], inner)
        with src.block(f"if {atk['st']} != {literal(CANCELLED)}:"):
            self.resolve(a, env, atk)

    def resolve(self, a, env, atk):
        """attacks.resolve: the attack's body runs for its target, in the attack's own env."""
        src = self.src
        t, pen, att = atk["t"], atk["pen"], atk["attacker"]
        src(f"if log is not None: EV_ATTACK(log, round_no, {att}, {t}, {pen})")
        tt, tpen, tatt = self.x.name_var("bt"), self.x.name_var("bpen"), self.x.name_var("batt")
        src(f"{tt}, {tpen}, {tatt} = {t}, {pen}, {att}")
        self.actions(a["actions"], {**env, "@who": tt, "target": tt, "attacker": tatt, "penalty": tpen, "@given": None})

    def attack_action(self, k, a, scope, p):
        """The actions that change a pending attack: only in a reaction or a challenge."""
        src, x = self.src, self.x
        atk = scope.get("@atk")
        if atk is None:
            raise NotCovered(f"`{k.replace('_', ' ')}` outside a reaction or a challenge")
        if k == "resolve_attack":
            src(f"{atk['st']} = {literal(RESOLVE)}")
        elif k == "cancel_attack":
            src(f"{atk['st']} = {literal(CANCELLED)}")
            src(f"if log is not None: EV_CANCEL_ATTACK(log, round_no, {scope['me']}, {atk['attacker']}, {atk['t']}, "
                f"{atk['pen']})")
        elif k == "add_penalty":
            src(f"{atk['pen']} += {x.expr(a['amount'], scope)}")
        elif k == "double_penalty":
            src(f"{atk['pen']} *= 2")
        elif k == "pass_attack":
            to = x.name_var("to")
            src(f"{to} = {x.expr(a['to'], scope)}")
            with src.block(f"if {to} is not None:"):          # primitives.act_pass_attack: to nobody, it stays
                src(f"{atk['attacker']} = {scope['me']}")
                src(f"{atk['t']} = {to}")
                src(f"if log is not None: EV_PASS_ATTACK(log, round_no, {scope['me']}, {atk['t']}, {atk['pen']})")
        elif k == "take_back":
            self.not_counted("`take back`")     # which copy of the face goes back is the pile's order
            with src.block(f"if {atk['card']} in discard and len(discard) > 1:"):   # a pile keeps its last card
                src(f"discard.remove({atk['card']})")
                src(f"hands[{atk['player']}].append({atk['card']})")
                src(f"if log is not None: EV_TAKE_BACK(log, round_no, {atk['player']}, {atk['card']})")
