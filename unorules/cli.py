"""The command line (click). The only module that prints or exits.

Exit codes: 0 ok, 1 a rulebook, scenario or rule failed, 2 usage error.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from .errors import CODES, RulebookError, UnorulesError

PATH_OPTION = click.option("--path", "search", multiple=True, type=click.Path(file_okay=False),
                           help="Another folder to look in for `extends`/`include` names (repeatable).")


def _fail_render(err: RulebookError, fmt: str = "text"):
    if fmt == "json":
        click.echo(json.dumps({"ok": False, "diagnostics": [d.as_dict() for d in err.diagnostics]}, indent=2))
    else:
        click.echo(err.render(), err=True)
        n = len(err.diagnostics)
        click.echo(f"\n{n} error{'s' if n != 1 else ''}", err=True)
    sys.exit(1)


def _rulebook_files(args, search):
    """Expand arguments (files, folders, shipped names) into (label, Path) pairs."""
    from .loader import SUFFIXES, resolve_argument
    out = []
    for arg in args:
        p = Path(arg)
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file())
            if not found:
                raise click.UsageError(f"no rulebook files (.uno, .yaml, .yml, .json) in folder `{arg}`")
            out += [(str(f), f) for f in found]
        else:
            out.append((arg, resolve_argument(arg, tuple(Path(s) for s in search))))
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="unorules")
def cli():
    """unorules: UNO rulebooks as data. Validate, format, export, simulate and test rules."""


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output for people or tools.")
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, type=click.Path(dir_okay=False), help="Lay a custom rule file on top.")
@PATH_OPTION
def validate(paths, fmt, include, with_, search):
    """Check rulebooks (files, folders or shipped names): syntax, schema, names, types, deck."""
    from .loader import load
    results, failed = [], []
    try:
        files = _rulebook_files(paths, search)
    except RulebookError as e:
        _fail_render(e, fmt)
    for label, path in files:
        try:
            rb = load(path, include=tuple(include), with_=tuple(with_), search=tuple(search))
            results.append({"file": label, "ok": True, "name": rb.name})
        except RulebookError as e:
            failed.append(e)
            results.append({"file": label, "ok": False, "diagnostics": [d.as_dict() for d in e.diagnostics]})
    if fmt == "json":
        click.echo(json.dumps({"ok": not failed, "results": results}, indent=2))
    else:
        for r, label in zip(results, [f[0] for f in files]):
            if r["ok"]:
                click.echo(f"ok    {label}")
        for e in failed:
            click.echo(e.render(), err=True)
            click.echo("", err=True)
        n = sum(len(e.diagnostics) for e in failed)
        if failed:
            click.echo(f"{len(failed)} of {len(files)} invalid, {n} error{'s' if n != 1 else ''}", err=True)
    sys.exit(1 if failed else 0)


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="A machine-readable list.")
def list_cmd(as_json):
    """The shipped rulebooks and rule modules, each with its one-line description."""
    from .loader import parse_file, shipped_names
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
        click.echo(json.dumps(rows, indent=2))
        return
    for group, label in (("rulebook", "Rulebooks"), ("module", "Rule modules (--include NAME)"),
                         ("custom", "Custom cards (--with FILE)")):
        members = [r for r in rows if r["group"] == group]
        if members:
            click.echo(f"{label}:")
            for r in members:
                click.echo(f"  {r['name']:<20} {r['title']}")


@cli.command()
def schema():
    """Print the JSON Schema of the rulebook IR (for editors and YAML rulebooks)."""
    from .resources import schema_file
    click.echo(schema_file().read_text("utf-8"))


@cli.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Exit 1 if a file is not already formatted; change nothing.")
@click.option("--write", is_flag=True, help="Rewrite the files in place instead of printing.")
def fmt(files, check, write):
    """Print rulebooks in canonical .uno text (or check or rewrite them)."""
    from .formatter import format_rulebook
    from .loader import parse_file, resolve_argument
    from .parser import comments_of
    unformatted = []
    for arg in files:
        path = resolve_argument(arg)
        try:
            parsed = parse_file(path, arg)
        except RulebookError as e:
            _fail_render(e)
        _require_schema(parsed)
        comments = comments_of(parsed.text) if path.suffix == ".uno" else ()
        text = format_rulebook(parsed.ir, parsed.spans, comments)
        if check:
            if text != parsed.text:
                unformatted.append(arg)
                click.echo(f"would reformat {arg}", err=True)
        elif write:
            if text != parsed.text:
                path.write_text(text, encoding="utf-8")
                click.echo(f"reformatted {arg}", err=True)
        else:
            click.echo(text, nl=False)
    sys.exit(1 if unformatted else 0)


def _require_schema(parsed):
    from .schema import schema_diagnostics
    problems = schema_diagnostics(parsed.ir, parsed.spans, parsed.file)
    if problems:
        _fail_render(RulebookError(problems, {parsed.file: parsed.text}))


@cli.command()
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml")
@click.option("--resolved", is_flag=True, help="Export the merged rulebook (extends and includes applied).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@PATH_OPTION
def export(file, fmt, resolved, output, search):
    """Write a rulebook's IR as YAML or JSON (the same data the .uno text denotes)."""
    import yaml
    from .loader import load, parse_file, resolve_argument
    path = resolve_argument(file, tuple(Path(s) for s in search))
    try:
        if resolved:
            ir = load(path, search=tuple(search)).ir
        else:
            parsed = parse_file(path, file)
            _require_schema(parsed)
            ir = parsed.ir
    except RulebookError as e:
        _fail_render(e)
    if fmt == "json":
        text = json.dumps(ir, indent=2) + "\n"
    else:
        text = yaml.safe_dump(ir, sort_keys=False, allow_unicode=True, width=100)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@cli.command()
@click.argument("code", required=False)
def errors(code):
    """List the error codes, or explain one (e.g. `unorules errors U0203`)."""
    if code is None:
        for c, text in CODES.items():
            click.echo(f"{c}  {text}")
        return
    code = code.upper()
    if code not in CODES:
        raise click.UsageError(f"no error code {code}; `unorules errors` lists them")
    from .resources import docs_file
    click.echo(f"{code}: {CODES[code]}")
    doc = docs_file()
    if doc and doc.is_file():
        text = doc.read_text("utf-8")
        marker = f"### {code}"
        if marker in text:
            section = text.split(marker, 1)[1].split("\n### ", 1)[0]
            click.echo(section.split("\n", 1)[1].rstrip() if "\n" in section else "")


def _parse_options(pairs):
    out = []
    for item in pairs:
        if "=" not in item:
            raise click.UsageError(f"--option takes NAME=VALUE, not `{item}`")
        k, v = item.split("=", 1)
        low = v.strip().lower()
        if low in ("true", "false"):
            value = low == "true"
        else:
            try:
                value = int(v)
            except ValueError:
                try:
                    value = float(v)
                except ValueError:
                    value = v
        out.append((k.strip(), value))
    return tuple(out)


def _print_summary(d: dict, label: str):
    click.echo(f"{label}: {d['games']} games")
    oc = d["outcomes"]
    click.echo("outcomes: " + ", ".join(f"{k} {v}" for k, v in oc.items()))
    click.echo("\nwins by seat (95% CI):")
    for seat, w in d["wins_by_seat"].items():
        lo, hi = w["ci95"]
        click.echo(f"  seat {seat}: {w['wins']:>7}  {w['rate']:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
    if len(d["wins_by_agent"]) > 1 or True:
        click.echo("wins by agent (per seat played, 95% CI):")
        for name, w in d["wins_by_agent"].items():
            lo, hi = w["ci95"]
            click.echo(f"  {name:<8} {w['wins']:>7}  {w['rate']:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
    t = d["turns_per_round"]
    click.echo(f"\nturns per round: mean {t['mean']}, median {t['median']}, p95 {t['p95']}")
    click.echo(f"rounds per game: {d['rounds_per_game']}   decisions per game: {d['decisions_per_game']}")
    click.echo(f"cards drawn per game: {d['cards_drawn_per_game']}")
    ch = d["challenges"]
    click.echo(f"challenges: {ch['made']} made, {ch['won']} won   UNO penalties: {d['uno_penalties']}   "
               f"reshuffles: {d['reshuffles']}   stalls: {d['stalls']}")
    if d["errors"]:
        click.echo("runtime rule errors:")
        for msg, count in d["errors"].items():
            click.echo(f"  {count} x {msg}")


@cli.command()
@click.argument("rulebook")
@click.option("--games", "-n", default=1000, show_default=True, type=click.IntRange(1, 10**8))
@click.option("--players", "-p", default=4, show_default=True, type=click.IntRange(1, 100))
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@click.option("--agents", default="greedy", show_default=True,
              help="Comma-separated agents, assigned to seats in turn: greedy (a sensible player), "
                   "random (uniform over the legal actions).")
@click.option("--rounds", type=click.Choice(["rulebook", "single", "match"]), default="rulebook", show_default=True,
              help="One round per game, a match to the rulebook's target, or what the rulebook says.")
@click.option("--workers", "-w", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Worker processes; totals are identical for any number.")
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, type=click.Path(dir_okay=False), help="Lay a custom rule file on top.")
@click.option("--option", "option_pairs", multiple=True, help="Set a rulebook option: NAME=VALUE (repeatable).")
@click.option("--perform-chance", type=click.FloatRange(0, 1), help="Success chance of every `perform` in simulation.")
@click.option("--events", type=click.Path(dir_okay=False), help="Write every event as JSON Lines to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@PATH_OPTION
def simulate(rulebook, games, players, seed, agents, rounds, workers, include, with_, option_pairs,
             perform_chance, events, as_json, search):
    """Simulate many games of a rulebook and summarise them (wins by seat and agent, game length, ...)."""
    from .agents import AGENTS
    from .errors import RuleRuntimeError
    from .simulation import RunSpec, make_game, simulate as run
    names = tuple(a.strip() for a in agents.split(",") if a.strip())
    for a in names:
        if a not in AGENTS:
            raise click.BadParameter(f"unknown agent `{a}`; agents: {', '.join(AGENTS)}", param_hint="--agents")
    spec = RunSpec(str(rulebook), tuple(include), tuple(with_), tuple(search), players, seed, names or ("greedy",),
                   rounds, _parse_options(option_pairs), perform_chance)
    try:
        make_game(spec)            # load and check once in this process: errors surface here
    except RulebookError as e:
        _fail_render(e)
    except RuleRuntimeError as e:
        raise click.UsageError(str(e))
    show = games >= 200 and not as_json
    if show:
        with click.progressbar(length=games, label="simulating", file=sys.stderr) as bar:
            summary = run(spec, games, workers, events, bar.update)
    else:
        summary = run(spec, games, workers, events)
    d = summary.as_dict(players)
    d["rulebook"] = str(rulebook)
    d["players"], d["seed"], d["agents"] = players, seed, list(names)
    if as_json:
        click.echo(json.dumps(d, indent=2, sort_keys=True))
    else:
        _print_summary(d, f"{rulebook}, {players} players, seed {seed}, agents {','.join(names)}")
    sys.exit(1 if d["errors"] else 0)


@cli.command("test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="A machine-readable report.")
@click.option("-v", "--verbose", is_flag=True, help="Show the decision trace of passing scenarios too.")
def test_cmd(paths, as_json, verbose):
    """Run scenario files and folders (SCENARIOS.md): one line per scenario, exit 1 on any failure."""
    from .testing import report, run_scenarios
    results = run_scenarios(paths)
    passed = sum(r.ok for r in results)
    failed = len(results) - passed
    if as_json:
        click.echo(json.dumps({"passed": passed, "failed": failed, "results": [r.as_dict() for r in results]}, indent=2))
    else:
        for r in results:
            click.echo(report(r))
            if verbose and r.ok:
                for t in r.trace:
                    click.echo(f"        {t}")
        click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)


def main():
    try:
        cli(standalone_mode=True)
    except RulebookError as e:            # from a command that did not render it itself
        click.echo(e.render(), err=True)
        sys.exit(1)
    except UnorulesError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as e:                 # a bug in unorules, not in the input
        if os.environ.get("UNORULES_DEBUG"):
            raise
        click.echo(f"internal error: {type(e).__name__}: {e}\n(this is a bug in unorules; "
                   "run with UNORULES_DEBUG=1 for the traceback and report it)", err=True)
        sys.exit(3)
