"""The commands on one rulebook or file: validate, new card, explain, play, list, schema, fmt,
export, errors and test."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from unorules.errors import CODES, RulebookError
from .args import agent_names, module_names
from .common import PATH_OPTION, cli, echo, fail_render, not_an_input, write_output


def _rulebook_files(args, search):
    """Expand arguments (files, folders, shipped names) into (label, Path) pairs."""
    from unorules.language.loader import SUFFIXES, is_rulebook_text, resolve_argument
    out = []
    for arg in args:
        p = Path(arg)
        try:
            is_dir = p.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            candidates = sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file())
            found = [f for f in candidates if _declares_a_rulebook(f, is_rulebook_text)]
            others = len(candidates) - len(found)
            if others:                    # scenario files, CI configs: not rulebooks
                files = f"{others} YAML/JSON files in `{arg}` declare" if others > 1 else \
                    f"1 YAML/JSON file in `{arg}` declares"
                echo(f"note: {files} no rulebook or module: skipped (scenario files are run by `unorules test`)",
                     err=True)
            if not found:
                raise click.UsageError(f"no rulebook files (.uno, .yaml, .yml, .json) in folder `{arg}`")
            out += [(str(f), f) for f in found]
        else:
            out.append((arg, resolve_argument(arg, tuple(Path(s) for s in search))))
    return out


def _declares_a_rulebook(path: Path, is_rulebook_text) -> bool:
    """A .uno file, or a YAML/JSON file whose `kind` is rulebook or module (read bounded: a file
    that cannot be read is given to validate, which says why)."""
    if path.suffix == ".uno":
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return is_rulebook_text(path, f.read(1_000_001))
    except OSError:
        return True


@cli.command(short_help="Check rulebooks: syntax, schema, names, types, deck.")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output for people or tools.")
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, type=click.Path(dir_okay=False), help="Lay a custom rule file on top.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors (for CI).")
@PATH_OPTION
def validate(paths, fmt, include, with_, strict, search):
    """Check rulebooks (files, folders or shipped names): syntax, schema, names, types, deck; and
    warn of parts that can do nothing (`--strict` makes those errors)."""
    from unorules.language.loader import load
    results, failed, warned = [], [], []
    try:
        files = _rulebook_files(paths, search)
    except RulebookError as e:
        fail_render(e, fmt)
    for label, path in files:
        try:
            rb = load(path, include=tuple(include), with_=tuple(with_), search=tuple(search))
        except RulebookError as e:
            failed.append(e)
            results.append({"file": label, "ok": False, "diagnostics": [d.as_dict() for d in e.diagnostics]})
            continue
        ok = not (strict and rb.warnings)
        results.append({"file": label, "ok": ok, "name": rb.name, "diagnostics": [d.as_dict() for d in rb.warnings]})
        if rb.warnings:
            warned.append(RulebookError(rb.warnings, rb.files))
            if strict:
                failed.append(warned[-1])
    if fmt == "json":
        echo(json.dumps({"ok": not failed, "strict": strict, "results": results}, indent=2))
    else:
        for r, label in zip(results, [f[0] for f in files]):
            if r["ok"]:
                echo(f"ok    {label}" + (f" ({len(r['diagnostics'])} warning{'s' if len(r['diagnostics']) != 1 else ''})"
                                         if r["diagnostics"] else ""))
        for e in failed + [w for w in warned if w not in failed]:
            echo(e.render(), err=True)
            echo("", err=True)
        every = [d for r in results for d in r.get("diagnostics", [])]
        n = sum(d["severity"] == "error" for d in every)
        m = len(every) - n
        counts = ", ".join(x for x in (f"{n} error{'s' if n != 1 else ''}" if n else "",
                                       f"{m} warning{'s' if m != 1 else ''}" if m else "") if x)
        if failed:
            echo(f"{len(failed)} of {len(files)} invalid, {counts}" + (" (--strict: warnings are errors)"
                                                                       if strict and m else ""), err=True)
        elif m:
            echo(f"{len(files)} valid, {counts}", err=True)
    sys.exit(1 if failed else 0)


@cli.group()
def new():
    """Start a new file from a commented template."""


@new.command("card", short_help="A commented starting file for a custom card.")
@click.argument("name")
@click.option("--base", default="official", show_default=True, help="The rulebook the card is for.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="The file to write (default NAME.uno).")
@click.option("--stdout", "to_stdout", is_flag=True, help="Print the file instead of writing it.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@click.option("--replace", "replace", metavar="KIND",
              help="Take copies of this card of the box (a blank card) instead of adding cards: the box keeps its size.")
@click.option("--copies", type=int, default=1, show_default=True, help="With --replace: how many copies.")
def new_card_cmd(name, base, output, to_stdout, force, replace, copies):
    """A custom card NAME. A card the base rulebook already has (its blank customizable card, say)
    gets a new rule; any other name is a new card with its count in the deck."""
    from unorules.language.authoring import box_of, new_card
    from unorules.language.loader import load
    target = Path(output or f"{name}.uno")
    try:
        ir = load(base).ir
    except RulebookError as e:
        fail_render(e)
    existing = {c["names"][0] for c in ir["cards"]}
    try:
        text = new_card(name, base, target.name, existing, replace, copies, box_of(ir))
    except ValueError as e:
        raise click.UsageError(str(e))
    problem = _first_problem(base, text)
    if problem:                           # never a file that does not validate
        raise click.UsageError(f"a `{name}` card for `{base}` with these options would not validate: {problem}")
    if to_stdout:
        echo(text, nl=False)
        return
    try:
        exists = target.exists()
    except OSError as e:
        raise click.BadParameter(f"cannot write `{str(target)[:200]}`: {e.strerror or e}", param_hint="-o/--output")
    if exists and not force:
        raise click.UsageError(f"`{target}` exists; use --force to overwrite it, or -o another file")
    write_output(target, text, "-o/--output")
    echo(f"wrote {target}: check it with `unorules validate {base} --with {target}`")


def _first_problem(base: str, text: str) -> str | None:
    """The first error of `text` laid on `base`, or None when it validates (or cannot be tried)."""
    import tempfile
    from unorules.language.loader import load
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "card.uno"
        try:
            path.write_text(text, encoding="utf-8")
            load(base, with_=(str(path),))
        except OSError:                   # no temporary folder: the file is written as before
            return None
        except RulebookError as e:
            errors = [d for d in e.diagnostics if d.severity == "error"] or e.diagnostics
            return f"{errors[0].code}: {errors[0].message}" if errors else "it does not validate"
    return None


@cli.command(short_help="A rulebook (or one card) in plain words.")
@click.argument("rulebook")
@click.option("--card", help="Explain one card only.")
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, help="Lay a custom rule file (or shipped custom card) on top.")
@PATH_OPTION
def explain(rulebook, card, include, with_, search):
    """A rulebook (or one card) in plain words, as Markdown: a person can play from it."""
    from unorules.language.explain.rulebook import explain as render
    from unorules.language.loader import load
    try:
        rb = load(rulebook, include=tuple(include), with_=tuple(with_), search=tuple(search))
    except RulebookError as e:
        fail_render(e)
    try:
        echo(render(rb, card), nl=False)
    except KeyError as e:
        raise click.UsageError(e.args[0])


@cli.command(short_help="Play a game in the terminal against bots.")
@click.argument("rulebook")
@click.option("--players", "-p", default=4, show_default=True, type=click.IntRange(2, 10))
@click.option("--seed", "-s", default=None, type=int, help="A seed for a repeatable game.")
@click.option("--agents", default="greedy", show_default=True, help="The bots: greedy, random, random_play, ismcts[:N | :SECONDSs] (comma-separated, by seat).")
@click.option("--seat", default=0, show_default=True, type=int, help="Your seat.")
@click.option("--rounds", type=click.Choice(["rulebook", "single", "match"]), default="single", show_default=True)
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, help="Lay a custom rule file (or shipped custom card) on top.")
@PATH_OPTION
def play(rulebook, players, seed, agents, seat, rounds, include, with_, search):
    """Play a game in the terminal against bots. Works with piped standard input too."""
    import random as _random
    from unorules.engine.compiler import compile_rulebook
    from unorules.engine import Game as _Game
    from unorules.errors import RuleRuntimeError
    from unorules.language.loader import load
    from .play import Quit, play_game
    names = agent_names(agents)
    include = module_names(include)
    if not 0 <= seat < players:
        raise click.BadParameter(f"seats are 0 to {players - 1}", param_hint="--seat")
    try:
        rb = load(rulebook, include=tuple(include), with_=tuple(with_), search=tuple(search))
        game = _Game(compile_rulebook(rb), players, rounds=rounds, log_events=True)
    except RulebookError as e:
        fail_render(e)
    except RuleRuntimeError as e:
        raise click.UsageError(str(e))
    seed = seed if seed is not None else _random.randrange(1 << 30)
    echo(f"{rb.ir.get('title', rb.name)}: {players} players, you are seat {seat}, seed {seed}. "
         f"(`unorules explain {rulebook}` prints the rules.)")

    def read(prompt):
        echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    try:
        play_game(game, seed=seed, you=seat, agents=names, read=read, write=click.echo)
    except Quit:
        echo("You left the game.")
    except EOFError:
        echo("\nInput ended: the game stops here.")


@cli.command("list", short_help="The shipped rulebooks, modules and custom cards.")
@click.option("--json", "as_json", is_flag=True, help="A machine-readable list.")
def list_cmd(as_json):
    """The shipped rulebooks and rule modules, each with its one-line description."""
    from unorules.language.loader import parse_file, shipped_names
    rows = []
    for name, path in shipped_names().items():
        try:
            ir = parse_file(path).ir
            kind, title = ir.get("kind", "?"), ir.get("title", "")
        except RulebookError:
            kind, title = "?", "(does not parse)"
        folder = path.parent.name
        rows.append({"name": name, "kind": kind, "group": "custom" if folder == "custom" else kind, "title": title})
    if as_json:
        echo(json.dumps(rows, indent=2))
        return
    for group, label in (("rulebook", "Rulebooks"), ("module", "Rule modules (--include NAME)"),
                         ("custom", "Custom cards (--with FILE)")):
        members = [r for r in rows if r["group"] == group]
        if members:
            echo(f"{label}:")
            for r in members:
                echo(f"  {r['name']:<20} {r['title']}")


@cli.command(short_help="Print the JSON Schema of the rulebook IR.")
def schema():
    """Print the JSON Schema of the rulebook IR (for editors and YAML rulebooks)."""
    from unorules.language.resources import schema_file
    echo(schema_file().read_text("utf-8"))


@cli.command(short_help="Print, check or rewrite rulebooks in canonical form.")
@click.argument("files", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Exit 1 if a file is not already formatted; change nothing.")
@click.option("--write", is_flag=True, help="Rewrite the files in place instead of printing.")
def fmt(files, check, write):
    """Print rulebooks in canonical form, each in its own format (.uno text with its comments kept,
    YAML or JSON with the keys in canonical order), or check or rewrite them. A file is rewritten
    only with text that reads back to the same rulebook, atomically, keeping its mode."""
    from unorules.language.loader import parse_file, resolve_argument
    from unorules.language.writer import formatted
    unformatted = []
    for arg in files:
        try:
            path = resolve_argument(arg)
            parsed = parse_file(path, arg)
            text = formatted(parsed)
        except RulebookError as e:
            fail_render(e)
        if check:
            if text != parsed.text:
                unformatted.append(arg)
                echo(f"would reformat {arg}", err=True)
        elif write:
            if text != parsed.text:
                write_output(path, text, "FILE")
                echo(f"reformatted {arg}", err=True)
        else:
            echo(text, nl=False)
    sys.exit(1 if unformatted else 0)


def _require_schema(parsed):
    from unorules.language.schema import schema_diagnostics
    problems = schema_diagnostics(parsed.ir, parsed.spans, parsed.file)
    if problems:
        fail_render(RulebookError(problems, {parsed.file: parsed.text}))


@cli.command(short_help="Write a rulebook's IR as YAML, JSON or .uno text.")
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json", "uno"]), default=None,
              help="The format (default: the one the -o file's suffix names, else yaml).")
@click.option("--resolved", is_flag=True, help="Export the merged rulebook (extends and includes applied).")
@click.option("--include", multiple=True, help="With --resolved: add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, help="With --resolved: lay a custom rule file on top.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@PATH_OPTION
def export(file, fmt, resolved, include, with_, output, search):
    """Write a rulebook's IR as YAML or JSON (the same data the .uno text denotes), or as canonical
    .uno text. With --resolved the merged rulebook, which loads on its own to the same rules. The
    format is the one the output's suffix names; a --format that names another is refused."""
    from unorules.language.loader import load, parse_file, resolve_argument, resolved_ir
    from unorules.language.writer import reads_back, text_in_format
    by_suffix = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".uno": "uno"}.get(Path(output).suffix.lower()) \
        if output else None
    if fmt and by_suffix and fmt != by_suffix:
        raise click.BadParameter(f"`{output}` names {by_suffix} by its suffix, not {fmt}: it would not load as written",
                                 param_hint="--format")
    fmt = fmt or by_suffix or "yaml"
    try:
        path = resolve_argument(file, tuple(Path(s) for s in search))
        if resolved or include or with_:
            rb = load(path, include=tuple(include), with_=tuple(with_), search=tuple(search))
            ir, inputs = resolved_ir(rb), rb.paths
        else:
            parsed = parse_file(path, file)
            _require_schema(parsed)
            ir, inputs = parsed.ir, [path]
    except RulebookError as e:
        fail_render(e)
    not_an_input(output, inputs, "-o/--output")
    text = text_in_format(ir, fmt)
    try:
        from unorules.language.writer import canonical
        reads_back(text, fmt, canonical(ir), output or f"<{fmt}>")
    except RulebookError as e:
        fail_render(e)
    if output:
        write_output(output, text, "-o/--output")
    else:
        echo(text, nl=False)


@cli.command(short_help="List the error codes, or explain one.")
@click.argument("code", required=False)
def errors(code):
    """List the error codes, or explain one (e.g. `unorules errors U0203`)."""
    if code is None:
        for c, text in CODES.items():
            echo(f"{c}  {text}")
        return
    code = code.upper()
    if code not in CODES:
        raise click.UsageError(f"no error code {code}; `unorules errors` lists them")
    from unorules.language.resources import docs_file
    echo(f"{code}: {CODES[code]}")
    doc = docs_file()
    if doc and doc.is_file():
        text = doc.read_text("utf-8")
        marker = f"### {code}"
        if marker in text:
            section = text.split(marker, 1)[1].split("\n### ", 1)[0]
            echo(section.split("\n", 1)[1].rstrip() if "\n" in section else "")


@cli.command("test", short_help="Run scenario files and folders.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="A machine-readable report.")
@click.option("-v", "--verbose", is_flag=True, help="Show the decision trace of passing scenarios too.")
@click.option("--generated", is_flag=True,
              help="Follow each scenario in generated code too (the simulators' code), where it can go on from "
                   "the given position: the same answers must meet the same decisions and positions.")
def test_cmd(paths, as_json, verbose, generated):
    """Run scenario files and folders (docs/scenarios.md): one line per scenario, exit 1 on any failure.
    With --generated, a scenario also fails where the generated code differs from the engine."""
    from unorules.testing import report, run_scenarios
    results = run_scenarios(paths, generated)
    passed = sum(r.ok for r in results)
    failed = len(results) - passed
    if as_json:
        echo(json.dumps({"passed": passed, "failed": failed, "results": [r.as_dict() for r in results]}, indent=2))
    else:
        for r in results:
            echo(report(r))
            if r.generated and (verbose or not r.ok):
                echo(f"      {r.generated}")
            if verbose and r.ok:
                for t in r.trace:
                    echo(f"        {t}")
        followed = sum(r.generated.startswith("followed") for r in results)
        echo(f"{passed} passed, {failed} failed" + (f"; {followed} followed in generated code" if generated else ""))
    sys.exit(1 if failed or not results else 0)


@cli.command(short_help="The language server for editors (stdio; needs unorules[lsp]).")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the default and only way).")
@PATH_OPTION
def lsp(stdio, search):
    """Run the language server over standard input and output, for an editor to start:
    diagnostics as you type, hover, completion, go to definition, references, outline, formatting
    and quick fixes for rulebooks (docs/editors.md)."""
    try:
        from unorules.lsp.server import main as serve, server
    except ImportError as e:
        raise click.UsageError(f"the language server needs the extra `unorules[lsp]` "
                               f"(pip install 'unorules[lsp]'): {e}")
    from unorules.lsp.workspace import Workspace
    server.files = Workspace(tuple(Path(s) for s in search))
    serve()
