"""Stage 0 and the glue of the front end: read a rulebook file (.uno, .yaml, .yml, .json) safely,
resolve `extends` and `include`, merge them into one IR, validate (schema, checker).

Files are untrusted: size, line length, nesting and YAML features are bounded; YAML is read with
the safe loader and refuses tags and aliases; names resolve only to the including file's folder,
folders given with `search`, and the shipped rulebooks.
"""
from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from unorules.errors import Diagnostic, RulebookError, Span, did_you_mean, errors_of
from . import cache
from .resources import rulebooks_dir
from .spans import Spans

MAX_BYTES = 1_000_000
MAX_LINE = 20_000
SUFFIXES = (".uno", ".yaml", ".yml", ".json")


@dataclass
class Parsed:
    """One file's own IR."""
    file: str
    text: str
    ir: dict
    spans: Spans
    problems: list[Diagnostic]
    path: Path | None = None
    schema_checked: bool = False      # read from the cache: it passed the schema when it was kept


@dataclass
class Rulebook:
    """A loaded, merged and validated rulebook: the IR the compiler reads, and where it came from."""
    name: str
    ir: dict
    files: dict[str, str]                     # file -> text, for diagnostics
    spans: Spans
    origins: dict[int, str] = field(default_factory=dict)   # id(node) -> file
    parts: list[str] = field(default_factory=list)          # files merged, base first
    keep: list = field(default_factory=list, repr=False)    # nodes made while merging (their ids key the tables)
    kind_literals: set = field(default_factory=set, repr=False)  # ids of numbers that name a number kind (checker)
    kind_actions: set = field(default_factory=set, repr=False)   # ids of `discard all` actions of a kind (checker)
    warnings: list = field(default_factory=list, repr=False)     # the checker's warnings (it runs, but ...)
    file_kinds: dict = field(default_factory=dict, repr=False)   # file -> `rulebook` or `module`
    with_files: set = field(default_factory=set, repr=False)     # the files laid on top with `--with`
    paths: list = field(default_factory=list, repr=False)        # every file read, as a Path (outputs never replace one)

    def where(self, node, key=None) -> tuple[str | None, Span | None]:
        return self.origins.get(id(node)), self.spans.at(node, key)


# ---------------------------------------------------------------------------------------------
# reading

def read_text(path: Path, file: str) -> str:
    """A file's text, read with a size bound: only a regular file (never a device, a pipe or a
    folder), at most MAX_BYTES, UTF-8."""
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise RulebookError([Diagnostic("U0001", f"`{file}` is a folder, not a file", file,
                                            help="name a rulebook file, or a shipped rulebook by name")])
        if not stat.S_ISREG(st.st_mode):
            raise RulebookError([Diagnostic("U0001", f"`{file}` is not a regular file (a device or a pipe)", file,
                                            help="name a rulebook file")])
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise RulebookError([Diagnostic("U0003", f"the file is over {MAX_BYTES:,} bytes, the limit",
                                            file, help="a rulebook is a small text file")])
    except FileNotFoundError:
        raise RulebookError([Diagnostic("U0001", f"no such file: `{file}`", file,
                                        help=_shipped_hint(Path(file).stem))]) from None
    except OSError as e:
        raise RulebookError([Diagnostic("U0001", f"cannot read `{file[:200]}`: {e.strerror or e}", file[:200])]) from None
    return decode(data, file)


def decode(data: bytes, file: str) -> str:
    if b"\0" in data:
        raise RulebookError([Diagnostic("U0002", "the file is binary, not text", file,
                                        help="a rulebook is UTF-8 text")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise RulebookError([Diagnostic("U0002", "the file is not valid UTF-8", file,
                                        Span(line, col, line, col + 1), "this byte",
                                        "save the file as UTF-8")]) from None
    text = text.removeprefix("\ufeff")
    for i, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE:
            raise RulebookError([Diagnostic("U0003", f"line {i} is {len(line):,} characters long; the limit is {MAX_LINE:,}",
                                            file, Span(i, 1, i, 2), help="break the line")])
    return text


def parse_text(text: str, file: str) -> Parsed:
    suffix = Path(file).suffix.lower()
    if suffix in (".yaml", ".yml"):
        from .yaml_json import parse_yaml
        ir, spans = parse_yaml(text, file)
        return Parsed(file, text, ir, spans, [])
    if suffix == ".json":
        from .yaml_json import parse_json
        ir, spans = parse_json(text, file)
        return Parsed(file, text, ir, spans, [])
    if suffix in (".uno", "") or file == "<input>":
        from .parser import parse_uno
        ir, spans, problems = parse_uno(text, file)
        _check_ir_depth(ir, spans, file, text)
        return Parsed(file, text, ir, spans, problems)
    raise RulebookError([Diagnostic("U0004", f"unknown file type `{suffix}`", file,
                                    help="rulebooks end in .uno, .yaml, .yml or .json")])


MAX_IR_DEPTH = 100        # the IR's nesting (dicts and lists) that every later stage handles


def _check_ir_depth(ir, spans: Spans, file: str, text: str):
    """Refuse IR nested deeper than MAX_IR_DEPTH (a sum of a hundred terms is a tree that deep), which
    the schema, the checker, the compiler, explain and the code generator all walk recursively."""
    stack = [(ir, 1, None)]
    while stack:
        node, depth, located = stack.pop()
        here = spans.at(node) if isinstance(node, dict) else None
        located = here or located
        if depth > MAX_IR_DEPTH:
            raise RulebookError([Diagnostic("U0003", f"an expression or rule is nested more than {MAX_IR_DEPTH} deep",
                                            file, located, "too deep",
                                            "split it: a long sum can be a counter added to step by step")],
                                {file: text})
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((c, depth + 1, located) for c in children if isinstance(c, (dict, list)))


def parse_file(path: Path, file: str | None = None, *, recall: bool = False) -> Parsed:
    """A file's own IR. With `recall`, from the cache (cache.py) when this text was read before."""
    file = file or str(path)
    if path.suffix.lower() not in SUFFIXES:
        raise RulebookError([Diagnostic("U0004", f"unknown file type `{path.suffix or '(none)'}`", file,
                                        help="rulebooks end in .uno, .yaml, .yml or .json")])
    text = read_text(path, file)
    kept = cache.recall(file, text) if recall else None
    if kept is not None:
        return Parsed(file, text, kept[0], kept[1], [], path, schema_checked=True)
    parsed = parse_text(text, file)
    parsed.path = path
    return parsed


# ---------------------------------------------------------------------------------------------
# names

@functools.cache
def shipped_names() -> dict[str, Path]:
    """Shipped rulebooks and modules by bare name (the installed files do not change while we run)."""
    root = rulebooks_dir()
    out = {}
    for sub in ("", "modules", "custom"):
        folder = root / sub if sub else root
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                if p.suffix == ".uno":
                    out.setdefault(p.stem, p)
    return out


def _shipped_hint(name: str) -> str | None:
    return did_you_mean(name, shipped_names())


def find(name: str, near: Path | None = None, search: tuple[Path, ...] = ()) -> Path | None:
    """A rulebook by bare name: the including file's folder, then `search`, then the shipped ones."""
    folders = ([near] if near else []) + list(search)
    for folder in folders:
        for suffix in SUFFIXES:
            p = folder / f"{name}{suffix}"
            if p.is_file():
                return p
    return shipped_names().get(name)


def resolve_argument(arg: str, search: tuple[Path, ...] = ()) -> Path:
    """A command-line rulebook argument: a path, or a shipped (or searched) rulebook's name."""
    p = Path(arg)
    if p.suffix.lower() in SUFFIXES or _exists(p) or "/" in arg or "\\" in arg:
        return p
    found = find(arg, None, search)
    if found is None:
        raise RulebookError([Diagnostic("U0206", f"no rulebook named `{arg}`", None,
                                        help=did_you_mean(arg, shipped_names()) or
                                        "name a file, or one of: " + ", ".join(shipped_names()))])
    return found


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except (OSError, RuntimeError):
        return True                        # it is there, but cannot be read: reading says why


def file_key(path: Path) -> str:
    """A file's identity (its resolved path), or a located error (a link loop, a name too long)."""
    try:
        return str(path.resolve())
    except (OSError, RuntimeError) as e:
        reason = "it is a link that leads back to itself" if isinstance(e, RuntimeError) else (e.strerror or str(e))
        raise RulebookError([Diagnostic("U0001", f"cannot read `{str(path)[:200]}`: {reason}", str(path)[:200])]) from None


def display_name(path: Path) -> str:
    """How a file is named in messages: shipped files as rulebooks/…, others as given."""
    try:
        return "rulebooks/" + str(path.resolve().relative_to(rulebooks_dir().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


# ---------------------------------------------------------------------------------------------
# merging

SINGLE_KEYS = ("title", "players", "colors", "pair_sides", "teams", "piles", "out_of_turn")
SETTING_BLOCKS = ("setup", "turn", "scoring", "jump_in")
CARD_FIELDS = ("category", "side", "points", "playable_when", "legal_when", "challenge", "at_any_time", "matches_as")


def _register(node, file: str, origins: dict[int, str]):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            origins[id(n)] = file
            stack.extend(n.values())
        elif isinstance(n, list):
            origins[id(n)] = file
            stack.extend(n)


class _Assembler:
    def __init__(self, search: tuple[Path, ...]):
        self.search = search
        self.files: dict[str, str] = {}
        self.spans = Spans()
        self.origins: dict[int, str] = {}
        self.diagnostics: list[Diagnostic] = []
        self.parsed: dict[str, Parsed] = {}
        self.parts: list[str] = []
        self.keep: list = []
        self.setting_from: dict[tuple[str, str], tuple[str, object, dict]] = {}   # (block, key) -> (module, value, node)
        self.laid: set[str] = set()          # modules already laid into this rulebook: each is included once

    def parse(self, path: Path) -> Parsed:
        key = file_key(path)
        if key not in self.parsed:
            parsed = parse_file(path, display_name(path), recall=True)
            self.files[parsed.file] = parsed.text
            self.spans.merge(parsed.spans)
            _register(parsed.ir, parsed.file, self.origins)
            self.diagnostics.extend(parsed.problems)
            self.parsed[key] = parsed
        return self.parsed[key]

    def error(self, code, msg, node, key=None, label="", help=None):
        self.diagnostics.append(Diagnostic(code, msg, self.origins.get(id(node)), self.spans.at(node, key),
                                           label, help))

    def assemble(self, path: Path, chain: tuple[str, ...] = ()) -> dict:
        parsed = self.parse(path)
        own = parsed.ir
        if not parsed.schema_checked:
            from .schema import schema_diagnostics
            schema_errors = schema_diagnostics(own, parsed.spans, parsed.file)
            if schema_errors:
                self.diagnostics.extend(schema_errors)
                raise _Stop()
            if not parsed.problems:
                cache.keep(parsed.file, parsed.text, own, parsed.spans)
        key = file_key(path)
        merged: dict = {"kind": own["kind"], "name": own["name"]}
        near = path.parent
        if "extends" in own:
            target = self._follow(own, "extends", own["extends"], near, chain + (key,), expect="rulebook")
            if target is not None:
                base = self.assemble(target, chain + (key,))
                merged = _copy_shell(base)
                merged["kind"], merged["name"] = own["kind"], own["name"]
                merged.pop("title", None)
        for i, name in enumerate(own.get("include", [])):
            target = self._follow(own.get("include"), i, name, near, chain + (key,), expect="module")
            if target is not None and self.lay(target):
                module = self.assemble(target, chain + (key,))
                _apply(merged, module, self, included=True)
        _apply(merged, own, self)
        self.parts.append(parsed.file)
        return merged

    def lay(self, module: Path) -> bool:
        """True the first time a module is laid into the rulebook being assembled (a module that
        two includes share, a diamond, is laid once, and assembled once)."""
        key = file_key(module)
        if key in self.laid:
            return False
        self.laid.add(key)
        return True

    def _follow(self, node, key, name, near, chain, expect):
        target = find(name, near, self.search)
        if target is None:
            self.error("U0206", f"no {'rulebook' if expect == 'rulebook' else 'module'} named `{name}`",
                       node, key, "not found",
                       did_you_mean(name, shipped_names()) or
                       "it is looked for beside this file, in --path folders and among the shipped rulebooks")
            return None
        if file_key(target) in chain:
            self.error("U0601", f"`{name}` leads back to this file", node, key, "cycle",
                       "a rulebook cannot extend or include itself, directly or through others")
            return None
        parsed = self.parse(target)
        kind = parsed.ir.get("kind") if isinstance(parsed.ir, dict) else None
        if expect == "rulebook" and kind == "module":
            self.error("U0602", f"`{name}` is a module: include it, do not extend it", node, key,
                       help=f"write `include {name}`")
            return None
        if expect == "module" and kind == "rulebook":
            self.error("U0602", f"`{name}` is a rulebook: extend it, do not include it", node, key,
                       help=f"write `extends {name}`")
            return None
        return target


class _Stop(Exception):
    pass


def _copy_shell(ir: dict) -> dict:
    """A copy of a merged IR's containers; the leaves (expressions, actions) stay shared."""
    out = {}
    for k, v in ir.items():
        if k == "cards":
            out[k] = [dict(c, effects=list(c["effects"])) if "effects" in c else dict(c) for c in v]
        elif isinstance(v, list):
            out[k] = list(v)
        elif isinstance(v, dict):
            out[k] = dict(v)
        else:
            out[k] = v
    return out


def _apply(merged: dict, own: dict, asm: _Assembler, included: bool = False):
    """Lay one file's items over the merged IR: add, override, remove."""
    for k in SINGLE_KEYS:
        if k in own and not (included and k == "title"):
            merged[k] = own[k]
    for side in own.get("sides", []):
        sides = merged.setdefault("sides", [])
        sides[:] = [s for s in sides if s["name"] != side["name"]] + [side]
    for key in ("options", "counters", "rules"):   # by name: a later declaration replaces an earlier one
        for item in own.get(key, []):
            items = merged.setdefault(key, [])
            items[:] = [o for o in items if o["name"] != item["name"]] + [item]
    for block in SETTING_BLOCKS:
        if block in own:
            if included:
                for key, value in own[block].items():
                    prev = asm.setting_from.get((block, key))
                    if prev is not None and prev[0] != own["name"] and prev[1] != value:
                        asm.error("U0702", f"`{own['name']}` and `{prev[0]}` both set `{block} {key.replace('_', ' ')}`, "
                                           "differently", own[block], key, "conflicting setting",
                                  f"include only one of them, or settle it in the rulebook's own `{block}` block")
                    asm.setting_from[(block, key)] = (own["name"], value, own[block])
            before = merged.get(block, {})
            merged[block] = block_now = {**before, **own[block]}
            # where each setting came from, for the checker's messages
            for key in block_now:
                src = own[block] if key in own[block] else before
                span = asm.spans.at(src, key)
                if span is not None:
                    asm.spans.put(block_now, span, key)
            asm.spans.put(block_now, asm.spans.at(own[block]))
            asm.origins[id(block_now)] = asm.origins.get(id(own[block]))
            asm.keep.append(block_now)
    for removal in own.get("remove_settings", []):
        block = merged.get(removal["block"], {})
        if removal["key"] not in block and merged.get("kind") == "module":
            merged.setdefault("remove_settings", []).append(removal)    # for the rulebook it is laid over
            continue
        if removal["key"] not in block:
            asm.error("U0204", f"there is no `{removal['block']} {removal['key']}` to remove", removal, "key",
                      "not set", did_you_mean(removal["key"], block) or
                      (f"set here: {', '.join(block)}" if block else f"nothing is set in `{removal['block']}`"))
            continue
        merged[removal["block"]] = {k: v for k, v in block.items() if k != removal["key"]}
    cards = merged.setdefault("cards", [])
    by_name = {c["names"][0]: c for c in cards}
    seen_here: set[str] = set()
    for decl in own.get("cards", []):
        for i, name in enumerate(decl["names"]):
            if name in seen_here:
                asm.error("U0202", f"card `{name}` is declared twice in this file", decl["names"], i,
                          "declared again here", "merge the two declarations")
                continue
            seen_here.add(name)
            card = by_name.get(name)
            if card is None:
                card = {"names": [name]}
                asm.spans.put(card, asm.spans.at(decl))
                asm.spans.put(card["names"], asm.spans.at(decl["names"], i), 0)
                asm.origins[id(card)] = asm.origins[id(card["names"])] = asm.origins.get(id(decl))
                asm.keep.append(card)
                cards.append(card)
                by_name[name] = card
            for f in CARD_FIELDS:
                if f in decl:
                    card[f] = decl[f]
            if decl.get("effects"):
                events = {e["event"] for e in decl["effects"]}
                card["effects"] = [e for e in card.get("effects", []) if e["event"] not in events] + list(decl["effects"])
    for r in own.get("replace_copies", []):        # before `remove card`: the kind emptied may then go
        _replace_copies(merged, r, asm)
    for removal in own.get("remove_cards", []):
        for i, name in enumerate(removal["names"]):
            if name not in by_name and merged.get("kind") == "module":
                # for the rulebook the module is laid on, as `remove scoring ...` is
                later = merged.setdefault("remove_cards", [])
                if removal not in later:
                    later.append(removal)
                continue
            if name not in by_name:
                asm.error("U0204", f"there is no card `{name}` to remove", removal["names"], i,
                          "unknown card", did_you_mean(name, by_name))
                continue
            cards.remove(by_name.pop(name))
            merged["deck"] = [_without(d, name) for d in merged.get("deck", [])]
    if own.get("deck"):
        merged.setdefault("deck", []).extend(own["deck"])
    _remove_and_replace_hooks(merged, own, asm)
    for key in ("reactions", "triggers"):
        names = {o["name"] for o in merged.get(key, []) if "name" in o}
        for item in own.get(key, []):
            if "name" not in item:
                continue
            if item["name"] not in names:
                names.add(item["name"])
            else:
                asm.error("U0202", f"a {key[:-1]} named `{item['name']}` is already given", item, "name",
                          "named again here", f"write `replace {key[:-1]} {item['name']}: ...`, or choose another name")
    for key in ("play_rules", "reactions", "triggers"):
        if own.get(key):
            merged.setdefault(key, []).extend(own[key])
    for key in ("declarations", "false_calls"):       # by name: a later one replaces an earlier one
        for decl in own.get(key, []):
            decls = merged.setdefault(key, [])
            decls[:] = [d for d in decls if d["name"] != decl["name"]] + [decl]
    if "include" in own:
        merged.setdefault("include", [])
        merged["include"] = list(dict.fromkeys(merged["include"] + own["include"]))


def _remove_and_replace_hooks(merged: dict, own: dict, asm):
    """`remove trigger|reaction NAME` and `replace trigger|reaction NAME [if C]: ACTIONS`, of the
    named triggers and reactions laid so far; in a module, one it does not find is kept for the
    rulebook the module is laid on (as `remove card` is)."""
    for key, action in (("remove_hooks", "remove"), ("replace_hooks", "replace")):
        for r in own.get(key, []):
            lst = merged.get(r["kind"] + "s", [])
            at = next((i for i, o in enumerate(lst) if o.get("name") == r["name"]), None)
            if at is None:
                if merged.get("kind") == "module":
                    later = merged.setdefault(key, [])
                    if r not in later:
                        later.append(r)
                    continue
                names = [o["name"] for o in lst if "name" in o]
                asm.error("U0204", f"there is no {r['kind']} named `{r['name']}` to {action}", r, "name",
                          f"no such {r['kind']}", did_you_mean(r["name"], names) or
                          (f"named {r['kind']}s here: {', '.join(names)}" if names else
                           f"no {r['kind']} here has a name: give one `as NAME`"))
                continue
            if action == "remove":
                del lst[at]
                continue
            new = {k: v for k, v in lst[at].items() if k not in ("if", "actions")}
            if "if" in r:
                new["if"] = r["if"]
            new["actions"] = r["actions"]
            asm.spans.put(new, asm.spans.at(r))
            for k in ("if", "actions"):
                if k in new:
                    asm.spans.put(new, asm.spans.at(r, k) or asm.spans.at(r), k)
            asm.origins[id(new)] = asm.origins.get(id(r))
            asm.keep.append(new)
            lst[at] = new


def _replace_copies(merged: dict, r: dict, asm):
    """`replace N × KIND with NAME`: N copies of a colorless kind in the box become copies of
    NAME (declared as a card), so the box keeps its size; in a module, a kind the module's own
    files do not have is kept for the rulebook it is laid on."""
    face, n = r["face"], r["count"]
    decks = merged.get("deck", [])
    held = [(d, e) for d in decks for e in d["entries"] if e["kind"] == "copies" and face in e["faces"]]
    if any(e["kind"] == "per_color" and any(face in c["faces"] for c in e["copies"]) for d in decks for e in d["entries"]):
        asm.error("U0403", f"`{face}` is dealt per color: `replace` takes copies of a card without a color", r, "face",
                  "dealt per color", "replace a wild's copies, or give the new card its own deck entry")
        return
    if len({d.get("side") for d in decks}) > 1:
        asm.error("U0403", "`replace` needs a one-sided box: with sides each card has a face on every side", r, None,
                  "a box with sides")
        return
    total = sum(e["count"] for _, e in held)
    if not held:
        if merged.get("kind") == "module":
            later = merged.setdefault("replace_copies", [])
            if r not in later:
                later.append(r)
            return
        known = sorted({f for d in decks for e in d["entries"] if e["kind"] == "copies" for f in e["faces"]})
        asm.error("U0204", f"the box holds no `{face}` to replace", r, "face", "not in the box",
                  did_you_mean(face, known))
        return
    if total < n:
        asm.error("U0303", f"the box holds {total} × {face}, not {n}", r, "count", "more than the box holds",
                  f"replace at most {total}")
        return
    new = {"kind": "copies", "count": n, "faces": [r["with"]]}
    asm.spans.put(new, asm.spans.at(r))
    asm.spans.put(new["faces"], asm.spans.at(r, "with"), 0)
    asm.origins[id(new)] = asm.origins[id(new["faces"])] = asm.origins.get(id(r))
    asm.keep += [new, new["faces"]]
    left = n
    for k, old in enumerate(decks):     # new containers: the base's IR (perhaps cached) is shared
        if not left or not any(e["kind"] == "copies" and face in e["faces"] for e in old["entries"]):
            continue
        entries = []
        for e in old["entries"]:
            if not left or e["kind"] != "copies" or face not in e["faces"]:
                entries.append(e)
                continue
            take = min(left, e["count"])
            left -= take
            rest = [f for f in e["faces"] if f != face]
            for piece in ([dict(e, faces=rest)] if rest else []) + \
                    ([dict(e, faces=[face], count=e["count"] - take)] if e["count"] > take else []):
                asm.spans.put(piece, asm.spans.at(e))
                asm.origins[id(piece)] = asm.origins.get(id(e))
                asm.keep.append(piece)
                entries.append(piece)
        if new is not None:
            entries.append(new)
            new = None
        deck = dict(old, entries=entries)
        asm.spans.put(deck, asm.spans.at(old))
        asm.origins[id(deck)] = asm.origins.get(id(old))
        asm.keep.append(deck)
        decks[k] = deck


def _without(deck: dict, name: str) -> dict:
    entries = []
    for e in deck["entries"]:
        if e["kind"] == "per_color":
            copies = [c for c in e["copies"] if name not in c["faces"] or len(c["faces"]) > 1]
            copies = [c if name not in c["faces"] else dict(c, faces=[f for f in c["faces"] if f != name])
                      for c in copies]
            if copies:
                entries.append(dict(e, copies=copies))
        elif name not in e["faces"] or len(e["faces"]) > 1:
            entries.append(e if name not in e["faces"] else dict(e, faces=[f for f in e["faces"] if f != name]))
    return dict(deck, entries=entries)


def resolved_ir(rulebook: "Rulebook") -> dict:
    """The merged rulebook as the IR of one file: with `extends`, `for` and `include` already
    applied (and so left out), it loads on its own to the same rules (`export --resolved`)."""
    ir = {k: v for k, v in rulebook.ir.items() if k not in ("include", "extends", "for")}
    ir["kind"] = "rulebook"
    return ir


# ---------------------------------------------------------------------------------------------

def load(source: str | Path, *, include: tuple[str, ...] = (), with_: tuple[str | Path, ...] = (),
         search: tuple[str | Path, ...] = ()) -> Rulebook:
    """Load, merge and check a rulebook. `source` is a path or a shipped name; `include` adds rule
    modules by name; `with_` lays custom rule files (fragments) on top. Raises RulebookError."""
    from .checker import check
    search = tuple(Path(s) for s in search)
    path = resolve_argument(str(source), search) if not isinstance(source, Path) else source
    asm = _Assembler(search)
    try:
        merged = asm.assemble(path)
        own = asm.parse(path).ir
        if own.get("kind") == "module" and own.get("for"):
            # a module on its own is checked (and played) laid over the rulebook it is written for
            base = asm._follow(own, "for", own["for"], path.parent, (file_key(path),), expect="rulebook")
            if base is not None:
                module = merged
                merged = _copy_shell(asm.assemble(base))
                _apply(merged, module, asm, included=True)
                merged["kind"], merged["name"] = "rulebook", own["name"]
        for name in include:
            target = find(name, None, search)
            if target is None:
                raise RulebookError([Diagnostic("U0206", f"no module named `{name}`", None,
                                                help=did_you_mean(name, shipped_names()))])
            if asm.lay(target):
                _apply(merged, asm.assemble(target), asm, included=True)
        with_files = set()
        for extra in with_:
            extra_path = resolve_argument(str(extra), search) if not isinstance(extra, Path) else extra
            _apply(merged, asm.assemble(extra_path), asm, included=True)
            with_files.add(asm.parse(extra_path).file)
    except _Stop:
        raise RulebookError(asm.diagnostics, asm.files) from None
    except RulebookError as e:
        raise RulebookError(asm.diagnostics + e.diagnostics, {**asm.files, **e.texts}) from None
    if any(d.code in LINK_ERRORS for d in asm.diagnostics):
        raise RulebookError(asm.diagnostics, asm.files)    # a part is missing: the rest would only echo that
    rulebook = Rulebook(merged["name"], merged, asm.files, asm.spans, asm.origins, asm.parts, asm.keep)
    rulebook.file_kinds = {p.file: p.ir.get("kind") for p in asm.parsed.values() if isinstance(p.ir, dict)}
    rulebook.with_files = with_files
    rulebook.paths = [p.path for p in asm.parsed.values() if p.path is not None]
    problems = asm.diagnostics + check(rulebook)         # every error of every file at once
    if errors_of(problems):
        raise RulebookError(problems, asm.files)
    rulebook.warnings = sorted(problems, key=Diagnostic.sort_key)
    return rulebook


def load_resolved(text: str, file: str) -> Rulebook:
    """A merged rulebook written whole as JSON (`export --resolved`, an events file's header) from
    its text, validated as any file is: schema, checker. It may extend or include nothing, so no
    other file is read."""
    from .checker import check
    from .schema import schema_diagnostics
    from .yaml_json import parse_json
    ir, spans = parse_json(text, file)
    problems = schema_diagnostics(ir, spans, file)
    if not problems and (ir.get("kind") != "rulebook" or "extends" in ir or "include" in ir):
        problems = [Diagnostic("U0602", "a merged rulebook extends and includes nothing", file, spans.at(ir),
                               help="write it with `unorules export RULEBOOK --resolved`")]
    if problems:
        raise RulebookError(problems, {file: text})
    origins: dict[int, str] = {}
    _register(ir, file, origins)
    rulebook = Rulebook(ir["name"], ir, {file: text}, spans, origins, [file])
    problems = check(rulebook)
    if errors_of(problems):
        raise RulebookError(problems, {file: text})
    rulebook.warnings = problems
    return rulebook


LINK_ERRORS = {"U0206", "U0601", "U0602"}      # an extends or include that leads nowhere (or back)
