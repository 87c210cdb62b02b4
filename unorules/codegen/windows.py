"""Code generation, plays out of turn (turns.py): jumping in after a play, and cards playable at
any time before a turn; who plays out of turn places the card as a turn's play would
(attacks.place) and its rules run. generator.py's Generator mixes this in."""
from __future__ import annotations

from .expressions import NotCovered, literal

# jumping in without a condition: a card of the top card's very face (color and kind)
SAME_FACE = {"kind": "binary", "op": "and",
             "left": {"kind": "binary", "op": "==", "left": {"kind": "attr", "name": "color", "of": {"kind": "name", "name": "card"}},
                      "right": {"kind": "attr", "name": "color", "of": {"kind": "name", "name": "top"}}},
             "right": {"kind": "binary", "op": "==", "left": {"kind": "attr", "name": "kind", "of": {"kind": "name", "name": "card"}},
                       "right": {"kind": "attr", "name": "kind", "of": {"kind": "name", "name": "top"}}}}


class OutOfTurn:
    def jump_window(self):
        """turns.jump_window: after a play, the others in the out-of-turn order may jump in with a
        card the rulebook's condition allows (the first of each face, sorted by face, with its
        colors and the call); who does plays it instead, and the card jumped on has no effect."""
        src, x = self.src, self.x
        j = self.rules.ir["jump_in"]
        order = "CLOCKWISE[p]" if self.rules.out_of_turn == "clockwise" else "OTHERS[direction][p]"
        if self.rules.jump_in_by_anyone:
            order = f"({order} + (p,))"        # the player's own twin after the others' (an empty hand has none)

        def cond(card):
            scope = {"me": "q", "@who": "q", "card": card}
            if "when" in j:
                with src.from_rule(self.where(j["when"])):
                    return x.expr(j["when"], scope)
            return f"(CCOLOR[{card}] == CCOLOR[discard[-1]] and CKIND[{card}] == CKIND[discard[-1]])"
        src("jumped = False")
        if self.counted:
            self.counted_jump_window(order, j, cond)
            return
        with src.block(f"for q in {order}:"):
            src("ok = False")
            src("fseen = set()")
            with src.block(f"for c in {self.hand('q')}:"):
                with src.block("if FACES[c] in fseen:"):
                    src("continue")
                src("fseen.add(FACES[c])")
                with src.block(f"if {cond('c')}:"):
                    src("ok = True")
                    src("break")
            with src.block("if not ok:"):
                src("continue")
            src("jopts = []")
            src("fseen = set()")
            calls = f"{self.hand_len('q')} - 1 == {literal(self.decl_at)}" if self.decl else "False"
            src(f"calls = {calls}")
            by_face = self.hand("q") if self.face_order else "sorted(hands[q], key=FACES.__getitem__)"
            with src.block(f"for c in {by_face}:"):
                with src.block(f"if FACES[c] in fseen or not {cond('c')}:"):
                    src("continue")
                src("fseen.add(FACES[c])")
                with src.block("for col in (SIDE_COLORS if FUSED[CKIND[c]] else NO_COLORS):"):
                    src("jopts.append((c, False, col))")
                    with src.block("if calls:"):
                        src("jopts.append((c, True, col))")
            self.jump_choice()

    def counted_jump_window(self, order, j, cond):
        """jump_window with hands counted per face: the faces each may jump in with, as a mask (one
        table lookup where the condition is a face predicate), their options in face order."""
        src, x = self.src, self.x
        when = j.get("when", SAME_FACE)
        table = x.face_table(when) if x.is_face_predicate(when) else None
        with src.block(f"for q in {order}:"):
            if table is not None:
                src(f"jm = hm[q] & {table}[color + 1][discard[-1]]")
            else:
                src(f"jm = SUM_MASK(c for c in FACES_IN(hm[q]) if {cond('c')})")
            with src.block("if not jm:"):
                src("continue")
            src("jopts = []")
            src(f"calls = {f'hn[q] - 1 == {literal(self.decl_at)}' if self.decl else 'False'}")
            with src.block("for c in FACES_IN(jm):"):
                with src.block("for col in (SIDE_COLORS if FUSED[CKIND[c]] else NO_COLORS):"):
                    src("jopts.append((c, False, col))")
                    with src.block("if calls:"):
                        src("jopts.append((c, True, col))")
            self.jump_choice()

    def jump_choice(self):
        """The one out of turn picks one of `jopts` or none; who does plays it instead."""
        src = self.src
        self.out_of_turn_choice("jopts", "q", "[JUMP_IDS[(FACES[c], col, call)] for c, call, col in jopts]",
                                "JUMP_NONE_ID")
        src("card, call, given = jopts[m]")
        src("if log is not None: EV_JUMP_IN(log, round_no, q, card)")
        src("p = q")
        src("hand = hc[p]" if self.counted else "hand = hands[p]")
        src("jumped = True")
        src("break")

    def out_of_turn_choice(self, opts: str, q: str, ids: str, none_id: str):
        """q's agent picks `m`, one of `opts` or none (`m == len(opts)`: the loop over who may act
        goes on to the next): greedy plays, with the call where it can; the others at random.
        Stopped at each decision, the code yields the options' ids (`ids`), then none's."""
        src = self.src
        self.count_decision()
        if self.stepping:
            src(f"ids = {ids}")
            src(f"ids.append({none_id})")
            self.yield_choice("m", q, "ids")
        else:
            with src.block(f"if {self.is_agent(q, 'greedy')}:"):
                self.first_call(opts, 1, "m")
            with src.block("else:"):
                src(f"m = int(arnd() * (len({opts}) + 1))")
        with src.block(f"if m == len({opts}):"):
            src("continue")

    def first_call(self, opts: str, at: int, out: str):
        """Greedy's answer out of turn (agents/base.py): max(answers, key=call), the first with the call
        (its flag at index `at` of each option), else the first."""
        src = self.src
        src(f"{out} = 0")
        with src.block(f"for i in range(len({opts})):"):
            with src.block(f"if {opts}[i][{literal(at)}]:"):
                src(f"{out} = i")
                src("break")

    def any_time_window(self):
        """turns.any_time_window: before p's turn, each other player in the out-of-turn order may
        play a card playable at any time (the first of each face held, in face order, its kind's
        `playable when` judged with `turn_player` bound to p; with the call where playing leaves
        the declared count). Its rules run; then a player out of cards ends the round, and a turn
        player who lost the turn passes it on (`passed`: the turn loop goes on to the next)."""
        kinds = sorted(self.game.any_time_kinds)
        if not kinds:
            return
        if any(self.rules.fused_color[k] for k in kinds):
            raise NotCovered("a card playable at any time that names a color as it is played")
        if self.rules.jump_in is not None or any(set(r.with_) & set(kinds) for r in self.rules.reactions):
            raise NotCovered("a card playable at any time that may also jump in or answer an attack")
        src, x = self.src, self.x
        q, i = x.name_var("aq"), x.name_var("ai")
        # the order is taken again after each play, as the engine does: a card's rules may reverse
        order = "CLOCKWISE[p]" if self.rules.out_of_turn == "clockwise" else "OTHERS[direction][p]"
        src("ended = passed = False")
        src(f"{i} = 0")
        with src.block(f"while {i} < N - 1:"):
            src(f"{q} = {order}[{i}]")
            src(f"{i} += 1")
            src("aopts = []")
            src(f"calls = {f'{self.hand_len(q)} - 1 == {literal(self.decl_at)}' if self.decl else 'False'}")
            if self.counted:
                faces = f"FACES_IN(hm[{q}])"
            else:
                src("fseen = set()")
                faces = self.hand(q) if self.face_order else f"sorted(hands[{q}], key=FACES.__getitem__)"
            with src.block(f"for c in {faces}:"):
                with src.block("if not ANY_TIME[CKIND[c]]" + ("" if self.counted else " or FACES[c] in fseen") + ":"):
                    src("continue")
                if not self.counted:
                    src("fseen.add(FACES[c])")
                for k in kinds:
                    if self.rules.kinds[k].playable is None:
                        continue
                    rule = self.rules.ir["cards"][k]["playable_when"]
                    with src.from_rule(self.where(rule)):
                        cond = x.expr(rule, {"me": q, "@who": q, "card": "c", "turn_player": "p"})
                        with src.block(f"if CKIND[c] == {literal(k)} and not {cond}:"):
                            src("continue")
                src("aopts.append((c, False))")
                with src.block("if calls:"):
                    src("aopts.append((c, True))")
            with src.block("if not aopts:"):
                src("continue")
            self.out_of_turn_choice("aopts", q, "[ANY_TIME_IDS[(FACES[c], None, call)] for c, call in aopts]",
                                    "ANY_TIME_NONE_ID")
            src("card, call = aopts[m]")
            src("k = CKIND[card]")
            scope = {"me": q, "@who": q, "card": "card", "turn_player": "p", "@given": None}
            if self.challenges:
                scope["@legal_play"] = "legal_play"
            self.place(q, "card", "legal_play" if self.challenges else None, kind="k")
            src(f"if log is not None: EV_ANY_TIME(log, round_no, {q}, card, p)")
            fired = dict(scope)
            self.effects("play", scope, self.game.any_time_kinds)
            self.triggers("play", fired, "card")
            held = "hn" if self.counted else "hands"
            with src.block("if 0 in hn:" if self.counted else "if not all(hands):"):
                src(f"winner = next(w for w in (({q},) + OTHERS[direction][{q}]) if not {held}[w])")
                src("ended = True")
                src("break")
            src("current = p")
            with src.block("if skips[p] > 0:"):
                src("skips[p] = 0")
                src("if log is not None: EV_SKIP(log, round_no, p)")
                src("passed = True")
                src("break")
        with src.block("if ended:"):
            src("break")
        with src.block("if passed:"):
            src("continue")

    def in_turn_kinds(self):
        """The kinds a turn's play may be of: all but those playable only out of turn, at any time
        (State.face_mask), which any_time_window plays."""
        return None if not self.game.any_time_kinds else {k.id for k in self.rules.kinds if not k.at_any_time}
