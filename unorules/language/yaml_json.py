"""Reading YAML and JSON rulebooks (and scenario files): the IR written by hand. Built from the
composed node graph so every value has a position. Before PyYAML reads a text its flow nesting is
bounded; tags and aliases are refused before anything is constructed; duplicate keys, lone
surrogates, non-finite and oversized numbers are located errors."""
from __future__ import annotations

import json

import yaml

from unorules.errors import Diagnostic, RulebookError, Span
from unorules.language.transform.rulebook import MAX_NUMBER
from .parser import MAX_NESTING
from .spans import Spans


_PLAIN_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "map", "seq")}


def _flow_depth(text: str, file: str):
    """Refuse YAML or JSON nested deeper than MAX_NESTING by brackets before PyYAML reads it (its
    scanner is quadratic in flow nesting). Quoted text and comments are skipped."""
    depth, line, col, quote = 0, 1, 0, None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'" and (i == 0 or text[i - 1] in " \t\n[{,:"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n"):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise RulebookError([Diagnostic("U0003", f"values are nested more than {MAX_NESTING} deep", file,
                                                Span(line, col, line, col + 1), "too deep")], {file: text})
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1


def parse_yaml(text: str, file: str, number_keys: bool = False) -> tuple[object, Spans]:
    spans = Spans()
    _flow_depth(text, file)
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                m = event.start_mark
                raise RulebookError([Diagnostic("U0104", "YAML anchors and aliases are not allowed", file,
                                                Span(m.line + 1, m.column + 1, m.line + 1, m.column + 2),
                                                "here", "write the value out in full")], {file: text})
            tag = getattr(event, "tag", None)
            if tag and tag not in _PLAIN_TAGS and tag != "!":
                m = event.start_mark
                raise RulebookError([Diagnostic("U0104", f"YAML tag `{tag}` is not allowed", file,
                                                Span(m.line + 1, m.column + 1, m.line + 1, m.column + 1 + len(tag)),
                                                "here", "rulebooks are plain data: remove the tag")], {file: text})
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                raise RulebookError([Diagnostic("U0103", "the file is empty", file,
                                                help="a rulebook needs at least `kind` and `name`")], {file: text})
            data = _build(node, loader, spans, 0, file, text, number_keys)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        span = Span(m.line + 1, m.column + 1, m.line + 1, m.column + 2) if m else None
        raise RulebookError([Diagnostic("U0103", f"YAML syntax error: {e.problem or e.context}", file, span,
                                        help="check the indentation and the `:` after each key")],
                            {file: text}) from None
    except yaml.YAMLError as e:
        raise RulebookError([Diagnostic("U0103", f"YAML error: {e}", file)], {file: text}) from None
    except ValueError:                  # an integer of thousands of digits
        raise _too_long_number(text, file) from None
    except RecursionError:
        raise RulebookError([Diagnostic("U0003", "the file is nested too deeply to read", file)], {file: text}) from None
    return data, spans


def _mark_span(node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(s.line + 1, s.column + 1, e.line + 1, e.column + 1 if e.line == s.line else s.column + 2)


def _build(node, loader, spans: Spans, depth: int, file: str, text: str, number_keys: bool = False):
    if depth > MAX_NESTING:
        raise RulebookError([Diagnostic("U0003", f"values are nested more than {MAX_NESTING} deep", file,
                                        _mark_span(node))], {file: text})
    if isinstance(node, yaml.MappingNode):
        out = {}
        spans.put(out, _mark_span(node))
        for k, v in node.value:
            key = _build(k, loader, spans, depth + 1, file, text, number_keys)
            if isinstance(key, int) and not isinstance(key, bool) and number_keys:
                key = key           # seat numbers in scenarios are ints
            elif not isinstance(key, str):
                what = repr(key)[:40]
                raise RulebookError([Diagnostic("U0103", f"a key must be text, not {what}" if number_keys else
                                                f"a key must be text, not {what}: a rulebook's keys are names",
                                                file, _mark_span(k), help="write the key as a name: `players:`")],
                                    {file: text})
            if key in out:
                raise RulebookError([Diagnostic("U0103", f"the key `{_short(key)}` is given twice", file, _mark_span(k),
                                                "given again here", "keep one of them")], {file: text})
            out[key] = _build(v, loader, spans, depth + 1, file, text, number_keys)
            spans.put(out, _mark_span(k), key)
            spans.put(out, _mark_span(k), ("key", key))
            if not isinstance(v, (yaml.MappingNode, yaml.SequenceNode)):
                spans.put(out, _mark_span(v), key)
        return out
    if isinstance(node, yaml.SequenceNode):
        out = []
        spans.put(out, _mark_span(node))
        for i, v in enumerate(node.value):
            out.append(_build(v, loader, spans, depth + 1, file, text, number_keys))
            spans.put(out, _mark_span(v), i)
        return out
    value = loader.construct_object(node, deep=False)
    problem = _bad_scalar(value)
    if problem:
        raise RulebookError([Diagnostic("U0103", problem, file, _mark_span(node), "here")], {file: text})
    return value


def _too_long_number(text, file) -> RulebookError:
    import re
    m = re.search(r"\d{1000,}", text)
    span = None
    if m:
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        span = Span(line, col, line, col + 1)
    return RulebookError([Diagnostic("U0303", f"a number of thousands of digits; the limit is {MAX_NUMBER:,}", file,
                                     span, "too large")], {file: text})


def _short(v) -> str:
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "..."


def _bad_scalar(value) -> str | None:
    """Why a YAML or JSON scalar cannot stand in a rulebook, or None."""
    if isinstance(value, str):
        if any("\ud800" <= ch <= "\udfff" for ch in value):
            return "this text holds a lone surrogate (not a character): it cannot be printed or saved"
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"`{value}` is not a number a rulebook can use"
        if abs(value) > MAX_NUMBER:
            return f"the number `{_short(value)}` is too large; the limit is {MAX_NUMBER:,}"
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        return f"the number `{_short(value)}` is too large; the limit is {MAX_NUMBER:,}"
    return None


def parse_json(text: str, file: str) -> tuple[object, Spans]:
    _flow_depth(text, file)
    try:
        json.loads(text)
    except ValueError as e:
        if not isinstance(e, json.JSONDecodeError):      # an integer of thousands of digits
            raise _too_long_number(text, file) from None
        raise RulebookError([Diagnostic("U0103", f"JSON syntax error: {e.msg}", file,
                                        Span(e.lineno, e.colno, e.lineno, e.colno + 1))], {file: text}) from None
    except RecursionError:
        raise RulebookError([Diagnostic("U0003", "the file is nested too deeply to read", file)], {file: text}) from None
    return parse_yaml(text, file)        # JSON is YAML: the same builder gives positions
