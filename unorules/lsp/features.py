"""What an editor asks of a place in a file: hover text, definitions and references, the outline,
highlighting, quick fixes and formatting (completion.py: completions). Plain data in, plain data
out (places are 0-based lines and columns counted in characters); server.py speaks the protocol.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from unorules.errors import Diagnostic, RulebookError
from unorules.language.loader import display_name, file_key
from unorules.language.resources import docs_file, rulebooks_dir
from unorules.language.vocab import GLOBAL_NAMES, SCOPED_NAMES
from .symbols import Symbol
from .tokens import Token, token_at
from .workspace import Workspace


@dataclass(frozen=True)
class Place:
    path: Path
    line: int
    column: int
    end_line: int
    end_column: int


def _place(path: Path, tok: Token) -> Place:
    return Place(path, tok.line, tok.column, tok.line, tok.end_column)


# ---- what a name is ----------------------------------------------------------------------------

def names_of(ws: Workspace, path: Path) -> dict[str, str]:
    """Every name the file's rulebook gives, with what it is (card, color, counter, flag, option,
    rule, trigger, reaction, call, pile): from the rulebook it last loaded to, and the
    declarations of its files as they are now."""
    out: dict[str, str] = {}
    for part in reversed(ws.parts(path)):
        syms = ws.symbols(part)
        for s in syms.symbols if syms else []:
            out[s.name] = s.kind
    rb = ws.rulebook(path)
    if rb is not None:
        ir = rb.ir
        for side in ir.get("sides") or [{"colors": ir.get("colors", [])}]:
            out.update({c: "color" for c in side["colors"]})
        for c in ir.get("cards", []):
            out.update({n: "card" for n in c["names"] if not n.isdigit()})
        out.update({c["name"]: c["kind"] for c in ir.get("counters", [])})
        out.update({o["name"]: "option" for o in ir.get("options", [])})
        out.update({r["name"]: "rule" for r in ir.get("rules", [])})
        for key in ("triggers", "reactions"):
            out.update({r["name"]: key[:-1] for r in ir.get(key, []) if "name" in r})
        out.update({d["name"]: "call" for d in ir.get("declarations", [])})
    return out


def declarations(ws: Workspace, path: Path, name: str) -> list[tuple[Path, Symbol]]:
    """Where a name is declared in the file's rulebook, base first (a card redeclared by an
    extending file keeps its first declaration first)."""
    out = []
    for part in reversed(ws.parts(path)):
        syms = ws.symbols(part)
        out += [(part, s) for s in (syms.declared(name) if syms else [])]
    return out


def link_at(ws: Workspace, path: Path, line: int, column: int):
    syms = ws.symbols(path)
    for link in syms.links if syms else []:
        if link.token.covers(line, column):
            return link
    return None


# ---- go to definition, find references, outline --------------------------------------------

def definition(ws: Workspace, path: Path, line: int, column: int) -> list[Place]:
    link = link_at(ws, path, line, column)
    if link is not None:
        target = ws.resolve(link.token.text, path)
        return [Place(target, 0, 0, 0, 0)] if target else []
    syms = ws.symbols(path)
    tok = token_at(syms.toks, line, column) if syms else None
    if tok is None or tok.type != "NAME":
        return []
    found = declarations(ws, path, tok.text)
    return [_place(p, s.token) for p, s in found[:1]]


def references(ws: Workspace, path: Path, line: int, column: int, with_declaration: bool = True) -> list[Place]:
    link = link_at(ws, path, line, column)
    if link is not None:
        return file_references(ws, path, link.token.text)
    syms = ws.symbols(path)
    tok = token_at(syms.toks, line, column) if syms else None
    if tok is None or tok.type != "NAME":
        return []
    name = tok.text
    if name not in names_of(ws, path):
        return []
    declared = {(file_key(p), s.token.line, s.token.column) for p, s in declarations(ws, path, name)}
    out = []
    own = {file_key(x) for x in ws.parts(path)}
    users = [p for p in ws.open_paths.values()             # open files whose rulebook has this file
             if file_key(p) not in own and any(file_key(x) == file_key(path) for x in ws.parts(p))]
    files = ws.parts(path) + users
    for part in files:
        s = ws.symbols(part)
        for t in s.uses(name) if s else []:
            if not with_declaration and (file_key(part), t.line, t.column) in declared:
                continue
            out.append(_place(part, t))
    return out


def file_references(ws: Workspace, path: Path, name: str) -> list[Place]:
    """Every `extends`, `include` or `for` that leads to the same file as `name` from `path`, in
    the open files and the files their rulebooks read."""
    target = ws.resolve(name, path)
    if target is None:
        return []
    key, out, seen = file_key(target), [], set()
    for start in list(ws.open_paths.values()):
        for part in ws.parts(start):
            if file_key(part) in seen:
                continue
            seen.add(file_key(part))
            syms = ws.symbols(part)
            for link in syms.links if syms else []:
                there = ws.resolve(link.token.text, part)
                if there is not None and file_key(there) == key:
                    out.append(_place(part, link.token))
    return out


NAME = re.compile(r"[a-z_][a-z0-9_]*")


def rename_target(ws: Workspace, path: Path, line: int, column: int) -> Token:
    """The name at a place, if it can be renamed: one the rulebook declares, written nowhere in a
    shipped file (those are not the author's to change). Raises ValueError saying why not."""
    syms = ws.symbols(path)
    tok = token_at(syms.toks, line, column) if syms else None
    if tok is None or tok.type != "NAME" or tok.text not in names_of(ws, path):
        raise ValueError("only a name the rulebook declares can be renamed: a card, counter, flag, option, "
                         "rule, named trigger or reaction, call, color or pile")
    shipped = rulebooks_dir().resolve()
    for place in references(ws, path, line, column):
        if place.path.resolve().is_relative_to(shipped):
            raise ValueError(f"`{tok.text}` is written in the shipped {display_name(place.path)}: rename it in a "
                             "copy of your own, or give your own card another name")
    return tok


def rename(ws: Workspace, path: Path, line: int, column: int, new: str) -> list[Place]:
    """Every place to rewrite to rename the name at a place to `new` (references() of it); raises
    ValueError when it cannot be renamed, or `new` is not a free name."""
    from .tokens import keyword_terminals
    tok = rename_target(ws, path, line, column)
    taken = names_of(ws, path)
    if not NAME.fullmatch(new):
        raise ValueError(f"`{new}` is not a name: lowercase letters, digits and `_`, not starting with a digit")
    if new in set(keyword_terminals().values()) or new in GLOBAL_NAMES or new in SCOPED_NAMES:
        raise ValueError(f"`{new}` is a word of the language")
    if new in taken and new != tok.text:
        raise ValueError(f"`{new}` already names a {taken[new]}")
    return references(ws, path, line, column)


def outline(ws: Workspace, path: Path) -> list[tuple[str, str, Token, tuple[int, int], Token]]:
    """(label, what, first token, end, name token) of every top-level item."""
    syms = ws.symbols(path)
    out = []
    for item in syms.items if syms else []:
        kind = {"CARD": "card", "COUNTER": "counter", "FLAG": "flag", "OPTION": "option", "RULE": "rule",
                "ON": "trigger", "REACT": "reaction", "DECLARE": "call"}.get(item.start.type, "setting")
        out.append((item.label, kind, item.start, item.end, item.name_token))
    return out


# ---- hover -------------------------------------------------------------------------------------

def hover(ws: Workspace, path: Path, line: int, column: int) -> tuple[str, Token] | None:
    """Markdown for the word at a place: a card in `explain --card`'s words, a counter, option or
    named rule in `explain`'s words with its declaration, a keyword's reference entry."""
    syms = ws.symbols(path)
    if syms is None:
        return None
    tok = token_at(syms.toks, line, column)
    if tok is None:
        return None
    link = link_at(ws, path, line, column)
    if link is not None:
        target = ws.resolve(link.token.text, path)
        if target is None:
            return None
        rb_title = _title(ws, target)
        return f"`{link.token.text}`: {display_name(target)}" + (f"\n\n{rb_title}" if rb_title else ""), tok
    if tok.type == "NAME":
        what = names_of(ws, path).get(tok.text)
        rb = ws.rulebook(path)
        if what == "card":
            from unorules.language.explain.rulebook import explain
            note = ""
            if rb is None:                  # never validated yet: the card as the base rulebook has it
                rb = ws.base_rulebook(path)
                syms_here = ws.symbols(path)
                changed = syms_here is not None and syms_here.declared(tok.text)
                note = (f"\n\n*(as `{rb.name}` has it: this file {'changes it and ' if changed else ''}"
                        "does not validate yet)*") if rb is not None else ""
            try:
                return (explain(rb, tok.text) + note, tok) if rb is not None else None
            except KeyError:
                return None
        if what is not None:
            return _declared(ws, path, tok.text, what), tok
        i = syms.toks.index(tok)
        before = next((t for t in reversed(syms.toks[:i]) if t.type != "COMMENT"), None)
        if before is not None and before.type == "ON":          # an event: the construct's entry
            entry = keyword_entry(syms.toks, before)
            return (f"`{tok.text}`: an event\n\n{entry}", tok) if entry else None
        if tok.text in GLOBAL_NAMES or tok.text in SCOPED_NAMES:
            kind = GLOBAL_NAMES.get(tok.text) or SCOPED_NAMES[tok.text]
            return f"`{tok.text}`: a built-in name (a {kind})" + ("" if tok.text in GLOBAL_NAMES else
                                                                  ", bound only in some places (docs/language.md)"), tok
        return None
    if tok.keyword:
        entry = keyword_entry(syms.toks, tok)
        return (entry, tok) if entry else None
    return None


def _title(ws: Workspace, path: Path) -> str | None:
    syms = ws.symbols(path)
    if syms and syms.header:
        for t in syms.toks:
            if t.type == "STRING" and t.line == syms.header.line:
                return t.text.strip('"')
    return None


def _declared(ws: Workspace, path: Path, name: str, what: str) -> str:
    lines = [f"**{what}** `{name}`"]
    rb = ws.rulebook(path)
    if rb is not None:
        from unorules.language.explain.rulebook import explain
        named = re.compile(rf"\(the (rule|trigger|reaction) `{re.escape(name)}`\)")
        said = next((ln for ln in explain(rb).splitlines() if ln.startswith(f"- `{name}`:") or named.search(ln)), None)
        if said:
            lines += ["", said[2:] if said.startswith("- ") else said]
    for p, s in declarations(ws, path, name)[:1]:
        lines += ["", "```uno", s.detail, "```", f"declared in {display_name(p)}:{s.token.line + 1}"]
    return "\n".join(lines)


@functools.cache
def reference_rows() -> list[tuple[str, str]]:
    """(syntax, meaning) of every row of docs/language.md's tables whose first cell is code."""
    doc = docs_file()
    if doc is None:
        return []
    rows = []
    for line in doc.read_text("utf-8").splitlines():
        m = re.match(r"\|\s*`([^`]+)`[^|]*\|(.*)\|\s*$", line)
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split("|")]
        meaning = cells[-1] if cells else ""
        example = cells[0] if len(cells) > 1 else ""
        rows.append((m.group(1), meaning + (f"\n\nExample: {example}" if example.startswith("`") else "")))
    return rows


def keyword_entry(toks: list[Token], tok: Token) -> str | None:
    """The reference entry of the construct a keyword belongs to: the row whose syntax has the
    word and most of the words around it."""
    word = tok.text.split()[0] if " " in tok.text else tok.text
    i = toks.index(tok)
    near = {t.text for t in toks[max(0, i - 3):i + 4] if t.keyword}
    best, score = None, 0
    for syntax, meaning in reference_rows():
        literal = set(re.findall(r"\b[a-z_]+\b", syntax))
        if word not in literal:
            continue
        s = len(literal & near) * 10 - len(literal - near) + (5 if syntax.split()[0] == word else 0)
        if best is None or s > score:
            best, score = (syntax, meaning), s
    if best is None:
        return None
    return f"```uno\n{best[0]}\n```\n\n{best[1]}\n\n(docs/language.md)"


# ---- highlighting ------------------------------------------------------------------------------

TOKEN_TYPES = ["keyword", "enumMember", "enum", "variable", "parameter", "function", "event", "number", "string",
               "comment", "operator", "namespace", "property"]
TOKEN_MODIFIERS = ["declaration", "defaultLibrary"]
_KIND_TYPE = {"card": "enumMember", "color": "enum", "counter": "variable", "flag": "variable", "option": "parameter",
              "rule": "function", "trigger": "function", "reaction": "function", "call": "function",
              "pile": "variable", "side": "enum"}


def highlights(ws: Workspace, path: Path) -> list[tuple[int, int, int, str, list[str]]]:
    """(line, column, length, type, modifiers) for every token, in order."""
    syms = ws.symbols(path)
    if syms is None:
        return []
    names = names_of(ws, path)
    declared = {(s.token.line, s.token.column) for s in syms.symbols}
    links = {(link.token.line, link.token.column) for link in syms.links}
    if syms.header:
        links.add((syms.header.line, syms.header.column))
    out = []
    prev = None
    for t in syms.toks:
        kind, mods = None, []
        if t.type == "COMMENT":
            kind = "comment"
        elif t.keyword:
            kind = "keyword"
        elif t.type in ("INT", "DECIMAL"):
            kind = "number"
        elif t.type == "STRING":
            kind = "string"
        elif t.type == "NAME":
            if (t.line, t.column) in links:
                kind = "namespace"
            elif prev is not None and prev.type == "DOT" and t.text not in names:
                kind = "property"
            elif prev is not None and prev.type == "ON":
                kind = "event"
            elif t.text in names:
                kind = _KIND_TYPE.get(names[t.text], "variable")
            elif t.text in GLOBAL_NAMES or t.text in SCOPED_NAMES:
                kind, mods = "variable", ["defaultLibrary"]
            else:
                kind = "variable"
            if (t.line, t.column) in declared:
                mods = mods + ["declaration"]
        elif t.type in ("COMPARE", "ADD", "MUL", "MINUS", "EQUAL"):
            kind = "operator"
        if t.type != "COMMENT":
            prev = t
        if kind is not None:
            length = len(t.text.split("\n")[0])
            out.append((t.line, t.column, length, kind, mods))
    return out


# ---- quick fixes and formatting ----------------------------------------------------------------

def quick_fix(d: Diagnostic) -> str | None:
    """The text that a did-you-mean diagnostic proposes for its span."""
    return d.suggestion


def formatted(ws: Workspace, path: Path) -> str:
    """The file's text as `unorules fmt` writes it; raises RulebookError where fmt refuses."""
    from unorules.language.loader import parse_file
    from unorules.language.writer import formatted as canonical
    text = ws.text(path)
    if text is None:
        raise RulebookError([Diagnostic("U0001", f"cannot read `{path}`", str(path))])
    return canonical(parse_file(path, display_name(path), text=text))
