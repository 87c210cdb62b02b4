"""Writing rulebooks: the IR as canonical .uno, YAML or JSON text, checked to read back to the same
IR, and files written atomically (a temporary file beside the target, then a rename, keeping the
target's mode). No command writes a file it cannot load back.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import yaml

from unorules.errors import Diagnostic, RulebookError

# the top-level keys in the order the .uno formatter writes them; nested mappings put `kind`,
# `name` and `names` first and the rest in alphabetical order
TOP_ORDER = ("kind", "name", "title", "extends", "for", "include", "players", "colors", "sides", "pair_sides",
             "options", "cards", "replace_copies", "remove_cards", "deck", "setup", "turn", "play_rules", "reactions",
             "triggers", "remove_hooks", "replace_hooks", "declarations", "false_calls", "jump_in", "scoring")
_FIRST = ("kind", "name", "names")


def canonical(ir, top: bool = True):
    """The same data with its keys in canonical order (a new tree; nothing is shared)."""
    if isinstance(ir, dict):
        if top:
            keys = [k for k in TOP_ORDER if k in ir] + sorted(k for k in ir if k not in TOP_ORDER)
        else:
            keys = [k for k in _FIRST if k in ir] + sorted(k for k in ir if k not in _FIRST)
        return {k: canonical(ir[k], False) for k in keys}
    if isinstance(ir, list):
        return [canonical(v, False) for v in ir]
    return ir


class _PlainDumper(yaml.SafeDumper):
    """YAML without anchors and aliases (the loader refuses them): shared nodes are written out."""

    def ignore_aliases(self, data):
        return True


def yaml_text(ir) -> str:
    return yaml.dump(canonical(ir), Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, width=100)


def json_text(ir) -> str:
    return json.dumps(canonical(ir), indent=2, ensure_ascii=False) + "\n"


def format_of(file: str) -> str:
    suffix = Path(file).suffix.lower()
    return {".yaml": "yaml", ".yml": "yaml", ".json": "json"}.get(suffix, "uno")


def text_in_format(ir, fmt: str, spans=None, source: str | None = None) -> str:
    """The canonical text of one file's IR in `fmt` (uno, yaml, json). For .uno, with the source's
    spans and text, its comments stay where they were."""
    if fmt == "yaml":
        return yaml_text(ir)
    if fmt == "json":
        return json_text(ir)
    from .formatter import comments_of, format_rulebook
    return format_rulebook(ir, spans, comments_of(source) if source is not None else ())


def reads_back(text: str, fmt: str, ir, file: str):
    """Raise unless `text` parses to exactly `ir` (the promise of fmt and export)."""
    from .parser import parse_uno
    from .yaml_json import parse_json, parse_yaml
    try:
        if fmt == "yaml":
            again = parse_yaml(text, file)[0]
        elif fmt == "json":
            again = parse_json(text, file)[0]
        else:
            again = parse_uno(text, file)[0]
    except RulebookError as e:
        again = e
    if again != ir:
        raise RulebookError([Diagnostic(
            "U0005", f"the {fmt} text written for `{file}` would not read back to the same rulebook", file,
            help="nothing was written; this is a bug in unorules, please report it with the file")])


def formatted(parsed) -> str:
    """A parsed file's canonical text in its own format (`fmt`), checked to read back to the same
    rulebook. Raises RulebookError where fmt refuses: a file the schema refuses, a YAML file with
    comments that formatting would lose, text that would not read back."""
    from unorules.errors import Span
    from .schema import schema_diagnostics
    problems = schema_diagnostics(parsed.ir, parsed.spans, parsed.file)
    if problems:
        raise RulebookError(problems, {parsed.file: parsed.text})
    kind = format_of(parsed.file)
    text = text_in_format(parsed.ir, kind, parsed.spans, parsed.text)
    reads_back(text, kind, parsed.ir, parsed.file)
    if kind == "yaml" and text != parsed.text and yaml_comment_lines(parsed.text):
        line = yaml_comment_lines(parsed.text)[0]
        raise RulebookError([Diagnostic(
            "U0005", "this YAML file has comments, which YAML formatting cannot keep: fmt leaves it as it is",
            parsed.file, Span(line, 1, line, 2), "a comment",
            "remove the comments first, or keep the rulebook in .uno, whose formatter keeps them")],
            {parsed.file: parsed.text})
    return text


def yaml_comment_lines(text: str) -> list[int]:
    """The lines (1-based) of a YAML text that hold a comment: a `#` outside every scalar, at the
    start of a line or after white space."""
    covered = []
    try:
        for tok in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(tok, yaml.ScalarToken):
                covered.append((tok.start_mark.index, tok.end_mark.index))
    except yaml.YAMLError:
        return []
    covered.sort()
    lines, j = [], 0
    for i, ch in enumerate(text):
        if ch != "#" or (i and not text[i - 1].isspace()):
            continue
        while j < len(covered) and covered[j][1] <= i:
            j += 1
        if j < len(covered) and covered[j][0] <= i < covered[j][1]:
            continue
        lines.append(text.count("\n", 0, i) + 1)
    return lines


def write_atomic(path: str | Path, text: str):
    """Write `text` to `path` through a temporary file in the same folder and a rename, so that a
    reader sees the old file or the new one, never half of one. An existing file keeps its mode
    (a link is followed: its target is replaced). Raises OSError."""
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()
    if path.is_dir():
        raise IsADirectoryError(21, "is a folder", str(path))
    if path.exists() and not path.is_file():      # a device or a pipe: written to, never replaced
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
        return
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
