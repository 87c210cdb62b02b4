"""How long an editor waits on `unorules lsp` (issue 32's yardstick).

A real client (pygls) starts the server over stdio, opens a 150-line custom rulebook that extends
official and includes two modules, and edits it: the time from sending each edit to receiving the
diagnostics of that version (the server's pause after typing, DEBOUNCE, included). Then the same
with six unrelated rulebooks open beside it (their checks must not be redone on an edit), a burst
of keystrokes 20 ms apart (only the last is checked), and hover and completion answered meanwhile.

    python bench/lsp_latency.py [--edits 40]

Needs the extra unorules[lsp]. Prints medians and 90th percentiles in milliseconds; the target is a
median under 150 ms for the diagnostics after an edit.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent


def custom_file() -> str:
    lines = ['rulebook custom150 "a long house rulebook"', "extends official", "include stacking, jump_in", ""]
    i = 0
    while len(lines) < 148:
        lines += [f"counter c{i} per player reset each turn", f"card wild_x{i} {{", "  wild", f"  points {i}",
                  f"  on play: if me.c{i} < 3 {{ add 1 to c{i}; next draw 1 }} else {{ choose color }}", "}",
                  f"on play of wild_x{i} if me.hand.size > {i % 5}: set c{i} to 0"]
        i += 1
    lines.append("deck { " + " ".join(f"1 × wild_x{k}" for k in range(i)) + " }")
    return "\n".join(lines) + "\n"


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    return f"| {name} | {len(ms)} | {statistics.median(ms):.0f} | {p90:.0f} |"


async def main(edits: int):
    client = LanguageClient("lsp-latency", "1")
    arrived: dict[tuple[str, int | None], float] = {}
    errors: dict[str, int] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams):
        arrived.setdefault((params.uri, params.version), time.perf_counter())
        errors[params.uri] = len(params.diagnostics)

    await client.start_io(sys.executable, "-m", "unorules", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    folder = Path(tempfile.mkdtemp())
    path = folder / "custom150.uno"
    text = custom_file()
    path.write_text(text)
    uri = path.as_uri()

    async def wait(key, timeout=30.0):
        end = time.perf_counter() + timeout
        while key not in arrived:
            if time.perf_counter() > end:
                raise TimeoutError(key)
            await asyncio.sleep(0.001)
        return arrived[key]

    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "unorules", 1, text)))
    await wait((uri, 1))
    assert errors[uri] == 0, "the benchmark's file should validate"
    version = 1

    async def edit(value: int) -> float:
        nonlocal version
        version += 1
        line = 7                                   # `  points 0`: a one-character change, as a keystroke
        change = lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(line, 9), lsp.Position(line, 10)),
                                                      str(value % 10))
        start = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]))
        return (await wait((uri, version))) - start

    for k in range(3):                             # warm up
        await edit(k)
    alone = [1000 * await edit(k) for k in range(edits)]

    for name in ("classic", "fast", "flip", "flex", "attack", "bts"):
        other = ROOT / "rulebooks" / f"{name}.uno"
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(other.as_uri(), "unorules", 1, other.read_text())))
        await wait((other.as_uri(), 1))
    beside = [1000 * await edit(k) for k in range(edits)]

    burst = []                                     # ten keystrokes 20 ms apart: the last one's diagnostics
    for _ in range(max(3, edits // 10)):
        for k in range(10):
            version += 1
            change = lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(7, 9), lsp.Position(7, 10)), str(k))
            last = time.perf_counter()
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]))
            await asyncio.sleep(0.02)
        burst.append(1000 * ((await wait((uri, version))) - last))

    hover, complete = [], []
    for k in range(edits):
        version += 1
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(7, 9), lsp.Position(7, 10)), str(k % 10))]))
        start = time.perf_counter()
        await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(5, 7)))
        hover.append(1000 * (time.perf_counter() - start))
        start = time.perf_counter()
        await client.text_document_completion_async(lsp.CompletionParams(lsp.TextDocumentIdentifier(uri),
                                                                         lsp.Position(8, 12)))
        complete.append(1000 * (time.perf_counter() - start))
        await wait((uri, version))

    print("| what | n | median ms | p90 ms |\n|---|---|---|---|")
    print(summary("diagnostics after an edit (official + 150-line file)", alone))
    print(summary("the same, six unrelated rulebooks open", beside))
    print(summary("diagnostics after the last of 10 keystrokes 20 ms apart", burst))
    print(summary("hover, right after an edit", hover))
    print(summary("completion, right after an edit", complete))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=40)
    asyncio.run(main(parser.parse_args().edits))
