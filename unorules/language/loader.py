"""Stage 0 and the glue of the front end: read a rulebook file (.uno, .yaml, .yml, .json) safely,
resolve `extends` and `include`, merge them into one IR, validate (schema, checker).

Files are untrusted: size, line length, nesting and YAML features are bounded; YAML is read with
the safe loader and refuses tags and aliases; names resolve only to the including file's folder,
folders given with `search`, and the shipped rulebooks.
"""
from __future__ import annotations

import functools
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from unorules.errors import Diagnostic, RulebookError, Span, did_you_mean, errors_of
from . import cache
from .merge import copy_shell, lay_over
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
            _too_large(file)
    except FileNotFoundError:
        raise RulebookError([Diagnostic("U0001", f"no such file: `{file}`", file,
                                        help=_shipped_hint(Path(file).stem))]) from None
    except OSError as e:
        raise RulebookError([Diagnostic("U0001", f"cannot read `{file[:200]}`: {e.strerror or e}", file[:200])]) from None
    return decode(data, file)


def _too_large(file: str):
    raise RulebookError([Diagnostic("U0003", f"the file is over {MAX_BYTES:,} bytes, the limit",
                                    file, help="a rulebook is a small text file")])


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


def parse_file(path: Path, file: str | None = None, *, recall: bool = False, text: str | None = None) -> Parsed:
    """A file's own IR. With `recall`, from the cache (cache.py) when this text was read before;
    with `text`, from that text instead of the file on disk (an editor's unsaved buffer)."""
    file = file or str(path)
    if path.suffix.lower() not in SUFFIXES:
        raise RulebookError([Diagnostic("U0004", f"unknown file type `{path.suffix or '(none)'}`", file,
                                        help="rulebooks end in .uno, .yaml, .yml or .json")])
    if text is None:
        text = read_text(path, file)
    else:                                  # held to the same bounds as a file (a lone surrogate is not UTF-8)
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > MAX_BYTES:
            _too_large(file)
        text = decode(data, file)
    kept = cache.recall(file, text) if recall else None
    if kept is not None:
        return Parsed(file, text, kept[0], kept[1], [], path, schema_checked=True)
    parsed = parse_text(text, file)
    parsed.path = path
    return parsed


# ---------------------------------------------------------------------------------------------
# names

def is_rulebook_text(path: Path, text: str) -> bool:
    """Whether a file is a rulebook to check: every .uno file; a YAML or JSON file only when it
    declares a rulebook or module (a scenario file, a CI config, is left alone)."""
    suffix = path.suffix.lower()
    if suffix == ".uno":
        return True
    if suffix not in SUFFIXES:
        return False
    return re.search(r'^\s*"?kind"?\s*:\s*"?(rulebook|module)\b', text, re.MULTILINE) is not None


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
# assembling: the files of a rulebook read and laid over each other (merge.py lays each)


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
    def __init__(self, search: tuple[Path, ...], texts=None, reads: list | None = None):
        self.search = search
        self.texts = texts or {}             # file_key -> text: unsaved buffers read instead of the files
        self.reads = reads if reads is not None else []   # every path read, in order (an editor watches them)
        self.files: dict[str, str] = {}
        self.spans = Spans()
        self.origins: dict[int, str] = {}
        self.diagnostics: list[Diagnostic] = []
        self.parsed: dict[str, Parsed] = {}
        self.parts: list[str] = []
        self.keep: list = []
        self.setting_from: dict[tuple[str, str], tuple[str, object, dict]] = {}   # (block, key) -> (module, value, node)
        self.laid: set[str] = set()          # modules already laid into this rulebook: each is included once
        self.removed: dict[int, tuple] = {}  # id(merged IR) -> (it, the (block, key) settings removed from it so far)

    def parse(self, path: Path) -> Parsed:
        key = file_key(path)
        if key not in self.parsed:
            self.reads.append(path)
            parsed = parse_file(path, display_name(path), recall=True, text=self.texts.get(key))
            self.files[parsed.file] = parsed.text
            self.spans.merge(parsed.spans)
            _register(parsed.ir, parsed.file, self.origins)
            self.diagnostics.extend(parsed.problems)
            self.parsed[key] = parsed
        return self.parsed[key]

    def error(self, code, msg, node, key=None, label="", help=None, related=()):
        """`related`: (node, key, what) of other places that explain this one."""
        self.diagnostics.append(Diagnostic(code, msg, self.origins.get(id(node)), self.spans.at(node, key),
                                           label, help, related=[(self.origins.get(id(n)), self.spans.at(n, k), w)
                                                                 for n, k, w in related]))

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
                merged = copy_shell(base)
                merged["kind"], merged["name"] = own["kind"], own["name"]
                merged.pop("title", None)
        for i, name in enumerate(own.get("include", [])):
            target = self._follow(own.get("include"), i, name, near, chain + (key,), expect="module")
            if target is not None and self.lay(target):
                module = self.assemble(target, chain + (key,))
                lay_over(merged, module, self, included=True)
        lay_over(merged, own, self)
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


def resolved_ir(rulebook: "Rulebook") -> dict:
    """The merged rulebook as the IR of one file: with `extends`, `for` and `include` already
    applied (and so left out), it loads on its own to the same rules (`export --resolved`)."""
    ir = {k: v for k, v in rulebook.ir.items() if k not in ("include", "extends", "for")}
    ir["kind"] = "rulebook"
    return ir


# ---------------------------------------------------------------------------------------------

def load(source: str | Path, *, include: tuple[str, ...] = (), with_: tuple[str | Path, ...] = (),
         search: tuple[str | Path, ...] = (), texts=None, reads: list | None = None) -> Rulebook:
    """Load, merge and check a rulebook. `source` is a path or a shipped name; `include` adds rule
    modules by name; `with_` lays custom rule files (fragments) on top. `texts` maps a file's
    `file_key` to text read in its place (an editor's unsaved buffer: `extends` and `include`
    still resolve from the file's folder); `reads` collects every path read, in order, even when
    loading fails. Raises RulebookError."""
    from .checker import check
    search = tuple(Path(s) for s in search)
    path = resolve_argument(str(source), search) if not isinstance(source, Path) else source
    asm = _Assembler(search, texts, reads)
    try:
        merged = asm.assemble(path)
        own = asm.parse(path).ir
        if own.get("kind") == "module" and own.get("for"):
            # a module on its own is checked (and played) laid over the rulebook it is written for
            base = asm._follow(own, "for", own["for"], path.parent, (file_key(path),), expect="rulebook")
            if base is not None:
                module = merged
                merged = copy_shell(asm.assemble(base))
                lay_over(merged, module, asm, included=True)
                merged["kind"], merged["name"] = "rulebook", own["name"]
        for name in include:
            target = find(name, None, search)
            if target is None:
                raise RulebookError([Diagnostic("U0206", f"no module named `{name}`", None,
                                                help=did_you_mean(name, shipped_names()))])
            if asm.lay(target):
                lay_over(merged, asm.assemble(target), asm, included=True)
        with_files = set()
        for extra in with_:
            extra_path = resolve_argument(str(extra), search) if not isinstance(extra, Path) else extra
            lay_over(merged, asm.assemble(extra_path), asm, included=True)
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
