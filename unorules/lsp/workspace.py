"""The files an editor has open, checked as `unorules validate` checks them, with their unsaved
text read in place of the files on disk.

A file is checked with every file it extends or includes (the loader reads an open one's buffer,
the others from disk), and the check remembers which files it read: an edit to a module re-checks
the open files that use it (`dependents`), and nothing else. No language-server library is
imported here: the server (server.py) turns these results into the protocol's messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from unorules.errors import Diagnostic, RulebookError, Span, UnorulesError
from unorules.language.loader import (MAX_BYTES, MAX_LINE, Rulebook, display_name, file_key, find, is_rulebook_text,
                                      load, read_text)
from .symbols import FileSymbols, read_symbols

RULEBOOK_SUFFIXES = (".uno", ".yaml", ".yml", ".json")
VERBS = {"extends": "extends", "include": "includes", "for": "is written for"}


@dataclass
class Check:
    """One open file's check: its diagnostics by file, the files read, the rulebook if it loaded."""
    path: Path
    diagnostics: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    reads: list[Path] = field(default_factory=list)
    rulebook: Rulebook | None = None
    files: dict[str, Path] = field(default_factory=dict)    # a file as diagnostics name it -> its path
    buffers: dict[str, str] = field(default_factory=dict)   # the editor's texts it was checked with

    def path_of(self, file: str | None) -> Path | None:
        """The path of a file as a diagnostic names it (shipped ones as `rulebooks/…`)."""
        return self.files.get(file) or (Path(file) if file else None)


class Workspace:
    def __init__(self, search: tuple[Path, ...] = ()):
        self.search = tuple(search)
        self.buffers: dict[str, str] = {}           # file_key -> the editor's text
        self.open_paths: dict[str, Path] = {}       # file_key -> the path as the editor named it
        self.checks: dict[str, Check] = {}          # file_key of an open file -> its last check
        self.good: dict[str, Rulebook] = {}         # file_key -> the last rulebook that loaded from it
        self._symbols: dict[str, tuple[str, FileSymbols]] = {}

    # ---- buffers -----------------------------------------------------------------------------

    def open(self, path: Path, text: str):
        key = file_key(path)
        self.buffers[key] = text
        self.open_paths[key] = path

    def close(self, path: Path):
        key = file_key(path)
        for table in (self.buffers, self.open_paths, self.checks, self.good):
            table.pop(key, None)

    def text(self, path: Path) -> str | None:
        """A file's text: the editor's buffer when it is open, else the file on disk (None when it
        cannot be read)."""
        key = file_key(path)
        if key in self.buffers:
            return self.buffers[key]
        try:
            return read_text(path, str(path))
        except UnorulesError:
            return None

    def symbols(self, path: Path) -> FileSymbols | None:
        text = self.text(path)
        if text is None or path.suffix.lower() != ".uno":
            return None
        key = file_key(path)
        kept = self._symbols.get(key)
        if kept is None or kept[0] != text:
            # a file past the loader's bounds is not read further (its diagnostic says why)
            too_big = len(text) > MAX_BYTES or any(len(line) > MAX_LINE for line in text.split("\n"))
            kept = (text, FileSymbols([]) if too_big else read_symbols(text))
            self._symbols[key] = kept
        return kept[1]

    # ---- checking ----------------------------------------------------------------------------

    def check(self, path: Path) -> Check:
        """Check an open file as `unorules validate FILE` does (with its unsaved text and that of
        every open file it reads), and keep the result."""
        return self.keep(path, self.compute(path, dict(self.buffers)))

    def compute(self, path: Path, buffers: dict[str, str]) -> Check:
        """The check of `path` over these buffers (a snapshot), kept nowhere: the server runs it off
        its event loop, and keeps it (`keep`) only if no file it read has changed since."""
        key = file_key(path)
        result = Check(path)
        result.buffers = buffers
        text = buffers.get(key)
        if text is not None and not is_rulebook_text(path, text):
            return result
        reads: list[Path] = []
        try:
            rb = load(path, search=self.search, texts=buffers, reads=reads)
            problems = rb.warnings
            result.rulebook = rb
        except RulebookError as e:
            problems = e.diagnostics
        result.reads = reads or [path]
        result.files = {display_name(p): p for p in result.reads}
        result.files.setdefault(display_name(path), path)
        links = None                               # the file's links, followed only for an error elsewhere
        for d in problems:
            where = result.path_of(d.file) if d.file else path
            if d.file is None:                      # not in any file (a module named on no line): the file's first line
                d = Diagnostic(d.code, d.message, display_name(path), Span(1, 1, 1, 1), d.label, d.help, d.severity,
                               list(d.notes), list(d.related))
            elif file_key(where) != key:
                links = self._link_closure(path) if links is None else links
                d = self._with_link(d, path, where, links)
            result.diagnostics.setdefault(where, []).append(d)
        return result

    def is_current(self, result: Check) -> bool:
        """Whether every file the check read still has the text it was checked with (and the file
        itself is still open)."""
        if file_key(result.path) not in self.buffers:
            return False
        return all(self.buffers.get(file_key(p)) == result.buffers.get(file_key(p)) for p in result.reads or [result.path])

    def keep(self, path: Path, result: Check) -> Check:
        key = file_key(path)
        if result.rulebook is not None:
            self.good[key] = result.rulebook
        self.checks[key] = result
        return result

    def dependents(self, path: Path) -> list[Path]:
        """The open files (other than this one) whose last check read this file."""
        key = file_key(path)
        out = []
        for other, check in self.checks.items():
            if other != key and any(file_key(p) == key for p in check.reads):
                out.append(self.open_paths.get(other, check.path))
        return out

    def rulebook(self, path: Path) -> Rulebook | None:
        """The rulebook this open file loaded to last (its last good text's, while it has errors)."""
        return self.good.get(file_key(path))

    def base_rulebook(self, path: Path) -> Rulebook | None:
        """The rulebook this file extends (or, for a module, is written for), loaded: what a hover
        can explain while the file itself has never validated."""
        syms = self.symbols(path)
        for link in syms.links if syms else []:
            if link.how in ("extends", "for"):
                target = self.resolve(link.token.text, path)
                if target is not None and file_key(target) != file_key(path):
                    try:
                        return load(target, search=self.search, texts=self.buffers)
                    except RulebookError:
                        return None
        return None

    def parts(self, path: Path) -> list[Path]:
        """The files of this file's rulebook, as its last check read them (itself first)."""
        check = self.checks.get(file_key(path))
        reads = check.reads if check else []
        if len(reads) <= 1:                   # it did not parse: its links, as written, tell
            reads = [f for _, files in self._link_closure(path) for f in files]
        out, seen = [path], {file_key(path)}
        for p in reads:
            if file_key(p) not in seen:
                seen.add(file_key(p))
                out.append(p)
        return out

    # ---- links between files -----------------------------------------------------------------

    def resolve(self, name: str, near: Path) -> Path | None:
        return find(name, near.parent, self.search)

    def _link_closure(self, path: Path) -> list[tuple[object, list[Path]]]:
        """For each link of the file (`extends`, `include`, `for`), the files it leads to, read
        from their tokens (so that a file that does not parse still knows its rulebook's names)."""
        out = []
        syms = self.symbols(path)
        for link in syms.links if syms else []:
            target = self.resolve(link.token.text, path)
            if target is None:
                continue
            seen: dict[str, Path] = {}
            todo = [target]
            while todo and len(seen) < 200:
                p = todo.pop()
                k = file_key(p)
                if k in seen:
                    continue
                seen[k] = p
                s = self.symbols(p)
                for lk in s.links if s else []:
                    nxt = self.resolve(lk.token.text, p)
                    if nxt is not None:
                        todo.append(nxt)
            out.append((link, list(seen.values())))
        return out

    def _with_link(self, d: Diagnostic, path: Path, where: Path, links) -> Diagnostic:
        """A diagnostic in another file, with the line of this file that brought that file in."""
        key = file_key(where)
        for link, files in links:
            if key in {file_key(f) for f in files}:
                tok = link.token
                span = Span(tok.line + 1, tok.column + 1, tok.line + 1, tok.end_column + 1)
                related = list(d.related) + [(display_name(path), span,
                                              f"checked as part of `{tok.text}`, which this file {VERBS[link.how]}")]
                return Diagnostic(d.code, d.message, d.file, d.span, d.label, d.help, d.severity,
                                  list(d.notes), related)
        return d
