"""Stage 3d: how deep rules nest. Loops over players inside loops multiply the work of one play,
and blocks inside blocks nest the generated code (Python refuses loops nested more than 20 deep):
the checker bounds both, counting through the named rules a rule does. `NestingChecks` is mixed
into the Checker (it reads self.ir and self.rules and reports through self.error)."""
from __future__ import annotations

MAX_LOOP_NESTING = 4       # loops over players (and sums, counts, ... over players) inside one another
MAX_BLOCK_NESTING = 12     # blocks (if, { }, chance, perform, attack, do) inside one another


def _expr_loops(a) -> int:
    """The deepest nesting of aggregates over players (`sum(each other ...: ...)`) in an action's
    own expressions (not its blocks')."""
    best = 0
    stack = [(v, 0) for k, v in a.items() if k not in ("actions", "then", "otherwise", "branches", "outcomes")]
    while stack:
        n, depth = stack.pop()
        if isinstance(n, dict):
            if n.get("kind") == "aggregate":
                depth += 1
                best = max(best, depth)
            stack.extend((v, depth) for v in n.values())
        elif isinstance(n, list):
            stack.extend((v, depth) for v in n)
    return best


class NestingChecks:
    def check_nesting(self):
        """Loops over players inside loops multiply the work of one play (nine loops over four players
        are 4^9 actions), and blocks inside blocks nest the generated code (Python refuses more than
        20 loops deep): both are bounded, counting through the named rules a rule does."""
        ir = self.ir
        lists = [e["actions"] for c in ir.get("cards", []) for e in c.get("effects", [])]
        lists += [c["challenge"] for c in ir.get("cards", []) if "challenge" in c]
        lists += [x["actions"] for key in ("reactions", "triggers", "declarations") for x in ir.get(key, [])]
        lists += [ir["turn"]["draw_with"]] if "draw_with" in ir.get("turn", {}) else []
        lists += [ir["setup"]["cut"]["actions"]] if "cut" in ir.get("setup", {}) else []
        lists += [r["actions"] for r in ir.get("rules", [])]
        reported: set[int] = set()
        walked: set[tuple] = set()
        for actions in lists:
            self._nest(actions, 0, 0, reported, (), walked)

    def _nest(self, actions, loops, blocks, reported, doing, walked, repeating=False):
        """Report what nests too deep in `actions`, entered `loops` loops and `blocks` blocks deep.
        A list walked before at the same depths, through the same named rules, reports nothing new:
        it is walked once (rules that each do the next twice would otherwise cost 2^depth)."""
        key = (id(actions), loops, blocks, doing, repeating)
        if key in walked:
            return
        walked.add(key)
        for a in actions:
            if a["kind"] == "repeat" and repeating and id(a) not in reported:
                reported.add(id(a))
                self.error("U0404", "a `repeat` inside another `repeat` (counting the named rules done inside)", a,
                           None, "a loop in a loop", "repeat one named rule that does the inner part once")
                continue
            subj = a.get("subject") or {}
            here_loops = loops + (subj.get("kind") in ("each_other", "each_player")) + _expr_loops(a)
            here_blocks = blocks + (a["kind"] in ("if", "group", "chance", "perform", "attack", "do", "repeat"))
            here_loops += a["kind"] == "repeat"         # up to MAX_REPEAT passes: as much work as a loop
            if (here_loops > MAX_LOOP_NESTING or here_blocks > MAX_BLOCK_NESTING) and id(a) not in reported:
                reported.add(id(a))
                what = (f"loops over players nested more than {MAX_LOOP_NESTING} deep" if here_loops > MAX_LOOP_NESTING
                        else f"blocks nested more than {MAX_BLOCK_NESTING} deep")
                self.error("U0404", f"{what} (counting the named rules done inside)", a, None, "too deep",
                           "loop over fewer players at once, or split the rule into named rules done one after another")
                continue
            inner = repeating or a["kind"] == "repeat"
            for key in ("actions", "then", "otherwise"):
                if isinstance(a.get(key), list):
                    self._nest(a[key], here_loops, here_blocks, reported, doing, walked, inner)
            for br in a.get("branches", []):
                self._nest(br["then"], here_loops, here_blocks, reported, doing, walked, inner)
            for o in a.get("outcomes", []):
                self._nest(o["actions"], here_loops, here_blocks, reported, doing, walked, inner)
            if a["kind"] == "do" and a["rule"] in self.rules and a["rule"] not in doing:
                self._nest(self.rules[a["rule"]]["actions"], here_loops, here_blocks, reported, doing + (a["rule"],),
                           walked, inner)
