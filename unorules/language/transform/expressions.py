"""The expression half of the parse tree -> IR transformer (mixed into ToIR): literals, names,
attributes and calls, operators, conditionals, and aggregates over loops of players."""
from __future__ import annotations

from lark import Transformer, v_args


@v_args(meta=True)
class ExprIR(Transformer):
    """ToIR's methods for expressions (they build nodes with ToIR.node)."""

    def int(self, meta, c):
        return self.node(meta, kind="number", value=int(c[0]))

    def decimal(self, meta, c):
        return self.node(meta, kind="number", value=float(c[0]))

    def true(self, meta, c):
        return self.node(meta, kind="bool", value=True)

    def false(self, meta, c):
        return self.node(meta, kind="bool", value=False)

    def string(self, meta, c):
        return self.node(meta, kind="string", value=str(c[0])[1:-1])

    def name(self, meta, c):
        return self.node(meta, kind="name", name=c[0])

    def attr(self, meta, c):
        return self.node(meta, kind="attr", of=c[0], name=c[1])

    def call(self, meta, c):
        of, name, arg = c
        return self.node(meta, kind="call", of=of, name=name, arg=arg)

    def call_named(self, meta, c):
        of, name, as_, arg = c
        return self.node(meta, kind="call", of=of, name=name, as_=as_, arg=arg)

    def conditional(self, meta, c):
        d = self.node(meta, kind="conditional")
        d["if"], d["then"], d["else"] = c
        return d

    def _aggregate(op):
        def method(self, meta, c):
            over, of = (c[0], c[1]) if len(c) > 1 else (c[0], None)
            return self.node(meta, kind="aggregate", op=op, over=over, of=of)
        method.__name__ = op + "_of"
        return method

    sum_of, max_of, min_of = _aggregate("sum"), _aggregate("max"), _aggregate("min")
    most_of, fewest_of, count_of = _aggregate("most"), _aggregate("fewest"), _aggregate("count")

    def loop_other(self, meta, c):
        return self.node(meta, kind="each_other", as_=c[0], where=c[1])

    def loop_player(self, meta, c):
        return self.node(meta, kind="each_player", as_=c[0], where=c[1])

    def is_category(self, meta, c):
        return self.node(meta, kind="is", of=c[0], category=c[1])

    def cat_number(self, meta, c):
        return "number"

    def cat_action(self, meta, c):
        return "action"

    def cat_wild(self, meta, c):
        return "wild"

    def not_(self, meta, c):
        return self.node(meta, kind="not", of=c[0])

    def neg(self, meta, c):
        return self.node(meta, kind="neg", of=c[0])

    def _binary(self, meta, left, op, right):
        d = self.node(meta, kind="binary", op=str(op), left=left, right=right)
        return d

    def or_(self, meta, c):
        return self._binary(meta, c[0], "or", c[1])

    def and_(self, meta, c):
        return self._binary(meta, c[0], "and", c[1])

    def compare(self, meta, c):
        return self._binary(meta, c[0], c[1], c[2])

    def arith(self, meta, c):
        return self._binary(meta, c[0], c[1], c[2])
