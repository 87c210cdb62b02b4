"""Code generation, the game: the round (the shuffle, the deal, the first card), the turns (the
options, the agents' choices, drawing, playing, going out) and the round's end and scoring, as the
body of the generated `play` function (generator.py's Generator mixes this in), with the engine's
turn flow's semantics (rounds.py, turns.py, table.py, agents/base.py)."""
from __future__ import annotations

from unorules.engine.rounds import MAX_ROUNDS
from unorules.engine.types import MAX_GAME_TURNS, MAX_TURN_DECISIONS
from .actions import WHY_DRAW, WHY_UNTIL_PLAYABLE
from .expressions import literal

REASON_WIN, REASON_STALLED, REASON_ROUND_CAP = 0, 1, 2      # EV_ROUND_END's and EV_GAME_END's codes
OUTCOME_WIN, OUTCOME_STALLED = 0, 1
# what code stopped at a decision shows of the game, after the seat and its actions' ids (steps.py)
STOP_STATE = "hands, discard, color, direction, current, scores, exposed, recent"
# the tables read on every turn, bound as the function's locals (default arguments) when it is loaded
HOT_TABLES = ("CCOLOR", "CKIND", "CMASK", "FACES", "NOPT", "VCOLOR", "COLOR_BIT", "KIND_BIT", "WILD", "MATCHK",
              "OTHERS", "MATCH_ANY", "MATCH_RULE", "NO_COLOR", "N", "TARGET", "HAS_PLAY", "POINTS", "ATTACKS", "GREEDY",
              "RANDOM_PLAY")
STEPPED_HOT_TABLES = ("PID", "DRAW_ID")      # and these, where the code stops at each decision
COUNTED_HOT_TABLES = ("BIT", "FACES_TO", "HELD", "RULED_MASKS", "NOPT_MASKS", "NOPT_MASKS_CALL")    # and these, with hands counted


# the locals of a position between two turns that play_from starts from, in order (playouts.py)
ENTRY_LOCALS = ("hands", "pile", "discard", "scores", "dealer", "round_no", "exposed", "tserial", "game_turns",
                "first_card", "lastturn", "direction", "color", "skips", "streak", "override", "current", "turns",
                "leader")


def memory_locals(counters) -> tuple:
    """The locals that hold the rulebook's counters and flags, in its order: each one's value (a
    list by seat for one kept per player, with the turn serial each seat's was set in)."""
    out = ()
    for i, c in enumerate(counters):
        out += (f"mem{i}", f"setmem{i}") if c["per"] == "player" else (f"mem{i}",)
    return out


def entry_start(s, card=None, seat=None, stepped=()) -> tuple:
    """ENTRY_LOCALS' values from an engine State `s` between two turns (or about to begin `seat`'s
    turn, the next seat then), then `stepped` (for code stopped at each decision: the last plays,
    and what each player was shown of others' hands where a rule shows them) and the counters
    (memory_locals), and who sits where (`seats`, which swapping seats changes): the State's own
    lists (a playout's copy, handed on), or with `card` (the State's card -> a card of the
    generated deck) new lists of those cards."""
    override = seat if seat is not None else -1 if s.next_override is None else s.next_override
    if card is None:
        start = (s.hands, s.draw_pile, s.discard, s.scores, s.dealer, s.round, s.exposed, s.turn_serial,
                 s.game_turns, s.first_card, s.last_turn, s.direction, s.color, s.skips, s.streak, override,
                 s.current, s.turns, s.leader)
    else:
        start = ([[card[c] for c in h] for h in s.hands], [card[c] for c in s.draw_pile],
                 [card[c] for c in s.discard], list(s.scores), s.dealer, s.round, list(s.exposed), s.turn_serial,
                 s.game_turns, s.first_card, list(s.last_turn), s.direction, s.color, list(s.skips), s.streak,
                 override, s.current, s.turns, s.leader)
    start += tuple(stepped)
    for c in s.rules.counters:
        value = s.memory[c["name"]]
        start += (list(value), list(s.set_at[c["name"]])) if c["per"] == "player" else (value,)
    return start + (s.seats if card is None else list(s.seats),)


class TurnFlow:
    # ---- the game ----------------------------------------------------------------------------
    def generate(self):
        """The whole source into self.src: the helpers, `play` (which keeps the event log),
        `play_quiet` (the same game without it) and the face-mask tables they read."""
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
            if not self.face_order:          # an unshuffled pile draws at random
                src("shuffle(pile, rnd)")
            src("return True")
        hot = ", ".join(f"{t}={t}" for t in HOT_TABLES + (COUNTED_HOT_TABLES if self.counted else ())
                        + (STEPPED_HOT_TABLES if self.stepping else ()))
        if self.entry:                     # a playout: from a position between turns, no event log
            src.quiet = True
            with src.block(f"def play_from(START, rng, arng, AG, tracked, {hot}):"):
                self.body(turn, sc, single)
        for quiet in (() if self.entry else (False, True)):   # `play` keeps the event log; `play_quiet` not
            src.quiet = quiet
            with src.block(f"def {'play_quiet' if quiet else 'play'}(seed, AG, log, tracked, {hot}):"):
                self.body(turn, sc, single)
        src.quiet = False
        head = []
        for table, pred in self.x.face_tables:       # per current color and top face: the faces it holds of
            head.append(f"def make_{table}():")
            head.append("    return [[SUM_MASK(c for c in range(NFACES) if "
                        f"{pred}) for tf in range(NFACES)] for col in COLOR_IDS]")
            head.append(f"{table} = make_{table}()")
        src.prepend(head)
        return src

    def body(self, turn, sc, single):
        """The body of a `play` function: the game's state as locals, the rounds, the result."""
        src = self.src
        if self.entry:
            self.entry_prologue()
        elif self.face_order:                # one generator for the deck and the agents
            src("rnd = arnd = RANDOM(seed).random")
        elif self.stepping:                  # the choices are made outside
            src("rnd = RANDOM(seed).random")
            src("recent = []")               # the last plays (player, card), as State.recent_plays
            src("current = 0")               # State.__init__'s, shown before a card is up (a bet at the cut)
            src("color = NO_COLOR")
            src("direction = 1")
        else:
            src("rnd = RANDOM(seed).random")
            src("arnd = RANDOM(seed + 1).random")
        if self.entry:
            pass
        elif self.counted:
            self.empty_hands()
            src("pile = list(DECK)")
        else:
            src("hands = [[] for _ in range(N)]")
            src("pile = list(range(NCARDS))")
        if not self.entry:
            src("discard = []")
            src("scores = [0] * N")
            if self.moves_seats:                 # swap seats: who sits where, and so each seat's agent
                src("seats = list(range(N))")
                src("AG = list(AG)")
            src("dealer = N - 1")
            src("round_no = 0")
        src("drawn = plays = reshuffles = decisions = turn_decisions = challenges = challenges_won = catches = 0")
        if self.reads("just_drawn"):
            src("turn_drawn = -1")                 # State.__init__: no card drawn (`on round_start`, a first card)
        if not self.entry:
            src("exposed = []")
            src("tserial = 0")
            src("game_turns = 0")
            src("first_card = False")          # State.__init__: read before any card is turned up (`on round_start`)
            src("lastturn = [-1] * N")
            for c in self.rules.counters:
                self.reset_counter(c)
        src("turns_per_round = []")
        src("drawn_per_round = []")
        src("winner = None")
        src("outcome = OUTCOME_NAMES[0]")
        src("error = None")
        with src.block("try:"):
            with src.block("while True:"):
                self.round(turn, sc, single)
        with src.block("except RuleRuntimeError as e:"):
            src("e = RULE_WHERE(e)")
            src("outcome, error, winner = ERROR, e, None")
            src("if log is not None: EV_ERROR(log, round_no, e)")
        with src.block("except RULE_FAILURES as e:"):
            src("error = RULE_FAILED(e)")
            src("outcome, winner = ERROR, None")
            src("if log is not None: EV_ERROR(log, round_no, error)")
        if self.stepping:                    # the last stop: the game's end, as an observation reads it
            src(f"yield (TERMINAL, [], {STOP_STATE}, None{self.stop_memory()})")
        if self.entry:                       # outcome None: the round is over and the game goes on
            src("return outcome, winner, round_winner")
            return
        src("return RESULT(outcome, winner, error, round_no, scores, turns_per_round, drawn_per_round, "
            "drawn, plays, reshuffles, decisions, turn_decisions, challenges, challenges_won, catches, tracked, log"
            + (", seats)" if self.moves_seats else ")"))

    def cut(self, cut):
        """rounds.ask_cut, before the deal: the `on cut` rules (the bets), then the cut, a chance
        node drawn as random.choices draws it over [chance, 1 - chance]; an exact cut runs the
        setup's cut rules, done by the dealer."""
        src, x = self.src, self.x
        scope = {"me": "dealer", "@who": "dealer"}
        self.triggers("cut", scope)
        with src.from_rule(self.where(cut)):
            src(f"ch = float({x.expr(cut['chance'], scope)})")
            src("ch = min(1.0, max(0.0, ch))")
            src("exact = rnd() * (ch + (1.0 - ch)) < ch")
            src("if log is not None: EV_CUT(log, round_no, dealer, exact)")
            with src.block("if exact:"):
                self.actions(cut["actions"], dict(scope))

    def entry_prologue(self):
        """play_from's locals: the position's (ENTRY_LOCALS, as playouts.py takes them from a State),
        the random streams of the deck and of the agents, no event log. Code stopped at each decision
        (a scenario followed in generated code, steps.py) takes the last plays too and has no agents."""
        src = self.src
        stepped = ("recent",) + (("shown",) if self.keeps_shown else ()) if self.stepping else ()
        src(f"{', '.join(ENTRY_LOCALS + stepped + memory_locals(self.rules.counters) + ('seats',))} = START")
        src("rnd = rng.random")
        if not self.stepping:
            src("arnd = arng.random")
            if self.moves_seats:             # each seat's agent moves with it
                src("AG = list(AG)")
        src("log = None")
        src("round_winner = None")
        src("entering = True")               # the first round's set-up and first turn's advance are done

    def round(self, turn, sc, single):
        src, r, x = self.src, self.rules, self.x
        if self.entry:
            with src.block("if not entering:"):
                src("round_no += 1")
        else:
            src("round_no += 1")
        src("stalled = False")
        src("tfirst = decisions")            # rounds.begin_round: the decisions' count for MAX_TURN_DECISIONS
        src("try:")                          # to the end of the turns: count_decision may end the round stalled
        src.depth += 1
        if self.entry:                       # the round is under way: straight to the turns
            src("if not entering:")
            src.depth += 1
        src("turns = 0")
        with src.block("if round_no > 1:"):
            if self.counted:                 # every card is back: the deck in card order
                self.empty_hands()
                src("discard.clear()")
                src("pile = list(DECK)")
            else:
                src("cards = pile + discard")
                with src.block("for h in hands:"):
                    src("cards += h")
                    src("h.clear()")
                src("discard.clear()")
                src("cards.sort()")
                src("pile = cards")
            src("dealer = next_dealer")
            if self.rules.scoring["next_leader"] is not None:
                src("leader = next_leader")
        if not self.face_order:              # an unshuffled pile draws at random
            src("shuffle(pile, rnd)")
        src("direction = 1")
        src("color = NO_COLOR")
        src("skips = [0] * N")
        src("streak = 0")
        src("override = -1")
        self.reset_memory(("round", "turn", "next_turn", "at_next_turn"))
        if self.keeps_shown:
            src("shown = {}")
        if self.rules.scoring["next_leader"] is not None:
            with src.block("if round_no == 1:"):
                src("leader = None")
        src("if log is not None: EV_ROUND_START(log, round_no, dealer, "
            f"{'leader' if self.rules.scoring['next_leader'] is not None else 'None'})")
        if r.cut is not None:
            self.cut(r.ir["setup"]["cut"])
        # the deal
        hand = r.ir.get("setup", {}).get("hand")
        with src.from_rule(self.where(hand) if hand else None):
            src(f"size = int({x.expr(hand, {'me': 'dealer', '@who': 'dealer'}) if hand else literal(7)})")
        src("k = N")
        src("dealt = max(0, min(size * k, len(pile)))")
        if self.counted:         # counted hands keep the face order: card j goes to seat dealer + 1 + j % k
            with src.block("for j in range(dealt):"):
                self.take("c")
                src("q = (dealer + 1 + j % k) % N")
                src("hc[q][c] += 1")
                src("hm[q] |= BIT[c]")
                src("hn[q] += 1")
                self.count_color("q", "c", "+")
        else:                    # the dealt cards, `top`, round the table: seat dealer + 1 + i gets top[i::k]
            if self.face_order:
                src("top = []")
                with src.block("for _ in range(dealt):"):
                    self.take("c")
                    src("top.append(c)")
            else:
                src("top = pile[len(pile) - dealt:][::-1]")
                src("del pile[len(pile) - dealt:]")
            with src.block("for i in range(k):"):
                src("hands[(dealer + 1 + i) % N] += top[i::k]")
        src(f"if log is not None: EV_DEAL(log, round_no, size, {self.all_hands()}, dealer)")
        self.triggers("round_start", {"me": "dealer", "@who": "dealer"})
        # the first card
        with src.block("while True:"):
            with self.refill(), src.from_rule(self.rules.deck_where):
                src("raise RuleRuntimeError(NO_FIRST_CARD)")
            self.take("card")
            src("discard.append(card)")
            src("color = CCOLOR[card]")
            src("first_card = True")
            src("streak = 1")
            if self.rules.scoring["next_leader"] is not None:     # rounds.opener: the seat before the leader
                src("current = first = dealer if leader is None else (leader - direction) % N")
            else:
                src("current = first = dealer")
            src("redraw = False")
            src("if log is not None: EV_TURN_UP(log, round_no, card)")
            src("k = CKIND[card]")
            self.effects("turn_up", {"me": "first", "@who": "first", "card": "card", "@given": None})
            with src.block("if not redraw:"):
                src("break")
        if self.entry:
            src.depth -= 1
            src("entering = False")
        # the turns
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
                        if self.game.turn_resets:          # turns.advance: a skipped turn is that player's turn
                            src("tserial += 1")
                            src("lastturn[p] = tserial")
                        src("p = (p + direction) % N")
                        src("guard += 1")
            src("current = p")
            src("turns += 1")
            src("game_turns += 1")
            src("tfirst = decisions")
            if self.reads("just_drawn"):
                src("turn_drawn = -1")            # turns.begin_turn: no card drawn yet this turn
            with src.block(f"if turns > {literal(self.game.turn_cap)} or game_turns > {literal(MAX_GAME_TURNS)}:"):
                src("turns -= 1")                 # turns.begin_turn: the turns actually played
                src("stalled = True")
                src("break")
            if self.decl:
                with src.block("if exposed:"):
                    src("exposed = []")
            if self.game.turn_resets:
                self.expire_memory()
            src("if log is not None: EV_TURN(log, round_no, p)")
            self.triggers("turn_start", {"me": "p", "@who": "p"})
            self.any_time_window()
            src("hand = hc[p]" if self.counted else "hand = hands[p]")
            self.options("hand")
            # the options: the plays, then drawing (always, or only when stuck); the agent picks
            # one by its index, as it would from the engine's list
            src("size = total + 1" if not turn["draw_only_when_stuck"] else "size = total if total else 1")
            self.count_decision()
            src("turn_decisions += 1")
            self.pick_turn_action()
            # drawing is the pick past the plays; where a seat draws only when stuck, every agent's
            # pick is below size = max(total, 1), so it draws exactly when it has no play: a test
            # that does not wait on the pick (native code: the branch is known before the stream is)
            stuck_only = turn["draw_only_when_stuck"] and not self.stepping
            with src.block("if not total:" if stuck_only else "if i >= total:"):
                self.turn_draw(turn)
            with src.block("else:"):
                self.pick_play()
            # play_card: place it (and, where others may jump in, again for each who does), run its
            # rules, then end_play
            scope = {"me": "p", "@who": "p", "card": "card", "@given": "given"}
            jump = self.rules.jump_in is not None
            if jump:
                src("while True:")
                src.depth += 1
            src("k = CKIND[card]")
            if self.challenges:              # a challenge asks whether the play was legal
                scope["@legal_play"] = "legal_play"
            # current = p, as table.place does: a rule on drawing may have placed a card (an answer to an attack)
            self.place("p", "card", "legal_play" if self.challenges else None, hand="hand", kind="k")
            src(f"if log is not None: EV_PLAY(log, round_no, p, card, {'call' if self.decl else 'False'})")
            if jump:
                self.jump_window()
                with src.block("if jumped:"):
                    src("continue")
                src("break")
                src.depth -= 1
            fired = {**scope, "@given": None}       # the triggers' env: copied as they fire, before the rules run
            self.effects("play", scope, self.in_turn_kinds())
            self.triggers("play", fired, "card")
            held = "hn" if self.counted else "hands"
            if self.moves_hands:
                with src.block("if 0 in hn:" if self.counted else f"if not ({held}[p] and all({held})):"):
                    src(f"winner = next(q for q in ((p,) + OTHERS[direction][p]) if not {held}[q])")
                    src("break")
            else:                            # no rule takes cards from a hand but a play: only p can be out
                with src.block("if not hn[p]:" if self.counted else "if not hand:"):
                    src("winner = p")
                    src("break")
            if self.decl:
                with src.block("if exposed:"):
                    self.catch_window()
        src.depth -= 1
        with src.block("except TurnStalled:"):            # count_decision: a turn without end
            src("stalled = True")
        self.end_round(sc, single)

    def pick_turn_action(self):
        """The seat's agent picks the index `i` of its turn's action: the plays (`total` of them),
        then drawing (`size` actions in all). Greedy plays whenever it can; random_play too, at
        random; random picks any. Where every seat has the same agent, only its choice is written."""
        src = self.src

        def greedy():
            with src.block("if total:"):
                self.greedy_play("legal", mask=self.counted)
            with src.block("else:"):
                src("i = 0")
        uniform = self.uniform_agent()
        if self.stepping:                    # the plays, then drawing where the turn offers it
            self.ask_external("DRAW_ID", "size > total")
        elif uniform == "greedy":
            greedy()
        elif uniform == "random_play":
            with src.block("if total and size > total:"):
                src("i = int(arnd() * (size - 1))")
            with src.block("else:"):
                src("i = int(arnd() * size)")
        elif uniform == "random":
            src("i = int(arnd() * size)")
        else:
            with src.block(f"if {self.is_agent('p', 'greedy')}:"):
                greedy()
            with src.block(f"elif {self.is_agent('p', 'random_play')} and total and size > total:"):
                src("i = int(arnd() * (size - 1))")
            with src.block("else:"):
                src("i = int(arnd() * size)")

    def count_decision(self):
        """One more decision of an agent; one turn of more than MAX_TURN_DECISIONS (answers to
        attacks that answer each other without end) ends the round as stalled (State.ask)."""
        with self.src.block(f"if decisions - tfirst >= {literal(MAX_TURN_DECISIONS)}:"):
            self.src("raise TURN_STALLED")
        self.src("decisions += 1")

    def turn_draw(self, turn):
        src, r = self.src, self.rules
        mode = turn["drawn_card"]
        draw_with = r.ir.get("turn", {}).get("draw_with")
        fires = any(t["event"] == "draw" for t in r.ir.get("triggers", []))
        if draw_with:                    # turns.turn_draw: the rulebook's actions replace the draw
            if self.counted and (mode != "is_kept" or fires):
                self.not_counted("`draw with` with a drawn card that may be played or fires a rule")
            if not self.counted:
                src("before = set(hands[p])")
            with src.from_rule(self.where(r.ir["turn"])):
                self.actions(draw_with, {"me": "p", "@who": "p", "@given": None})
            if self.counted:             # the cards it gave are kept, and nothing reads them
                src("continue")
                return
            src("got = [c for c in hands[p] if c not in before]")       # _after_draw_with
            src("card = got[-1] if got else None")
            if self.moves_hands:
                src("hand = hands[p]")
        elif turn["draw_until_playable"]:
            src("got = 0")
            if self.counted:
                src("dl = []")
            with src.block("for _ in range(MAX_DRAW):"):
                with self.refill():
                    src("if log is not None: EV_DRAW_SHORT(log, round_no, p, 1, 0)")
                    src("break")
                self.take("card")
                self.gain("p", "card")
                if self.counted:
                    src("if log is not None: dl.append(card)")
                src("got += 1")
                src("drawn += 1")
                if self.reads("just_drawn"):
                    src("turn_drawn = card")     # turns._drawn_playable: judged as the card just drawn
                self.options("card", single=True)
                with src.block("if total:"):
                    src("break")
            with src.block("if got:"):
                src(f"if log is not None: EV_DRAW(log, round_no, p, {'dl' if self.counted else 'hand[-got:]'}, "
                    f"{literal(WHY_UNTIL_PLAYABLE)})")
            src("card = card if got else None" if self.counted else "card = hand[-1] if got else None")
        else:
            got = self.draw("p", literal(1), WHY_DRAW)
            src(f"card = {'f' if self.counted else 'hand[-1]'} if {got} else None")
        with src.block("if card is None:"):
            src("continue")
        if self.reads("just_drawn"):
            src("turn_drawn = card")             # turns.turn_draw: `just_drawn` to the turn's end
        if fires:
            self.triggers("draw", {"me": "p", "@who": "p", "card": "card"}, "card")
            if self.moves_hands:
                self.not_counted("a rule on drawing that moves hands")
                with src.block("if card not in hands[p]:"):
                    src("continue")
                src("hand = hands[p]")
        if mode == "is_kept":
            src("continue")
            return
        self.options("card", single=True)
        when = r.ir.get("turn", {}).get("drawn_card")
        if isinstance(when, dict):
            with src.from_rule(self.where(when["must_play_when"])):
                cond = self.x.expr(when["must_play_when"], {"me": "p", "@who": "p", "card": "card"})
                with src.block(f"if total and not {cond}:"):
                    src("total = 0")
        with src.block("if not total:"):
            src("continue")
        self.count_decision()
        uniform = self.uniform_agent()
        if self.stepping:                    # its plays, then keeping it where it may be kept
            self.ask_external("KEEP_ID" if mode != "must_play" else None)
        elif uniform == "greedy":
            self.greedy_play(mask=self.counted)
        elif uniform is not None and (mode == "must_play" or uniform == "random_play"):
            src("i = int(arnd() * total)")
        elif uniform is not None:              # random: the plays, then keeping it
            src("i = int(arnd() * (total + 1))")
        else:
            with src.block(f"if {self.is_agent('p', 'greedy')}:"):
                self.greedy_play(mask=self.counted)
            if mode == "must_play":
                with src.block("else:"):
                    src("i = int(arnd() * total)")
            else:                                   # the plays, then keeping it
                with src.block(f"elif {self.is_agent('p', 'random_play')}:"):
                    src("i = int(arnd() * total)")
                with src.block("else:"):
                    src("i = int(arnd() * (total + 1))")
        if mode != "must_play":
            with src.block("if i == total:"):
                src("if log is not None: EV_KEEP(log, round_no, p)")
                src("continue")
        self.chosen()

    def end_round(self, sc, single):
        src, x = self.src, self.x
        src("turns_per_round.append(turns)")
        src("drawn_per_round.append(drawn - sum(drawn_per_round))")
        if self.entry:
            src("round_winner = None if stalled else winner")
        with src.block("if stalled:"):
            src(f"if log is not None: EV_ROUND_END(log, round_no, None, {literal(REASON_STALLED)})")
            src("winner = None")
            src("outcome = OUTCOME_NAMES[1]")
            src(f"if log is not None: EV_GAME_END(log, round_no, None, {literal(OUTCOME_STALLED)})")
            src("break")
        if sc["method"] == "each_scores_own_hand":
            src(f"gained = [(q, {self.hand_points('q')}) for q in range(N)]")
        elif sc["method"] == "no_points":             # rounds.end_round: no points
            src("gained = []")
        elif sc["method"] == "winner_scores":         # rounds.end_round: the formula, judged for the winner
            formula = self.rules.ir["scoring"]["method"]["winner_scores"]
            with src.from_rule(self.where(formula)):
                src(f"gained = [(winner, {self.x.expr(formula, {'me': 'winner', '@who': 'winner', 'winner': 'winner'})})]")
        elif self.counted:
            src(f"gained = [(winner, sum({self.hand_points('q')} for q in range(N) if q != winner))]")
        else:
            src(f"gained = [(winner, sum(POINTS[c] for q in range(N) if q != winner for c in {self.hand('q')}))]")
        with src.block("for q, g in gained:"):
            src("scores[q] += g")
        ir_sc = self.rules.ir.get("scoring", {})
        env = {"me": "winner", "@who": "winner", "winner": "winner"}
        if sc["next_dealer"] is not None:
            with src.from_rule(self.where(ir_sc["next_dealer"])):
                src(f"next_dealer = SEAT({self.x.expr(ir_sc['next_dealer'], env)})")
        else:
            src("next_dealer = (dealer + 1) % N")
        if sc["next_leader"] is not None:
            with src.from_rule(self.where(ir_sc["next_leader"])):
                src(f"next_leader = SEAT({self.x.expr(ir_sc['next_leader'], env)})")
        src(f"if log is not None: EV_ROUND_END(log, round_no, winner, {literal(REASON_WIN)})")
        with src.block("if log is not None:"):
            with src.block("for q, g in gained:"):
                src("EV_SCORE(log, round_no, q, g, scores[q])")
        self.triggers("round_end", {"me": "winner", "@who": "winner", "winner": "winner"})
        if single:
            self.finish()
            return
        lowest = sc["method"] == "each_scores_own_hand"
        best = ("min(range(N), key=lambda q: (scores[q], q))" if lowest
                else "max(range(N), key=lambda q: (scores[q], -q))")
        env = {"me": "0", "@who": "0"}
        tests = []
        if sc["target"] is not None:
            tests.append(f"any(scores[q] >= {x.expr(self.rules.ir['scoring']['target'], env)} for q in range(N))")
        if sc["rounds"] is not None:
            tests.append(f"round_no >= {x.expr(self.rules.ir['scoring']['rounds'], env)}")
        for test in tests:
            with src.block(f"if {test}:"):
                src(f"winner = {best}")
                self.finish()
        with src.block(f"if round_no >= {literal(MAX_ROUNDS)}:"):
            src(f"if log is not None: EV_ROUND_END(log, round_no, None, {literal(REASON_ROUND_CAP)})")
            src("winner = None")
            src("outcome = OUTCOME_NAMES[1]")
            src(f"if log is not None: EV_GAME_END(log, round_no, None, {literal(OUTCOME_STALLED)})")
            src("break")
        if self.entry:                       # a playout ends with its round
            src("outcome = None")
            src("break")

    def finish(self):
        self.src(f"if log is not None: EV_GAME_END(log, round_no, winner, {literal(OUTCOME_WIN)})")
        self.src("break")
