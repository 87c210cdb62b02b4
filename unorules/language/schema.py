"""Stage 2: JSON Schema (Draft 2020-12) validation of one file's IR.

The schema is unorules/schema.json, hand-maintained and versioned (`x-version`). Errors are mapped
back to source positions through the span table and said in plain words.
"""
from __future__ import annotations

import functools
import json

from jsonschema import Draft202012Validator, validators

from unorules.errors import Diagnostic, did_you_mean
from .resources import schema_file


@functools.cache
def schema() -> dict:
    return json.loads(schema_file().read_text("utf-8"))


def _dispatch(validator, table, instance, schema):
    """`x-dispatch`: validate a node against the one branch its `kind` names (what the published
    schema says with one `if`/`then` per kind, in one lookup instead of one trial per kind)."""
    if isinstance(instance, dict) and isinstance(instance.get("kind"), str) and instance["kind"] in table:
        yield from validator.descend(instance, table[instance["kind"]])


_PASSED: set[tuple[str, str]] = set()    # (a `$ref`, a node's repr) that validated without an error
_PASSED_CHARS = [0]
_PASSED_LIMIT = 4_000_000                # characters of nodes kept before the set starts over
_REF = Draft202012Validator.VALIDATORS["$ref"]


def _remembered_ref(validator, ref, instance, schema):
    """`$ref`, remembering what passed. Whether a node passes a definition depends on the node's
    content alone (the schema is one document, with no `$dynamicRef` and no `unevaluated*`), so a
    node whose `repr` (which tells 1 from 1.0, True and "1", and keeps every key) equals one that
    passed is not walked again. An edited rulebook is mostly rules that passed before: an editor
    and a test of hundreds of one-spot mutations walk only what changed."""
    try:
        key = (ref, repr(instance))
    except ValueError:                   # an int past Python's digit limit: walked, never kept
        yield from _REF(validator, ref, instance, schema)
        return
    if key in _PASSED:
        return
    errors = list(_REF(validator, ref, instance, schema))
    if errors:
        yield from errors
        return
    if _PASSED_CHARS[0] > _PASSED_LIMIT:
        _PASSED.clear()
        _PASSED_CHARS[0] = 0
    _PASSED.add(key)
    _PASSED_CHARS[0] += len(key[1]) + 64


def _is_integer(checker, instance):
    """A whole number is an int: not a bool, and not a float such as 2.0 (a count of 2.0 is an
    error in a rulebook, though JSON Schema would take it)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _dispatching(node):
    """The schema with every `allOf` of kind-dispatching `if`/`then` pairs replaced by `x-dispatch`."""
    if isinstance(node, list):
        return [_dispatching(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _dispatching(v) for k, v in node.items()}
    branches = node.get("allOf")
    if isinstance(branches, list) and branches and all(
            set(b) == {"if", "then"} and list(b["if"].get("properties", {})) == ["kind"]
            and "const" in b["if"]["properties"]["kind"] for b in branches):
        del out["allOf"]
        out["x-dispatch"] = {b["if"]["properties"]["kind"]["const"]: b["then"] for b in branches}
    return out


@functools.cache
def validator():
    """The one validator, built once. The schema itself is checked against the metaschema by the
    test suite (test_schema_command_prints_a_valid_draft_2020_12_schema), not at every start."""
    cls = validators.extend(Draft202012Validator, validators={"x-dispatch": _dispatch, "$ref": _remembered_ref},
                            type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))
    return cls(_dispatching(schema()))


_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "nothing"}


def describe(value) -> str:
    """A value in words, for messages: `the text `x``, `a list`, `the number 3`."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text `{value[:40]}`"
    if isinstance(value, (int, float)):
        text = str(value)
        return f"the number {text if len(text) <= 24 else text[:20] + '...'}"
    return "nothing" if value is None else type(value).__name__


def _path(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def _plain(error) -> tuple[str, str | None, object]:
    """(message, help, extra path key) for one jsonschema error."""
    where = _path(error.absolute_path)
    v = error.validator
    if v == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        key = extra[0] if extra else None
        return (f"unknown key `{key}` in {where}", did_you_mean(key, allowed) or
                "allowed here: " + ", ".join(f"`{a}`" for a in allowed), key)
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"{where} needs `{missing}`", None, None
    if v == "type":
        want = error.validator_value
        want = " or ".join(_TYPE_WORDS.get(w, w) for w in (want if isinstance(want, list) else [want]))
        return f"{where} must be {want}, not {describe(error.instance)}", None, None
    if v in ("enum", "const"):
        allowed = error.validator_value if v == "enum" else [error.validator_value]
        words = ", ".join(f"`{a}`" for a in allowed)
        return (f"{where} must be {'one of ' if len(allowed) > 1 else ''}{words}, not {describe(error.instance)}",
                did_you_mean(error.instance, allowed) if isinstance(error.instance, str) else None, None)
    if v == "pattern":
        return (f"{where}: `{error.instance}` is not a valid name",
                "names are lower-case letters, digits and `_`, starting with a letter or `_`", None)
    if v in ("minimum", "maximum"):
        return (f"{where} must be {'at least' if v == 'minimum' else 'at most'} {error.validator_value}, "
                f"not {describe(error.instance).removeprefix('the number ')}", None, None)
    if v in ("minItems", "maxItems"):
        return f"{where} has {'too few' if v == 'minItems' else 'too many'} items (limit {error.validator_value})", None, None
    if v == "maxLength":
        return f"{where} is too long (limit {error.validator_value} characters)", None, None
    return f"{where}: {error.message}", None, None


def schema_diagnostics(ir, spans, file: str) -> list[Diagnostic]:
    if not isinstance(ir, dict):
        return [Diagnostic("U0401", f"a rulebook must be a mapping with `kind` and `name`, not {describe(ir)}",
                           file, spans.at(ir), help="start the file with `kind: rulebook` and `name: ...`")]
    out = []
    seen = set()
    for error in validator().iter_errors(ir):
        # inside an if/then dispatch, report the branch's own errors only
        if error.validator in ("allOf", "if", "then"):
            continue
        message, help_, key = _plain(error)
        path = list(error.absolute_path) + ([key] if key is not None else [])
        span = spans.find(ir, path, last_is_key=key is not None)
        if (message, span) in seen:
            continue
        seen.add((message, span))
        out.append(Diagnostic("U0401", message, file, span, help=help_))
    return out
