"""Diagnostics: every error a rulebook, a scenario or the engine reports to a person.

A `Diagnostic` names a stable code, a source span and a message; `render` prints it the way a
compiler does (file:line:col, the source line, a caret under the span, a help line). Library code
raises `RulebookError` (a list of diagnostics); only the CLI prints.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

# Stable error codes. The long explanations live in docs/language.md ("Error codes") and are
# printed by `unorules errors CODE`.
CODES = {
    "U0001": "the file cannot be read",
    "U0002": "the file is not valid UTF-8 text",
    "U0003": "the file is too large, too deeply nested or has too long a line",
    "U0004": "the file's format is unknown (not .uno, .yaml, .yml or .json)",
    "U0005": "the file cannot be rewritten without losing something",
    "U0101": "syntax error: unexpected text",
    "U0102": "syntax error: the file ends too early",
    "U0103": "YAML or JSON syntax error",
    "U0104": "unsafe or unsupported YAML (tags, aliases)",
    "U0201": "unknown name",
    "U0202": "duplicate name",
    "U0203": "unknown color",
    "U0204": "unknown card kind",
    "U0205": "unknown event",
    "U0206": "unknown rulebook or module",
    "U0207": "a name used where it is not bound",
    "U0301": "wrong type in an expression",
    "U0302": "unknown attribute or method",
    "U0303": "a value the engine cannot honour (a negative count, a division by zero, a chance outside 0..1)",
    "U0401": "the rulebook's structure is invalid (schema)",
    "U0402": "a setting given twice",
    "U0403": "an action used where it has no meaning",
    "U0404": "a construct this version of the engine does not run",
    "U0501": "the deck cannot deal the minimum number of players",
    "U0502": "a deck entry names a card kind with no colour, or one that needs a colour",
    "U0503": "invalid range",
    "U0504": "the deck is too large",
    "U0505": "a module or `--with` file declares a card that no deck holds",
    "U0601": "extends or include forms a cycle",
    "U0602": "a file tries to extend a module, or include a rulebook",
    "U0701": "a trigger can re-trigger itself without bound",
    "U0702": "two rule modules conflict",
    "U0801": "invalid scenario file",
    "U0802": "a card in a scenario does not exist in the deck, or is placed too often",
    "U0901": "runtime rule error",
    # warnings: the rulebook runs, but part of it can do nothing (`validate --strict` refuses them)
    "W0101": "a counter or flag that nothing reads",
    "W0102": "an option that nothing reads",
    "W0103": "a named rule that nothing does",
    "W0104": "a rule for a card kind that no deck holds",
    "W0105": "a condition that is always true or always false",
    "W0106": "a choice's option that no condition reads",
    "W0107": "a card kind that no deck holds",
}


_SUGGESTION = re.compile(r"did you mean `([^`]+)`\?")      # what did_you_mean() writes


@dataclass(frozen=True)
class Span:
    line: int          # 1-based
    column: int        # 1-based
    end_line: int
    end_column: int    # exclusive


@dataclass
class Diagnostic:
    code: str
    message: str
    file: str | None = None
    span: Span | None = None
    label: str = ""
    help: str | None = None
    severity: str = "error"
    notes: list[str] = field(default_factory=list)
    # other places that explain this one: (file, span, what it is), as "first declared here"
    related: list[tuple[str | None, Span | None, str]] = field(default_factory=list)

    @property
    def suggestion(self) -> str | None:
        """The name a did-you-mean help proposes in place of the span's text (an editor's quick fix)."""
        if self.span and self.help:
            m = _SUGGESTION.search(self.help)
            if m:
                return m.group(1)
        return None

    def location(self) -> str:
        where = self.file or "<input>"
        if self.span:
            where += f":{self.span.line}:{self.span.column}"
        return where

    def sort_key(self):
        s = self.span
        return (self.file or "", s.line if s else 0, s.column if s else 0, self.code)

    def render(self, text: str | None = None, src_lines: list[str] | None = None) -> str:
        """The diagnostic as a compiler prints it; `src_lines` (the file's lines, split once by
        the caller) spares splitting `text` again for each of many diagnostics."""
        head = f"{self.location()}: {self.severity}[{self.code}]: {self.message}"
        lines = [head]
        if self.span and src_lines is None and text is not None:
            src_lines = text.splitlines()
        if self.span and src_lines is not None:
            if 0 < self.span.line <= len(src_lines):
                src = src_lines[self.span.line - 1]
                if len(src) > 200:                       # never print a megabyte line
                    start = max(0, self.span.column - 80)
                    src = src[start:start + 160]
                    col = self.span.column - start
                else:
                    col = self.span.column
                num = str(self.span.line)
                pad = " " * len(num)
                width = 1
                if self.span.end_line == self.span.line:
                    width = max(1, self.span.end_column - self.span.column)
                width = min(width, max(1, len(src) - col + 1))
                lines.append(f"{pad} |")
                lines.append(f"{num} | {src}")
                caret = " " * (col - 1) + "^" * width
                lines.append(f"{pad} | {caret}" + (f" {self.label}" if self.label else ""))
        for note in self.notes:
            lines.append(f"   = note: {note}")
        for file, span, what in self.related:
            at = (file or "<input>") + (f":{span.line}:{span.column}" if span else "")
            lines.append(f"   = note: {what}: {at}")
        if self.help:
            lines.append(f"   = help: {self.help}")
        return "\n".join(lines)

    def as_dict(self) -> dict:
        d = {"code": self.code, "severity": self.severity, "message": self.message,
             "file": self.file}
        if self.span:
            d.update(line=self.span.line, column=self.span.column,
                     end_line=self.span.end_line, end_column=self.span.end_column)
        if self.label:
            d["label"] = self.label
        if self.help:
            d["help"] = self.help
        if self.notes:
            d["notes"] = list(self.notes)
        if self.related:
            d["related"] = [{"file": file, "message": what,
                             **({"line": span.line, "column": span.column, "end_line": span.end_line,
                                 "end_column": span.end_column} if span else {})}
                            for file, span, what in self.related]
        return d


# Python errors a rule can cause while it runs (a value out of range, a number too large to count
# with): both runners report them as the rule's runtime error, at the rule.
RULE_FAILURES = (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError, OverflowError)
MAX_VALUE = 1_000_000_000          # a counter's value, an option's: within ±MAX_VALUE, like a literal


def bounded(value, what: str):
    """`value` if it is a truth value or a finite number within ±MAX_VALUE; else a rule error."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if value != value or not -MAX_VALUE <= value <= MAX_VALUE:
        raise RuleRuntimeError(f"{what} would be {value!r}: values lie within ±{MAX_VALUE:,}")
    return value


class UnorulesError(Exception):
    """Base of every error the library raises for bad input."""


def errors_of(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity == "error"]


MAX_SHOWN = 200            # diagnostics printed in full; the rest are counted


class RulebookError(UnorulesError):
    """One or more diagnostics about input files (errors, and the warnings found beside them).
    `texts` maps file names to their text."""

    def __init__(self, diagnostics: list[Diagnostic], texts: dict[str, str] | None = None):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.texts = dict(texts or {})
        super().__init__("\n".join(f"{d.location()}: {d.message}" for d in self.diagnostics) or "invalid input")

    def render(self, limit: int = MAX_SHOWN) -> str:
        """Every diagnostic (the first `limit`, then how many more), each file's text split once."""
        split: dict[str | None, list[str] | None] = {}
        out = []
        for d in self.diagnostics[:limit]:
            if d.file not in split:
                text = self.texts.get(d.file)
                split[d.file] = text.splitlines() if text is not None else None
            out.append(d.render(src_lines=split[d.file]))
        rest = len(self.diagnostics) - limit
        if rest > 0:
            out.append(f"... and {rest:,} more (the first {limit} are shown; `--format json` lists them all)")
        return "\n\n".join(out)

    def __reduce__(self):                 # survives a process pool
        return (RulebookError, (self.diagnostics, self.texts))


class RuleRuntimeError(UnorulesError):
    """A rule asked the engine for an impossible thing while a game ran."""

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    def __reduce__(self):
        return (RuleRuntimeError, (self.args[0].split(": ", 1)[-1] if self.where else self.args[0], self.where))


class IllegalAction(UnorulesError):
    """An action that is not legal in the current state (scripted play, the Python API)."""


MAX_CANDIDATES = 300       # names did_you_mean compares with (each comparison costs; files may declare thousands)


def did_you_mean(name: str, candidates, what: str = "") -> str | None:
    name = str(name)[:200]
    pool = [str(c) for c in candidates]
    if len(pool) > MAX_CANDIDATES:      # the likeliest: the same first letter, then the nearest length
        pool = sorted(pool, key=lambda c: (c[:1] != name[:1], abs(len(c) - len(name))))[:MAX_CANDIDATES]
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if close:
        return f"did you mean `{close[0]}`?"
    return None
