"""Small changes to a merged IR that change its rules: the mutations the explain-injectivity
property runs over (tests/test_explain_injective.py, bench/explain_injectivity.py).

- `number`: a whole number anywhere (a count, a deck entry, a player range, a literal) plus one,
  a fraction plus a half;
- `subject`: an action's subject swapped for another player or group, or taken away, or given;
- `regroup`: `a op (b op c)` made `(a op b) op c` (and/or, sums and products), and back;
- `move`: the last action of a block (a branch, an outcome, an attack's effect, a group) moved out,
  right after the action that holds the block.
"""
from __future__ import annotations

import copy
import json

from unorules.language.checker import check
from unorules.errors import errors_of
from unorules.language.loader import Rulebook
from unorules.language.schema import schema_diagnostics
from unorules.language.spans import Spans

SUBJECTS = [{"kind": "name", "name": "next"}, {"kind": "name", "name": "previous"},
            {"kind": "each_other"}, {"kind": "each_player"}]
# (not `me` or `dealer`: the default performer of a rule's top level, or of a first card's rule)
GROUPS = {"and": "logic", "or": "logic", "+": "sum", "-": "sum", "*": "product", "/": "product"}


def canonical(ir) -> str:
    return json.dumps(ir, sort_keys=True)


def checked(ir) -> Rulebook | None:
    """A merged IR as a rulebook, when the schema and the checker accept it; otherwise None."""
    if schema_diagnostics(ir, Spans(), "<mutant>"):
        return None
    rb = Rulebook(ir["name"], ir, {}, Spans())
    try:
        problems = check(rb)
    except RecursionError:
        return None
    return None if errors_of(problems) else rb


def _nodes(node):
    """Every dict and list of the IR, parents before children, in a fixed order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        children = list(n.values()) if isinstance(n, dict) else n if isinstance(n, list) else []
        stack.extend(reversed([c for c in children if isinstance(c, (dict, list))]))


def action_lists(ir):
    """Every list of actions in the IR, nested ones included."""
    for n in _nodes(ir):
        if isinstance(n, list) and n and all(isinstance(a, dict) and "kind" in a and _is_action(a) for a in n):
            yield n


ACTION_KINDS = None


def _is_action(a) -> bool:
    global ACTION_KINDS
    if ACTION_KINDS is None:
        from unorules.language.schema import schema
        ACTION_KINDS = set(schema()["$defs"]["action"]["properties"]["kind"]["enum"])
    return a["kind"] in ACTION_KINDS


def _blocks(a):
    """The blocks (lists of actions) an action holds."""
    for key in ("actions", "otherwise"):
        if isinstance(a.get(key), list):
            yield a[key]
    for br in a.get("branches", []):
        yield br["then"]
    for o in a.get("outcomes", []):
        yield o["actions"]


def _sites(ir):
    """Every place a mutation can be made, as (description, function that makes it in place)."""
    for n in _nodes(ir):
        if isinstance(n, dict):
            for k, v in n.items():
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    continue
                if k == "value" and n.get("kind") != "number":
                    continue
                yield f"number {k}={v}", (lambda n=n, k=k, v=v: n.__setitem__(k, v + (1 if isinstance(v, int) else 0.5)))
            if n.get("kind") == "binary" and n["op"] in GROUPS:
                for side, other in (("right", "left"), ("left", "right")):
                    child = n[side]
                    if child.get("kind") == "binary" and GROUPS.get(child["op"]) == GROUPS[n["op"]]:
                        yield f"regroup {n['op']} {child['op']} ({side})", (lambda n=n, side=side, other=other: _rotate(n, side, other))
    for lst in action_lists(ir):
        for i, a in enumerate(lst):
            options = [s for s in SUBJECTS if s != a.get("subject")]
            if "subject" in a:
                yield f"subject removed from {a['kind']}", (lambda a=a: a.pop("subject"))
            if a["kind"] != "attack":
                for subj in options:
                    if subj["kind"] != "name":      # a loop keeps its name and condition
                        subj = {**{k: v for k, v in a.get("subject", {}).items() if k in ("as", "where")}, **subj}
                    yield f"subject {subj['kind']} on {a['kind']}", (lambda a=a, subj=subj: a.__setitem__("subject", dict(subj)))
            for key, values in SETTINGS.get(a["kind"], ()):
                for v in values:
                    if a.get(key) != v:
                        yield f"{a['kind']} {key} {v}", (lambda a=a, key=key, v=v: a.pop(key, None) if v is None
                                                          else a.__setitem__(key, v))
            for block in _blocks(a):
                if block:
                    yield f"move the last of {a['kind']}'s block out", (lambda lst=lst, i=i, block=block: lst.insert(i + 1, block.pop()))


# an action's own settings, each value it may take (None: the key absent), one mutation per other value
SETTINGS = {"eliminate": (("from", (None, "round")),)}


def _rotate(n, side, other):
    child = n[side]
    inner = child[other]
    # a op (b op2 c)  ->  (a op b) op2 c, and the mirror: the same operands, grouped the other way
    n[side] = inner
    n_copy = {"kind": "binary", "op": n["op"], "left": n["left"], "right": n["right"]}
    child[other] = n_copy
    n.clear()
    n.update(child)


def mutants(ir):
    """(description, mutated copy of `ir`) for every site, one mutation each."""
    count = sum(1 for _ in _sites(ir))
    for i in range(count):
        mutant = copy.deepcopy(ir)
        for j, (how, make) in enumerate(_sites(mutant)):
            if j == i:
                make()
                yield how, mutant
                break


def mutation_pairs(ir, explain, label: str = "") -> tuple[int, list[str]]:
    """Every mutation of `ir` that the checker accepts and that changes the canonical IR, explained
    and compared with `ir`'s own explanation: (how many such pairs, the mutations that read the
    same as the original)."""
    text = explain(checked(ir))
    pairs, same = 0, []
    for how, mutant in mutants(ir):
        rb = checked(mutant)
        if rb is None or canonical(mutant) == canonical(ir):
            continue
        pairs += 1
        if explain(rb) == text:
            same.append(f"{label}: `{how}` changes the rules but not the explanation")
    return pairs, same
