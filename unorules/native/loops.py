"""A loop over the faces of a mask, walked bit by bit in place.

The counted code loops over a hand's faces as `for c in faces_in(m)`, lowered to runtime.py's
`n_faces_in(m)` (or `n_wfaces_in((lo, hi))` for a mask of two words): a list made, grown and freed
on every call. Where that loop runs for each seat on each turn (cards played out of turn,
jump-ins, reactions: a hand searched for the cards that may answer), numba's list was most of the
game's time (perf: malloc, free and NRT's meminfo calls). Here such a loop walks the mask itself:

    for c in n_faces_in(m):             fm_ = m
        body                            while fm_:
                                            fl_ = fm_ & -fm_
                                            fm_ ^= fl_
                                            c = n_bitlen(fl_) - 1
                                            body

The mask is read once, before the first face, as the list was made once: a body that changes the
hand walks the faces it held when the loop began, in face order (the low word first). The bit is
cleared before the body, so its `continue` goes to the next face and its `break` leaves the loop,
as they did; the loop's name holds the last face walked, as after the for loop. A loop with an
`else` keeps its list (it would need a flag; none is generated). The names it makes (`fm_`, `fl_`,
`fw_`, `fi_`, numbered) are made unlike every name of the function."""
from __future__ import annotations

import ast

from .syntax import name_ as _name, parse_stmts

LISTS = {"n_faces_in": 1, "n_wfaces_in": 2}      # the list's runtime helper: the mask's words


def faces_as_bit_loops(fn: ast.FunctionDef) -> ast.FunctionDef:
    """`for c in n_faces_in(m)` (and n_wfaces_in) as a walk over the mask's bits, in every loop
    of the function without an `else`."""
    taken = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args}
    made = [0]

    def fresh(base: str) -> str:
        name = f"{base}{made[0]}_"
        while name in taken:
            name += "_"
        taken.add(name)
        return name

    class Loops(ast.NodeTransformer):
        def visit_For(self, node):
            self.generic_visit(node)
            call = node.iter
            if node.orelse or not isinstance(node.target, ast.Name) or not isinstance(call, ast.Call) \
                    or not isinstance(call.func, ast.Name) or call.func.id not in LISTS \
                    or len(call.args) != 1 or call.keywords:
                return node
            made[0] += 1
            words = LISTS[call.func.id]
            m, low, face = fresh("fm"), fresh("fl"), node.target.id
            step = parse_stmts(f"{low} = {m} & -{m}\n{m} ^= {low}")
            if words == 1:
                head = [ast.Assign(targets=[_name(m, ast.Store())], value=call.args[0])]
                step += parse_stmts(f"{face} = n_bitlen({low}) - 1")
                return head + [ast.While(test=_name(m), body=step + node.body, orelse=[])]
            pair, word = fresh("fw"), fresh("fi")
            head = [ast.Assign(targets=[_name(pair, ast.Store())], value=call.args[0])]
            head += parse_stmts(f"{word} = 0\n{m} = {pair}[0]")
            turn = parse_stmts(f"if not {m}:\n    if {word} == 1:\n        break\n"
                               f"    {word} = 1\n    {m} = {pair}[1]\n    continue")
            step += parse_stmts(f"{face} = 64 * {word} + n_bitlen({low}) - 1")
            return head + [ast.While(test=ast.Constant(True), body=turn + step + node.body, orelse=[])]

    return ast.fix_missing_locations(Loops().visit(fn))


WALK = """while True:
    {low} = {legal} & -{legal}
    {card} = n_bitlen({low}) - 1
    {m} = {table}[{card}]
    if {i} < {m}:
        break
    {i} -= {m}
    {legal} ^= {low}"""


def lead_faces(counts) -> int:
    """The faces below the first face whose play actions are not one (a color to name, a call),
    as a mask: each of them is one action, so the i-th action among them is the i-th face."""
    lead = 0
    for f, n in enumerate(counts):
        if n != 1:
            break
        lead |= 1 << f
    return lead


def option_walks_as_picks(fn: ast.FunctionDef, tables: dict) -> ast.FunctionDef:
    """The walk to a play action by its index (codegen's pick_play: the faces of `legal` in face
    order, each with its table's count of actions) picks the face at once where the index falls
    among the lead faces (lead_faces), the common case:

        if i < n_popcount(legal & LEAD):
            low = n_nth_bit(legal & LEAD, i)
            card = n_bitlen(low) - 1
            m = 1
            i = 0
            legal &= -low
        else:
            <the walk>

    Every name ends as the walk leaves it: the face's bit, the face, its count, the index within
    the face, and the faces below it cleared. Only for masks of one word, and a table of the
    program's (not one chosen as the game runs)."""
    class Walks(ast.NodeTransformer):
        def visit_While(self, node):
            self.generic_visit(node)
            try:
                low = node.body[0].targets[0].id
                legal = node.body[0].value.left.id
                card = node.body[1].targets[0].id
                m, table = node.body[2].targets[0].id, node.body[2].value.value.id
                i = node.body[3].test.left.id
            except (AttributeError, IndexError):
                return node
            counts = tables.get(table)
            walk = parse_stmts(WALK.format(low=low, legal=legal, card=card, m=m, table=table, i=i))
            if ast.dump(ast.Module(body=[node], type_ignores=[])) != ast.dump(ast.Module(body=walk, type_ignores=[])) \
                    or not isinstance(counts, (list, tuple)) or len(counts) > 64 \
                    or not all(type(n) is int for n in counts):
                return node
            lead = lead_faces(counts)
            if not lead:
                return node
            word = lead - (1 << 64) if lead >> 63 else lead          # the mask as a signed machine word
            pick = parse_stmts(f"if {i} < n_popcount({legal} & {word}):\n"
                               f"    {low} = n_nth_bit({legal} & {word}, {i})\n"
                               f"    {card} = n_bitlen({low}) - 1\n"
                               f"    {m} = 1\n    {i} = 0\n    {legal} &= -{low}")[0]
            pick.orelse = [node]
            return pick

    return ast.fix_missing_locations(Walks().visit(fn))
