"""Code generation, drawing: a draw of N cards, one card, cards until a condition holds of the
last, and the reshuffle of an empty draw pile (table.draw_cards, primitives._draw_until), with the
engine's events; hands held as lists of cards or counted per face."""
from __future__ import annotations

from unorules.engine.table import MAX_DRAW
from .expressions import literal


class Draws:
    def draw_until(self, p, stop: str, why: int):
        """primitives._draw_until: one card at a time until `stop` holds of the last (h[-1]), or the
        pile runs out; one draw event for them all."""
        src = self.src
        q, got = self.x.name_var("q"), self.x.name_var("got")
        src(f"{q} = {p}")
        src(f"h = {'hc' if self.counted else 'hands'}[{q}]")
        src(f"{got} = 0")
        if self.counted:
            src("dl = []")
        with src.block("for _ in range(MAX_DRAW):"):
            with self.refill():
                src(f"if log is not None: EV_DRAW_SHORT(log, round_no, {q}, 1, 0)")
                src("break")
            self.draw_card(q, size=True, listed=True)
            src(f"{got} += 1")
            src("drawn += 1")
            if self.decl:
                src(f"if {q} in exposed: exposed.remove({q})")
            with src.block(f"if {stop}:"):
                src("break")
        with src.block(f"if {got}:"):
            drawn_cards = "dl" if self.counted else f"h[-{got}:]"
            src(f"if log is not None: EV_DRAW(log, round_no, {q}, {drawn_cards}, {literal(why)})")

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
        n = int(count) if count.isdigit() and int(count) <= MAX_DRAW else None    # a literal count
        seat = p == "p" or (p.startswith("(((") and p.endswith(") % N)"))        # never None
        if n == 1 and seat:
            self.draw_single(q, got, why)
            return got
        src(f"{k} = {count}" if n is not None else f"{k} = min(int({count}), MAX_DRAW)")
        tests = ([] if n else [f"{k} > 0"]) + ([] if seat else [f"{q} is not None"])
        with src.block(f"if {' and '.join(tests) or 'True'}:"):
            src(f"h = {'hc' if self.counted else 'hands'}[{q}]")
            src(f"{got} = 0")
            if self.counted:
                src("dl = []")
            with src.block(f"for _ in range({k}):"):
                with self.refill():
                    src(f"if log is not None: EV_DRAW_SHORT(log, round_no, {q}, {k}, {got})")
                    src("break")
                self.draw_card(q, size=False, listed=True)
                src(f"{got} += 1")
            with src.block(f"if {got}:"):
                src(f"drawn += {got}")
                if self.counted:
                    src(f"hn[{q}] += {got}")
                if self.decl:
                    src(f"if {q} in exposed: exposed.remove({q})")
                drawn_cards = "dl" if self.counted else f"h[-{got}:]"
                src(f"if log is not None: EV_DRAW(log, round_no, {q}, {drawn_cards}, {literal(why)})")
        return got

    def draw_card(self, q, size: bool, listed: bool):
        """One card from the (non-empty) pile into q's hand, `h`: counted, the face is left in `f`
        (`size`: counted in hn now; `listed`: kept in `dl` for the event log), else appended to h."""
        src = self.src
        if self.counted:
            self.take("f")
            src("h[f] += 1")
            src(f"hm[{q}] |= BIT[f]")
            self.count_color(q, "f", "+")
            if size:
                src(f"hn[{q}] += 1")
            if listed:
                src("if log is not None: dl.append(f)")
        else:
            self.take("c")
            src("h.append(c)")

    def draw_single(self, q, got, why):
        """`draw 1` for seat q: draw's loop for one card, as straight-line code."""
        src = self.src
        src(f"h = {'hc' if self.counted else 'hands'}[{q}]")
        with self.refill():
            src(f"if log is not None: EV_DRAW_SHORT(log, round_no, {q}, 1, 0)")
            src(f"{got} = 0")
        with src.block("else:"):
            self.draw_card(q, size=True, listed=False)
            src(f"{got} = 1")
            src("drawn += 1")
            if self.decl:
                src(f"if {q} in exposed: exposed.remove({q})")
            src(f"if log is not None: EV_DRAW(log, round_no, {q}, {'[f]' if self.counted else 'h[-1:]'}, {literal(why)})")
