"""The command line's runs of many games: simulate, compare, the HTML report of either, and replay
of an events file. Added to the `cli` group of common.py."""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import click

from unorules.errors import RulebookError, UnorulesError
from .args import agent_names, module_names, parse_options
from .common import PATH_OPTION, cli, echo, fail_render, not_an_input, writable

SIMULATOR_OPTION = click.option(
    "--simulator", type=click.Choice(["auto", "native", "counted", "generated", "engine"]), default="auto", show_default=True,
    help="Who plays the games. native: counted code compiled by numba (pip install 'unorules[native]'; "
         "the fastest for long runs, a first compile takes seconds); counted: generated Python holding hands as "
         "counts per face (the engine's rules and distribution of games, its own random stream); generated: "
         "generated Python that plays the engine's very games; engine: the interpreter. auto: native for runs of "
         "50,000 games or more where it is installed and covers the rules, else the first of the others that does.")


def _say_if_timed(names) -> None:
    """A search with a time budget plays what the machine's load lets it: say the run is not repeatable."""
    from unorules.agents.search import search_budget
    timed = []
    for a in dict.fromkeys(names):
        try:
            if a.startswith("ismcts") and "seconds" in search_budget(a):
                timed.append(a)
        except ValueError:
            pass
    if timed:
        echo(f"note: {', '.join(timed)} searches for a time, so its moves depend on how busy the machine is: "
             "this run is not repeatable, and its --events cannot be replayed (a number of determinizations, "
             "ismcts:200, is)", err=True)


class _Precision(click.ParamType):
    """A finite number of points above 0 (click's FloatRange lets nan and inf through)."""
    name = "points"

    def convert(self, value, param, ctx):
        try:
            points = float(value)
        except (TypeError, ValueError):
            self.fail(f"`{value}` is not a number", param, ctx)
        if not math.isfinite(points) or points <= 0:
            self.fail(f"`{value}` is not a finite number of points above 0 (for example 0.5)", param, ctx)
        return points


PRECISION_OPTION = click.option(
    "--precision", type=_Precision(),
    help="Play on, in looks that double the games, until every interval is within ± this many points of win "
         "rate and turns of game length (or --max-games). --games is then the first look's size; the "
         "intervals and p-values account for the looks (Bonferroni over the planned looks; docs/performance.md).")
MAX_GAMES_OPTION = click.option("--max-games", type=click.IntRange(1, 10**8), default=200_000, show_default=True,
                                help="With --precision: the most games (per variant) it may play.")


@cli.command(short_help="Simulate many games and summarise them.")
@click.argument("rulebook")
@click.option("--games", "-n", default=1000, show_default=True, type=click.IntRange(1, 10**8))
@click.option("--players", "-p", default=4, show_default=True, type=click.IntRange(1, 100))
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@click.option("--agents", default="greedy", show_default=True,
              help="Comma-separated agents, assigned to seats in turn: greedy (a sensible player), "
                   "random (uniform over the legal actions), random_play (a random play whenever it can "
                   "play, as RLCard's random player), ismcts (a search over what the others may hold: "
                   "`ismcts:40` determinizations or `ismcts:0.2s` a decision).")
@click.option("--rounds", type=click.Choice(["rulebook", "single", "match"]), default="rulebook", show_default=True,
              help="One round per game, a match to the rulebook's target, or what the rulebook says.")
@click.option("--workers", "-w", default=None, type=click.IntRange(1, 256),
              help="Worker processes (default: the machine's cores; 1 plays in this process); totals are "
                   "identical for any number.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where the games run: here, or as tasks on a Ray cluster (pip install 'unorules[ray]').")
@click.option("--address", help="The Ray cluster to run on (e.g. ray://head:10001, or auto); "
                                "without it a local Ray is started for the run.")
@SIMULATOR_OPTION
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, type=click.Path(dir_okay=False), help="Lay a custom rule file on top.")
@click.option("--option", "option_pairs", multiple=True, help="Set a rulebook option: NAME=VALUE (repeatable).")
@click.option("--perform-chance", type=click.FloatRange(0, 1), help="Success chance of every `perform` in simulation.")
@click.option("--events", type=click.Path(dir_okay=False), help="Write every event as JSON Lines to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--report", type=click.Path(dir_okay=False), help="Write an HTML report with plots to this file.")
@click.option("--card", "cards", multiple=True, help="Follow the players who play this card (repeatable).")
@PRECISION_OPTION
@MAX_GAMES_OPTION
@PATH_OPTION
def simulate(rulebook, games, players, seed, agents, rounds, workers, backend, address, simulator, include, with_,
             option_pairs, perform_chance, events, as_json, report, cards, precision, max_games, search):
    """Simulate many games of a rulebook and summarise them (wins by seat and agent, game length, ...)."""
    from unorules.runs.summary_text import summary_text, variant_label, variant_of
    from unorules.runs.simulation import (RunSpec, make_game, resolve_simulator, run_files, simulate as simulate_here,
                                          simulator_for)
    names = agent_names(agents)
    include = module_names(include)
    report = _report_path(report)
    _say_if_timed(names)
    if events and (workers or 1) > 1:
        echo("note: --events writes every game's events in order, so the run uses one process "
             "(--workers is ignored)", err=True)
    if backend == "ray" and events:
        raise click.UsageError("--events writes one file in order, here: it cannot be used with --backend ray")
    if backend == "ray" and workers:
        echo("note: with --backend ray the cluster's CPUs play the games (--workers is ignored)", err=True)
    if address and backend != "ray":
        raise click.UsageError("--address names a Ray cluster: use it with --backend ray")
    if precision and events:
        raise click.UsageError("--events writes the games of one run in order: give --games instead of --precision")
    if precision and max_games < games:
        raise click.UsageError(f"--max-games ({max_games}) is below the first look's --games ({games})")
    spec = RunSpec(str(rulebook), tuple(include), tuple(with_), tuple(search), players, seed, names or ("greedy",),
                   rounds, parse_options(option_pairs), perform_chance, tuple(cards), simulator)
    if events:
        writable(events, "--events")
    try:
        game = make_game(spec)            # load and check once in this process: errors surface here
        spec = resolve_simulator(spec, game, max_games if precision else games, events=bool(events))
        program, why = simulator_for(game, spec)
    except RulebookError as e:
        fail_render(e)
    except UnorulesError as e:
        raise click.UsageError(str(e))
    _print_warnings([game])
    inputs = game.rules.compiler.rb.paths
    not_an_input(events, inputs, "--events")
    not_an_input(report, inputs, "--report")
    used = _simulator_line(program, why)

    def run(spec, games, workers, events, progress=None, start=0):
        if backend == "ray":
            from unorules.runs.cluster import simulate_ray
            return simulate_ray(spec, games, address, progress, start=start)
        return simulate_here(spec, games, workers, events, progress, game=game, start=start)
    started = time.perf_counter()
    outcome = None
    try:
        if precision:
            from unorules.runs.precision import simulation_widths
            totals, outcome = _until_precise(
                [(spec, "simulating")], run, workers, precision, games, max_games, backend, address,
                lambda totals, z: simulation_widths(totals[0], players, z))
            summary = totals[0]
        elif games >= 200:                # on standard error, so --json output stays clean
            with click.progressbar(length=games, label="simulating", file=sys.stderr) as bar:
                summary = run(spec, games, workers, events, bar.update)
        else:
            summary = run(spec, games, workers, events)
    except UnorulesError as e:
        raise click.UsageError(str(e))
    except OSError as e:                  # the events file: a full disk, a device that refuses
        raise click.BadParameter(f"cannot write `{events}`: {e.strerror or e}", param_hint="--events") from None
    d = summary.as_dict(players, z=outcome.z) if outcome else summary.as_dict(players)
    if outcome:
        d["precision"] = outcome.as_dict(precision)
    if not cards:
        d.pop("tracked_card", None)   # no card followed
    d.update(variant_of(spec))
    d.update(run_files(spec, game))
    d.update(kind="simulation", label=variant_label(spec), players=players, seed=seed, agents=list(names),
             rounds=rounds, cards=list(cards), events=str(events) if events else None, version=_version(),
             seconds=round(time.perf_counter() - started, 2), simulator=used)
    if report:
        _write_report(report, d)
    if as_json:
        echo(json.dumps(d, indent=2, sort_keys=True))
    else:
        echo(summary_text(d, f"{variant_label(spec)}, {players} players, seed {seed}, agents {','.join(names)}"))
        if outcome:
            echo(_precision_line(outcome, precision, "games"))
        echo(f"simulator: {used}")
        if report:
            echo(f"report: {report}")
    sys.exit(1 if d["errors"] else 0)


@cli.command(short_help="Two variants side by side on the same seeds.")
@click.argument("first")
@click.argument("second", required=False)
@click.option("--with", "with_", multiple=True, help="Custom rule files laid on the second variant (on FIRST when SECOND is left out).")
@click.option("--include", multiple=True, help="Rule modules added to the second variant.")
@click.option("--card", "cards", multiple=True, help="Follow the players who play this card (default: the cards the --with files declare).")
@click.option("--games", "-n", default=2000, show_default=True, type=click.IntRange(1, 10**8))
@click.option("--players", "-p", default=4, show_default=True, type=click.IntRange(1, 100))
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@click.option("--agents", default="greedy", show_default=True,
              help="The seats' agents, as simulate's: greedy, random, random_play, ismcts[:N | :SECONDSs].")
@click.option("--rounds", type=click.Choice(["rulebook", "single", "match"]), default="single", show_default=True)
@click.option("--workers", "-w", default=None, type=click.IntRange(1, 256),
              help="Worker processes (default: the machine's cores).")
@SIMULATOR_OPTION
@click.option("--json", "as_json", is_flag=True)
@click.option("--report", type=click.Path(dir_okay=False), help="Write an HTML report with plots to this file.")
@PRECISION_OPTION
@MAX_GAMES_OPTION
@PATH_OPTION
def compare(first, second, with_, include, cards, games, players, seed, agents, rounds, workers, simulator, as_json,
            report, precision, max_games, search):
    """Two variants side by side on the same seeds: FIRST against SECOND, or FIRST against FIRST
    with the --with files (and --include modules). Game length, seat advantage, the win rate of
    the players who played the custom card, 95% intervals and a plain verdict."""
    from unorules.runs.summary_text import compare_table, differences_table, variant_label, variant_of
    from dataclasses import replace
    from unorules.runs.comparison import compare_summaries
    from unorules.runs.simulation import (RunSpec, changed_cards, make_game, resolve_simulator, run_files,
                                          simulate as run, simulator_for)
    names = agent_names(agents)
    _say_if_timed(names)
    report = _report_path(report)
    include = module_names(include)
    if second is None and not with_ and not include:
        raise click.UsageError("give a second rulebook, or --with FILE / --include NAME to compare against")
    a = RunSpec(first, (), (), tuple(search), players, seed, names, rounds, (), None, tuple(cards), simulator)
    b = RunSpec(second or first, tuple(include), tuple(with_), tuple(search), players, seed, names, rounds, (), None,
                tuple(cards), simulator)
    if not cards:                 # the cards the --with files add or change, all of them
        try:
            cards = tuple(changed_cards(a, b))
        except RulebookError as e:
            fail_render(e)
        except UnorulesError as e:
            raise click.UsageError(str(e))
        a, b = replace(a, track=cards), replace(b, track=cards)
    labels = [variant_label(a), variant_label(b)]
    games_made = []
    for spec in (a, b):
        try:
            games_made.append(make_game(spec))
            simulator_for(games_made[-1], spec)
        except RulebookError as e:
            fail_render(e)
        except UnorulesError as e:
            raise click.UsageError(str(e))
    resolved = [resolve_simulator(spec, g, max_games if precision else games) for spec, g in zip((a, b), games_made)]
    if all(s.simulator == "native" for s in resolved):   # auto: native for both variants, or for neither
        a, b = resolved
    sims = [simulator_for(g, spec) for spec, g in zip((a, b), games_made)]
    used = [_simulator_line(*sim) for sim in sims]
    paired = len({_stream_of(program) for program, _ in sims}) == 1
    _print_warnings(games_made)
    if rounds == "single" and any(_moves_scores(g) for g in games_made):
        echo("warning: a variant's rules score points, and each game is one round (--rounds single): "
             "scores and matches are not measured\n  = help: --rounds rulebook plays each rulebook's match", err=True)
    not_an_input(report, [p for g in games_made for p in g.rules.compiler.rb.paths], "--report")
    results = []
    started = time.perf_counter()
    outcome, looks = None, 1
    if precision:
        if max_games < games:
            raise click.UsageError(f"--max-games ({max_games}) is below the first look's --games ({games})")
        from unorules.runs.precision import comparison_widths, planned_looks
        looks = len(planned_looks(games, max_games))
        try:
            def play(spec, n, w, events, progress, start):
                return run(spec, n, w, None, progress, start=start)
            totals, outcome = _until_precise(
                [(a, labels[0]), (b, labels[1])], play, workers, precision, games, max_games, "local", None,
                lambda totals, z: comparison_widths(labels, totals, players, cards, looks))
        except UnorulesError as e:
            raise click.UsageError(str(e))
        results = [t.as_dict(players, z=outcome.z) for t in totals]
        games = outcome.games
    else:
        for spec, label in zip((a, b), labels):
            if games >= 200:
                with click.progressbar(length=games, label=label, file=sys.stderr) as bar:
                    results.append(run(spec, games, workers, None, bar.update).as_dict(players))
            else:
                results.append(run(spec, games, workers).as_dict(players))
    if not cards:
        for r in results:
            r.pop("tracked_card", None)
    da, db = results
    comparison = compare_summaries(labels, da, db, players, cards, looks)
    d = {"kind": "comparison", "variants": [dict(variant_of(spec), label=label, simulator=line, **run_files(spec))
                                            for spec, label, line in zip((a, b), labels, used)],
         "results": results, "cards": list(cards), "verdicts": comparison["verdicts"], "comparison": comparison,
         "players": players, "seed": seed, "agents": list(names), "games": games, "rounds": rounds,
         "version": _version(), "seconds": round(time.perf_counter() - started, 2)}
    if outcome:
        d["precision"] = outcome.as_dict(precision)
    if report:
        _write_report(report, d)
    if as_json:
        echo(json.dumps(d, indent=2, sort_keys=True))
        return
    each = "one round a game (--rounds single)" if rounds == "single" else (
        "each rulebook's match" if rounds == "rulebook" else "matches")
    seeds = "same seeds for both" if paired else \
        "same seeds, but the simulators draw from different random streams: the games are not the same deals"
    echo(f"{games} games each, {each}, {players} players, seed {seed}, agents {','.join(names)}, {seeds}")
    for label, line in zip(labels, used):
        echo(f"simulator for {label}: {line}")
    echo("")
    echo(compare_table(labels, da, db, players, cards, da.get("tracked_card"), db.get("tracked_card")))
    echo("\n" + differences_table(comparison, labels))
    echo("\nverdict: " + comparison["verdict"])
    if outcome:
        echo(_precision_line(outcome, precision, "games each"))
    if report:
        echo(f"report: {report}")


def _until_precise(variants, run, workers, precision, first, cap, backend, address, widths):
    """Looks of doubling size (runs/precision.py) until every figure of `widths(totals, z)` is within
    the precision: each look plays the next games of every variant, from where the last stopped."""
    import contextlib
    from unorules.runs.precision import run_until_precise
    from unorules.runs.stats import Summary
    totals = [Summary() for _ in variants]

    def advance(start, stop):
        for total, (spec, label) in zip(totals, variants):
            with click.progressbar(length=stop - start, label=f"{label}: games {start + 1:,} to {stop:,}",
                                   file=sys.stderr) as bar:
                total.merge(run(spec, stop - start, workers, None, bar.update, start=start))
    session = contextlib.nullcontext()
    if backend == "ray":
        from unorules.runs.cluster import ray_session
        session = ray_session(address)
    with session:
        outcome = run_until_precise(advance, lambda z: widths(totals, z), precision, first, cap)
    return totals, outcome


def _precision_line(outcome, precision: float, what: str) -> str:
    unit = "turns" if "turns" in outcome.setter else "points"
    how = (f"every interval is within ±{precision:g}" if outcome.precise else
           f"stopped at the cap of {outcome.games:,} {what} before every interval was within ±{precision:g}")
    return (f"precision: {how} after {outcome.games:,} {what} ({len(outcome.looks)} of {outcome.planned} looks "
            f"planned; intervals with z = {outcome.z:.2f}, Bonferroni over the looks); "
            f"the {outcome.setter} set the number (±{outcome.half_width:.2f} {unit})")


def _print_warnings(games):
    """The rulebooks' warnings, each once, on stderr before a run (the run goes ahead)."""
    seen = set()
    for game in games:
        rb = game.rules.compiler.rb
        for w in rb.warnings:
            text = w.render(rb.files.get(w.file))
            if text not in seen:
                seen.add(text)
                echo(text + "\n", err=True)


def _moves_scores(game) -> bool:
    """Whether the rules give or take points beyond the round's own scoring: a card's or a rule's
    `score` or `set score` (a single round measures neither)."""
    from unorules.language.ir import mentions
    ir = game.rules.ir
    return mentions({k: v for k, v in ir.items() if k != "scoring"}, {"score", "set_score"}, set())


def _stream_of(program) -> str:
    """Which random stream deals a simulator's games: the engine's (generated code that plays the
    engine's games too), counted code's own, or native code's SplitMix64."""
    representation = program.representation if program is not None else "engine"
    return representation if representation in ("counted", "native") else "engine"


def _simulator_line(program, why) -> str:
    if program is not None and program.representation == "native":
        return ("native code (numba), hands counted per face: the engine's rules, SplitMix64 streams "
                f"(cached in {program.path.parent})")
    if program is not None and program.representation == "counted":
        return ("generated Python, hands counted per face: the engine's rules, its own random stream "
                "(`unorules compile RULEBOOK --emit python --counted` shows it)")
    if program is not None:
        return ("generated Python, the engine's games (`unorules compile RULEBOOK --emit python` shows it)"
                + (f"; {why}" if why else ""))
    return "the engine (--simulator engine)" if why == "asked for" else f"the engine: {why}"


@cli.command("compile", short_help="The Python a rulebook is compiled to for simulation.")
@click.argument("rulebook")
@click.option("--emit", type=click.Choice(["python"]), required=True, help="What to print: the generated source.")
@click.option("--players", "-p", default=4, show_default=True, type=click.IntRange(1, 100))
@click.option("--agents", default="random", show_default=True, help="The seats' agents (the code makes their choices).")
@click.option("--rounds", type=click.Choice(["rulebook", "single", "match"]), default="rulebook", show_default=True)
@click.option("--include", multiple=True, help="Add a rule module by name (repeatable).")
@click.option("--with", "with_", multiple=True, type=click.Path(dir_okay=False), help="Lay a custom rule file on top.")
@click.option("--counted", is_flag=True, help="The code with hands counted per face (simulate's default where "
                                              "it covers the rules), not the code that plays the engine's games.")
@PATH_OPTION
def compile_(rulebook, emit, players, agents, rounds, include, with_, counted, search):
    """Print the Python source that `simulate` runs for RULEBOOK with these players and agents. It
    holds no text of the rulebook: names are numbers, tables are given to it when it is loaded."""
    from unorules.runs.simulation import RunSpec, make_game, simulator_for
    spec = RunSpec(str(rulebook), tuple(module_names(include)), tuple(with_), tuple(search), players, 0,
                   agent_names(agents), rounds, simulator="counted" if counted else "generated")
    try:
        program, _ = simulator_for(make_game(spec), spec)
    except RulebookError as e:
        fail_render(e)
    except UnorulesError as e:
        echo(f"error: {e}", err=True)
        sys.exit(1)
    echo(program.source, nl=False)


def _version() -> str:
    from unorules import __version__
    return __version__


def _report_path(path):
    """Check a --report path before the run: writable, and the extra that draws the plots installed."""
    from unorules.runs.report import MissingExtra, _matplotlib
    if path is None:
        return None
    try:
        _matplotlib()
    except MissingExtra as e:
        raise click.UsageError(str(e))
    writable(path, "--report")
    return path


def _write_report(path, d: dict):
    from unorules.runs.report import render
    from unorules.language.writer import write_atomic
    try:
        write_atomic(Path(path), render(d))
    except OSError as e:
        raise click.UsageError(f"cannot write the report to `{path}`: {e.strerror or e}")


@cli.command(short_help="Rebuild the HTML report of a simulate or compare JSON result.")
@click.argument("result", type=click.Path(exists=True, dir_okay=False))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False), help="The HTML file to write.")
def report(result, output):
    """Build the HTML report of RESULT, the JSON that `simulate --json` or `compare --json` printed:
    the same page their --report option writes."""
    limit = 64 * 2 ** 20
    _report_path(output)
    not_an_input(output, [result], "-o/--output")
    try:
        with open(result, "rb") as f:
            raw = f.read(limit + 1)
        if len(raw) > limit:
            raise ValueError(f"the file is larger than {limit:,} bytes, more than any result")
        from unorules.runs.result_schema import read_result
        d = read_result(raw)
        _write_report(output, d)
    except (ValueError, UnicodeDecodeError) as e:
        raise click.UsageError(f"cannot read `{result}`: {e}")
    except (KeyError, TypeError, IndexError) as e:
        raise click.UsageError(f"`{result}` lacks what a report shows ({type(e).__name__}: {e}); "
                               "write it again with this version's --json")
    echo(f"report: {output}")


@cli.command(short_help="Play an events file's games again and check every event.")
@click.argument("events", type=click.Path(exists=True, dir_okay=False))
def replay(events):
    """Rebuild every game of an events file (`simulate --events FILE`) from the run it records and
    check that each event, the deal and every draw included, comes out the same. Exit 1 on the
    first difference."""
    from unorules.runs.replay import replay as run_replay
    try:
        report = run_replay(events)
    except RulebookError as e:
        fail_render(e)
    except UnorulesError as e:
        echo(f"error: {e}", err=True)
        sys.exit(1)
    if report.mismatch:
        echo(f"mismatch: {report.mismatch}", err=True)
        echo(f"{report.games} games matched before it", err=True)
        sys.exit(1)
    echo(f"{report.games} games, {report.events} events: every event replays the same"
         + (" (the file was cut by an interruption; the games before it were checked)" if report.cut else ""))
