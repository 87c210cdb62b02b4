"""Code generation, a player's play options: the cards that may be played now (one per face, the
kinds with a rule of their own judged by it), counted as the agent's index arithmetic counts them,
and the play an index picks (generator.py's Generator mixes this in), with the engine's play_options
semantics (turns.py); with hands counted per face, the options are a mask of faces."""
from __future__ import annotations

from unorules.engine.table import MATCH_RULE

from .expressions import literal

# a card `c` of kind `k` that is not wild matches the current color or the top card's kind
MATCHES = "CCOLOR[c] == color or MATCHK[k] == MATCHK[CKIND[discard[-1]]]"


def ruled_faces(game) -> list[tuple]:
    """[(kind, its faces)] of the kinds whose faces a rule of their own judges (play_options'
    MATCH_RULE), in kind order, each kind's faces ascending: the table RULED_MASKS holds their masks."""
    faces: dict[int, list[int]] = {}
    for f, (_, kind) in enumerate(game.rules.faces):
        if game.face_mask[f] == MATCH_RULE:
            faces.setdefault(kind, []).append(f)
    return [(k, faces[k.id]) for k in game.rules.kinds if k.id in faces]


class PlayOptions:
    def options(self, cards: str, single: bool = False):
        """play_options(p, cards): one card per face, the faces' last copies in reverse hand order,
        the kinds with a rule of their own judged by it. Leaves the cards in `legal` and the number
        of their play actions (a card whose play names a color has one per color) in `total`: the
        agent's pick is index arithmetic over them, as over the engine's list of actions. In face
        order (Generator.face_order) the faces come in face order; counted, `legal` is a mask."""
        src = self.src
        if self.counted and not single:
            self.counted_options()
            return
        if self.decl:                        # with the call where playing leaves the declared count
            with src.block(f"if {self.hand_len('p')} - 1 == {literal(self.decl_at)}:"):
                src("NO, VC, VK = NOPT_CALL, VCOLOR_CALL, VCALL_CALL")
            with src.block("else:"):
                src("NO, VC, VK = NOPT, VCOLOR, VCALL")
        src("target = TARGET[color + 1][CKIND[discard[-1]]]")      # what a card's match mask must share
        if single and self.counted:          # one card: `legal` is its face's bit or 0 (no list made)
            src(f"legal = BIT[{cards}] if CMASK[{cards}] & target else 0")
            src("total = 0")
            if self.ruled_kinds():
                src(f"c = {cards}")
                with src.block("while legal:"):      # one pass: a refusal leaves it
                    with src.block("if CMASK[c] == MATCH_RULE:"):
                        self.judge_rules(("legal = 0", "break"))
                    src(f"total += {self.no}[c]")
                    src("break")
            else:
                with src.block("if legal:"):
                    src(f"c = {cards}")
                    src(f"total += {self.no}[c]")
            return
        if single:
            src(f"legal = [{cards}] if CMASK[{cards}] & target else []")
        else:
            src("seen = {}")
            with src.block(f"for c in reversed({cards}):"):
                with src.block("if CMASK[c] & target:"):
                    src("seen[FACES[c]] = c")
            src("legal = [seen[f] for f in sorted(seen)]" if self.face_order else "legal = seen.values()")
        src("total = 0")
        if self.ruled_kinds():         # judged, and counted, in one pass
            src("keep = []")
            with src.block("for c in legal:"):
                with src.block("if CMASK[c] == MATCH_RULE:"):
                    self.judge_rules(("continue",))
                src("keep.append(c)")
                src(f"total += {self.no}[c]")
            src("legal = keep")
        else:
            with src.block("for c in legal:"):
                src(f"total += {self.no}[c]")

    def ruled_kinds(self):
        return [k for k in self.rules.kinds if not self.rules.plain_match[k.id]]

    def kind_tests(self, kind) -> list:
        """The rules that judge a card of this kind: its `playable when`, then its `legal when`
        unless a challenge judges that."""
        ir_card = self.rules.ir["cards"][kind.id]
        return ([ir_card["playable_when"]] if kind.playable is not None else []) + (
            [ir_card["legal_when"]] if kind.legal is not None and kind.challenge is None else [])

    def judge_rules(self, refuse: tuple):
        """Card `c`, of a kind with a rule of its own: the statements `refuse` run unless its
        kind's `playable when` (and `legal when`, unless challenged) allow it and it matches."""
        src = self.src
        src("k = CKIND[c]")
        scope = {"me": "p", "@who": "p", "card": "c"}
        first = True
        for kind in self.ruled_kinds():
            tests = self.kind_tests(kind)
            if not tests:
                continue
            with src.block(f"{'if' if first else 'elif'} k == {literal(kind.id)}:"):
                first = False
                for e in tests:
                    with src.from_rule(self.where(e)):
                        with src.block(f"if not {self.x.expr(e, scope)}:"):
                            for line in refuse:
                                src(line)
        with src.block(f"if not WILD[k] and not ({MATCHES}):"):
            for line in refuse:
                src(line)

    def counted_options(self):
        """play_options with hands counted per face: `legal` is a mask of the faces held that are
        playable (those with a rule of their own judged one by one), and `total` its play actions,
        counted per group of faces with as many actions each (NOPT_MASKS)."""
        src = self.src
        src("legal = hm[p] & FACES_TO[color + 1][CKIND[discard[-1]]]")
        for j, (kind, faces) in enumerate(ruled_faces(self.game)):
            self.judge_faces(j, kind, faces)

        def total(table, groups):
            return "total = " + (" + ".join(f"(legal & {table}[{literal(j)}]).bit_count()" + (
                f" * {literal(v)}" if v != 1 else "") for j, v in enumerate(groups)) or "0")
        plain, call = self.option_counts
        if self.decl:                        # with the call where playing leaves the declared count
            with src.block(f"if {self.hand_len('p')} - 1 == {literal(self.decl_at)}:"):
                src("NO, VC, VK = NOPT_CALL, VCOLOR_CALL, VCALL_CALL")
                src(total("NOPT_MASKS_CALL", call))
            with src.block("else:"):
                src("NO, VC, VK = NOPT, VCOLOR, VCALL")
                src(total("NOPT_MASKS", plain))
        else:
            src(total("NOPT_MASKS", plain))

    def judge_faces(self, j: int, kind, faces: list[int]):
        """The held and candidate faces of one kind with a rule of its own (RULED_MASKS[j]), each
        judged as play_options judges it: the kind is known here, so its rule is written without
        a test of the kind, and a kind of one face without a loop over the mask."""
        src = self.src
        if len(faces) == 1:
            with src.block(f"if legal & RULED_MASKS[{literal(j)}]:"):
                src(f"c = {literal(faces[0])}")
                self.judge_kind(kind, f"legal ^= RULED_MASKS[{literal(j)}]")
            return
        src(f"ruled = legal & RULED_MASKS[{literal(j)}]")
        with src.block("while ruled:"):
            src("low = ruled & -ruled")
            src("ruled ^= low")
            src("c = low.bit_length() - 1")
            self.judge_kind(kind, "legal ^= low")

    def judge_kind(self, kind, refuse: str):
        """Card `c`, of this kind: `refuse` runs once if its `playable when` (and `legal when`,
        unless challenged) do not allow it or, not wild, it does not match; the tests in that
        order, none after the first that refuses (judge_rules' order)."""
        src = self.src
        src(f"k = {literal(kind.id)}")
        scope = {"me": "p", "@who": "p", "card": "c"}
        first = True
        for e in self.kind_tests(kind):
            with src.from_rule(self.where(e)):
                with src.block(f"{'if' if first else 'elif'} not {self.x.expr(e, scope)}:"):
                    src(refuse)
            first = False
        if not self.rules.wild_kind[kind.id]:
            with src.block(f"{'if' if first else 'elif'} not ({MATCHES}):"):
                src(refuse)

    @property
    def no(self):
        return "NO" if self.decl else "NOPT"

    def pick_play(self):
        """The play of index i among legal's play actions: its card, and the color it names."""
        src = self.src
        if self.counted:                     # legal: a mask of faces, walked in face order
            with src.block("while True:"):
                src("low = legal & -legal")
                src("card = low.bit_length() - 1")
                src(f"m = {self.no}[card]")
                with src.block("if i < m:"):
                    src("break")
                src("i -= m")
                src("legal ^= low")
        else:
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
