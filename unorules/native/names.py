"""What the names of the generated code hold, for the lowering (lower.py mixes this in): which
locals are arrays of numbers or grids of them, which are tuple keys compared in order, and which
may hold None."""
from __future__ import annotations

import ast

from .syntax import is_grid, is_int_list, is_none
from .tables import NotNative


class NameAnalysis:
    def analyse(self, fn):
        """Which locals are arrays, grids, tuple keys, and which may hold None."""
        self._has_none: dict = {}
        self.containers = self.none_containers(fn)
        assigns = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    assigns.extend(self._pairs(t, node.value))
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
                assigns.append((node.target.id, None))
        by_name: dict[str, list] = {}
        for name, value in assigns:
            by_name.setdefault(name, []).append(value)
        for name, values in by_name.items():        # `[k] * n` makes an array, `[[k] * a for _ in range(b)]` a grid
            if any(v is not None and is_int_list(v) for v in values):
                self.arrays.add(name)
            if any(v is not None and is_grid(v) for v in values):
                self.grids.add(name)
        grown = {n.func.value.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in ("append", "pop", "remove", "clear", "sort", "insert")
                 and isinstance(n.func.value, ast.Name)}
        if (self.arrays | self.grids) & grown:
            raise NotNative(f"a list of numbers that grows: `{sorted((self.arrays | self.grids) & grown)[0]}`")
        self.arrays -= self.grids
        if "AG" in by_name:                    # `AG = list(AG)`: the seats' agents move with swapped seats
            self.arrays.add("AG")
        # tuple keys: names only ever assigned tuple literals, and names assigned those or None
        ordered = {side.id for n in ast.walk(fn) if isinstance(n, ast.Compare) and len(n.ops) == 1
                   and isinstance(n.ops[0], (ast.Gt, ast.Lt, ast.GtE, ast.LtE))
                   for side in (n.left, n.comparators[0]) if isinstance(side, ast.Name)}
        for name, values in by_name.items():
            if name in ordered and values and all(isinstance(v, ast.Tuple) and v.elts for v in values) \
                    and len({len(v.elts) for v in values}) == 1:
                self.keys[name] = len(values[0].elts)
        for name, values in by_name.items():
            if name in self.keys or not values or name not in ordered:
                continue
            if all(v is not None and (is_none(v) or (isinstance(v, ast.Name) and v.id in self.keys)) for v in values) \
                    and any(isinstance(v, ast.Name) for v in values):
                sizes = {self.keys[v.id] for v in values if isinstance(v, ast.Name)}
                if len(sizes) == 1:
                    self.keys[name] = sizes.pop()
                    self.key_flags.add(name)
        # may be None: assigned None, a None-holding table's entry, or another such name (to a fixpoint)
        loops = [n for n in ast.walk(fn)
                 if isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.target, ast.Name)]
        changed = True
        while changed:
            changed = False
            for name, values in by_name.items():
                if name in self.maybe_none or name in self.keys:
                    continue
                if any(v is None or self.may_be_none(v) for v in values if v is not None) or \
                        any(v is None and self._loops_over_none(name, loops) for v in values):
                    self.maybe_none.add(name)
                    changed = True

    def _loops_over_none(self, name, loops) -> bool:
        """Whether a loop binds `name` to the elements of something that may hold None."""
        return any(node.target.id == name and self.may_be_none(node.iter, element=True) for node in loops)

    def _pairs(self, target, value):
        if isinstance(target, ast.Name):
            return [(target.id, value)]
        if isinstance(target, ast.Tuple):
            if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                return [p for t, v in zip(target.elts, value.elts) for p in self._pairs(t, v)]
            return [p for t in target.elts for p in self._pairs(t, None)]
        return []

    def table_has_none(self, name: str) -> bool:
        def walk(v):
            if v is None:
                return True
            if isinstance(v, (list, tuple)):
                return any(walk(x) for x in v)
            return False
        if name not in self._has_none:
            self._has_none[name] = name in self.tables and walk(self.tables[name])
        return self._has_none[name]

    def may_be_none(self, e, element: bool = False) -> bool:
        """Whether the expression (or, with `element`, an element of it) may be None."""
        if e is None:
            return False
        if is_none(e):
            return not element
        if isinstance(e, ast.Name):
            if element:
                return self.table_has_none(e.id) or e.id in self.containers
            return e.id in self.maybe_none
        if isinstance(e, ast.Subscript):
            base = e.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name):
                return self.table_has_none(base.id) or base.id in self.containers
            return False
        if isinstance(e, ast.IfExp):
            return self.may_be_none(e.body, element) or self.may_be_none(e.orelse, element)
        if isinstance(e, ast.BoolOp):
            return any(self.may_be_none(v, element) for v in e.values)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("next", "MOST", "FEWEST"):
            return True
        if isinstance(e, ast.Tuple) and element:
            return any(self.may_be_none(v) for v in e.elts)
        return False

    def none_containers(self, fn) -> set:
        """Locals bound to a None-holding table or a row of one (`NO, VC, VK = NOPT, VCOLOR, VCALL`,
        `colors = VC[c]`), to a fixpoint: an entry read from them may be None."""
        found: set = set()
        pairs = [p for node in ast.walk(fn) if isinstance(node, ast.Assign)
                 for t in node.targets for p in self._pairs(t, node.value) if p[1] is not None]
        changed = True
        while changed:
            changed = False
            for name, v in pairs:
                base = v
                while isinstance(base, ast.Subscript):
                    base = base.value
                if name not in found and isinstance(base, ast.Name) \
                        and (self.table_has_none(base.id) or base.id in found) \
                        and self._depth(v) < self._table_depth(base.id):
                    found.add(name)
                    changed = True
        return found

    @staticmethod
    def _depth(v) -> int:
        d = 0
        while isinstance(v, ast.Subscript):
            d, v = d + 1, v.value
        return d

    def _table_depth(self, name) -> int:
        """How many indexes reach an entry of the table (a local holding one: taken as 2)."""
        value = self.tables.get(name)
        d = 0
        while isinstance(value, (list, tuple)) and value:
            d += 1
            value = value[0]
        return d if name in self.tables else 2
