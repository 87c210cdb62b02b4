"""`unorules lsp`: the language server, on pygls and lsprotocol (the optional extra `unorules[lsp]`).

The protocol's side only: open files are kept by pygls, checked by workspace.py after a short
pause in typing (a newer edit drops the older check), and every request is answered from
features.py. A request that fails in an unforeseen way is logged and answered empty: bad input
never stops the server.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import re
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from unorules.errors import Diagnostic, RulebookError
from unorules.language.resources import docs_file
from . import completion, features
from .workspace import RULEBOOK_SUFFIXES, Workspace


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("unorules")
    except PackageNotFoundError:
        return "0"


DEBOUNCE = 0.05          # seconds of quiet after an edit before the file is checked again
LIVE_LIMIT = 200_000     # characters: a larger file is checked when opened and saved, not as it is typed
log = logging.getLogger("unorules.lsp")


class UnorulesServer(LanguageServer):
    def __init__(self):
        super().__init__("unorules", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.files = Workspace()
        self.pending: dict[str, asyncio.Task] = {}
        self.published: dict[str, dict[str, list[lsp.Diagnostic]]] = {}   # checked uri -> target uri -> its diagnostics
        self.shown: set[str] = set()                                       # uris that have diagnostics shown
        # checks run here, one at a time, off the event loop: requests are answered while one runs
        self.checker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="unorules-check")


server = UnorulesServer()


class _RefusalsWithoutTracebacks(logging.Filter):
    """pygls logs every error a request answers with, traceback and all: a refusal of ours (the
    protocol's RequestFailed, with its reason for the person) is one line, with no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, JsonRpcException) and getattr(error, "code", None) == REQUEST_FAILED:
            record.msg, record.args = "refused: %s", (error.message if hasattr(error, "message") else str(error),)
            record.exc_info, record.exc_text, record.levelno, record.levelname = None, None, logging.INFO, "INFO"
        return True


logging.getLogger("pygls.protocol.json_rpc").addFilter(_RefusalsWithoutTracebacks())


def guarded(empty=None):
    """Answer `empty` (and log) when a handler fails: the server keeps serving. A refusal meant for
    the person (JsonRpcException) is answered as the protocol's error."""
    def wrap(f):
        if asyncio.iscoroutinefunction(f):
            @functools.wraps(f)
            async def run(ls, params):
                try:
                    return await f(ls, params)
                except JsonRpcException:
                    raise
                except Exception:          # noqa: BLE001 - the server outlives any one request
                    log.exception("%s failed", f.__name__)
                    return empty
        else:
            @functools.wraps(f)
            def run(ls, params):
                try:
                    return f(ls, params)
                except JsonRpcException:
                    raise
                except Exception:          # noqa: BLE001
                    log.exception("%s failed", f.__name__)
                    return empty
        return run
    return wrap


# ---- places --------------------------------------------------------------------------------------

def _path(uri: str) -> Path | None:
    p = to_fs_path(uri)
    return Path(p) if p else None


def _lines(ls: UnorulesServer, path: Path) -> list[str]:
    text = ls.files.text(path)
    return text.split("\n") if text is not None else []


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def _encoding(ls) -> str:
    kind = ls.workspace.position_encoding
    return str(getattr(kind, "value", kind) or "utf-16")


def _units(ls, text: str) -> int:
    """How many of the client's code units `text` is (UTF-16 unless the client chose otherwise);
    a line without characters beyond the BMP counts in characters, without a walk over it."""
    encoding = _encoding(ls)
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + len(_ASTRAL.findall(text)) if _ASTRAL.search(text) else len(text)


def _to_client(ls, lines: list[str], line: int, column: int) -> lsp.Position:
    if 0 <= line < len(lines):
        row = lines[line]
        column = min(column, len(row))
        if _encoding(ls) == "utf-16" and not _ASTRAL.search(row):
            return lsp.Position(line, column)
        return lsp.Position(line, _units(ls, row[:column]))
    return lsp.Position(max(0, line), 0)


def _from_client(ls, path: Path, pos: lsp.Position) -> tuple[int, int]:
    lines = _lines(ls, path)
    if 0 <= pos.line < len(lines):
        row = lines[pos.line]
        if _encoding(ls) == "utf-16" and not _ASTRAL.search(row):
            return pos.line, min(pos.character, len(row))
        server_pos = ls.workspace.position_codec.position_from_client_units(lines, pos)
        return server_pos.line, server_pos.character
    return pos.line, pos.character


def _range(ls, lines, line, column, end_line, end_column) -> lsp.Range:
    return lsp.Range(_to_client(ls, lines, line, column), _to_client(ls, lines, end_line, end_column))


def _location(ls, place: features.Place) -> lsp.Location:
    lines = _lines(ls, place.path)
    return lsp.Location(from_fs_path(str(place.path)),
                        _range(ls, lines, place.line, place.column, place.end_line, place.end_column))


# ---- diagnostics ---------------------------------------------------------------------------------

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


def _diagnostic(ls, d: Diagnostic, lines: list[str], path_of) -> lsp.Diagnostic:
    s = d.span
    rng = (_range(ls, lines, s.line - 1, s.column - 1, s.end_line - 1, s.end_column - 1) if s
           else lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))
    message = d.message + (f"\nhelp: {d.help}" if d.help else "") + "".join(f"\nnote: {n}" for n in d.notes)
    related = []
    for file, span, what in d.related:
        path = path_of(file)
        if path is None or span is None:
            continue
        rl = _lines(ls, path)
        related.append(lsp.DiagnosticRelatedInformation(
            lsp.Location(from_fs_path(str(path)),
                         _range(ls, rl, span.line - 1, span.column - 1, span.end_line - 1, span.end_column - 1)),
            what))
    doc = docs_file()
    fix = d.suggestion
    return lsp.Diagnostic(
        rng, message, severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error), code=d.code,
        code_description=lsp.CodeDescription(href=doc.as_uri() + "#" + d.code.lower()) if doc else None,
        source="unorules", related_information=related or None,
        data={"fix": fix} if fix else None)


async def _check_off_the_loop(ls: UnorulesServer, path: Path) -> bool:
    """Check `path` on the checker's thread over a snapshot of the buffers; keep and show the
    result only if no file it read changed meanwhile (else it is stale: dropped, and the edit
    that changed it has scheduled a check of its own). False when dropped."""
    loop = asyncio.get_running_loop()
    check = await loop.run_in_executor(ls.checker, ls.files.compute, path, dict(ls.files.buffers))
    if not ls.files.is_current(check):
        return False
    ls.files.keep(path, check)
    _show(ls, path, check)
    return True


def _show(ls: UnorulesServer, path: Path, check):
    uri = from_fs_path(str(path))
    targets: dict[str, list[lsp.Diagnostic]] = {uri: []}     # its own uri always: cleared when clean
    text = ls.files.text(path) or ""
    if len(text) > LIVE_LIMIT:
        targets[uri].append(lsp.Diagnostic(
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            f"this file is over {LIVE_LIMIT:,} characters ({len(text):,}): it is checked when opened and saved, "
            "not as you type", severity=lsp.DiagnosticSeverity.Information, source="unorules", code="large"))
    for where, ds in check.diagnostics.items():
        lines = _lines(ls, where)
        targets.setdefault(from_fs_path(str(where)), []).extend(
            _diagnostic(ls, d, lines, check.path_of) for d in ds)
    ls.published[uri] = targets
    _publish(ls, set(targets))


def _publish(ls: UnorulesServer, uris):
    """Every uri's diagnostics: the union of what each open file's check found there."""
    for target in uris:
        union, seen = [], set()
        for owner, targets in ls.published.items():
            for d in targets.get(target, []):
                key = (d.code, d.range.start.line, d.range.start.character, d.message)
                if key not in seen:
                    seen.add(key)
                    union.append(d)
        version = None
        doc = ls.workspace.text_documents.get(target)
        if doc is not None:
            version = doc.version
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(target, union, version))
        if union:
            ls.shown.add(target)
        else:
            ls.shown.discard(target)


async def _check_later(ls: UnorulesServer, path: Path, delay: float):
    await asyncio.sleep(delay)
    before = set(ls.shown)
    if not await _check_off_the_loop(ls, path):
        return
    for other in ls.files.dependents(path):          # the open files that read this one, one at a time
        await _check_off_the_loop(ls, other)
    gone = before - {t for targets in ls.published.values() for t, ds in targets.items() if ds}
    if gone:
        _publish(ls, gone)


def _schedule(ls: UnorulesServer, uri: str, delay: float):
    path = _path(uri)
    if path is None or path.suffix.lower() not in RULEBOOK_SUFFIXES:
        return
    old = ls.pending.pop(uri, None)
    if old is not None:
        old.cancel()
    ls.pending[uri] = asyncio.ensure_future(_guarded_check(ls, path, delay))


async def _guarded_check(ls, path, delay):
    try:
        await _check_later(ls, path, delay)
    except asyncio.CancelledError:
        raise
    except Exception:                      # noqa: BLE001
        log.exception("checking %s failed", path)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@guarded()
def did_open(ls: UnorulesServer, params: lsp.DidOpenTextDocumentParams):
    path = _path(params.text_document.uri)
    if path is None:
        return
    ls.files.open(path, params.text_document.text)
    _schedule(ls, params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@guarded()
def did_change(ls: UnorulesServer, params: lsp.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    path = _path(uri)
    if path is None:
        return
    text = ls.workspace.get_text_document(uri).source
    ls.files.open(path, text)
    if len(text) <= LIVE_LIMIT:
        _schedule(ls, uri, DEBOUNCE)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@guarded()
def did_save(ls: UnorulesServer, params: lsp.DidSaveTextDocumentParams):
    _schedule(ls, params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@guarded()
def did_close(ls: UnorulesServer, params: lsp.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    path = _path(uri)
    if path is None:
        return
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    users = ls.files.dependents(path)
    ls.files.close(path)
    targets = ls.published.pop(uri, {})
    _publish(ls, set(targets))
    for other in users:                    # they read the buffer: now they read the file on disk
        _schedule(ls, from_fs_path(str(other)), 0)


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@guarded()
def watched_files_changed(ls: UnorulesServer, params: lsp.DidChangeWatchedFilesParams):
    """A file changed on disk (a module edited elsewhere, a branch switched): the open files that
    read it are checked again; an open file itself is read from its buffer, as before."""
    for change in params.changes:
        path = _path(change.uri)
        if path is None:
            continue
        for other in ls.files.dependents(path):
            _schedule(ls, from_fs_path(str(other)), DEBOUNCE)


# ---- requests ------------------------------------------------------------------------------------

def _at(ls, params) -> tuple[Path, int, int] | None:
    path = _path(params.text_document.uri)
    if path is None:
        return None
    line, column = _from_client(ls, path, params.position)
    return path, line, column


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@guarded()
def hover(ls: UnorulesServer, params: lsp.HoverParams):
    at = _at(ls, params)
    found = features.hover(ls.files, *at) if at else None
    if not found:
        return None
    text, tok = found
    lines = _lines(ls, at[0])
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text),
                     _range(ls, lines, tok.line, tok.column, tok.line, tok.end_column))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@guarded(empty=[])
def definition(ls: UnorulesServer, params: lsp.DefinitionParams):
    at = _at(ls, params)
    return [_location(ls, p) for p in features.definition(ls.files, *at)] if at else []


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@guarded(empty=[])
def references(ls: UnorulesServer, params: lsp.ReferenceParams):
    at = _at(ls, params)
    if not at:
        return []
    return [_location(ls, p) for p in features.references(ls.files, *at, params.context.include_declaration)]


REQUEST_FAILED = -32803      # the protocol's RequestFailed: a refusal with its reason


def _or_refusal(call, *args):
    """features' answer, or its refusal (a ValueError) as the protocol's RequestFailed with the reason."""
    try:
        return call(*args)
    except ValueError as e:
        raise JsonRpcException(str(e), REQUEST_FAILED) from None


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded()
def prepare_rename(ls: UnorulesServer, params: lsp.PrepareRenameParams):
    at = _at(ls, params)
    if not at:
        return None
    tok = _or_refusal(features.rename_target, ls.files, *at)
    lines = _lines(ls, at[0])
    return lsp.PrepareRenamePlaceholder(_range(ls, lines, tok.line, tok.column, tok.line, tok.end_column), tok.text)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
@guarded()
def rename(ls: UnorulesServer, params: lsp.RenameParams):
    at = _at(ls, params)
    if not at:
        return None
    places = _or_refusal(features.rename, ls.files, *at, params.new_name)
    changes: dict[str, list[lsp.TextEdit]] = {}
    for place in places:
        loc = _location(ls, place)
        changes.setdefault(loc.uri, []).append(lsp.TextEdit(loc.range, params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


SYMBOL_KIND = {"card": lsp.SymbolKind.EnumMember, "counter": lsp.SymbolKind.Variable, "flag": lsp.SymbolKind.Boolean,
               "option": lsp.SymbolKind.Constant, "rule": lsp.SymbolKind.Function, "trigger": lsp.SymbolKind.Event,
               "reaction": lsp.SymbolKind.Event, "call": lsp.SymbolKind.Function, "setting": lsp.SymbolKind.Property}


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded(empty=[])
def document_symbols(ls: UnorulesServer, params: lsp.DocumentSymbolParams):
    path = _path(params.text_document.uri)
    if path is None:
        return []
    lines = _lines(ls, path)
    out = []
    for label, what, start, end, name in features.outline(ls.files, path):
        out.append(lsp.DocumentSymbol(
            name=label, kind=SYMBOL_KIND.get(what, lsp.SymbolKind.Property), detail=what,
            range=_range(ls, lines, start.line, start.column, end[0], end[1]),
            selection_range=_range(ls, lines, name.line, name.column, name.line, name.end_column)))
    return out


COMPLETION_KIND = {"keyword": lsp.CompletionItemKind.Keyword, "card": lsp.CompletionItemKind.EnumMember,
                   "color": lsp.CompletionItemKind.Color, "counter": lsp.CompletionItemKind.Variable,
                   "flag": lsp.CompletionItemKind.Variable, "option": lsp.CompletionItemKind.Constant,
                   "rule": lsp.CompletionItemKind.Function, "trigger": lsp.CompletionItemKind.Event,
                   "reaction": lsp.CompletionItemKind.Event, "event": lsp.CompletionItemKind.Event,
                   "builtin": lsp.CompletionItemKind.Variable, "attribute": lsp.CompletionItemKind.Property,
                   "method": lsp.CompletionItemKind.Method, "rulebook": lsp.CompletionItemKind.Module,
                   "value": lsp.CompletionItemKind.Value,
                   "module": lsp.CompletionItemKind.Module}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", " "]))
@guarded()
def complete(ls: UnorulesServer, params: lsp.CompletionParams):
    at = _at(ls, params)
    if not at:
        return None
    items = [lsp.CompletionItem(c.label, kind=COMPLETION_KIND.get(c.kind), detail=c.detail or c.kind)
             for c in completion.completions(ls.files, *at)]
    return lsp.CompletionList(is_incomplete=False, items=items)


LEGEND = lsp.SemanticTokensLegend(token_types=features.TOKEN_TYPES, token_modifiers=features.TOKEN_MODIFIERS)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
@guarded()
def semantic_tokens(ls: UnorulesServer, params: lsp.SemanticTokensParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    lines = _lines(ls, path)
    data, last_line, last_start = [], 0, 0
    for line, column, length, kind, mods in features.highlights(ls.files, path):
        start = _to_client(ls, lines, line, column).character
        end = _to_client(ls, lines, line, column + length).character
        delta_line = line - last_line
        data += [delta_line, start - (last_start if delta_line == 0 else 0), end - start,
                 features.TOKEN_TYPES.index(kind),
                 sum(1 << features.TOKEN_MODIFIERS.index(m) for m in mods)]
        last_line, last_start = line, start
    return lsp.SemanticTokens(data=data)


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
@guarded(empty=[])
def code_actions(ls: UnorulesServer, params: lsp.CodeActionParams):
    out = []
    for d in params.context.diagnostics:
        fix = d.data.get("fix") if isinstance(d.data, dict) else None
        if not isinstance(fix, str) or d.source != "unorules":
            continue
        edit = lsp.WorkspaceEdit(changes={params.text_document.uri: [lsp.TextEdit(d.range, fix)]})
        out.append(lsp.CodeAction(f"Replace with `{fix}`", kind=lsp.CodeActionKind.QuickFix, diagnostics=[d],
                                  edit=edit, is_preferred=True))
    return out


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@guarded()
def formatting(ls: UnorulesServer, params: lsp.DocumentFormattingParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    try:
        text = features.formatted(ls.files, path)
    except RulebookError as e:
        first = e.diagnostics[0] if e.diagnostics else None
        where = f" ({first.location()})" if first is not None and first.span else ""
        ls.window_show_message(lsp.ShowMessageParams(
            lsp.MessageType.Warning, "unorules fmt leaves this file as it is: "
            + (first.message if first else "it does not read") + where))
        return None
    old = ls.files.text(path) or ""
    if text == old:
        return []
    lines = old.split("\n")
    whole = lsp.Range(lsp.Position(0, 0), _to_client(ls, lines, len(lines) - 1, len(lines[-1])))
    return [lsp.TextEdit(whole, text)]


def main():                                 # pragma: no cover - `unorules lsp` runs it
    logging.basicConfig(level=logging.WARNING)
    server.start_io()
